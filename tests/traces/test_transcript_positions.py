"""A trace's transcript is the conversation the agent had: messages matched by position, not by text.

Regression (issue "Reliability, round four", item 4): a user who answered "yes" twice lost the
second "yes", and a system prompt with a timestamp in it (so different at every call) was put
before every turn, so the judge graded a conversation the agent never had. Now identical messages
at different positions stay two messages, and a changing system prompt appears once, at the
start, in its latest version.
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

from agent_evaluators.runner.readers import RowError, iter_input

TRACE = "ab" * 16
START = 1_700_000_000_000_000_000


def _parts(role: str, text: str) -> Dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": text}]}


def _chat_span(i: int, inputs: List[Dict[str, Any]], answer: str, system: Optional[str] = None,
               span_id: Optional[str] = None) -> Dict[str, Any]:
    attrs = {"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": 5,
             "gen_ai.input.messages": json.dumps(inputs),
             "gen_ai.output.messages": json.dumps([_parts("assistant", answer)])}
    if system is not None:
        attrs["gen_ai.system_instructions"] = json.dumps([{"type": "text", "content": system}])
    return {"traceId": TRACE, "spanId": span_id or f"{i + 1:016x}", "parentSpanId": "f" * 16, "name": "chat m",
            "startTimeUnixNano": str(START + 10 * (i + 1)), "endTimeUnixNano": str(START + 10 * (i + 1) + 5),
            "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
                           for k, v in attrs.items()]}


def _write(path: Path, spans: List[Dict[str, Any]]) -> Path:
    root = {"traceId": TRACE, "spanId": "f" * 16, "name": "invoke_agent", "startTimeUnixNano": str(START),
            "endTimeUnixNano": str(START + 1000), "attributes": []}
    lines = [json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}) for span in [root, *spans]]
    path.write_text("\n".join(lines) + "\n")
    return path


def _said(row: Dict[str, Any]) -> List[tuple]:
    return [(m["role"], m.get("content")) for m in row["query"] + row["response"]]


ASK = "Can you delete the old backups?"
SURE = "That frees 40 GB and cannot be undone. Are you sure?"
STILL = "Last check: delete all 12 backups?"
DONE = "Done: 12 backups deleted, 40 GB freed."


def test_a_repeated_yes_stays_and_a_changing_system_prompt_appears_once_as_its_latest(tmp_path):
    """Each call replays the conversation; the system prompt carries the time of the call."""
    history: List[Dict[str, Any]] = [_parts("user", ASK)]
    spans = []
    for i, answer in enumerate([SURE, STILL, DONE]):
        spans.append(_chat_span(i, history, answer, system=f"You manage backups. Now: 2026-01-0{i + 1}T10:00"))
        history = history + [_parts("assistant", answer), _parts("user", "yes")]
    (row,) = iter_input(_write(tmp_path / "spans.jsonl", spans))
    assert not isinstance(row, RowError), row
    assert _said(row) == [("system", "You manage backups. Now: 2026-01-03T10:00"), ("user", ASK),
                          ("assistant", SURE), ("user", "yes"), ("assistant", STILL), ("user", "yes"),
                          ("assistant", DONE)]
    assert [m["content"] for m in row["response"]] == [DONE]
    assert row["conversation"]["messages"] == row["query"] + row["response"]


def test_a_repeated_yes_stays_when_each_call_sends_only_its_new_messages(tmp_path):
    """A stateful API (OpenAI Responses with previous_response_id) records only the new input."""
    spans = [_chat_span(0, [_parts("user", ASK)], SURE, system="You manage backups."),
             _chat_span(1, [_parts("user", "yes")], STILL), _chat_span(2, [_parts("user", "yes")], DONE)]
    (row,) = iter_input(_write(tmp_path / "spans.jsonl", spans))
    assert _said(row) == [("system", "You manage backups."), ("user", ASK), ("assistant", SURE), ("user", "yes"),
                          ("assistant", STILL), ("user", "yes"), ("assistant", DONE)]


def test_a_span_written_twice_is_one_model_call(tmp_path):
    """Dedupe by span: an exporter that retried wrote the same span again (same id, same content)."""
    first = _chat_span(0, [_parts("user", ASK)], SURE)
    second = _chat_span(1, [_parts("user", ASK), _parts("assistant", SURE), _parts("user", "yes")], DONE)
    (row,) = iter_input(_write(tmp_path / "spans.jsonl", [first, second, first, second]))
    assert _said(row) == [("user", ASK), ("assistant", SURE), ("user", "yes"), ("assistant", DONE)]
    assert row["agent_usage"]["llm_calls"] == 2


def _m(role: str, text: str) -> Dict[str, Any]:
    return {"role": role, "content": text}


def _rebuilt(*calls: tuple) -> List[tuple]:
    from agent_evaluators.traces.transcript import Transcript

    transcript = Transcript()
    for inputs, outputs in calls:
        transcript.add_call(inputs, outputs, {})
    return [(m["role"], m["content"]) for m in transcript.result()]


def test_how_an_input_lines_up_with_the_transcript():
    u1, a1, u2, a2, u3 = _m("user", "hi"), _m("assistant", "hello"), _m("user", "yes"), _m("assistant", "ok"), \
        _m("user", "yes")
    # a retry (or a side call) on the same history adds nothing but its answer
    assert _rebuilt(([u1], [a1]), ([u1], [a2])) == [("user", "hi"), ("assistant", "hello"), ("assistant", "ok")]
    # a sliding window: the last messages as a block, then what is new
    assert _rebuilt(([u1], [a1]), ([u1, a1, u2], [a2]), ([a1, u2, a2, u3], [a1])) == [
        ("user", "hi"), ("assistant", "hello"), ("user", "yes"), ("assistant", "ok"), ("user", "yes"),
        ("assistant", "hello")]
    # a summary in place of the old turns, then the recent ones
    assert _rebuilt(([u1], [a1]), ([u1, a1, u2], [a2]), ([_m("user", "Summary: greeted."), u2, a2, u3], [a1]))[-2:] == [
        ("user", "yes"), ("assistant", "hello")]
    # a developer message leads like a system prompt; the latest of them is kept, once
    assert _rebuilt(([_m("developer", "v1"), u1], [a1]), ([_m("developer", "v2"), u1, a1, u2], [a2]))[:2] == [
        ("developer", "v2"), ("user", "hi")]
