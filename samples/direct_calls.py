"""Calling evaluators directly, one conversation at a time.

    python samples/direct_calls.py

The deterministic evaluators always run. The judge-backed one runs when a judge is
configured in the environment (OPENAI_API_KEY + AGENT_EVAL_JUDGE_MODEL, OPENAI_BASE_URL
for a local OpenAI-compatible server, or AZURE_OPENAI_*); otherwise it says how.
"""

import json
from pathlib import Path

from agent_evaluators import ConfigError, IntentResolutionEvaluator, ToolTrajectoryEvaluator
from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator

DATA = Path(__file__).resolve().parent / "data" / "agents.jsonl"


def main() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    good, bad = rows[0], rows[3]  # travel-001 (searched, then booked) and travel-004 (booked blindly)

    trajectory = ToolTrajectoryEvaluator(match_type="in_order")
    for row in (good, bad):
        out = trajectory(response=row["response"], ground_truth=row["expected_tool_calls"])
        print(f"{row['id']}: trajectory {out['tool_trajectory_avg_score']} ({out['tool_trajectory_avg_score_result']})"
              f" - {out['tool_trajectory_avg_score_reason']}")

    match = ResponseMatchEvaluator(threshold=0.5)
    out = match(response=bad["response"], ground_truth=bad["ground_truth"])
    print(f"{bad['id']}: response match {out['response_match_score']:.3f} ({out['response_match_score_result']})")

    intent = IntentResolutionEvaluator()  # model_config=None: the judge comes from the environment
    try:
        out = intent(query=good["query"], response=good["response"], tool_definitions=good["tool_definitions"])
    except ConfigError as exc:
        print(f"intent resolution skipped: {exc}")
        return
    print(f"{good['id']}: intent resolution {out['intent_resolution']} - {out['intent_resolution_reason']}")


if __name__ == "__main__":
    main()
