"""rubric_based_multi_turn_trajectory_quality_v1: our prompt holds everything ADK's does.

For the same invocations (built with google-adk 2.13's own models), ADK's evaluator renders its
prompt (``_assemble_dialogue_history`` + ``format_auto_rater_prompt``, no model called) and we
render ours through ``evaluate_invocations`` against the real local judge server. Every piece
ADK's prompt carries is read back out of it (each ``USER/AGENT TURN n`` line: the text, the tool
call's name and argument values, the tool output's name and values; each agent's instructions;
each tool's name and description; each rubric's id, property and type) and must appear in our
prompt: in the same turn (our ``<conversation>`` block, one entry per turn), in the same order
within the turn, and by the same agent where ADK names the event's author. Our template text is
our own; only the information is compared.
"""

import json
import re
from typing import Any, Dict, List

import pytest

from agent_evaluators.adk import evaluate_invocations

from ..conftest import optional_import
from .conftest import block, rubrics_of, turns_of

optional_import("google.adk")

from google.adk.evaluation.app_details import AgentDetails, AppDetails  # noqa: E402
from google.adk.evaluation.eval_case import IntermediateData, Invocation, InvocationEvent, InvocationEvents  # noqa: E402
from google.adk.evaluation.eval_metrics import EvalMetric, RubricsBasedCriterion  # noqa: E402
from google.adk.evaluation.eval_rubrics import Rubric, RubricContent  # noqa: E402
from google.adk.evaluation.rubric_based_multi_turn_trajectory_evaluator import (  # noqa: E402
    RubricBasedMultiTurnTrajectoryEvaluator,
)
from google.genai import types as g  # noqa: E402

METRIC = "rubric_based_multi_turn_trajectory_quality_v1"


def text(role: str, *texts: str) -> g.Content:
    return g.Content(role=role, parts=[g.Part(text=t) for t in texts])


def call(call_id: str, name: str, args: Any) -> g.Part:
    return g.Part(function_call=g.FunctionCall(id=call_id, name=name, args=args))


def result(call_id: str, name: str, response: Any) -> g.Part:
    return g.Part(function_response=g.FunctionResponse(id=call_id, name=name, response=response))


def tools(*pairs: Any) -> List[g.Tool]:
    return [g.Tool(function_declarations=[g.FunctionDeclaration(name=n, description=d) for n, d in pairs])]


HOME = AppDetails(agent_details={
    "home_agent": AgentDetails(name="home_agent", instructions="You control the devices of the house.",
                               tool_declarations=tools(("set_device_info", "Sets the status of a device"),
                                                       ("get_device_info", "Reads the status of a device"))),
    "weather_agent": AgentDetails(name="weather_agent", instructions="You answer weather questions in Celsius.",
                                  tool_declarations=tools(("get_weather", "Current weather for a city"))),
})

RUBRICS = [Rubric(rubric_id="calls_set", rubric_content=RubricContent(text_property="The agent calls set_device_info."))]


def events_conversation() -> List[Invocation]:
    """Three turns, two agents, texts beside tool calls, nested arguments, a call without arguments,
    an invocation rubric of this metric's type."""
    return [
        Invocation(
            invocation_id="t1", user_content=text("user", "Turn off device_2 in the Bedroom."),
            final_response=text("model", "I have switched device_2 off."), app_details=HOME,
            intermediate_data=InvocationEvents(invocation_events=[
                InvocationEvent(author="home_agent", content=g.Content(role="model", parts=[
                    g.Part(text="Let me switch that off."),
                    call("c1", "set_device_info", {"device_id": "device_2", "status": "OFF",
                                                   "where": {"room": "Bedroom", "floor": 2}})])),
                InvocationEvent(author="home_agent", content=g.Content(role="user", parts=[
                    result("c1", "set_device_info", {"result": "switched", "device_id": "device_2"})])),
            ])),
        Invocation(
            invocation_id="t2", user_content=text("user", "What is the weather in Oslo?"),
            final_response=text("model", "It is minus three degrees with light snow in Oslo."), app_details=HOME,
            intermediate_data=InvocationEvents(invocation_events=[
                InvocationEvent(author="weather_agent", content=g.Content(role="model", parts=[
                    call("c2", "get_weather", {"city": "Oslo"})])),
                InvocationEvent(author="weather_agent", content=g.Content(role="user", parts=[
                    result("c2", "get_weather", {"temperature_c": -3, "condition": "light snow"})])),
            ])),
        Invocation(
            invocation_id="t3", user_content=text("user", "Is device_2 still off?", "Please check twice."),
            final_response=text("model", "Yes, device_2 is still off."), app_details=HOME,
            intermediate_data=InvocationEvents(invocation_events=[
                InvocationEvent(author="home_agent", content=g.Content(role="model", parts=[
                    call("c3", "get_device_info", None)])),
                InvocationEvent(author="home_agent", content=g.Content(role="user", parts=[
                    result("c3", "get_device_info", {"status": "OFF"})])),
                InvocationEvent(author="home_agent", content=text("model", "The status reads OFF.")),
            ]),
            rubrics=[Rubric(rubric_id="confirms", rubric_content=RubricContent(text_property="Confirms each change."),
                            type="TRAJECTORY_QUALITY")]),
    ]


def static_conversation() -> List[Invocation]:
    """The static ``IntermediateData`` form: ADK's prompt shows no tool steps for it; ours does."""
    return [
        Invocation(invocation_id="s1", user_content=text("user", "Roll a die with six sides."),
                   final_response=text("model", "You rolled a four."),
                   intermediate_data=IntermediateData(tool_uses=[g.FunctionCall(name="roll_die", args={"sides": 6})])),
        Invocation(invocation_id="s2", user_content=text("user", "Is four a prime number?"),
                   final_response=text("model", "No, four is not prime.")),
    ]


def adk_prompt(invocations: List[Invocation]) -> str:
    criterion = RubricsBasedCriterion(threshold=0.5, rubrics=RUBRICS)
    evaluator = RubricBasedMultiTurnTrajectoryEvaluator(EvalMetric(metric_name=METRIC, criterion=criterion))
    evaluator._assemble_dialogue_history(invocations)
    return evaluator.format_auto_rater_prompt(invocations[-1], None)


def our_request(judge_server, invocations: List[Invocation]):
    def judge(req):
        return {"rubrics": [{"rubric_id": r["rubric_id"], "property": r["property"], "evidence": "e",
                             "rationale": "r", "verdict": "yes"} for r in rubrics_of(req)]}

    server = judge_server(judge)
    actual = [inv.model_dump(mode="json", exclude_none=True) for inv in invocations]
    criterion = {"threshold": 0.5, "rubrics": [r.model_dump(mode="json", exclude_none=True) for r in RUBRICS],
                 "judge_model_options": {"num_samples": 1}}
    out = evaluate_invocations(METRIC, actual, criterion=criterion, model_config=server.openai_config())
    assert out.status == "PASSED" and len(server.requests) == 1
    return server.requests[0]


def adk_block(prompt: str, tag: str) -> str:
    return re.search(rf"<{tag}>\n(.*?)\n</{tag}>", prompt, re.DOTALL).group(1)


_LINE = re.compile(r"^(USER|AGENT \((?P<author>[^)]*)\)) TURN (?P<turn>\d+)"
                   r"(?: \((?P<kind>tool call|tool output)\))?: (?P<rest>.*)$")


def adk_dialogue(prompt: str) -> List[Dict[str, Any]]:
    """ADK's dialogue lines, each read back into its pieces of information."""
    pieces = []
    for line in adk_block(prompt, "conversation_history").splitlines():
        m = _LINE.match(line)
        assert m, f"unexpected line in ADK's prompt: {line!r}"
        kind, rest = m.group("kind"), m.group("rest")
        entry: Dict[str, Any] = {"turn": int(m.group("turn")), "author": m.group("author"), "kind": kind}
        if kind == "tool call":
            name, args = re.match(r"^([\w.]+)\((.*)\)$", rest).groups()
            entry.update(name=name, values=leaves(json.loads(args)))
        elif kind == "tool output":
            name, response = rest.split(" -> ", 1)
            entry.update(name=name, values=leaves(json.loads(response)))
        else:
            entry.update(values=[rest])
        pieces.append(entry)
    return pieces


def leaves(value: Any) -> List[str]:
    """Every key and scalar value of a JSON value, as JSON text (how both prompts spell them)."""
    if isinstance(value, dict):
        return [json.dumps(k) for k in value] + [x for v in value.values() for x in leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in leaves(v)]
    return [json.dumps(value)]


def message_text(message: Dict[str, Any]) -> str:
    """One of our JSON messages as searchable text: its words with whitespace collapsed (ADK joins
    a message's text parts with a space, we with a line break), its tool calls and results as JSON."""
    parts = [json.dumps(message["name"])] if message.get("name") else []
    content = message.get("content")
    if isinstance(content, str):
        parts.append(" ".join(content.split()))
    elif content is not None:
        parts.append(json.dumps(content))
    parts.extend(json.dumps(c) for c in message.get("tool_calls", []))
    return " ".join(parts)


def assert_same_information(adk: str, req) -> None:
    ours = turns_of(req)
    # the dialogue: every piece in its turn, in ADK's order, by its author
    position: Dict[int, int] = {}
    for piece in adk_dialogue(adk):
        turn = ours[piece["turn"] - 1]
        assert turn["turn"] == piece["turn"]
        haystack = "\n".join(message_text(m) for m in turn["messages"])
        if piece["kind"] is None:
            needles = [" ".join(piece["values"][0].split())]
        else:
            needles = [json.dumps(piece["name"]), *piece["values"]]
        first = haystack.find(needles[0], position.get(piece["turn"], 0))
        assert first >= 0, f"turn {piece['turn']}: {needles[0]} (from ADK's prompt) is not in ours, in order: {haystack}"
        position[piece["turn"]] = first
        for needle in needles[1:]:
            assert needle in haystack, f"turn {piece['turn']}: {needle} (from ADK's prompt) is not in ours: {haystack}"
        if piece["author"] not in (None, "agent") and piece["kind"] != "tool output":  # each reply and call names its agent
            by_author = [m for m in turn["messages"] if m.get("role") == "assistant" and m.get("name") == piece["author"]]
            if piece["kind"] is None:
                assert any(needles[0] in " ".join((m.get("content") or "").split()) for m in by_author), \
                    f"turn {piece['turn']}: {needles[0]} is not attributed to {piece['author']}"
            else:
                assert any(c["name"] == piece["name"] for m in by_author for c in m.get("tool_calls", [])), \
                    f"turn {piece['turn']}: the call {piece['name']} is not attributed to {piece['author']}"
    # the agents' instructions and tools
    instructions = {a["name"]: a["description"] for a in block(req, "agent_instructions")}  # "agent: text" lines
    for name, text_ in re.findall(r"Agent (\S+) Instructions:\n(.*)", adk_block(adk, "agent_system_instructions")):
        assert instructions[name] == text_
    ours_tools = block(req, "tool_definitions")
    for agent_name, listing in re.findall(r"Agent: (\S+)\n((?:- .*\n?)*)", adk_block(adk, "agent_tool_definitions")):
        for name, description in re.findall(r"- (\S+): (.*)", listing):
            assert {"name": name, "description": f"{description} (agent {agent_name})"} in ours_tools
    # the rubrics: id, property and type
    ours_rubrics = {r["rubric_id"]: r for r in rubrics_of(req)}
    for rubric in json.loads(adk_block(adk, "properties")):
        mine = ours_rubrics[rubric["id"]]
        assert mine["property"] == rubric["property"] and mine.get("type") == rubric.get("type")


@pytest.mark.parametrize("conversation", [events_conversation, static_conversation], ids=["events", "static"])
def test_our_prompt_holds_everything_adks_prompt_holds(judge_server, conversation):
    invocations = conversation()
    adk = adk_prompt(invocations)
    req = our_request(judge_server, invocations)
    assert_same_information(adk, req)
    assert len(turns_of(req)) == len(invocations)
    assert '\\"' not in req.text  # no JSON document escaped inside the request's JSON string


def test_the_reader_finds_every_piece_of_adks_prompt():
    """The check above is only as good as its reading of ADK's prompt: it must find each piece."""
    pieces = adk_dialogue(adk_prompt(events_conversation()))
    assert [p["turn"] for p in pieces if p["author"] is None] == [1, 2, 3]
    calls = [p for p in pieces if p["kind"] == "tool call"]
    assert [c["name"] for c in calls] == ["set_device_info", "get_weather", "get_device_info"]
    assert '"Bedroom"' in calls[0]["values"] and "2" in calls[0]["values"]
    outputs = [p for p in pieces if p["kind"] == "tool output"]
    assert '"switched"' in outputs[0]["values"] and "-3" in outputs[1]["values"]
    assert {p["author"] for p in pieces if p["author"]} == {"home_agent", "weather_agent"}


def test_static_form_tool_calls_reach_our_judge_though_not_adks(judge_server):
    invocations = static_conversation()
    assert "roll_die" not in adk_prompt(invocations)  # ADK reads tool steps only from invocation events
    req = our_request(judge_server, invocations)
    first = turns_of(req)[0]["messages"]
    assert {"name": "roll_die", "arguments": {"sides": 6}} in first[1]["tool_calls"]
