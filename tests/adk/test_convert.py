"""ADK files as evaluate() rows, and invocation reading helpers."""

import json

import pytest

from agent_evaluators.adk import iter_rows
from agent_evaluators.adk.convert import intermediate_responses, tool_results
from agent_evaluators.errors import InputError

from .conftest import require_fixtures


def test_expected_only_rows_never_fill_response_from_the_reference():
    rows = list(iter_rows(require_fixtures() / "ecommerce_customer_service_agent/order_query.test.json"))
    assert len(rows) == 4 and [r["turn"] for r in rows] == [0, 1, 2, 3]
    third = rows[2]
    assert third["query"] == "Cancel all pending order for the user with user id user_a"
    assert third["ground_truth"].startswith("I have checked your orders")
    assert [c["name"] for c in third["expected_tool_calls"]] == [
        "get_order_ids_for_user", "get_order_status", "get_order_status", "cancel_order"]
    assert third["expected_tool_calls"][3] == {"name": "cancel_order", "arguments": {"order_id": "4"}}
    assert third["invocation_id"] == "511b23d9-56f9-423b-9c31-7626f3411c32"
    assert third["eval_id"].endswith("order_query.test.json")
    assert (third["response"], third["tool_calls"], third["actual_invocation"]) == (None, None, None)
    assert third["expected_invocation"]["user_content"]["parts"][0]["text"] == third["query"]
    json.dumps(rows)  # rows are JSON-ready (they are streamed to rows.jsonl)


def test_rows_take_response_and_tool_calls_from_actual_invocations(tmp_path):
    path = require_fixtures() / "home_automation_agent/simple_test2.test.json"
    eval_id = str(path)
    actual = {eval_id: [{
        "user_content": {"parts": [{"text": "Turn off device_3 in the Bedroom."}]},
        "final_response": {"parts": [{"text": "Done."}, {"text": None}, {"text": "Anything else?"}]},
        "intermediate_data": {"invocation_events": [{"author": "agent", "content": {"parts": [
            {"function_call": {"name": "set_device_info", "id": "c1", "args": None}}]}}]},
    }]}
    (row,) = iter_rows(path, actual=actual)
    assert row["response"] == "Done.\nAnything else?"
    assert row["tool_calls"] == [{"name": "set_device_info", "arguments": None, "id": "c1"}]
    assert row["ground_truth"] == "I have set the device_3 status to off."
    jsonl = tmp_path / "actual.jsonl"
    jsonl.write_text(json.dumps({"eval_id": eval_id, "invocations": actual[eval_id]}) + "\n")
    assert list(iter_rows(path, actual=jsonl)) == [row]


def test_rows_reject_actuals_of_another_length():
    path = require_fixtures() / "home_automation_agent/test_files/dependent_tool_calls.test.json"
    eval_id = "tests/integration/fixture/home_automation_agent/test_files/dependent_tool_calls.test.json"
    with pytest.raises(InputError, match="2 expected invocation\\(s\\) but 1 actual"):
        list(iter_rows(path, actual={eval_id: [{"user_content": {"parts": [{"text": "x"}]}}]}))
    with pytest.raises(InputError, match="no actual invocations for eval case"):
        list(iter_rows(path, actual={"other": []}))


def test_scenario_cases_yield_no_rows():
    rows = list(iter_rows(require_fixtures() / "live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json"))
    assert [r["eval_id"] for r in rows] == ["background_task_scripted"] * 2
    assert rows[0]["ground_truth"] == "" and rows[0]["expected_tool_calls"] == []


def test_intermediate_responses_and_tool_results_in_both_forms():
    static = {"user_content": {"parts": [{"text": "q"}]}, "intermediate_data": {
        "intermediate_responses": [["a", [{"text": "one"}]], ["b", [{"text": None}]]],
        "tool_responses": [{"name": "f", "id": "1", "response": {"ok": True}}]}}
    assert intermediate_responses(static) == [("a", "one")]
    assert [(r.call_id, r.name, r.content) for r in tool_results(static)] == [("1", "f", {"ok": True})]
    events = {"user_content": {"parts": [{"text": "q"}]}, "intermediate_data": {"invocation_events": [
        {"author": "x", "content": {"parts": [{"text": "hi"}, {"function_response": {"name": "g", "response": {}}}]}},
        {"author": "y", "content": None}]}}
    assert intermediate_responses(events) == [("x", "hi")]
    assert [r.name for r in tool_results(events)] == ["g"]
