"""TaskNavigationEfficiencyEvaluator: azure's task navigation efficiency in our result shape, and both
layers run by our engine. (Its numbers against azure-ai-evaluation itself: tests/parity.)"""

import json

import pytest

from agent_evaluators import TaskNavigationEfficiencyEvaluator, evaluate
from agent_evaluators.azure import TaskNavigationEfficiencyEvaluator as AzureShaped
from agent_evaluators.azure import TaskNavigationEfficiencyMatchingMode
from agent_evaluators.errors import ConfigError, InputError

KEY = "task_navigation_efficiency"


def openai_call(name, arguments=None, call_id="c"):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments or {})}}


def openai_run(*calls):
    """An OpenAI Chat Completions run: one assistant message per call, each answered, then a text answer."""
    messages = [{"role": "user", "content": "Plan my trip"}]
    for i, (name, args) in enumerate(calls):
        messages.append({"role": "assistant", "content": None, "tool_calls": [openai_call(name, args, f"c{i}")]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": "ok"})
    messages.append({"role": "assistant", "content": "All booked."})
    return messages


RUN = openai_run(("search", {"city": "Paris"}), ("fetch", {}), ("search", {"city": "Rome"}))


@pytest.mark.parametrize("mode,score", [("exact_match", 0.0), ("in_order_match", 1.0), ("any_order_match", 1.0)])
def test_the_three_modes_on_an_openai_run_with_a_repeated_tool(mode, score):
    out = TaskNavigationEfficiencyEvaluator(matching_mode=mode)(response=RUN, ground_truth=["search", "fetch"])
    assert out[KEY] == score and out[f"{KEY}_result"] == ("pass" if score else "fail")
    assert out[f"{KEY}_threshold"] == 1.0
    details = out[f"{KEY}_details"]
    # azure's counting: 2 of 3 calls are expected steps, both expected steps were made
    assert (details["precision"], details["recall"], details["f1"]) == (2 / 3, 1.0, 0.8)
    assert details["matching_mode"] == mode and details["extra"] == [{"actual_index": 2, "name": "search",
                                                                        "arguments": None}]
    assert f"{KEY}_usage" not in out and f"{KEY}_score" not in out  # our shape, not azure's


def test_the_reason_says_what_went_wrong():
    nav = TaskNavigationEfficiencyEvaluator("in_order_match")
    swapped = nav(response=openai_run(("fetch", {}), ("search", {})), ground_truth=["search", "fetch"])
    assert swapped[KEY] == 0.0 and "not in the expected order" in swapped[f"{KEY}_reason"]
    missing = nav(response=openai_run(("search", {})), ground_truth=["search", "book"])
    assert "1 of 2 expected step(s) made" in missing[f"{KEY}_reason"] and "missing book()" in missing[f"{KEY}_reason"]
    extra = TaskNavigationEfficiencyEvaluator()(response=RUN, ground_truth=["search", "fetch"])
    assert "exact_match allows no extra calls" in extra[f"{KEY}_reason"]


def test_expected_parameters_must_equal_the_whole_argument_dict():
    nav = TaskNavigationEfficiencyEvaluator("any_order_match")
    wanted = (["search", "fetch"], {"search": {"city": "Paris"}})
    out = nav(response=RUN, ground_truth=wanted)
    assert out[KEY] == 1.0 and out[f"{KEY}_details"]["parameters_compared"] is True
    # the Rome search is an extra step; precision counts it
    assert out[f"{KEY}_details"]["precision"] == 2 / 3
    wrong = nav(response=RUN, ground_truth=(["search"], {"search": {"city": "Oslo"}}))
    assert wrong[KEY] == 0.0 and wrong[f"{KEY}_details"]["missing"] == [
        {"expected_index": 0, "name": "search", "arguments": {"city": "Oslo"}}]
    # a tool named without parameters expects a call without arguments, as in azure
    assert nav(response=RUN, ground_truth=(["search"], {}))[KEY] == 0.0
    # values compare as azure compares them: as text
    assert nav(response=openai_run(("book", {"n": 2})), ground_truth=(["book"], {"book": {"n": "2"}}))[KEY] == 1.0


def test_json_rows_give_parameters_as_a_two_item_list_and_inputs_as_json_text():
    nav = TaskNavigationEfficiencyEvaluator("in_order_match")
    as_list = [["search", "fetch"], {"search": {"city": "Paris"}}]
    assert nav(response=json.dumps(RUN), ground_truth=json.dumps(as_list))[KEY] == 1.0
    assert nav(actions=RUN, expected_actions=as_list)[KEY] == 1.0


def test_any_trajectory_format_we_read_works():
    nav = TaskNavigationEfficiencyEvaluator("exact_match")
    bare_calls = [{"name": "search", "args": {"city": "Paris"}}, {"name": "fetch", "args": {}}]
    assert nav(response=bare_calls, ground_truth=["search", "fetch"])[KEY] == 1.0
    adk = [{"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": "go"}]},
            "intermediate_data": {"tool_uses": [{"name": "search", "args": {}}, {"name": "fetch", "args": {}}]},
            "final_response": {"role": "model", "parts": [{"text": "done"}]}}]
    assert nav(response=adk, ground_truth=["search", "fetch"])[KEY] == 1.0
    responses_api = [{"type": "function_call", "call_id": "1", "name": "search", "arguments": "{}"},
                     {"type": "function_call_output", "call_id": "1", "output": "ok"}]
    assert nav(response=responses_api, ground_truth=["search"])[KEY] == 1.0


def test_no_calls_at_all_fails_with_zero_precision_as_in_azure():
    out = TaskNavigationEfficiencyEvaluator("any_order_match")(response=[{"role": "assistant", "content": "Hi"}],
                                                                ground_truth=["search"])
    details = out[f"{KEY}_details"]
    assert out[KEY] == 0.0 and (details["precision"], details["recall"], details["f1"]) == (0.0, 0.0, 0.0)


def test_matching_mode_spellings_and_refusals():
    in_order = TaskNavigationEfficiencyMatchingMode.IN_ORDER_MATCH
    for spelling in ("in_order_match", "IN_ORDER_MATCH", "in-order", "in_order", in_order):
        assert TaskNavigationEfficiencyEvaluator(spelling).matching_mode is in_order
    with pytest.raises(ConfigError) as err:
        TaskNavigationEfficiencyEvaluator("sideways")
    assert "exact_match" in str(err.value) and "'sideways'" in str(err.value)
    assert repr(TaskNavigationEfficiencyEvaluator("any_order")) == \
        "TaskNavigationEfficiencyEvaluator(threshold=1.0, matching_mode='any_order_match')"
    lenient = TaskNavigationEfficiencyEvaluator("exact_match", threshold=0.0)
    assert lenient(response=RUN, ground_truth=["book"])[f"{KEY}_result"] == "pass"


def test_missing_inputs_name_both_spellings():
    nav = TaskNavigationEfficiencyEvaluator()
    with pytest.raises(InputError) as err:
        nav(ground_truth=["search"])
    assert err.value.input_name == "response" and "agent's messages" in str(err.value)
    with pytest.raises(InputError) as err:
        nav(actions=RUN)
    assert err.value.input_name == "ground_truth" and "list of tool names" in str(err.value)
    with pytest.raises(InputError) as err:
        nav(response=RUN, ground_truth=[["search"], {"search": "Paris"}])
    assert "the parameters of 'search' must be a dict" in str(err.value)


def test_both_layers_run_in_evaluate_with_one_verdict(tmp_path):
    rows = [
        {"id": "ok", "response": RUN, "ground_truth": ["search", "fetch"]},
        {"id": "params", "response": RUN, "ground_truth": [["search", "fetch"], {"search": {"city": "Rome"}}]},
        {"id": "swapped", "response": openai_run(("fetch", {}), ("search", {})), "ground_truth": ["search", "fetch"]},
        {"id": "bad", "response": RUN, "ground_truth": "search"},
    ]
    data = tmp_path / "runs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = evaluate(data=str(data), output_path=str(tmp_path / "out"), evaluators={
        "nav": TaskNavigationEfficiencyEvaluator("in_order_match"),
        "azure": AzureShaped(matching_mode="in_order_match"),
    })
    by_id = {row["inputs.id"]: row for row in result.rows}
    assert [by_id[i]["outputs.nav." + KEY] for i in ("ok", "params", "swapped")] == [1.0, 0.0, 0.0]
    assert [by_id[i]["outputs.azure." + KEY] for i in ("ok", "params", "swapped")] == [1.0, 0.0, 0.0]
    assert by_id["params"][f"outputs.azure.{KEY}_properties"] == {"precision_score": 2 / 3, "recall_score": 1.0,
                                                                 "f1_score": 0.8}
    assert by_id["ok"][f"outputs.azure.{KEY}_passed"] is True and by_id["ok"][f"outputs.azure.{KEY}_status"] == "completed"
    for alias in ("nav", "azure"):
        assert by_id["bad"][f"outputs.{alias}.{KEY}_result"] == "error"
        assert "ground_truth" in by_id["bad"][f"outputs.{alias}.{KEY}_error"]
        assert result.metrics[f"{alias}.{KEY}"] == pytest.approx(1 / 3)
        assert result.metrics[f"{alias}.error_count"] == 1
