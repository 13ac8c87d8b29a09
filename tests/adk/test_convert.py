"""ADK files as evaluate() rows, and invocation reading helpers."""

import json

import pytest

from agent_evaluators.adk import iter_rows
from agent_evaluators.adk.convert import intermediate_responses, tool_results
from agent_evaluators.errors import InputError


def test_expected_only_rows_never_fill_response_from_the_reference(adk_root):
    path = adk_root / "ecommerce_customer_service_agent/order_query.test.json"
    (case,) = json.loads(path.read_text())["eval_cases"]
    written = case["conversation"][2]  # the turn with four tool calls, as the file has it
    rows = list(iter_rows(path))
    assert len(rows) == 4 and [r["turn"] for r in rows] == [0, 1, 2, 3]
    third = rows[2]
    assert third["query"] == written["user_content"]["parts"][0]["text"]
    assert third["ground_truth"] == written["final_response"]["parts"][0]["text"]
    assert [c["name"] for c in third["expected_tool_calls"]] == [
        "get_order_ids_for_user", "get_order_status", "get_order_status", "cancel_order"]
    last = written["intermediate_data"]["tool_uses"][3]
    assert third["expected_tool_calls"][3] == {"name": "cancel_order", "arguments": last["args"]}
    assert third["invocation_id"] == written["invocation_id"]
    assert third["eval_id"] == case["eval_id"]
    assert (third["response"], third["tool_calls"], third["actual_invocation"]) == (None, None, None)
    assert third["expected_invocation"]["user_content"]["parts"][0]["text"] == third["query"]
    json.dumps(rows)  # rows are JSON-ready (they are streamed to rows.jsonl)


def test_rows_take_response_and_tool_calls_from_actual_invocations(tmp_path, adk_root):
    path = adk_root / "home_automation_agent/simple_test2.test.json"
    (written,) = json.loads(path.read_text())  # a legacy list of one turn
    eval_id = str(path)
    actual = {eval_id: [{
        "user_content": {"parts": [{"text": written["query"]}]},
        "final_response": {"parts": [{"text": "Done."}, {"text": None}, {"text": "Anything else?"}]},
        "intermediate_data": {"invocation_events": [{"author": "agent", "content": {"parts": [
            {"function_call": {"name": "set_device_info", "id": "c1", "args": None}}]}}]},
    }]}
    (row,) = iter_rows(path, actual=actual)
    assert row["response"] == "Done.\nAnything else?"
    assert row["tool_calls"] == [{"name": "set_device_info", "arguments": None, "id": "c1"}]
    assert row["ground_truth"] == written["reference"]
    jsonl = tmp_path / "actual.jsonl"
    jsonl.write_text(json.dumps({"eval_id": eval_id, "invocations": actual[eval_id]}) + "\n")
    assert list(iter_rows(path, actual=jsonl)) == [row]


def test_rows_reject_actuals_of_another_length(adk_root):
    path = adk_root / "home_automation_agent/test_files/dependent_tool_calls.test.json"
    eval_id = json.loads(path.read_text())["eval_cases"][0]["eval_id"]
    with pytest.raises(InputError, match="2 expected invocation\\(s\\) but 1 actual"):
        list(iter_rows(path, actual={eval_id: [{"user_content": {"parts": [{"text": "x"}]}}]}))
    with pytest.raises(InputError, match="no actual invocations for eval case"):
        list(iter_rows(path, actual={"other": []}))


def test_scenario_cases_yield_no_rows(adk_root):
    path = adk_root / "live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json"
    scenario, scripted = json.loads(path.read_text())["eval_cases"]
    assert "conversation_scenario" in scenario and len(scripted["conversation"]) == 2
    rows = list(iter_rows(path))
    assert [r["eval_id"] for r in rows] == [scripted["eval_id"]] * 2
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
