"""A conversation that ended in a hand-off is judged; a long one fits max_prompt_tokens, elided in the middle.

Against the fake judge over real HTTP: IntentResolution and TaskCompletion judge a conversation
whose agent's last action is a terminal tool call (a transfer, a hand-off, an escalation, or a
tool the user names through the evaluator option or the run option), and leave a row that ends
after an ordinary tool result not applicable. A 200-turn conversation stays under the run's
``max_prompt_tokens``, keeps its system instructions, first user message and latest turns, and the
cell's details record which turns were left out.
"""

import json

import pytest

from agent_evaluators import IntentResolutionEvaluator, TaskAdherenceEvaluator, TaskCompletionEvaluator, evaluate
from agent_evaluators.judge.token_count import counter_for
from agent_evaluators.testing import JudgeServer, schema_reply

QUERY = [{"role": "system", "content": "You are the airline's agent. Transfer to a human when you cannot help."},
         {"role": "user", "content": "I want compensation for my lost luggage, reservation 8JX2WO."}]


def _ends_with_call(name, result="Transfer successful"):
    return [{"role": "assistant", "content": "Let me look into it."},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(
                    {"summary": "lost luggage compensation for 8JX2WO"})}}]},
            {"role": "tool", "tool_call_id": "c1", "content": result if isinstance(result, str) else json.dumps(result)}]


@pytest.fixture(scope="module")
def server():
    with JudgeServer(lambda req: schema_reply(req, score=1)) as s:
        yield s


@pytest.mark.parametrize("cls", [IntentResolutionEvaluator, TaskCompletionEvaluator], ids=lambda c: c.result_key)
@pytest.mark.parametrize("tool", ["transfer_to_human_agents", "handoff_to_billing", "Hand_Off", "escalate_case"])
def test_a_conversation_ending_in_a_hand_off_is_judged(server, cls, tool):
    before = len(server.requests)
    out = cls(server.openai_config())(query=QUERY, response=_ends_with_call(tool))
    assert out[f"{cls.result_key}_result"] in ("pass", "fail"), out
    [req] = server.requests[before:]
    assert f"call {tool}(summary=" in req.messages[-1]["content"]


@pytest.mark.parametrize("cls", [IntentResolutionEvaluator, TaskCompletionEvaluator], ids=lambda c: c.result_key)
def test_a_hand_off_is_judged_and_a_row_ending_after_an_ordinary_tool_result_stays_not_applicable(server, cls):
    judged = cls(server.openai_config())(query=QUERY, response=_ends_with_call("transfer_to_human_agents"))
    assert judged[f"{cls.result_key}_result"] in ("pass", "fail")
    before = len(server.requests)
    out = cls(server.openai_config())(query=QUERY, response=_ends_with_call("get_reservation", {"id": "8JX2WO"}))
    assert out[f"{cls.result_key}_result"] == "not_applicable" and "tool call" in out[f"{cls.result_key}_reason"]
    pending = _ends_with_call("transfer_to_human_agents")[:2] + [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c2", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]}]
    assert cls(server.openai_config())(query=QUERY, response=pending)[f"{cls.result_key}_result"] == "not_applicable"
    assert len(server.requests) == before


@pytest.mark.parametrize("cls", [IntentResolutionEvaluator, TaskCompletionEvaluator], ids=lambda c: c.result_key)
def test_users_name_more_terminal_tools_by_option_and_by_run_option(server, cls, tmp_path):
    response = _ends_with_call("close_case", "closed")
    key = cls.result_key
    assert cls(server.openai_config())(query=QUERY, response=response)[f"{key}_result"] == "not_applicable"
    named = cls(server.openai_config(), terminal_tools=["close_case"])
    assert named(query=QUERY, response=response)[f"{key}_result"] in ("pass", "fail")
    rows = [{"query": QUERY, "response": response}]
    plain = evaluate(data=rows, evaluators={"m": cls(server.openai_config())})
    assert plain.rows[0][f"outputs.m.{key}_result"] == "not_applicable"
    run = evaluate(data=rows, evaluators={"m": cls(server.openai_config())}, terminal_tools="close_case,other")
    assert run.rows[0][f"outputs.m.{key}_result"] in ("pass", "fail")


def _long_conversation(turns):
    messages = [{"role": "system", "content": "POLICY: always confirm before cancelling. " * 20},
                {"role": "user", "content": "FIRST REQUEST: cancel reservation 8JX2WO."}]
    for t in range(turns):
        messages += [{"role": "assistant", "content": None, "tool_calls": [
                         {"id": f"c{t}", "type": "function",
                          "function": {"name": "lookup", "arguments": json.dumps({"turn": t, "note": "n" * 200})}}]},
                     {"role": "tool", "tool_call_id": f"c{t}", "content": json.dumps({"turn": t, "data": "d" * 400})},
                     {"role": "assistant", "content": f"Answer for turn {t}. " + "word " * 60},
                     {"role": "user", "content": f"Follow-up question number {t + 2}."}]
    return messages


def test_a_200_turn_conversation_stays_under_max_prompt_tokens_with_the_elision_recorded(server):
    query = _long_conversation(200)
    response = [{"role": "assistant", "content": "FINAL ANSWER: cancelled after your confirmation."}]
    before = len(server.requests)
    result = evaluate(data=[{"query": query, "response": response}], max_prompt_tokens=4000,
                      evaluators={"adherence": TaskAdherenceEvaluator(server.openai_config("gpt-4o"))})
    [req] = server.requests[before:]
    assert req.prompt_tokens(counter_for("gpt-4o")) <= 4000
    text = req.messages[-1]["content"]
    assert "POLICY: always confirm" in text and "FIRST REQUEST: cancel reservation 8JX2WO." in text
    assert "Follow-up question number 201." in text and "FINAL ANSWER" in text  # the latest turns
    assert "Follow-up question number 50." not in text
    row = result.rows[0]
    assert row["outputs.adherence.task_adherence_result"] in ("pass", "fail")
    note = row["outputs.adherence.task_adherence_details"]["prompt_elided"]
    assert note.startswith("turns 2-") and "left out to fit the prompt budget" in note
    assert f"[… {note} …]" in text
    # a short conversation is not elided
    out = TaskAdherenceEvaluator(server.openai_config())(query=QUERY, response="I will transfer you now.")
    assert "prompt_elided" not in (out["task_adherence_details"] or {})
