"""How the report shows values: conversations as chat transcripts, every metric on its own scale (20.7),
long values cut (20.18)."""

import json

from agent_evaluators import ResponseMatchEvaluator, evaluate
from agent_evaluators.evaluators.base import Outcome
from agent_evaluators.report import write_report
from tests.cli.helpers import agent_eval

from .dom import parse
from .helpers import Contains

CHAT = [
    {"role": "system", "content": "You book tables."},
    {"role": "user", "content": "A table for two at 7pm, please."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "book_table", "arguments": '{"people": 2, "time": "19:00"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": '{"booked": true, "table": 12}'},
    {"role": "assistant", "content": "Booked: table 12 at 7pm."},
]


def count_turns(*, conversation, query):
    """A plain-function evaluator over a conversation column."""
    return {"turns": sum(m["role"] == "user" for m in conversation)}


def test_a_conversation_column_is_a_chat_transcript_with_tool_calls(tmp_path):
    evaluate(data=[{"id": "booking", "query": "book a table", "conversation": CHAT}],
             evaluators={"turns": count_turns}, output_path=tmp_path / "run")
    r = agent_eval("report", tmp_path / "run")
    assert r.rc == 0, r
    row = parse((tmp_path / "run" / "report.html").read_text(encoding="utf-8")).find("details", cls="row")
    chat = row.find("div", cls="chat", data_column="conversation")
    messages = chat.find_all("div", cls="msg")
    assert [m.attrs["data-role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    call = messages[2].find("div", cls="call")
    assert call.attrs["data-tool"] == "book_table" and '"people": 2' in call.text
    assert "table" in messages[3].text and "12" in messages[3].text  # the tool's result
    assert "Booked: table 12 at 7pm." in messages[4].text
    raw = chat.parent.find("details", cls="raw")  # the raw JSON is one click away
    assert json.loads(raw.find("pre").text) == CHAT
    assert json.loads(row.find("pre", data_of="inputs").text) == {"id": "booking", "query": "book a table"}


def test_a_huge_value_is_cut_in_the_report_with_a_link_to_its_row(tmp_path):
    big = "Paris " + "x" * 2_000_000
    evaluate(data=[{"id": "small", "response": "Paris", "expected": "Paris"},
                   {"id": "big", "response": big, "expected": "Paris"}],
             evaluators={"contains": Contains()}, output_path=tmp_path / "run")
    r = agent_eval("report", tmp_path / "run")
    assert r.rc == 0, r
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert len(page) < 100_000  # the 2 MB value is not embedded whole
    rows = {n.find("span", cls="rid").text: n for n in parse(page).find_all("details", cls="row")}
    note = rows["big"].find("p", cls="clipped")
    assert note.find("a").attrs["href"] == "rows.jsonl" and '"line_number": 1' in note.text
    shown = rows["big"].find("pre", data_of="inputs").text
    assert "x" * 9_990 in shown and "x" * 10_000 not in shown and "truncated: 2,000,006 characters" in shown
    assert not rows["small"].find_all("p", cls="clipped")


class TenPoint(Contains):
    """A metric of the user's own on a declared 1–10 scale (here it only ever scores 1)."""

    result_key = "ten_point"
    score_scale = (1.0, 10.0)

    def _evaluate(self, *, response: str, expected: str) -> Outcome:
        return Outcome(1.0, "always 1")


def test_every_metric_is_drawn_on_the_scale_its_evaluator_declares(tmp_path):
    evaluate(data=[{"id": "a", "response": "Paris", "expected": "Paris"}],
             evaluators={"ten": TenPoint(), "match": ResponseMatchEvaluator()},
             evaluator_config={"match": {"column_mapping": {"ground_truth": "${data.expected}"}}},
             output_path=tmp_path / "run")
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["config"]["evaluators"]["ten"]["scale"] == [1.0, 10.0]
    page = parse(write_report(tmp_path / "run").read_text(encoding="utf-8"))
    axis = {a: [t.text for t in page.find("div", cls="card", data_alias=a).find_all("text", cls="lbl")]
            for a in ("ten", "match")}
    assert axis["ten"] == [str(i) for i in range(1, 11)]  # not 1–5 read off the scores
    assert axis["match"] == ["0", "1"]  # ROUGE is 0–1: a score of 1.0 is its top, not the bottom of 1–5


def test_a_responses_api_item_list_is_a_transcript_too(tmp_path):
    items = [{"type": "function_call", "name": "search", "arguments": '{"q": "flights"}', "call_id": "c1"},
             {"type": "function_call_output", "call_id": "c1", "output": "3 flights found"},
             {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I found 3."}]}]
    evaluate(data=[{"id": "r", "response": items, "expected": [{"type": "exact_match", "tool": "search"}]}],
             evaluators={"n": lambda *, response: {"items": len(response)}}, output_path=tmp_path / "run")
    row = parse(write_report(tmp_path / "run").read_text(encoding="utf-8")).find("details", cls="row")
    chat = row.find("div", cls="chat", data_column="response")
    assert [(m.attrs["data-role"], m.find("span", cls="who").text) for m in chat.find_all("div", cls="msg")] == [
        ("assistant", "assistant"), ("tool", "tool · search"), ("assistant", "assistant")]
    assert "3 flights found" in chat.text and "I found 3." in chat.text
    assert not row.find_all("div", cls="chat", data_column="expected")  # not a conversation: stays JSON
    assert json.loads(row.find("pre", data_of="inputs").text)["expected"] == [{"type": "exact_match", "tool": "search"}]


def test_a_very_long_conversation_is_cut_too(tmp_path):
    chat = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"} for i in range(20_000)]
    evaluate(data=[{"id": "long", "conversation": chat, "query": "q"}], evaluators={"turns": count_turns},
             output_path=tmp_path / "run")
    page = write_report(tmp_path / "run").read_text(encoding="utf-8")
    assert len(page) < 200_000  # 20,000 messages are not all drawn
    shown = parse(page).find("div", cls="chat", data_column="conversation")
    assert len(shown.find_all("div", cls="msg")) == 200
    assert "Showing the first 200 of 20,000 entries" in shown.find("p", cls="clipped").text
