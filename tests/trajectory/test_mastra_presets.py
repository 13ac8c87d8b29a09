"""``ToolTrajectoryEvaluator.expecting_tool`` / ``.expecting_order`` against Mastra's code tool-call scorer.

How the expected values were produced (not at test time; only the JSON is read here):

    mkdir -p /work/refvenvs/mastra && cd /work/refvenvs/mastra
    npm init -y && npm install @mastra/evals@1.10.2 "@mastra/core@1" zod      # @mastra/core 1.71.0, node 20
    MASTRA_DIR=/work/refvenvs/mastra node tests/reference/gen_mastra_tool_call.mjs

which runs ``createToolCallAccuracyScorerCode({expectedTool | expectedToolOrder, strictMode})``
on each case and writes ``tests/reference/mastra_tool_call.json`` with the same run as OpenAI
messages (``response``).

Every score must equal Mastra's, except where Mastra's lenient order check takes the
*first* occurrence of each name (``indexOf``) and so misses an in-order subsequence that
exists (``FIRST_OCCURRENCE_FALSE_NEGATIVES``): there we score 1, and a brute-force search
over the call positions confirms the subsequence.
"""

import itertools
import json
from pathlib import Path
from typing import Any, Dict

import pytest

from agent_evaluators.conversation import to_tool_calls
from agent_evaluators.errors import ConfigError
from agent_evaluators.evaluators.trajectory import ToolTrajectoryEvaluator

TABLE = json.loads((Path(__file__).resolve().parents[1] / "reference" / "mastra_tool_call.json").read_text("utf-8"))
CASES: Dict[str, Dict[str, Any]] = {c["name"]: c for c in TABLE["cases"]}
FIRST_OCCURRENCE_FALSE_NEGATIVES = {
    ("order_first_occurrence_pitfall", "lenient"),
    ("order_repeated_name", "lenient"),
    ("order_repeated_name_with_extra", "lenient"),
}
ENTRIES = [(name, s) for name in CASES for s in ("lenient", "strict") if (name, s) not in FIRST_OCCURRENCE_FALSE_NEGATIVES]


def _preset(case: Dict[str, Any], setting: str) -> ToolTrajectoryEvaluator:
    strict = setting == "strict"
    if "expectedToolOrder" in case:
        return ToolTrajectoryEvaluator.expecting_order(case["expectedToolOrder"], strict=strict)
    return ToolTrajectoryEvaluator.expecting_tool(case["expectedTool"], strict=strict)


def test_reference_version() -> None:
    assert TABLE["meta"]["versions"]["@mastra/evals"] == "1.10.2"


@pytest.mark.parametrize("case_name, setting", ENTRIES)
def test_matches_mastra(case_name: str, setting: str) -> None:
    case = CASES[case_name]
    result = _preset(case, setting)(response=case["response"])
    assert result["tool_trajectory_avg_score"] == case["mastra"][setting]


@pytest.mark.parametrize("case_name, setting", sorted(FIRST_OCCURRENCE_FALSE_NEGATIVES))
def test_lenient_order_is_a_true_subsequence_test_where_mastra_uses_first_occurrences(case_name: str, setting: str) -> None:
    case = CASES[case_name]
    assert case["mastra"][setting] == 0
    names = [c.name for c in to_tool_calls(case["response"])]
    order = case["expectedToolOrder"]
    assert any([names[p] for p in pos] == order for pos in itertools.combinations(range(len(names)), len(order)))
    assert _preset(case, setting)(response=case["response"])["tool_trajectory_avg_score"] == 1.0


def test_presets_need_no_ground_truth_and_ignore_one_given() -> None:
    check = ToolTrajectoryEvaluator.expecting_tool("weather")
    calls = [{"name": "weather", "args": {"city": "Paris"}}]
    assert check(response=calls)["tool_trajectory_avg_score"] == 1.0
    assert check(response=calls, ground_truth=[{"name": "other"}])["tool_trajectory_avg_score"] == 1.0
    assert isinstance(check, ToolTrajectoryEvaluator)
    assert check(response=calls)["tool_trajectory_avg_score_details"]["preset"] == {"expected_tool": "weather", "strict": False}


def test_presets_read_adk_invocations_as_one_run() -> None:
    invocations = [
        {"user_content": {"parts": [{"text": "a"}]}, "intermediate_data": {"tool_uses": [{"name": "flight", "args": {}}]}},
        {"user_content": {"parts": [{"text": "b"}]}, "intermediate_data": {"tool_uses": [{"name": "hotel"}]}},
    ]
    result = ToolTrajectoryEvaluator.expecting_order(["flight", "hotel"], strict=True)(response=invocations)
    assert result["tool_trajectory_avg_score"] == 1.0


def test_no_calls_scores_zero_with_a_reason() -> None:
    result = ToolTrajectoryEvaluator.expecting_tool("weather")(response=[{"role": "assistant", "content": "hi"}])
    assert result["tool_trajectory_avg_score"] == 0.0
    assert result["tool_trajectory_avg_score_reason"].startswith("no tool calls were made")


@pytest.mark.parametrize("bad", [[], "flight", ["flight", ""], None])
def test_expecting_order_needs_tool_names(bad: Any) -> None:
    with pytest.raises(ConfigError):
        ToolTrajectoryEvaluator.expecting_order(bad)


def test_expecting_tool_needs_a_name() -> None:
    with pytest.raises(ConfigError):
        ToolTrajectoryEvaluator.expecting_tool("")
