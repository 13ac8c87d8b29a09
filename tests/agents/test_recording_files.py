"""Tool recordings: one file per case id (ids that differ only in characters a file name cannot hold
included), a recording names its case and a replay refuses another case's, an edited recording is an
error naming the file (exit 2 in the CLI),."""

import json

import pytest

from agent_evaluators import InputError
from agent_evaluators.agents import ToolRecorder
from agent_evaluators.agents.recordings import recording_path

#: ids a file name cannot tell apart by their safe characters alone
LOOKALIKES = ["Zürich", "Zérich", "東京", "大阪", "a/b", "a_b", "a b", "..", ".", "x" * 300, "x" * 300 + "y"]


def _record(tmp_path, case_id, result, eval_set_id=None):
    recorder = ToolRecorder(tmp_path, "record")
    tool = recorder.tool(lambda city: result, name="weather")
    with recorder.case(case_id, eval_set_id=eval_set_id):
        tool("here")


def _replay(tmp_path, case_id, eval_set_id=None):
    replayer = ToolRecorder(tmp_path, "replay")
    tool = replayer.tool(lambda city: pytest.fail("executed during replay"), name="weather")
    with replayer.case(case_id, eval_set_id=eval_set_id):
        return tool("here")


def test_every_case_id_gets_its_own_file_and_its_own_results(tmp_path):
    for i, case in enumerate(LOOKALIKES):
        _record(tmp_path, case, {"case": i})
    paths = {recording_path(tmp_path, case) for case in LOOKALIKES}
    assert len(paths) == len(LOOKALIKES) == len(list(tmp_path.glob("*.json")))
    assert all(len(p.name) < 100 for p in paths)
    for i, case in enumerate(LOOKALIKES):
        assert _replay(tmp_path, case) == {"case": i}
    assert recording_path(tmp_path, "Zürich").name.startswith("Z_rich-")  # readable, then the hash


def test_eval_sets_that_differ_only_in_unsafe_characters_keep_apart(tmp_path):
    _record(tmp_path, "c", "first", eval_set_id="set ü")
    _record(tmp_path, "c", "second", eval_set_id="set é")
    assert _replay(tmp_path, "c", "set ü") == "first" and _replay(tmp_path, "c", "set é") == "second"


def test_a_recording_of_another_case_is_refused(tmp_path):
    _record(tmp_path, "paris", "sunny")
    _record(tmp_path, "tokyo", "rainy")
    recording_path(tmp_path, "tokyo").write_bytes(recording_path(tmp_path, "paris").read_bytes())
    with pytest.raises(InputError, match="belongs to case 'paris', not to eval case 'tokyo'"):
        _replay(tmp_path, "tokyo")


def test_a_recording_under_the_old_file_name_is_still_read_and_checked(tmp_path):
    _record(tmp_path, "paris", "sunny")
    old = tmp_path / "paris.json"
    recording_path(tmp_path, "paris").rename(old)
    assert _replay(tmp_path, "paris") == "sunny"
    doc = json.loads(old.read_text(encoding="utf-8"))
    doc["case_id"] = "Paris"  # another case whose old file name was the same
    old.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match="belongs to case 'Paris'"):
        _replay(tmp_path, "paris")


@pytest.mark.parametrize("doc", [
    [1, 2], "text", {"case_id": "c", "calls": "many"}, {"case_id": "c", "calls": [1]},
    {"case_id": "c", "calls": [{"tool": 5}]},
    {"case_id": "c", "calls": [{"tool": "weather", "args": {"city": "here"}, "result": 1, "state_delta": [1]}]},
    {"case_id": 7, "calls": []}, {"calls": []},
])
def test_an_edited_recording_is_an_input_error_naming_the_file(tmp_path, doc):
    _record(tmp_path, "c", "x")
    path = recording_path(tmp_path, "c")
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        _replay(tmp_path, "c")
    assert str(path) in str(caught.value)
