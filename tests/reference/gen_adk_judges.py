"""Expected numbers for tests/adk_judges, produced by google-adk's own evaluators with a scripted judge.

Run in a separate venv (never the project's):

    python -m venv /work/refvenvs/adk && /work/refvenvs/adk/bin/pip install "google-adk[eval]==2.13.0"
    /work/refvenvs/adk/bin/python tests/reference/gen_adk_judges.py > tests/reference/adk_judges.json

A fake ``BaseLlm`` registered for the model name ``fake-judge`` plays the judge: it
answers each request from a script in ADK's own text formats, so ADK parses, votes
and aggregates exactly as it does with Gemini. The scenarios mirror the scripted
judges of tests/adk_judges (same labels per sample / rubric / sentence).
"""

import asyncio
import json
import re
import sys
from typing import AsyncGenerator, List

from google.adk.evaluation.eval_case import Invocation
from google.adk.evaluation.eval_metrics import EvalMetric
from google.adk.evaluation.final_response_match_v2 import FinalResponseMatchV2Evaluator
from google.adk.evaluation.hallucinations_v1 import HallucinationsV1Evaluator
from google.adk.evaluation.rubric_based_final_response_quality_v1 import (
    RubricBasedFinalResponseQualityV1Evaluator,
)
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.genai import types

SCRIPT: List[str] = []  # replies handed out in request order (the last one repeats)
CALLS = {"n": 0}


class FakeJudge(BaseLlm):
    @classmethod
    def supported_models(cls) -> list:
        return [r"fake-judge.*"]

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> AsyncGenerator[LlmResponse, None]:
        prompt = llm_request.contents[-1].parts[0].text
        reply = SCRIPT_FN(prompt)
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=reply)]))


def scripted(prompt: str) -> str:
    i = CALLS["n"]
    CALLS["n"] += 1
    return SCRIPT[min(i, len(SCRIPT) - 1)]


SCRIPT_FN = scripted
LLMRegistry.register(FakeJudge)


def inv(user: str, final: str, **extra) -> Invocation:
    return Invocation.model_validate({
        "user_content": {"role": "user", "parts": [{"text": user}]},
        "final_response": {"role": "model", "parts": [{"text": final}]}, **extra})


def options(num_samples: int) -> dict:
    return {"judge_model": "fake-judge", "num_samples": num_samples}


async def frm(labels: List[str]) -> float:
    SCRIPT[:] = [f'{{"reasoning": "r", "is_the_agent_response_valid": "{label}"}}' for label in labels]
    CALLS["n"] = 0
    metric = EvalMetric(metric_name="final_response_match_v2", threshold=0.8,
                        criterion={"threshold": 0.8, "judge_model_options": options(len(labels))})
    result = await FinalResponseMatchV2Evaluator(metric).evaluate_invocations([inv("q", "r")], [inv("q", "g")])
    return result.overall_score


def rubric_reply(verdicts: dict, texts: dict) -> str:
    return "\n".join(f"ID: {rid}\nProperty: {texts[rid]}\nEvidence: e\nRationale: r\nVerdict: {v}\n"
                     for rid, v in verdicts.items())


async def rubric_ties() -> float:
    texts = {"a": "A", "b": "B"}
    plan = [("yes", "yes"), ("yes", "yes"), ("no", "yes"), ("no", "no")]
    SCRIPT[:] = [rubric_reply({"a": a, "b": b}, texts) for a, b in plan]
    CALLS["n"] = 0
    rubrics = [{"rubric_id": k, "rubric_content": {"text_property": v}} for k, v in texts.items()]
    metric = EvalMetric(metric_name="rubric_based_final_response_quality_v1", threshold=0.8,
                        criterion={"threshold": 0.8, "judge_model_options": options(4), "rubrics": rubrics})
    result = await RubricBasedFinalResponseQualityV1Evaluator(metric).evaluate_invocations([inv("q", "r")], None)
    return result.overall_score


def rubric_case(criterion_ids: List[str], plan, invocation_rubrics=None) -> "asyncio.Future":
    """``plan(prompt)`` -> {rubric_id: verdict} for the rubrics the judge answers (others omitted)."""

    async def run() -> dict:
        global SCRIPT_FN
        texts = {rid: f"Rubric {rid}." for rid in criterion_ids + ["own", "tools"]}
        SCRIPT_FN = lambda prompt: rubric_reply(plan(prompt), texts)  # noqa: E731 - rebinds the global the fake judge calls
        crit_rubrics = [{"rubric_id": k, "rubric_content": {"text_property": texts[k]}} for k in criterion_ids]
        metric = EvalMetric(metric_name="rubric_based_final_response_quality_v1", threshold=0.5,
                            criterion={"threshold": 0.5, "judge_model_options": options(1), "rubrics": crit_rubrics})
        actual = [inv("q1", "a good answer", **({"rubrics": invocation_rubrics} if invocation_rubrics else {})),
                  inv("q2", "a bad answer")]
        result = await RubricBasedFinalResponseQualityV1Evaluator(metric).evaluate_invocations(actual, None)
        SCRIPT_FN = scripted
        return {"score": result.overall_score,
                "per_invocation": [r.score for r in result.per_invocation_results],
                "overall_rubric_scores": {r.rubric_id: r.score for r in result.overall_rubric_scores}}

    return run()


def flat_plan(prompt: str) -> dict:
    # invocation 1 (good): r1 yes, r2 yes, r3 no; invocation 2 (bad): r1 no, r2 no, r3 omitted
    if "a good answer" in prompt:
        return {"r1": "yes", "r2": "yes", "r3": "no"}
    return {"r1": "no", "r2": "no"}


def own_rubric_plan(prompt: str) -> dict:
    good = "a good answer" in prompt
    ids = [rid for rid in ("r1", "r2", "own", "tools") if f"[id: {rid}]" in prompt]
    return {rid: "yes" if good and rid != "own" else "no" for rid in ids}


LABELS = {
    "I looked up Oslo.": "supported",
    "It has 9 million people.": "unsupported",
    "Let me check the weather.": "not_applicable",
    "It is raining in Oslo.": "contradictory",
    "The temperature is 12 degrees.": "supported",
    "Bring an umbrella.": "guess",
}


def halluc_judge(prompt: str) -> str:
    # the segmenter prompt ends with the response; the validator prompt carries <sentence> tags
    tagged = re.findall(r"<sentence>(.*?)</sentence>", prompt, re.DOTALL)
    known = [s for s in tagged if s in LABELS]
    if known:
        return "\n".join(f"sentence: {s}\nlabel: {LABELS[s]}\nrationale: r\nsupporting_excerpt: null\n"
                         f"contradicting_excerpt: null" for s in known)
    for text in ("I looked up Oslo. It has 9 million people. Let me check the weather.",
                 "It is raining in Oslo. The temperature is 12 degrees. Bring an umbrella."):
        if prompt.rstrip().endswith(text) or text in prompt.split("response:")[-1]:
            return "".join(f"<sentence>{s.strip()}.</sentence>" for s in text.split(".") if s.strip())
    return ""


async def hallucinations(intermediate: bool) -> float:
    global SCRIPT_FN
    SCRIPT_FN = halluc_judge
    events = {"invocation_events": [
        {"author": "agent", "content": {"role": "model", "parts": [
            {"text": "I looked up Oslo. It has 9 million people. Let me check the weather."}]}},
        {"author": "agent", "content": {"role": "model", "parts": [
            {"function_call": {"id": "w", "name": "get_weather", "args": {"city": "Oslo"}}}]}},
        {"author": "agent", "content": {"role": "user", "parts": [
            {"function_response": {"id": "w", "name": "get_weather", "response": {"sky": "sunny", "temp_c": 12}}}]}},
    ]}
    actual = inv("Tell me about Oslo", "It is raining in Oslo. The temperature is 12 degrees. Bring an umbrella.",
                 intermediate_data=events)
    metric = EvalMetric(metric_name="hallucinations_v1", threshold=0.8,
                        criterion={"threshold": 0.8, "judge_model_options": options(1),
                                   "evaluate_intermediate_nl_responses": intermediate})
    result = await HallucinationsV1Evaluator(metric).evaluate_invocations([actual], None)
    SCRIPT_FN = scripted
    return result.overall_score


async def main() -> None:
    import importlib.metadata as md

    out = {
        "meta": {"google-adk": md.version("google-adk"), "python": sys.version.split()[0]},
        "final_response_match_v2": {
            ",".join(labels): await frm(labels)
            for labels in (["valid", "valid", "invalid", "invalid"], ["valid", "invalid"],
                           ["valid", "invalid", "valid", "maybe", "invalid"],
                           ["valid", "valid", "invalid", "maybe", "maybe"])
        },
        "rubric_ties": await rubric_ties(),
        "rubric_flat": await rubric_case(["r1", "r2", "r3"], flat_plan),
        # Invocation rubrics: ADK formats every invocation's prompt first, keeping only the *last*
        # invocation's effective rubric list on the evaluator, and parses every reply against it, so
        # invocation 1's own rubric is dropped as unknown (score 0.5). We score each invocation against
        # its own list, as reference/adk.md §4.4 defines it (0.4); recorded here to document the difference.
        "rubric_invocation_rubrics_adk_shared_state": await rubric_case(
            ["r1", "r2"], own_rubric_plan,
            [{"rubric_id": "own", "rubric_content": {"text_property": "Rubric own."}, "type": "FINAL_RESPONSE_QUALITY"},
             {"rubric_id": "tools", "rubric_content": {"text_property": "Rubric tools."}, "type": "TOOL_USE_QUALITY"}]),
        "hallucinations_intermediate": await hallucinations(True),
        "hallucinations_final_only": await hallucinations(False),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
