"""Regenerate ``efficiency_table.json``: google-adk's own efficiency evaluators on invocation fixtures.

How the table was made (run from the checkout's root, google-adk 2.13.0 installed, as in the shared venv)::

    python tests/adk/parity/gen_efficiency_table.py

Each fixture is a list of invocations built with google-adk's own models (``Invocation``,
``InvocationEvents``, ``InvocationEvent``, genai ``GenerateContentResponseUsageMetadata``): usage
with every token type, counts left out (unknown, not 0), events that are model calls by
``model_version`` only, the legacy ``tool_uses`` form, timed and untimed invocations, with and
without the model/tool split. ``_ToolCallCountV1Evaluator``, ``_InferenceCallCountV1Evaluator``,
``_TokenUsageV1Evaluator`` and ``_InvocationDurationV1Evaluator`` (``google/adk/evaluation/
_efficiency_evaluators.py``) score them; the table keeps each fixture's invocations (as JSON)
and every per-invocation and overall score and breakdown they produced.
"""

import json
from pathlib import Path

from google.adk.evaluation._efficiency_evaluators import (
    _InferenceCallCountV1Evaluator,
    _InvocationDurationV1Evaluator,
    _TokenUsageV1Evaluator,
    _ToolCallCountV1Evaluator,
)
from google.adk.evaluation.eval_case import IntermediateData, Invocation, InvocationEvent, InvocationEvents
from google.genai import types

OUT = Path(__file__).with_name("efficiency_table.json")
EVALUATORS = {
    "tool_call_count_v1": _ToolCallCountV1Evaluator,
    "inference_call_count_v1": _InferenceCallCountV1Evaluator,
    "token_usage_v1": _TokenUsageV1Evaluator,
    "invocation_duration_v1": _InvocationDurationV1Evaluator,
}


def usage(**counts):
    return types.GenerateContentResponseUsageMetadata(**counts)


def text(s, role="model"):
    return types.Content(role=role, parts=[types.Part(text=s)])


def call(name, **args):
    return types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))])


def result(name, **data):
    return types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(name=name,
                                                                                                 response=data))])


def inv(i, events=None, legacy=None, **timing):
    data = InvocationEvents(invocation_events=events) if events is not None else legacy
    return Invocation(invocation_id=f"inv-{i}", user_content=text(f"question {i}", "user"),
                      final_response=text(f"answer {i}"), intermediate_data=data, **timing)


def fixtures():
    full = usage(prompt_token_count=120, cached_content_token_count=40, tool_use_prompt_token_count=7,
                 candidates_token_count=30, thoughts_token_count=12, total_token_count=169)
    return {
        "one_turn_full_usage_timed": [
            inv(1, [InvocationEvent(author="agent", content=call("get_weather", city="Paris"), usage_metadata=full,
                                    model_version="gemini-2.5-flash"),
                    InvocationEvent(author="agent", content=result("get_weather", temp=22)),
                    ], duration=1.234, model_duration=0.9, tool_duration=0.2),
        ],
        "two_turns_partial_counts": [
            inv(1, [InvocationEvent(author="agent", content=call("a"), usage_metadata=usage(prompt_token_count=10,
                                                                                             candidates_token_count=2)),
                    InvocationEvent(author="agent", content=call("b", x=1), usage_metadata=usage(prompt_token_count=15,
                                                                                                  thoughts_token_count=5)),
                    InvocationEvent(author="agent", content=text("thinking aloud"), model_version="m-1")],
                duration=2.0, model_duration=1.5, tool_duration=0.6),
            inv(2, [InvocationEvent(author="agent", content=text("plain"), usage_metadata=usage(prompt_token_count=30,
                                                                                                 candidates_token_count=4))],
                duration=0.5),
        ],
        "no_usage_reported": [
            inv(1, [InvocationEvent(author="agent", content=call("lookup", q="x"))]),
            inv(2, [InvocationEvent(author="agent", content=text("done"))]),
        ],
        "legacy_tool_uses_untimed": [
            inv(1, legacy=IntermediateData(tool_uses=[types.FunctionCall(name="t1", args={}),
                                                       types.FunctionCall(name="t2", args={"k": 1})])),
        ],
        "mixed_timed_and_untimed": [
            inv(1, [InvocationEvent(author="agent", content=text("a"), usage_metadata=usage(candidates_token_count=9))],
                duration=0.3333, model_duration=0.1, tool_duration=0.0),
            inv(2, [InvocationEvent(author="agent", content=text("b"), usage_metadata=usage(prompt_token_count=3,
                                                                                             cached_content_token_count=1))]),
            inv(3, None, duration=0.05, model_duration=0.04, tool_duration=0.02),
        ],
        "zero_tokens_reported": [
            inv(1, [InvocationEvent(author="agent", content=text("ok"), usage_metadata=usage(prompt_token_count=0,
                                                                                              candidates_token_count=0))]),
        ],
        "empty_case": [],
    }


def dump(model):
    return None if model is None else model.model_dump(mode="json")


def main():
    table = []
    for name, invocations in fixtures().items():
        results = {}
        for metric, cls in EVALUATORS.items():
            out = cls().evaluate_invocations(invocations)
            overall = out.overall_token_usage_details or getattr(out, "overall_duration_details", None)
            per = []
            for p in out.per_invocation_results:
                per.append({"score": p.score, "status": p.eval_status.name,
                            "details": dump(p.token_usage_details or p.duration_details)})
            results[metric] = {"overall_score": out.overall_score, "status": out.overall_eval_status.name,
                               "overall_details": dump(overall), "per_invocation": per}
        table.append({"name": name,
                      "invocations": [i.model_dump(mode="json", exclude_none=True) for i in invocations],
                      "results": results})
    OUT.write_text(json.dumps({"generator": "google-adk 2.13.0 _efficiency_evaluators.py", "cases": table},
                              indent=1) + "\n")
    print(f"wrote {OUT} ({len(table)} cases)")


if __name__ == "__main__":
    main()
