"""``ToolRecorder``: record a Python agent's tool calls, then replay them without executing any tool.

The agent is an ordinary ``messages -> reply`` callable whose tool functions are wrapped with
``recorder.tool``; it runs through ``evaluate(target=simulated_conversation_target(...,
tool_recorder=...))`` as a user runs it, and is scored by the trajectory matcher and by a
judge metric on the bundled fake judge over real HTTP.
"""

import json
from typing import Any, Callable, Dict, List

import pytest

from agent_evaluators import ConfigError, InputError, IntentResolutionEvaluator, ToolTrajectoryEvaluator, evaluate
from agent_evaluators.agents import MatchRules, ToolRecorder
from agent_evaluators.agents.dialogue import simulated_conversation_target
from agent_evaluators.agents.recordings import load_match_rules, recording_path
from agent_evaluators.testing import JudgeServer

from .conftest import aio

CITIES = {"paris": "sunny", "tokyo": "rainy"}


def make_agent(executed: List[str], recorder: ToolRecorder, *, swallow: bool = False) -> Callable[..., Any]:
    """An agent with one live tool (counted in ``executed``) wrapped by ``recorder``."""

    @recorder.tool
    def get_weather(city: str, units: str = "metric", request_id: str = "") -> Dict[str, Any]:
        executed.append(city)
        return {"city": city, "condition": CITIES.get(city.lower(), "unknown"), "units": units}

    def agent(messages: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        asked = messages[-1]["content"]
        city = asked.rsplit(" ", 1)[-1].strip("?")
        n = sum(m["role"] == "user" for m in messages)
        try:
            result = get_weather(city, request_id=f"req-{len(executed)}-{n}")
        except InputError as exc:
            if not swallow:
                raise
            result = {"error": str(exc)}  # an agent that catches its tools' errors
        call = {"id": f"c{n}", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": city})}}
        return [{"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": f"c{n}", "content": json.dumps(result)},
                {"role": "assistant", "content": f"In {city} it is {result.get('condition')}."}]

    return agent


ROWS = [{"case_id": "paris", "user_turns": ["weather in Paris?", "and Tokyo?"],
         "ground_truth": [{"name": "get_weather", "arguments": {"city": "Paris"}},
                          {"name": "get_weather", "arguments": {"city": "Tokyo"}}]},
        {"case_id": "tokyo/again", "user_turns": ["weather in Tokyo?"],
         "ground_truth": [{"name": "get_weather", "arguments": {"city": "Tokyo"}}]}]


@pytest.fixture(scope="module")
def fake_judge():
    with JudgeServer() as server:
        yield server


def run(agent: Callable[..., Any], recorder: ToolRecorder, judge: JudgeServer, rows=ROWS) -> List[Dict[str, Any]]:
    target = simulated_conversation_target(agent, tool_recorder=recorder)
    evaluators = {"trajectory": ToolTrajectoryEvaluator(match_type="in_order"),
                  "intent": IntentResolutionEvaluator(model_config=judge.openai_config())}
    config = {"trajectory": {"column_mapping": {"response": "${target.response}", "ground_truth": "${data.ground_truth}"}},
              "intent": {"column_mapping": {"conversation": "${target.conversation}"}}}
    return evaluate(data=rows, target=target, evaluators=evaluators, evaluator_config=config,
                    show_progress=False)["rows"]


def scores(rows: List[Dict[str, Any]]) -> List[tuple]:
    """Scores and the agent's messages, less their wall-clock ``timestamp`` (no two runs share one)."""
    def timeless(messages: Any) -> Any:
        return [{k: v for k, v in m.items() if k != "timestamp"} for m in messages or []]

    return [(r.get("outputs.trajectory.tool_trajectory_avg_score"), r.get("outputs.intent.intent_resolution"),
             timeless(r.get("outputs.response"))) for r in rows]


def test_record_then_replay_gives_the_same_rows_with_no_tool_executed(fake_judge, tmp_path):
    executed: List[str] = []
    recorded = run(make_agent(executed, ToolRecorder(tmp_path, "record")), ToolRecorder(tmp_path, "record"),
                   fake_judge)
    assert executed == ["Paris", "Tokyo", "Tokyo"]
    doc = json.loads(recording_path(tmp_path, "paris").read_text())
    assert [(c["index"], c["turn"], c["tool"], c["args"]["city"]) for c in doc["calls"]] == [
        (0, 0, "get_weather", "Paris"), (1, 1, "get_weather", "Tokyo")]
    assert doc["calls"][1]["result"] == {"city": "Tokyo", "condition": "rainy", "units": "metric"}
    assert recording_path(tmp_path, "tokyo/again").is_file()  # a case id made into a safe file name
    assert recording_path(tmp_path, "tokyo/again").name.startswith("tokyo_again-")

    executed.clear()
    replayer = ToolRecorder(tmp_path, "replay", match={"*": {"ignore_args": ["request_id"]}})
    replayed = run(make_agent(executed, replayer), replayer, fake_judge)
    assert executed == []
    assert scores(replayed) == scores(recorded)
    assert all(s[0] == 1.0 for s in scores(replayed))


def test_an_unrecorded_call_fails_the_row_even_when_the_agent_catches_it(fake_judge, tmp_path):
    executed: List[str] = []
    recorder = ToolRecorder(tmp_path, "record")
    run(make_agent(executed, recorder), recorder, fake_judge, rows=ROWS[:1])
    executed.clear()
    replayer = ToolRecorder(tmp_path, "replay", match={"get_weather": {"ignore_args": ["request_id"]}})
    rows = [{**ROWS[0], "user_turns": ["weather in Paris?", "and Lima?"]}, ROWS[1]]
    for swallow in (False, True):
        out = run(make_agent(executed, replayer, swallow=swallow), replayer, fake_judge, rows=rows)
        assert executed == []  # never a live call
        first, second = (str(r.get("target_error") or r.get("row_error")) for r in out)
        assert "eval case 'paris'" in first and 'get_weather({"city": "Lima"' in first and "turn 2" in first
        assert out[0]["outputs.trajectory.tool_trajectory_avg_score_result"] == "error"  # never a pass
        assert "eval case 'tokyo/again' has no tool recording" in second


def test_repeated_identical_calls_are_served_in_recorded_order(tmp_path):
    counter = iter(range(100))

    def next_ticket(queue: str) -> int:
        return next(counter)

    recorder = ToolRecorder(tmp_path, "record")
    wrapped = recorder.tool(next_ticket)
    with recorder.case("tickets"):
        assert [wrapped("a"), wrapped("a"), wrapped("b")] == [0, 1, 2]
    replayer = ToolRecorder(tmp_path, "replay")
    replayed = replayer.tool(lambda queue: pytest.fail("executed during replay"), name="next_ticket")
    with replayer.case("tickets"):
        assert [replayed("b"), replayed("a"), replayed("a")] == [2, 0, 1]
    with pytest.raises(InputError, match="its 2 recorded call.s. of 'next_ticket' with these arguments were already served"):
        with replayer.case("tickets"):
            [replayed("a") for _ in range(3)]


@aio
async def test_async_tools_and_calls_outside_a_case(tmp_path):
    async def lookup(key: str, *, depth: int = 1) -> Dict[str, Any]:
        return {"key": key, "depth": depth, "items": (1, 2)}

    recorder = ToolRecorder(tmp_path, "record")
    wrapped = recorder.tool(lookup)
    with pytest.raises(ConfigError, match="outside a case"):
        await wrapped("x")
    with recorder.case("c1", eval_set_id="set one"):
        assert await wrapped("x", depth=2) == {"key": "x", "depth": 2, "items": (1, 2)}
    path = recording_path(tmp_path, "c1", "set one")
    assert path.parent.name.startswith("set_one-")
    assert json.loads(path.read_text())["calls"][0]["args"] == {"key": "x", "depth": 2}
    replayer = ToolRecorder(tmp_path, "replay")
    with replayer.case("c1", eval_set_id="set one"):
        # served as the file holds it: plain JSON (a tuple comes back a list)
        assert await replayer.tool(lookup)("x", depth=2) == {"key": "x", "depth": 2, "items": [1, 2]}


def test_a_failed_recording_run_leaves_no_stale_file(tmp_path):
    recorder = ToolRecorder(tmp_path, "record")
    tool = recorder.tool(lambda q: q.upper(), name="shout")
    with recorder.case("c"):
        tool("a")
    assert recording_path(tmp_path, "c").is_file()
    with pytest.raises(RuntimeError), recorder.case("c"):
        tool("b")
        raise RuntimeError("the agent crashed")
    assert not recording_path(tmp_path, "c").exists()


def test_match_rules():
    rules = MatchRules({"search": {"ignore_args": ["filters.since", "page"]}, "ping": {"ignore_args": True}})
    assert rules.matches("search", {"q": "x", "page": 1, "filters": {"since": "a", "lang": "en"}},
                         {"q": "x", "page": 3, "filters": {"since": "b", "lang": "en"}})
    assert not rules.matches("search", {"q": "x", "filters": {"lang": "en"}}, {"q": "x", "filters": {"lang": "fr"}})
    assert rules.matches("ping", {"a": 1}, {"b": 2})
    assert rules.matches("other", {"n": 1}, {"n": 1.0}) and not rules.matches("other", {"n": 1}, {"n": True})
    for bad in ({"t": {"ignore_args": "date"}}, {"t": {"ignore": ["x"]}}, ["t"]):
        with pytest.raises(ConfigError):
            MatchRules(bad)
    with pytest.raises(ConfigError, match="mode must be"):
        ToolRecorder("x", "live")
    with pytest.raises(ConfigError, match="not a folder of tool recordings"):
        ToolRecorder("/no/such/folder", "replay")


def test_replay_match_inline_or_from_a_json_or_yaml_file(tmp_path):
    (tmp_path / "m.yaml").write_text("match:\n  get_weather:\n    ignore_args: [date]\n")
    (tmp_path / "m.json").write_text('{"get_weather": {"ignore_args": ["date"]}}')
    for given in (str(tmp_path / "m.yaml"), str(tmp_path / "m.json"), '{"get_weather": {"ignore_args": ["date"]}}'):
        rules = load_match_rules(given)
        assert rules.matches("get_weather", {"city": "Oslo", "date": "mon"}, {"city": "Oslo", "date": "tue"})
        assert not rules.matches("get_weather", {"city": "Oslo"}, {"city": "Bergen"})
    (tmp_path / "bad.json").write_text("{not json")
    for bad, message in ((str(tmp_path / "bad.json"), "not valid JSON/YAML"), ("nowhere.json", "no such file"),
                         ('{"get_weather": {"ignore_args": 3}}', "ignore_args must be")):
        with pytest.raises(ConfigError, match=message):
            load_match_rules(bad)
