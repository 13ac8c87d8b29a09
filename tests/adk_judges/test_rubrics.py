"""The two rubric metrics against the real local judge server.

Expected numbers follow reference/adk.md §4.4 (ADK 2.13 rubric machinery): per rubric a
majority over samples with ties → no; invocation score = mean of the scored rubrics;
case score = mean of all (invocation, rubric) scores, flattened.
"""

import pytest

from agent_evaluators import (
    ConfigError,
    InputError,
    JudgeError,
    RubricBasedFinalResponseQualityEvaluator,
    RubricBasedToolUseQualityEvaluator,
)
from agent_evaluators.adk.judges.rubrics import normalize_rubric_text, normalize_rubrics

from .conftest import ADK_GOLDEN, Script, block, rubrics_of

ADK_RUBRICS = [
    {"rubric_id": "mentions_paris", "rubric_content": {"text_property": "The response names Paris."},
     "type": "FINAL_RESPONSE_QUALITY"},
    {"rubric_id": "is_short", "rubric_content": {"text_property": "The response is under ten words."}},
]


def rubric_judge(req):
    """yes/no per rubric from the final response: Paris mentioned; fewer than ten words."""
    final = block(req, "final_response")
    verdicts = []
    for r in rubrics_of(req):
        if "Paris" in r["property"]:
            ok = "Paris" in final
        elif "ten words" in r["property"]:
            ok = len(final.split()) < 10
        else:
            ok = False
        verdicts.append({"rubric_id": r["rubric_id"], "property": r["property"], "evidence": final,
                         "rationale": "rule", "verdict": "yes" if ok else "no"})
    return {"rubrics": verdicts}


def item(rid, verdict, prop="p"):
    return {"rubric_id": rid, "property": prop, "evidence": "e", "rationale": f"{rid}:{verdict}", "verdict": verdict}


def test_rubric_scores_and_what_reaches_the_judge(judge_server):
    server = judge_server(rubric_judge)
    ev = RubricBasedFinalResponseQualityEvaluator(ADK_RUBRICS, server.openai_config(), num_samples=3)
    out = ev(query="Capital of France?", response="The capital of France is, without any doubt at all, Paris.",
             instructions="Answer briefly.",
             tool_definitions=[{"name": "lookup", "description": "d", "parameters": {"type": "object", "properties": {}}}])
    key = "rubric_based_final_response_quality_v1"
    assert out[key] == 0.5 and out[f"{key}_result"] == "fail"
    rubrics = {r["rubric_id"]: r for r in out[f"{key}_details"]["rubrics"]}
    assert rubrics["mentions_paris"]["score"] == 1.0 and rubrics["mentions_paris"]["votes"]["yes"] == 3
    assert rubrics["is_short"]["score"] == 0.0 and rubrics["is_short"]["votes"]["no"] == 3
    assert "not met: is_short" in out[f"{key}_reason"]
    req = server.requests[0]
    assert rubrics_of(req) == [{"rubric_id": "mentions_paris", "property": "The response names Paris."},
                                     {"rubric_id": "is_short", "property": "The response is under ten words."}]
    assert block(req, "agent_instructions") == "Answer briefly."
    assert block(req, "tool_definitions")[0]["name"] == "lookup"
    assert block(req, "conversation")[-1]["content"] == "Capital of France?"
    assert [r.body["temperature"] for r in server.requests] == [1.0] * 3
    item_schema = req.json_schema["properties"]["rubrics"]["items"]
    item_schema = req.json_schema["$defs"][item_schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in item_schema else item_schema
    assert item_schema["properties"]["verdict"]["enum"] == ["yes", "no"]


def test_plain_string_rubrics_get_positional_ids(judge_server):
    server = judge_server(rubric_judge)
    out = RubricBasedFinalResponseQualityEvaluator(["The response names Paris."], server.openai_config(),
                                                   num_samples=1)(query="q", response="Paris.")
    assert out["rubric_based_final_response_quality_v1"] == 1.0
    assert rubrics_of(server.requests[0]) == [{"rubric_id": "rubric_1", "property": "The response names Paris."}]


def test_per_rubric_majority_with_ties_going_to_no(judge_server):
    # 4 samples: rubric a gets yes,yes,no,no (tie -> no); rubric b gets yes,yes,yes,no (-> yes).
    plan = Script([("yes", "yes"), ("yes", "yes"), ("no", "yes"), ("no", "no")])

    def responder(req):
        a, b = plan.next()
        return {"rubrics": [item("a", a), item("b", b)]}

    server = judge_server(responder)
    out = RubricBasedFinalResponseQualityEvaluator([{"rubric_id": "a", "text": "A"}, {"rubric_id": "b", "text": "B"}],
                                                   server.openai_config(), num_samples=4)(query="q", response="r")
    details = {r["rubric_id"]: r for r in out["rubric_based_final_response_quality_v1_details"]["rubrics"]}
    assert details["a"]["score"] == 0.0 and details["a"]["votes"] == {"yes": 2, "no": 2, "unscored": 0, "missing": 0}
    assert details["b"]["score"] == 1.0
    assert details["a"]["rationale"] == "a:no"  # ADK reports the first entry of the winning side
    assert out["rubric_based_final_response_quality_v1"] == ADK_GOLDEN["rubric_ties"] == 0.5


def test_omitted_and_unknown_rubrics_are_unscored_never_zero(judge_server):
    # The judge never answers rubric b and adds a verdict for a rubric nobody asked about.
    server = judge_server(lambda req: {"rubrics": [item("rubric_1", "yes"), item("zzz", "no", prop="Invented rubric")]})
    out = RubricBasedFinalResponseQualityEvaluator(["A", "B"], server.openai_config(), num_samples=2)(
        query="q", response="r")
    key = "rubric_based_final_response_quality_v1"
    assert out[key] == 1.0  # only rubric_1 scored; rubric_2 is not counted as 0
    details = {r["rubric_id"]: r for r in out[f"{key}_details"]["rubrics"]}
    assert details["rubric_2"]["score"] is None and details["rubric_2"]["votes"]["missing"] == 2
    assert out[f"{key}_details"]["unknown_rubrics"] == [{"sample": 0, "rubric": "zzz"}, {"sample": 1, "rubric": "zzz"}]
    assert "1 unscored" in out[f"{key}_reason"]


def test_verdicts_map_by_property_text_when_the_id_is_wrong(judge_server):
    server = judge_server(lambda req: {"rubrics": [
        item("1", "no", prop="  **the response’s tone is  polite.**  "),
        item("[id: b]", "yes", prop="- The answer cites a source"),
    ]})
    out = RubricBasedFinalResponseQualityEvaluator(
        [{"rubric_id": "tone", "rubric_content": {"text_property": "The response's tone is polite."}},
         {"rubric_id": "cite", "rubric_content": {"text_property": "The answer cites a source"}}],
        server.openai_config(), num_samples=1)(query="q", response="r")
    scores = {r["rubric_id"]: r["score"] for r in out["rubric_based_final_response_quality_v1_details"]["rubrics"]}
    assert scores == {"tone": 0.0, "cite": 1.0}
    assert normalize_rubric_text("“Hello”  —  World *") == 'hello" - world'  # NFKC, ASCII quotes/dashes, ends stripped


def test_label_outside_the_set_leaves_that_rubric_unscored(judge_server):
    server = judge_server(lambda req: {"rubrics": [item("rubric_1", "maybe"), item("rubric_2", "no")]})
    out = RubricBasedFinalResponseQualityEvaluator(["A", "B"], server.openai_config(), num_samples=1)(
        query="q", response="r")
    key = "rubric_based_final_response_quality_v1"
    assert out[key] == 0.0  # only rubric_2 (no) is scored
    details = {r["rubric_id"]: r for r in out[f"{key}_details"]["rubrics"]}
    assert details["rubric_1"]["score"] is None and details["rubric_1"]["votes"]["unscored"] == 1

    server2 = judge_server(lambda req: {"rubrics": [item("rubric_1", "unknown")]})
    # ADK's substring rule would read "unknown" as "no" (0.0); ours leaves it unscored, so nothing is scored.
    with pytest.raises(JudgeError, match="no usable yes/no verdict"):
        RubricBasedFinalResponseQualityEvaluator(["A"], server2.openai_config(), num_samples=1)(query="q", response="r")


def test_duplicate_verdicts_for_one_rubric_leave_it_unscored_in_that_sample(judge_server):
    server = judge_server(lambda req: {"rubrics": [item("rubric_1", "yes"), item("rubric_1", "no"),
                                                   item("rubric_2", "yes")]})
    out = RubricBasedFinalResponseQualityEvaluator(["A", "B"], server.openai_config(), num_samples=1)(
        query="q", response="r")
    details = {r["rubric_id"]: r for r in out["rubric_based_final_response_quality_v1_details"]["rubrics"]}
    assert details["rubric_1"]["score"] is None and out["rubric_based_final_response_quality_v1"] == 1.0


def tool_rubric_judge(req):
    steps = block(req, "tool_steps")
    names = [s["name"] for s in steps]
    verdicts = []
    for r in rubrics_of(req):
        if r["rubric_id"] == "geocode_first":
            ok = "geocode" in names and "get_weather" in names and names.index("geocode") < names.index("get_weather")
        else:
            ok = any(s["name"] == "get_weather" and "result" in s for s in steps)
        verdicts.append(item(r["rubric_id"], "yes" if ok else "no", r["property"]))
    return {"rubrics": verdicts}


TOOL_RUBRICS = [
    {"rubric_id": "geocode_first", "rubric_content": {"text_property": "geocode is called before get_weather."}},
    {"rubric_id": "weather_result", "rubric_content": {"text_property": "get_weather returned a result."}},
]


def test_tool_use_rubrics_from_messages_and_from_tool_calls(judge_server):
    server = judge_server(tool_rubric_judge)
    ev = RubricBasedToolUseQualityEvaluator(TOOL_RUBRICS, server.openai_config(), num_samples=1)
    key = "rubric_based_tool_use_quality_v1"
    response = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "g", "type": "function", "function": {"name": "geocode", "arguments": '{"city": "Oslo"}'}}]},
        {"role": "tool", "tool_call_id": "g", "content": '{"lat": 59.9, "lon": 10.7}'},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "w", "type": "function", "function": {"name": "get_weather", "arguments": '{"lat": 59.9, "lon": 10.7}'}}]},
        {"role": "tool", "tool_call_id": "w", "content": '{"sky": "rain"}'},
        {"role": "assistant", "content": "Rain in Oslo."},
    ]
    out = ev(query="Weather in Oslo?", response=response)
    assert out[key] == 1.0
    steps = block(server.requests[0], "tool_steps")
    assert [s["name"] for s in steps] == ["geocode", "get_weather"]  # call lines: name(argument=value)
    assert steps[0]["arguments"] == {"city": "Oslo"}

    reversed_calls = [{"name": "get_weather", "arguments": {"lat": 1, "lon": 2}}, {"name": "geocode", "arguments": {}}]
    out2 = ev(query="Weather in Oslo?", tool_calls=reversed_calls)
    assert out2[key] == 0.0  # wrong order, and bare tool calls carry no results

    with pytest.raises(InputError) as info:
        ev(query="Weather in Oslo?")
    assert info.value.input_name == "tool_calls"


def test_rubric_configuration_errors():
    with pytest.raises(ConfigError, match="rubrics are required"):
        RubricBasedFinalResponseQualityEvaluator([], {"model": "m", "base_url": "http://127.0.0.1:9"})
    with pytest.raises(ConfigError, match="used twice"):
        RubricBasedToolUseQualityEvaluator([{"rubric_id": "x", "text": "a"}, {"rubric_id": "x", "text": "b"}],
                                           {"model": "m", "base_url": "http://127.0.0.1:9"})
    with pytest.raises(ConfigError, match="no text"):
        normalize_rubrics([{"rubric_id": "x", "rubric_content": {"text_property": ""}}], owner="t")
    assert [r.rubric_id for r in normalize_rubrics(["a", {"rubricId": "b", "rubricContent": {"textProperty": "B"}}],
                                                   owner="t")] == ["rubric_1", "b"]


def test_conversation_is_judged_per_user_turn(judge_server):
    server = judge_server(rubric_judge)
    conversation = [
        {"role": "user", "content": "Capital of France?"},
        {"role": "assistant", "content": "Paris."},
        {"role": "user", "content": "And of Spain?"},
        {"role": "assistant", "content": "Madrid."},
    ]
    key = "rubric_based_final_response_quality_v1"
    out = RubricBasedFinalResponseQualityEvaluator(ADK_RUBRICS, server.openai_config(), num_samples=1)(
        conversation=conversation)
    # turn 1: names Paris (yes), short (yes) -> 1.0; turn 2: no Paris, short -> 0.5; mean 0.75
    assert [t["score"] for t in out[f"{key}_details"]["per_turn"]] == [1.0, 0.5]
    assert out[key] == 0.75
    assert sorted(block(r, "final_response") for r in server.requests) == ["Madrid.", "Paris."]
