"""Legacy ADK test files convert exactly as google-adk 2.13 converts them.

Our own legacy fixture files' conversions (tests/reference/adk_legacy_conversion_own.json) are
written by tests/adk/fixtures/make_fixtures.py with google-adk's own loader. The other expected
conversions, in tests/reference/adk_legacy_conversion.json, were produced by
running ADK's own loaders (``AgentEvaluator._load_eval_set_from_file`` and
``local_eval_sets_manager.load_eval_set_from_file``) in a separate venv:
``/work/refvenvs/adk/bin/python tests/reference/adk_legacy_conversion.py``
(google-adk 2.13.0; see that script). ADK's random ids, clock timestamps and the
file path used as eval_id are replaced by placeholders on both sides.
"""

import json
from pathlib import Path

import pytest

from agent_evaluators.adk import load_eval_set
from agent_evaluators.errors import InputError
from tests.reference.adk_legacy_conversion import normalize

from .conftest import OWN_FIXTURES, SHARED_FIXTURES

REFERENCES = Path(__file__).resolve().parents[1] / "reference"
REFERENCE = json.loads((REFERENCES / "adk_legacy_conversion.json").read_text())
OWN_REFERENCE = json.loads((REFERENCES / "adk_legacy_conversion_own.json").read_text())
# inline inputs always; our own fixture files always; the outside copy's files where that copy exists
CASES = ([c for c in REFERENCE["cases"] if "fixture" not in c] + OWN_REFERENCE["cases"]
         + ([c for c in REFERENCE["cases"] if "fixture" in c] if SHARED_FIXTURES.is_dir() else []))


def _source(case, tmp_path):
    if "fixture" in case:  # own: relative to our tree; shared: "adk_fixtures/..." beside it
        return OWN_FIXTURES / case["fixture"] if case in OWN_REFERENCE["cases"] else SHARED_FIXTURES.parent / case["fixture"]
    path = tmp_path / f"{case['name']}.test.json"
    path.write_text(json.dumps(case["input"]), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_legacy_file_converts_like_adk(case, tmp_path):
    path = _source(case, tmp_path)
    eval_set = load_eval_set(path, criteria=case.get("criteria"))
    ours = normalize(eval_set.model_dump(mode="json", exclude_none=True), turns_file=case["loader"] == "agent_evaluator")
    assert ours == case["expected"]


def test_turns_file_uses_its_path_as_eval_id_and_stable_uuids(tmp_path):
    path = tmp_path / "t.test.json"
    path.write_text(json.dumps([{"query": "a", "expected_tool_use": []}, {"query": "b"}]))
    first, second = load_eval_set(path), load_eval_set(path)
    case = first.eval_cases[0]
    assert case.eval_id == str(path)
    ids = [inv.invocation_id for inv in case.conversation]
    assert len(set(ids)) == 2 and all(len(i) == 36 for i in ids)
    assert ids == [inv.invocation_id for inv in second.eval_cases[0].conversation]
    assert first.eval_set_id == second.eval_set_id


def test_case_list_file_uses_the_path_as_eval_set_id(tmp_path):
    path = tmp_path / "cases.test.json"
    path.write_text(json.dumps([{"name": "c1", "data": [{"query": "q", "reference": "r"}]}]))
    eval_set = load_eval_set(path)
    assert eval_set.eval_set_id == str(path) and eval_set.eval_cases[0].eval_id == "c1"


@pytest.mark.parametrize(
    "criteria, turn, needle",
    [
        ({"final_response_match_v2": 0.8}, {"query": "q"}, "final_response_match_v2"),
        ({"tool_trajectory_avg_score": 1.0}, {"query": "q", "reference": "r"}, "'expected_tool_use'"),
        ({"response_match_score": 0.8}, {"query": "q", "expected_tool_use": []}, "'reference'"),
    ],
)
def test_turns_file_is_checked_against_the_criteria_as_adk_does(tmp_path, criteria, turn, needle):
    path = tmp_path / "t.test.json"
    path.write_text(json.dumps([turn]))
    with pytest.raises(InputError) as info:
        load_eval_set(path, criteria=criteria)
    assert needle in str(info.value) and str(path) in str(info.value)
    load_eval_set(path)  # without criteria the file itself is fine


def test_legacy_tool_use_without_tool_input_names_the_json_path(tmp_path):
    path = tmp_path / "t.test.json"
    path.write_text(json.dumps([{"query": "q"}, {"query": "q2", "expected_tool_use": [{"tool_name": "x"}]}]))
    with pytest.raises(InputError, match=r"\$\[1\]\.expected_tool_use\[0\] needs 'tool_name' and 'tool_input'"):
        load_eval_set(path)
