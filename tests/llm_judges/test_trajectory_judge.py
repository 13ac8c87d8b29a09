"""TrajectoryJudgeEvaluator against a real local judge server (real HTTP, official openai client).

The scripted judge reads the trajectory, the reference and the score format from the
prompt it receives and derives its verdict from them, so each test also proves that
the right content reached the judge, as a transcript in its block.
"""

import re

import pytest

from agent_evaluators import ConfigError, InputError, JudgeError, TrajectoryJudgeEvaluator
from agent_evaluators.testing import Reply

from .conftest import block

QUERY = "Book me a flight from SFO to JFK and a hotel in New York."
FLIGHT = {"id": "c1", "type": "function", "function": {"name": "search_flight", "arguments": '{"from": "SFO", "to": "JFK"}'}}
HOTEL = {"id": "c2", "type": "function", "function": {"name": "search_hotel", "arguments": '{"city": "NYC"}'}}

FULL = [
    {"role": "user", "content": QUERY},
    {"role": "assistant", "content": None, "tool_calls": [FLIGHT]},
    {"role": "tool", "tool_call_id": "c1", "content": '{"flight": "UA 100"}'},
    {"role": "assistant", "content": None, "tool_calls": [HOTEL]},
    {"role": "tool", "tool_call_id": "c2", "content": '{"hotel": "Hilton"}'},
    {"role": "assistant", "content": "Booked UA 100 and the Hilton."},
]
FLIGHT_ONLY = FULL[:3] + [{"role": "assistant", "content": "Booked UA 100; no hotel."}]
NO_TOOLS = [{"role": "user", "content": QUERY}, {"role": "assistant", "content": "Done!"}]
# A reference written as a bare list of tool calls (LangChain-style {"name", "args"}).
REFERENCE = [{"name": "search_flight", "args": {"from": "SFO", "to": "JFK"}}, {"name": "search_hotel", "args": {"city": "NYC"}}]
TOOLS = [
    {"name": "search_flight", "description": "Find flights.", "parameters": {"type": "object", "properties": {}}},
    {"name": "search_hotel", "description": "Find hotels.", "parameters": {"type": "object", "properties": {}}},
]


def _calls(messages):
    return [c["name"] for m in messages or [] if m["role"] == "assistant" for c in m.get("tool_calls", [])]


def _format(req):
    m = re.search(r'SCORE FORMAT: "(\w+)"', req.text)
    assert m, "the score format is missing from the judge prompt"
    return m.group(1)


def trajectory_judge(req):
    """Counts how many reference calls the trajectory made in order (default reference:
    flight then hotel) and answers in the format the prompt asks for."""
    trajectory = block(req, "trajectory")
    reference = block(req, "reference_trajectory")
    expected = _calls(reference) if reference else ["search_flight", "search_hotel"]  # an empty block: none given
    made = _calls(trajectory)
    matched = 0
    for name in made:
        if matched < len(expected) and name == expected[matched]:
            matched += 1
    fmt = _format(req)
    if fmt == "boolean":
        score = matched == len(expected)
    elif fmt == "continuous":
        score = matched / len(expected)
    else:
        score = 1 + 2 * matched  # 0, 1, 2 of 2 calls → 1, 3, 5
    return {"reasoning": f"{matched} of {len(expected)} expected steps. Thus, the score should be: {score}.", "score": score}


def test_boolean_mode_is_default(judge_server):
    server = judge_server(trajectory_judge)
    ev = TrajectoryJudgeEvaluator(model_config=server.openai_config(model="judge-4o"))
    good = ev(response=FULL)
    assert good["trajectory_accuracy"] == 1.0
    assert good["trajectory_accuracy_result"] == "pass"
    assert good["trajectory_accuracy_threshold"] == 0.5
    assert good["trajectory_accuracy_reason"].startswith("2 of 2 expected steps")
    details = good["trajectory_accuracy_details"]
    assert details["output"] == "boolean" and details["raw_score"] is True and details["has_reference"] is False
    assert details["reasoning"] == good["trajectory_accuracy_reason"]
    assert good["trajectory_accuracy_usage"]["judge_calls"] == 1

    bad = ev(response=FLIGHT_ONLY)
    assert bad["trajectory_accuracy"] == 0.0 and bad["trajectory_accuracy_result"] == "fail"
    assert bad["trajectory_accuracy_details"]["raw_score"] is False

    req = server.requests[0]
    # The judge is asked for openevals' schema: reasoning first, then a boolean score.
    assert list(req.json_schema["properties"]) == ["reasoning", "score"]
    assert req.json_schema["properties"]["score"]["type"] == "boolean"
    assert block(req, "task") == [] and block(req, "reference_trajectory") == []  # empty blocks: not given
    assert block(req, "tool_definitions") == []
    # The trajectory reaches the judge as a transcript: turns, tool calls with their arguments, results by tool name.
    sent = block(req, "trajectory")
    assert [m["role"] for m in sent] == ["user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert sent[1]["tool_calls"][0] == {"name": "search_flight", "arguments": {"from": "SFO", "to": "JFK"}}
    assert sent[2]["name"] == "search_flight" and sent[2]["content"] == {"flight": "UA 100"}
    assert '\\"' not in req.text  # the JSON results and arguments are not escaped inside a JSON string


def test_continuous_mode(judge_server):
    server = judge_server(trajectory_judge)
    ev = TrajectoryJudgeEvaluator(server.openai_config(), output="continuous")
    half = ev(response=FLIGHT_ONLY)
    assert half["trajectory_accuracy"] == 0.5 and half["trajectory_accuracy_result"] == "pass"
    assert ev(response=NO_TOOLS)["trajectory_accuracy"] == 0.0
    assert server.requests[0].json_schema["properties"]["score"]["type"] == "number"


@pytest.mark.parametrize(
    "trajectory, raw, normalized",
    [(NO_TOOLS, 1, 0.0), (FLIGHT_ONLY, 3, 0.5), (FULL, 5, 1.0)],
)
def test_likert_is_normalized_like_trajectory_eval_chain(judge_server, trajectory, raw, normalized):
    # LangChain's TrajectoryEvalChain maps 1–5 to (s - 1) / 4.
    server = judge_server(trajectory_judge)
    out = TrajectoryJudgeEvaluator(server.openai_config(), output="likert")(response=trajectory)
    assert out["trajectory_accuracy_details"]["raw_score"] == raw
    assert out["trajectory_accuracy"] == normalized
    assert out["trajectory_accuracy_result"] == ("pass" if normalized >= 0.5 else "fail")
    assert server.requests[0].json_schema["properties"]["score"]["type"] == "integer"


def test_reference_trajectory_and_tool_definitions_reach_the_judge(judge_server):
    server = judge_server(trajectory_judge)
    ev = TrajectoryJudgeEvaluator(server.openai_config(), output="likert")
    # FULL follows the reference (flight, then hotel): 2 of 2 reference calls in order → likert 5 → 1.0.
    out = ev(response=FULL, ground_truth=REFERENCE, query=QUERY, tool_definitions=TOOLS)
    assert out["trajectory_accuracy"] == 1.0
    assert out["trajectory_accuracy_details"]["has_reference"] is True
    req = server.requests[0]
    reference = block(req, "reference_trajectory")
    assert [c for m in reference for c in m["tool_calls"]] == [
        {"name": "search_flight", "arguments": {"from": "SFO", "to": "JFK"}},
        {"name": "search_hotel", "arguments": {"city": "NYC"}},
    ]
    assert '\\"' not in req.text  # no JSON document escaped inside the request's JSON string
    assert [d["name"] for d in block(req, "tool_definitions")] == ["search_flight", "search_hotel"]
    assert block(req, "task") == [{"role": "user", "content": QUERY}]

    # A reference the agent does not follow changes the verdict: proof the judge compared against it.
    other = [{"role": "assistant", "tool_calls": [{"id": "x", "type": "function",
                                                   "function": {"name": "search_train", "arguments": "{}"}}]}]
    assert ev(response=FULL, ground_truth=other)["trajectory_accuracy"] == 0.0


def test_langchain_and_wrapped_formats(judge_server):
    server = judge_server(trajectory_judge)
    ev = TrajectoryJudgeEvaluator(server.openai_config())
    langchain = {
        "messages": [
            {"type": "human", "content": QUERY},
            {"type": "ai", "content": "", "tool_calls": [{"name": "search_flight", "args": {"to": "JFK"}, "id": "a"}]},
            {"type": "tool", "content": "ok", "tool_call_id": "a"},
            {"type": "ai", "content": "", "tool_calls": [{"name": "search_hotel", "args": {"city": "NYC"}, "id": "b"}]},
            {"type": "tool", "content": "ok", "tool_call_id": "b"},
            {"type": "ai", "content": "All booked."},
        ]
    }
    assert ev(response=langchain)["trajectory_accuracy"] == 1.0
    assert [m["role"] for m in block(server.requests[0], "trajectory")][:2] == ["user", "assistant"]


@pytest.mark.parametrize(
    "output, reply",
    [
        ("likert", {"reasoning": "r", "score": 7}),
        ("likert", {"reasoning": "r", "score": 0}),
        ("likert", {"reasoning": "r", "score": 3.5}),
        ("continuous", {"reasoning": "r", "score": 1.5}),
        ("continuous", {"reasoning": "r", "score": -0.1}),
        ("boolean", {"reasoning": "r", "score": "yes"}),
        ("boolean", {"reasoning": "r", "score": 1}),
        ("boolean", {"reasoning": "r"}),
    ],
)
def test_out_of_range_or_wrong_type_score_is_a_judge_error(judge_server, output, reply):
    server = judge_server(lambda req: Reply(reply))
    ev = TrajectoryJudgeEvaluator(server.openai_config(), output=output)
    with pytest.raises(JudgeError) as exc:
        ev(response=FULL)
    assert "TrajectoryJudgeEvaluator" in str(exc.value)
    assert server.stats()["requests"] >= 1


def test_bad_inputs_raise_input_error_naming_the_input(judge_server):
    server = judge_server(trajectory_judge)
    ev = TrajectoryJudgeEvaluator(server.openai_config())
    cases = [
        ({}, "response"),
        ({"response": []}, "response"),
        ({"response": [{"foo": 1}]}, "response"),
        ({"response": FULL, "ground_truth": [{"bar": 2}]}, "ground_truth"),
        ({"response": FULL, "tool_definitions": "not tools"}, "tool_definitions"),
        ({"response": FULL, "reference": FULL}, "reference"),
    ]
    for kwargs, name in cases:
        with pytest.raises(InputError) as exc:
            ev(**kwargs)
        assert exc.value.input_name == name, (kwargs, exc.value)
        assert exc.value.evaluator == "TrajectoryJudgeEvaluator"
    assert server.stats()["requests"] == 0


def test_configuration_errors():
    with pytest.raises(ConfigError, match="output must be one of"):
        TrajectoryJudgeEvaluator({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}, output="stars")
    ev = TrajectoryJudgeEvaluator({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"},
                                  output="LIKERT", threshold=0.75)
    assert ev.output == "likert" and ev.threshold == 0.75
