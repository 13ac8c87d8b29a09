"""ToolTrajectoryEvaluator and ResponseMatchEvaluator against google-adk 2.13.0's own evaluators.

How the expected values were produced (not at test time; only the JSON is read here):

    python3.11 -m venv /work/refvenvs/adk
    /work/refvenvs/adk/bin/pip install "google-adk[eval]==2.13.0"   # rouge-score 0.1.2, nltk 3.10.4
    /work/refvenvs/adk/bin/python tests/reference/gen_adk_deterministic.py

which runs ``google.adk.evaluation.trajectory_evaluator.TrajectoryEvaluator`` (every case ×
EXACT / IN_ORDER / ANY_ORDER × ignore_args) and ``final_response_match_v1.RougeEvaluator``
(plus ``_calculate_rouge_1_scores`` and ``_UnicodeAwareTokenizer``) on the invocation dicts
of ``tests/reference/gen_adk_deterministic.py`` and writes ``tests/reference/adk_deterministic.json``
(versions in its ``meta``).

Every number must equal ADK's, with one documented exception: ADK compares arguments with
Python ``==``, where ``True == 1``; we do not treat a bool as a number
(``BOOL_IS_NOT_A_NUMBER``).
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator, UnicodeAwareTokenizer, rouge1
from agent_evaluators.evaluators.trajectory import ToolTrajectoryEvaluator

TABLE = json.loads((Path(__file__).resolve().parents[1] / "reference" / "adk_deterministic.json").read_text("utf-8"))
TRAJECTORY: Dict[str, Dict[str, Any]] = {c["name"]: c for c in TABLE["trajectory"]}
ROUGE: Dict[str, Dict[str, Any]] = {c["name"]: c for c in TABLE["rouge"]}

BOOL_IS_NOT_A_NUMBER = "args_bool_vs_int"

TRAJECTORY_ENTRIES: List[Tuple[str, str]] = [
    (name, setting) for name, case in TRAJECTORY.items() for setting in case["adk"] if name != BOOL_IS_NOT_A_NUMBER
]


def _evaluator(setting: str) -> ToolTrajectoryEvaluator:
    match_type, _, ignore = setting.partition("/")
    return ToolTrajectoryEvaluator(match_type=match_type, ignore_args=ignore == "ignore_args")


def test_reference_versions_and_coverage() -> None:
    assert TABLE["meta"]["versions"]["google-adk"] == "2.13.0"
    for name in ["identical", "reordered", "extra_call_between", "missing_call", "duplicate_actual", "duplicate_expected",
                 "different_args", "args_none_vs_empty", "both_empty", "actual_empty", "expected_empty",
                 "two_invocations_one_fails", "three_invocations_mixed"]:
        assert name in TRAJECTORY
    for name in ["punctuation_and_case", "stemming", "japanese", "chinese", "korean", "thai", "empty_vs_empty"]:
        assert name in ROUGE


@pytest.mark.parametrize("case_name, setting", TRAJECTORY_ENTRIES)
def test_trajectory_matches_adk(case_name: str, setting: str) -> None:
    case = TRAJECTORY[case_name]
    expected = case["adk"][setting]
    result = _evaluator(setting)(response=case["actual"], ground_truth=case["expected"])
    assert result["tool_trajectory_avg_score"] == expected["score"]
    assert result["tool_trajectory_avg_score_details"]["per_invocation_scores"] == expected["per_invocation_scores"]
    assert result["tool_trajectory_avg_score_result"] == ("pass" if expected["status"] == "PASSED" else "fail")


def test_bool_arguments_are_not_numbers_unlike_adk() -> None:
    case = TRAJECTORY[BOOL_IS_NOT_A_NUMBER]
    assert case["adk"]["EXACT"]["score"] == 1.0  # ADK: {"on": True} == {"on": 1}
    for setting in ("EXACT", "IN_ORDER", "ANY_ORDER"):
        assert _evaluator(setting)(response=case["actual"], ground_truth=case["expected"])["tool_trajectory_avg_score"] == 0.0
        ignoring = _evaluator(setting + "/ignore_args")(response=case["actual"], ground_truth=case["expected"])
        assert ignoring["tool_trajectory_avg_score"] == case["adk"][setting + "/ignore_args"]["score"]


@pytest.mark.parametrize("case_name", list(ROUGE))
def test_response_match_matches_adk(case_name: str) -> None:
    case = ROUGE[case_name]
    result = ResponseMatchEvaluator()(response=case["actual"], ground_truth=case["expected"])
    assert result["response_match_score"] == pytest.approx(case["adk"]["score"], abs=1e-12)
    assert result["response_match_score_result"] == ("pass" if case["adk"]["status"] == "PASSED" else "fail")
    assert result["response_match_score_details"]["per_invocation_scores"] == pytest.approx(
        case["adk"]["per_invocation_scores"], abs=1e-12
    )


@pytest.mark.parametrize("case_name", [n for n, c in ROUGE.items() if "pair" in c])
def test_plain_text_scores_and_tokens_match_adk(case_name: str) -> None:
    case = ROUGE[case_name]
    actual, expected = case["pair"]
    tokenizer = UnicodeAwareTokenizer()
    assert tokenizer.tokenize(actual) == case["adk_tokens"]["actual"]
    assert tokenizer.tokenize(expected) == case["adk_tokens"]["expected"]
    assert rouge1(actual, expected) == pytest.approx(case["adk_rouge1"], abs=1e-12)
    result = ResponseMatchEvaluator()(response=actual, ground_truth=expected)
    assert result["response_match_score"] == pytest.approx(case["adk_rouge1"]["fmeasure"], abs=1e-12)
