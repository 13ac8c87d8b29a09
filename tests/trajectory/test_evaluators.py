"""ToolTrajectoryEvaluator and ResponseMatchEvaluator: call shape, configuration, input formats, errors."""

import asyncio
import inspect
import json
from typing import Any, Dict, List

import pytest

from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator
from agent_evaluators.evaluators.trajectory import ToolTrajectoryEvaluator

KEY = "tool_trajectory_avg_score"


def openai_call(name: str, args: Dict[str, Any], call_id: str) -> Dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


FLIGHT, HOTEL = {"to": "JFK"}, {"city": "NYC"}
OPENAI = [
    {"role": "user", "content": "trip"},
    {"role": "assistant", "content": None, "tool_calls": [openai_call("flight", FLIGHT, "c1")]},
    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    {"role": "assistant", "content": None, "tool_calls": [openai_call("hotel", HOTEL, "c2")]},
    {"role": "tool", "tool_call_id": "c2", "content": "ok"},
    {"role": "assistant", "content": "Booked."},
]
BARE = [{"name": "flight", "args": FLIGHT}, {"name": "hotel", "args": HOTEL}]
RESPONSES_API = [
    {"type": "message", "role": "user", "content": "trip"},
    {"type": "function_call", "call_id": "c1", "name": "flight", "arguments": json.dumps(FLIGHT)},
    {"type": "function_call_output", "call_id": "c1", "output": "ok"},
    {"type": "function_call", "call_id": "c2", "name": "hotel", "arguments": json.dumps(HOTEL)},
    {"type": "function_call_output", "call_id": "c2", "output": "ok"},
]
AZURE_AGENT = [
    {"role": "user", "content": [{"type": "text", "text": "trip"}]},
    {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "flight", "arguments": FLIGHT}]},
    {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": "ok"}]},
    {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c2", "name": "hotel", "arguments": HOTEL}]},
]
LANGCHAIN = [
    {"type": "human", "content": "trip"},
    {"type": "ai", "content": "", "tool_calls": [{"id": "c1", "name": "flight", "args": FLIGHT}]},
    {"type": "ai", "content": "", "tool_calls": [{"id": "c2", "name": "hotel", "args": HOTEL}]},
]


def invocation(calls: List[Dict[str, Any]], text: str = "done", camel: bool = False) -> Dict[str, Any]:
    if camel:
        return {
            "userContent": {"parts": [{"text": "q"}]},
            "intermediateData": {"toolUses": calls},
            "finalResponse": {"parts": [{"text": text}]},
        }
    return {
        "user_content": {"parts": [{"text": "q"}]},
        "intermediate_data": {"tool_uses": calls},
        "final_response": {"parts": [{"text": text}]},
    }


ADK_ONE = [invocation(BARE)]


# ---------------------------------------------------------------------------- call shape
def test_call_shape_is_the_fixed_one() -> None:
    init = inspect.signature(ToolTrajectoryEvaluator.__init__).parameters
    assert {k: init[k].default for k in ("match_type", "args_match", "args_match_overrides", "ignore_args", "threshold")} == {
        "match_type": "exact", "args_match": "exact", "args_match_overrides": None, "ignore_args": False, "threshold": 1.0,
    }
    call = inspect.signature(ToolTrajectoryEvaluator.__call__).parameters
    assert [p for p in call if p != "self"] == ["response", "ground_truth"]
    assert all(call[p].default is inspect.Parameter.empty for p in ("response", "ground_truth"))
    assert ToolTrajectoryEvaluator.result_key == KEY
    assert ResponseMatchEvaluator.result_key == "response_match_score" and ResponseMatchEvaluator().threshold == 0.8


def test_result_dict_keys_and_async_twin() -> None:
    evaluator = ToolTrajectoryEvaluator()
    result = evaluator(response=OPENAI, ground_truth=BARE)
    assert set(result) == {KEY, f"{KEY}_result", f"{KEY}_threshold", f"{KEY}_reason", f"{KEY}_details"}
    assert (result[KEY], result[f"{KEY}_result"], result[f"{KEY}_threshold"]) == (1.0, "pass", 1.0)
    assert asyncio.run(evaluator.acall(response=OPENAI, ground_truth=BARE)) == result


# ---------------------------------------------------------------------------- configuration
def test_ignore_args_is_args_match_ignore() -> None:
    swapped = [{"name": "flight", "args": {"to": "LGA"}}, {"name": "hotel", "args": {}}]
    assert ToolTrajectoryEvaluator(ignore_args=True)(response=swapped, ground_truth=BARE)[KEY] == 1.0
    assert ToolTrajectoryEvaluator(args_match="ignore")(response=swapped, ground_truth=BARE)[KEY] == 1.0
    assert ToolTrajectoryEvaluator(ignore_args=True, args_match="ignore").args_policy.mode.value == "ignore"
    assert ToolTrajectoryEvaluator()(response=swapped, ground_truth=BARE)[KEY] == 0.0


@pytest.mark.parametrize("args_match", ["subset", "superset"])
def test_ignore_args_with_a_different_args_match_is_a_config_error(args_match: str) -> None:
    with pytest.raises(ConfigError, match="ignore_args=True"):
        ToolTrajectoryEvaluator(ignore_args=True, args_match=args_match)


@pytest.mark.parametrize(
    "kwargs",
    [{"match_type": "sometimes"}, {"args_match": "loose"}, {"args_match_overrides": {"t": 3}}, {"threshold": "high"},
     {"ignore_args": "yes"}, {"args_match_overrides": ["t"]}],
)
def test_bad_configuration_is_a_config_error(kwargs: Dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        ToolTrajectoryEvaluator(**kwargs)


@pytest.mark.parametrize("spelling", ["IN_ORDER", "in-order", "In Order", 1])
def test_adk_spellings_of_match_type(spelling: Any) -> None:
    extra = [{"name": "weather", "args": {}}] + BARE
    assert ToolTrajectoryEvaluator(match_type=spelling)(response=extra, ground_truth=BARE)[KEY] == 1.0


# ---------------------------------------------------------------------------- input formats
@pytest.mark.parametrize(
    "response",
    [OPENAI, {"messages": OPENAI}, BARE, RESPONSES_API, AZURE_AGENT, LANGCHAIN, ADK_ONE, [invocation(BARE, camel=True)]],
    ids=["openai", "wrapper", "bare", "responses", "azure", "langchain", "adk", "adk-camel"],
)
@pytest.mark.parametrize("match_type", ["exact", "in_order", "any_order", "unordered", "subset", "superset"])
def test_every_input_format_reads_the_same_calls(response: Any, match_type: str) -> None:
    evaluator = ToolTrajectoryEvaluator(match_type=match_type)
    assert evaluator(response=response, ground_truth=BARE)[KEY] == 1.0
    assert evaluator(response=BARE, ground_truth=response)[KEY] == 1.0
    reversed_calls = list(reversed(BARE))
    assert evaluator(response=reversed_calls, ground_truth=response)[KEY] == (0.0 if match_type in ("exact", "in_order") else 1.0)


def test_seed_style_dict_arguments_are_accepted() -> None:
    # seed 002 passes ``function.arguments`` as a dict, not a JSON string
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": [{"function": {"name": "flight", "arguments": FLIGHT}}]}]
    assert ToolTrajectoryEvaluator(match_type="strict")(response=messages, ground_truth=messages)[KEY] == 1.0
    assert ToolTrajectoryEvaluator()(response=messages, ground_truth=[BARE[0]])[KEY] == 1.0


def test_adk_invocations_score_per_invocation_and_average() -> None:
    actual = [invocation([BARE[0]]), invocation([BARE[1]]), invocation([])]
    expected = [invocation([BARE[0]]), invocation([BARE[0]]), invocation([])]
    result = ToolTrajectoryEvaluator(threshold=0.6)(response=actual, ground_truth=expected)
    assert result[KEY] == pytest.approx(2 / 3) and result[f"{KEY}_result"] == "pass"
    details = result[f"{KEY}_details"]
    assert details["per_invocation_scores"] == [1.0, 0.0, 1.0]
    assert details["per_invocation"][1]["missing"][0]["name"] == "flight"
    assert details["precision"] == details["recall"] == pytest.approx(1 / 2)
    assert result[f"{KEY}_reason"].startswith("2 of 3 invocation(s) matched")


def test_invocations_against_a_flat_list_compare_all_calls_at_once() -> None:
    actual = [invocation([BARE[0]]), invocation([BARE[1]])]
    assert ToolTrajectoryEvaluator()(response=actual, ground_truth=BARE)[KEY] == 1.0


def test_strict_uses_message_structure_only_when_both_sides_have_it() -> None:
    without_results = [m for m in OPENAI if m["role"] != "tool"]
    strict = ToolTrajectoryEvaluator(match_type="strict")
    result = strict(response=without_results, ground_truth=OPENAI)
    assert result[KEY] == 0.0 and "structure_error" in result[f"{KEY}_details"]
    assert strict(response=without_results, ground_truth=BARE)[KEY] == 1.0  # bare calls: strict == exact


# ---------------------------------------------------------------------------- input errors
def test_a_string_response_is_an_input_error_naming_it() -> None:
    with pytest.raises(InputError, match="ToolTrajectoryEvaluator") as info:
        ToolTrajectoryEvaluator()(response="I booked it", ground_truth=BARE)
    assert info.value.input_name == "response" and info.value.evaluator == "ToolTrajectoryEvaluator"


def test_an_unreadable_ground_truth_names_the_input() -> None:
    with pytest.raises(InputError) as info:
        ToolTrajectoryEvaluator()(response=BARE, ground_truth=[{"tool": "flight"}])
    assert info.value.input_name == "ground_truth"


def test_missing_ground_truth_is_an_input_error() -> None:
    with pytest.raises(InputError, match="ground_truth"):
        ToolTrajectoryEvaluator()(response=BARE)


def test_invocation_lists_of_different_lengths_are_an_input_error() -> None:
    with pytest.raises(InputError, match="1 invocation.*2") as info:
        ToolTrajectoryEvaluator()(response=ADK_ONE, ground_truth=ADK_ONE * 2)
    assert info.value.input_name == "ground_truth"


def test_a_malformed_invocation_names_the_input() -> None:
    bad = [{"user_content": "not a content", "intermediate_data": {"tool_uses": []}}]
    with pytest.raises(InputError) as info:
        ToolTrajectoryEvaluator()(response=bad, ground_truth=BARE)
    assert info.value.input_name == "response" and "response[0]" in str(info.value)


def test_malformed_arguments_json_is_an_input_error() -> None:
    broken = [{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{oops"}}]}]
    with pytest.raises(InputError, match="not valid JSON"):
        ToolTrajectoryEvaluator()(response=broken, ground_truth=BARE)


# ---------------------------------------------------------------------------- ResponseMatchEvaluator
def test_response_match_reads_the_final_assistant_text_of_messages() -> None:
    result = ResponseMatchEvaluator()(response=OPENAI, ground_truth="booked")
    assert result["response_match_score"] == 1.0 and result["response_match_score_result"] == "pass"
    assert ResponseMatchEvaluator()(response={"messages": OPENAI}, ground_truth=[{"role": "assistant", "content": "Booked!"}])[
        "response_match_score"
    ] == 1.0


def test_response_match_without_an_answer_scores_zero() -> None:
    calls_only = [m for m in OPENAI if m.get("content") != "Booked."]
    result = ResponseMatchEvaluator()(response=calls_only, ground_truth="Booked.")
    assert result["response_match_score"] == 0.0


def test_response_match_empty_against_empty_is_zero_as_adk() -> None:
    result = ResponseMatchEvaluator()(response="", ground_truth="")
    assert result["response_match_score"] == 0.0
    assert "both texts are empty" in result["response_match_score_reason"]


def test_response_match_single_invocation_against_text() -> None:
    result = ResponseMatchEvaluator()(response=invocation([], "the dogs are running"), ground_truth="The dog runs")
    assert result["response_match_score"] == pytest.approx(6 / 7)


def test_response_match_several_invocations_need_invocations_on_both_sides() -> None:
    two = [invocation([], "a"), invocation([], "b")]
    with pytest.raises(InputError) as info:
        ResponseMatchEvaluator()(response=two, ground_truth="a b")
    assert info.value.input_name == "response"
    with pytest.raises(InputError, match="2 invocation.*1"):
        ResponseMatchEvaluator()(response=two, ground_truth=[invocation([], "a")])


def test_response_match_threshold_decides_pass() -> None:
    strict = ResponseMatchEvaluator(threshold=0.9)(response="The dogs are running", ground_truth="the dog runs")
    assert strict["response_match_score_result"] == "fail" and strict["response_match_score_threshold"] == 0.9
