"""Tool recordings: one file per case id (ids that differ only in characters a file name cannot hold
included), a recording names its case and a replay refuses another case's, an edited recording is an
error naming the file (exit 2 in the CLI), and replay is linear in the recorded calls."""

import json

import pytest

from agent_evaluators import InputError
from agent_evaluators.agents import ToolRecorder, recordings
from agent_evaluators.agents.recordings import ToolSession, recording_path

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


def test_a_failed_recording_run_removes_the_case_s_file_under_its_old_name_too(tmp_path):
    _record(tmp_path, "paris", "sunny")
    old = tmp_path / "paris.json"
    recording_path(tmp_path, "paris").rename(old)
    recorder = ToolRecorder(tmp_path, "record")
    with pytest.raises(RuntimeError), recorder.case("paris"):
        raise RuntimeError("the agent crashed")
    assert not old.exists() and not recording_path(tmp_path, "paris").exists()


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


def _session(n, tools=("search", "fetch")):
    calls = [{"index": i, "turn": i % 7, "tool": tools[i % len(tools)], "args": {"q": i % 50, "page": i},
              "result": i} for i in range(n)]
    session = ToolSession("replay", recording_path("unused", "c"), "c")
    session.calls = calls
    return session, calls


def _serve_all(session, calls):
    for call in reversed(calls):
        session.turn = call["turn"]
        assert session.serve(call["tool"], call["args"]) == call["result"]


def test_replay_serves_each_call_after_a_bounded_number_of_argument_comparisons(monkeypatch):
    """Replay is linear: the work per served call does not grow with the recording (at 5,000 calls it was
    quadratic: 88 s). Counted, not timed: how often arguments are turned into keys or compared."""
    work = {"n": 0}
    key, matches = getattr(recordings.MatchRules, "key", None), recordings.MatchRules.matches

    def counted_key(self, *args):
        work["n"] += 1
        return key(self, *args)

    def counted_matches(self, *args):
        work["n"] += 1
        return matches(self, *args)

    monkeypatch.setattr(recordings.MatchRules, "key", counted_key, raising=False)
    monkeypatch.setattr(recordings.MatchRules, "matches", counted_matches)
    per_call = []
    for n in (500, 5000):
        work["n"] = 0
        _serve_all(*_session(n))
        per_call.append(work["n"] / n)
    assert per_call[1] <= per_call[0] * 1.1 and per_call[1] <= 3, per_call


def test_replay_prefers_the_same_turn_then_recorded_order():
    session = ToolSession("replay", recording_path("unused", "c"), "c")
    session.calls = [{"tool": "t", "args": {"a": 1}, "result": r, "turn": turn}
                     for r, turn in (("first-turn0", 0), ("turn1", 1), ("second-turn0", 0))]
    session.turn = 1
    assert session.serve("t", {"a": 1.0}) == "turn1"  # 1 == 1.0, as the trajectory matchers compare
    assert session.serve("t", {"a": 1}) == "first-turn0"
    assert session.serve("t", {"a": 1}) == "second-turn0"
    with pytest.raises(InputError, match="already served"):
        session.serve("t", {"a": 1})
    with pytest.raises(InputError, match="other arguments"):
        session.serve("t", {"a": True})  # a bool is not a number
