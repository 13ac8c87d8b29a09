"""Expected results for tests/adk_judges/test_multi_turn_adk_parity.py, produced by google-adk 2.13.0's
own ``RubricBasedMultiTurnTrajectoryEvaluator`` with a scripted judge.

Run with google-adk 2.13.0 installed (its ``eval`` extra), e.g. in a separate venv:

    python -m venv /work/refvenvs/adk && /work/refvenvs/adk/bin/pip install "google-adk[eval]==2.13.0"
    /work/refvenvs/adk/bin/python tests/reference/gen_adk_multi_turn.py > tests/reference/adk_multi_turn.json

The fake judge of ``gen_adk_judges.py`` (a ``BaseLlm`` registered for ``fake-judge``) answers each
sample in ADK's own text format from a script of per-sample verdicts, so ADK parses, votes, marks the
earlier turns ``NOT_EVALUATED`` and aggregates exactly as it does with Gemini. Each scenario records
the script (one verdict per rubric per sample), the criterion and ADK's result.
"""

import asyncio
import json
import sys
from typing import Any, Dict

from gen_adk_judges import CALLS, SCRIPT, inv, options, rubric_reply  # the fake judge registers on import
from google.adk.evaluation.eval_metrics import EvalMetric
from google.adk.evaluation.rubric_based_multi_turn_trajectory_evaluator import (
    RubricBasedMultiTurnTrajectoryEvaluator,
)

METRIC = "rubric_based_multi_turn_trajectory_quality_v1"

#: name -> (criterion rubric ids, the last invocation's own TRAJECTORY_QUALITY rubric ids, threshold,
#: per-sample verdicts {rubric_id: label}, number of invocations)
SCENARIOS: Dict[str, Dict[str, Any]] = {
    "ties_go_to_no": {"rubrics": ["a", "b"], "own": [], "threshold": 0.5, "invocations": 3,
                      "samples": [{"a": "yes", "b": "yes"}, {"a": "yes", "b": "yes"},
                                  {"a": "no", "b": "yes"}, {"a": "no", "b": "no"}]},
    "majority_yes_passes": {"rubrics": ["a", "b", "c"], "own": [], "threshold": 0.6, "invocations": 2,
                            "samples": [{"a": "yes", "b": "no", "c": "yes"}, {"a": "yes", "b": "no", "c": "yes"},
                                        {"a": "no", "b": "yes", "c": "yes"}]},
    "below_threshold_fails": {"rubrics": ["a", "b"], "own": [], "threshold": 0.8, "invocations": 4,
                              "samples": [{"a": "no", "b": "yes"}] * 3},
    "last_invocation_rubrics_join": {"rubrics": ["a"], "own": ["own"], "threshold": 0.5, "invocations": 2,
                                     "samples": [{"a": "yes", "own": "no"}] * 2},
    "single_invocation": {"rubrics": ["a", "b"], "own": [], "threshold": 1.0, "invocations": 1,
                          "samples": [{"a": "yes", "b": "yes"}]},
}


def text_of(rid: str) -> str:
    return f"Rubric {rid}."


def rubric(rid: str, typed: bool = False) -> Dict[str, Any]:
    out: Dict[str, Any] = {"rubric_id": rid, "rubric_content": {"text_property": text_of(rid)}}
    if typed:
        out["type"] = "TRAJECTORY_QUALITY"
    return out


async def run(s: Dict[str, Any]) -> Dict[str, Any]:
    ids = s["rubrics"] + s["own"]
    SCRIPT[:] = [rubric_reply(sample, {rid: text_of(rid) for rid in ids}) for sample in s["samples"]]
    CALLS["n"] = 0
    criterion = {"threshold": s["threshold"], "judge_model_options": options(len(s["samples"])),
                 "rubrics": [rubric(r) for r in s["rubrics"]]}
    metric = EvalMetric(metric_name=METRIC, threshold=s["threshold"], criterion=criterion)
    own = {"rubrics": [rubric(r, typed=True) for r in s["own"]]} if s["own"] else {}
    actual = [inv(f"user turn {i + 1}", f"agent answer {i + 1}", **(own if i == s["invocations"] - 1 else {}))
              for i in range(s["invocations"])]
    result = await RubricBasedMultiTurnTrajectoryEvaluator(metric).evaluate_invocations(actual, None)
    return {
        "samples": s["samples"],
        "criterion": criterion,
        "own_rubrics": [rubric(r, typed=True) for r in s["own"]],
        "invocations": s["invocations"],
        "judge_calls": CALLS["n"],
        "adk_score": result.overall_score,
        "adk_status": result.overall_eval_status.name,
        "adk_per_invocation_scores": [r.score for r in result.per_invocation_results],
        "adk_per_invocation_statuses": [r.eval_status.name for r in result.per_invocation_results],
        "adk_overall_rubric_scores": {r.rubric_id: r.score for r in result.overall_rubric_scores or []},
    }


async def main() -> None:
    import importlib.metadata as md

    out: Dict[str, Any] = {"meta": {"generator": "tests/reference/gen_adk_multi_turn.py",
                                    "google-adk": md.version("google-adk"), "python": sys.version.split()[0]},
                           "scenarios": {}}
    for name, scenario in SCENARIOS.items():
        out["scenarios"][name] = await run(scenario)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
