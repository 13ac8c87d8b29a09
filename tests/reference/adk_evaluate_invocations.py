"""Produce tests/reference/adk_evaluate_invocations.json: ADK's own scores for the two
deterministic criteria, run through ADK's config path as ``adk eval`` runs them.

Run with the reference venv (never the project venv)::

    /work/refvenvs/adk/bin/pip install "google-adk[eval]==2.13.0"
    /work/refvenvs/adk/bin/python tests/reference/adk_evaluate_invocations.py [SHARED_DATA_DIR]

For each scenario, ``{"criteria": {metric: criterion}}`` goes through
``EvalConfig.model_validate`` and ``get_eval_metrics_from_config`` (so number and
object criteria, camelCase keys and every match_type spelling are parsed by ADK), then
``TrajectoryEvaluator`` / ``RougeEvaluator.evaluate_invocations(actual, expected)``.
The actual/expected invocations are stored inline (``scenarios``), so the test scores
exactly what ADK scored. Fixture scenarios use the ADK fixture files (as loaded by ADK) and perturbed
copies of them.
"""

import copy
import json
import sys
from pathlib import Path
from typing import Any, Dict, List

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"

FIXTURES = [
    "adk_fixtures/home_automation_agent/simple_test.test.json",
    "adk_fixtures/home_automation_agent/simple_test2.test.json",
    "adk_fixtures/home_automation_agent/test_files/dependent_tool_calls.test.json",
    "adk_fixtures/home_automation_agent/test_files/simple_multi_turn_conversation.test.json",
    "adk_fixtures/hello_world_agent/roll_die.test.json",
    "adk_fixtures/trip_planner_agent/trip_inquiry.test.json",
    "adk_fixtures/ecommerce_customer_service_agent/order_query.test.json",
    "adk_fixtures/elicitation_agent/elicitation_flow.test.json",
]

CRITERIA_VARIANTS = {
    "tool_trajectory_avg_score": [
        1.0,
        0.5,
        {"threshold": 1.0, "match_type": "IN_ORDER"},
        {"threshold": 0.5, "matchType": "any order"},
        {"threshold": 1.0, "match_type": "in-order", "ignore_args": True},
        {"threshold": 1.0, "matchType": 2, "ignoreArgs": True},
        {"threshold": 0.7, "match_type": "EXACT"},
    ],
    "response_match_score": [0.8, 0.5, {"threshold": 0.3}, 1],
}


def _inv(text: str, reply: str, calls: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {
        "invocation_id": f"inv-{text[:8]}",
        "user_content": {"role": "user", "parts": [{"text": text}]},
        "final_response": {"role": "model", "parts": [{"text": reply}]},
        "intermediate_data": {"tool_uses": calls, "intermediate_responses": []},
    }


def _events_inv(text: str, reply: str, calls: List[Dict[str, Any]]) -> Dict[str, Any]:
    events = [
        {"author": "agent", "content": {"role": "model", "parts": [{"text": "Let me check."}, {"function_call": c}]}}
        for c in calls
    ]
    events.append({"author": "agent", "content": {"role": "user", "parts": [
        {"function_response": {"name": calls[0]["name"], "response": {"ok": True}}}]}} if calls else
        {"author": "agent", "content": None})
    return {
        "invocation_id": f"ev-{text[:8]}",
        "user_content": {"role": "user", "parts": [{"text": text}]},
        "final_response": {"role": "model", "parts": [{"text": reply}]},
        "intermediate_data": {"invocation_events": events},
    }


A = {"name": "get_weather", "args": {"city": "Paris"}}
B = {"name": "get_time", "args": {"tz": "CET"}}
C = {"name": "get_weather", "args": {"city": "Tokyo"}}
NOARGS = {"name": "ping"}
EMPTYARGS = {"name": "ping", "args": {}}

SYNTHETIC = [
    ("two_invocations_one_trajectory_fails",
     [_inv("weather in Paris", "It is sunny in Paris.", [A]), _inv("time in Paris", "It is noon.", [B, A])],
     [_inv("weather in Paris", "Sunny in Paris today.", [A]), _inv("time in Paris", "It is 12:00 in Paris.", [B])]),
    ("reordered_calls",
     [_inv("both", "Sunny, noon.", [B, A])], [_inv("both", "Sunny and noon.", [A, B])]),
    ("different_args", [_inv("w", "Tokyo is rainy", [C])], [_inv("w", "Paris is sunny", [A])]),
    ("duplicate_expected", [_inv("w", "x", [A])], [_inv("w", "x", [A, A])]),
    ("none_args_vs_empty_args", [_inv("p", "pong", [NOARGS])], [_inv("p", "pong", [EMPTYARGS])]),
    ("events_form_actual",
     [_events_inv("weather in Paris", "It is sunny in Paris.", [A, B])],
     [_inv("weather in Paris", "It is sunny in Paris.", [A, B])]),
    ("events_form_extra_call",
     [_events_inv("weather", "Sunny.", [B, A, C])], [_inv("weather", "Sunny.", [A, C])]),
    ("cjk_response", [_inv("天気", "東京の天気は晴れです。", [])], [_inv("天気", "東京の天気は雨です。", [])]),
    ("missing_final_response",
     [{"invocation_id": "m", "user_content": {"role": "user", "parts": [{"text": "hi"}]}}],
     [_inv("hi", "hello there", [])]),
]


def _perturb(conversation: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """A plausible wrong agent run: first invocation's args changed, last one's answer reworded."""
    out = copy.deepcopy(conversation)
    first = out[0].get("intermediate_data") or {}
    if first.get("tool_uses"):
        call = first["tool_uses"][0]
        call["args"] = {**(call.get("args") or {}), "extra": "x"}
    last = out[-1]
    last["final_response"] = {"role": "model", "parts": [{"text": "Done. Anything else I can help with?"}]}
    return out


def main() -> None:
    import google.adk
    import rouge_score  # noqa: F401
    from google.adk.evaluation.agent_evaluator import AgentEvaluator
    from google.adk.evaluation.eval_case import Invocation
    from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config
    from google.adk.evaluation.eval_set import EvalSet
    from google.adk.evaluation.final_response_match_v1 import RougeEvaluator
    from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator

    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    pairs = []
    for rel in FIXTURES:
        eval_set: EvalSet = AgentEvaluator._load_eval_set_from_file(
            str(data_dir / rel), EvalConfig(criteria={}), {})
        conv = [inv.model_dump(mode="json", exclude_none=True) for inv in eval_set.eval_cases[0].conversation]
        pairs.append((f"{Path(rel).name}:self", conv, conv))
        pairs.append((f"{Path(rel).name}:perturbed", _perturb(conv), conv))
    pairs.extend(SYNTHETIC)

    cases = []
    scenarios = {}
    for name, actual, expected in pairs:
        scenarios[name] = {"actual": actual, "expected": expected}
        act = [Invocation.model_validate(a) for a in actual]
        exp = [Invocation.model_validate(e) for e in expected]
        for metric, variants in CRITERIA_VARIANTS.items():
            for criterion in variants:
                config = EvalConfig.model_validate({"criteria": {metric: criterion}})
                eval_metric = [m for m in get_eval_metrics_from_config(config) if m.metric_name == metric][0]
                evaluator = (TrajectoryEvaluator(eval_metric=eval_metric) if metric == "tool_trajectory_avg_score"
                             else RougeEvaluator(eval_metric=eval_metric))
                result = evaluator.evaluate_invocations(act, exp)
                cases.append({
                    "scenario": name,
                    "metric": metric,
                    "criterion": criterion,
                    "adk_score": result.overall_score,
                    "adk_status": result.overall_eval_status.name,
                    "adk_per_invocation_scores": [r.score for r in result.per_invocation_results],
                    "adk_per_invocation_statuses": [r.eval_status.name for r in result.per_invocation_results],
                })
    meta = {"generator": "tests/reference/adk_evaluate_invocations.py", "google-adk": google.adk.__version__,
            "rouge-score": "0.1.2"}
    (HERE / "adk_evaluate_invocations.json").write_text(
        json.dumps({"meta": meta, "scenarios": scenarios, "cases": cases}, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
