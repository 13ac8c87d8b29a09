"""Batch evaluation from Python with evaluate(), then the HTML report.

    python samples/batch_evaluate.py [OUTPUT_DIR]

Runs the deterministic evaluators over samples/data/agents.jsonl (and the intent
judge when one is configured in the environment), prints the metrics, checks
them with assert_passes and writes OUTPUT_DIR/report.html.
"""

import sys
from pathlib import Path

from agent_evaluators import IntentResolutionEvaluator, ToolTrajectoryEvaluator, evaluate
from agent_evaluators.config import JudgeSettings, judge_model_config
from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator
from agent_evaluators.pytest_plugin import assert_passes  # no pytest needed
from agent_evaluators.report import write_report

DATA = Path(__file__).resolve().parent / "data" / "agents.jsonl"


def main(output: str = "agent-eval-results/batch") -> None:
    evaluators = {
        "trajectory": ToolTrajectoryEvaluator(match_type="in_order"),
        "response_match": ResponseMatchEvaluator(threshold=0.5),
    }
    judge = judge_model_config(JudgeSettings(model="gpt-4o-mini"))  # None when no judge is configured
    if judge is not None:
        evaluators["intent"] = IntentResolutionEvaluator(model_config=judge)
    result = evaluate(
        data=str(DATA),
        evaluators=evaluators,
        evaluator_config={"trajectory": {"column_mapping": {"ground_truth": "${data.expected_tool_calls}"}}},
        output_path=output,
    )
    for name, value in sorted(result.metrics.items()):
        print(f"{name:45} {value}")
    failing = [r["inputs.id"] for r in result.rows if r.get("outputs.trajectory.tool_trajectory_avg_score_result") == "fail"]
    print("rows with a wrong trajectory:", ", ".join(failing))
    print("report:", write_report(output))
    assert_passes(result, {"trajectory.pass_rate": 0.7, "response_match.response_match_score": 0.6})


if __name__ == "__main__":
    main(*sys.argv[1:])
