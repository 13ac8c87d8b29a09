"""Produce tests/reference/adk_legacy_conversion.json with google-adk's own legacy converter.

Run with a separate venv holding the reference library (never the project venv)::

    python3.11 -m venv /work/refvenvs/adk
    /work/refvenvs/adk/bin/pip install "google-adk[eval]==2.13.0"
    /work/refvenvs/adk/bin/python tests/reference/adk_legacy_conversion.py [SHARED_DATA_DIR]

Each case is a legacy input (a fixture file or an inline JSON value) loaded through the
ADK entry point that reads that shape:

* ``agent_evaluator``: ``AgentEvaluator._load_eval_set_from_file`` (list-of-turns ``*.test.json``);
* ``eval_sets_manager``: ``local_eval_sets_manager.load_eval_set_from_file`` (``[{name, data, initial_session}]``).

ADK fills ids with ``uuid4()`` and timestamps with ``time.time()``, and the list-of-turns
eval_id is the path it was given; those values are replaced by placeholders
(``normalize``), which ``tests/adk/test_legacy_conversion.py`` applies to our output too.
"""

import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data"

INLINE_CASES = [
    {
        "name": "turns_with_intermediate_responses_and_missing_reference",
        "loader": "agent_evaluator",
        "criteria": {"tool_trajectory_avg_score": 1.0},
        "input": [
            {
                "query": "Roll a 17 sided die twice",
                "expected_tool_use": [
                    {"tool_name": "roll_die", "tool_input": {"sides": 17}},
                    {"tool_name": "roll_die", "tool_input": {"sides": 17}},
                ],
                "expected_intermediate_agent_responses": [
                    {"author": "dice_agent", "text": "Rolling now."},
                    {"author": "prime_agent", "text": "Checking primes."},
                ],
            },
            {"query": "What can you do?", "expected_tool_use": [], "reference": "I roll dice.\n"},
        ],
    },
    {
        "name": "turns_with_empty_tool_input_and_null_reference",
        "loader": "agent_evaluator",
        "criteria": {"tool_trajectory_avg_score": 1.0},
        "input": [
            {
                "query": "List devices",
                "expected_tool_use": [{"tool_name": "list_devices", "tool_input": {}}],
                "reference": None,
            }
        ],
    },
    {
        "name": "case_list_with_initial_session",
        "loader": "eval_sets_manager",
        "input": [
            {
                "name": "roll_17_sided_dice_twice",
                "data": [
                    {"query": "What can you do?", "expected_tool_use": [], "expected_intermediate_agent_responses": [],
                     "reference": "I can roll dice.\n"},
                    {"query": "Roll a 17 sided dice twice for me",
                     "expected_tool_use": [{"tool_name": "roll_die", "tool_input": {"sides": 17}},
                                           {"tool_name": "roll_die", "tool_input": {"sides": 17}}],
                     "reference": "Rolled 13 and 4.\n"},
                ],
                "initial_session": {"state": {"k": 1}, "app_name": "hello_world", "user_id": "user"},
            },
            {"name": "no_session", "data": [{"query": "hi", "reference": "hello"}], "initial_session": {}},
            {"name": "partial_session", "data": [{"query": "hi"}], "initial_session": {"user_id": "u7"}},
        ],
    },
]

FIXTURE_CASES = [
    {"name": "fixture_simple_test2", "loader": "agent_evaluator", "criteria": {"tool_trajectory_avg_score": 1.0},
     "fixture": "adk_fixtures/home_automation_agent/simple_test2.test.json"},
    {"name": "fixture_trip_inquiry", "loader": "agent_evaluator", "criteria": {"response_match_score": 0.5},
     "fixture": "adk_fixtures/trip_planner_agent/trip_inquiry.test.json"},
]


def normalize(eval_set: Dict[str, Any], *, turns_file: bool) -> Dict[str, Any]:
    """Replace the values ADK draws from uuid4 / the clock / the given path with placeholders."""
    out = json.loads(json.dumps(eval_set))
    out["eval_set_id"] = "<id>"
    out["name"] = "<id>" if eval_set.get("name") == eval_set.get("eval_set_id") else out.get("name")
    out["creation_timestamp"] = "<time>"
    for case in out["eval_cases"]:
        if turns_file:
            case["eval_id"] = "<path>"
        case["creation_timestamp"] = "<time>"
        for inv in case.get("conversation") or []:
            inv["invocation_id"] = "<uuid>"
            inv["creation_timestamp"] = "<time>"
    return out


def convert(path: str, loader: str, criteria: Dict[str, float]) -> Dict[str, Any]:
    if loader == "agent_evaluator":
        from google.adk.evaluation.agent_evaluator import AgentEvaluator
        from google.adk.evaluation.eval_config import EvalConfig

        eval_set = AgentEvaluator._load_eval_set_from_file(path, EvalConfig(criteria=criteria), {})
    else:
        from google.adk.evaluation.local_eval_sets_manager import load_eval_set_from_file

        eval_set = load_eval_set_from_file(path, "<id>")
    return normalize(eval_set.model_dump(mode="json", exclude_none=True), turns_file=loader == "agent_evaluator")


def main() -> None:
    import google.adk
    import google.genai
    import pydantic

    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in INLINE_CASES:
            path = Path(tmp) / f"{case['name']}.test.json"
            path.write_text(json.dumps(case["input"]), encoding="utf-8")
            cases.append({**case, "expected": convert(str(path), case["loader"], case.get("criteria", {}))})
    for case in FIXTURE_CASES:
        path = data_dir / case["fixture"]
        cases.append({**case, "expected": convert(str(path), case["loader"], case.get("criteria", {}))})
    meta = {
        "generator": "tests/reference/adk_legacy_conversion.py",
        "google-adk": google.adk.__version__,
        "google-genai": google.genai.__version__,
        "pydantic": pydantic.VERSION,
        "dump": "EvalSet.model_dump(mode='json', exclude_none=True), ids/timestamps/paths normalized",
    }
    (HERE / "adk_legacy_conversion.json").write_text(
        json.dumps({"meta": meta, "cases": cases}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
