"""Issue 14.11: the HTML report, JUnit XML and the CLI's terminal output survive odd data.

* inf / NaN scores render as text, stay out of histograms and means, and never produce bare
  ``NaN``/``Infinity`` tokens in the JSON the page shows;
* bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+200E/F) in row ids, reasons or
  inputs never reach the page or the XML raw: they are shown as ``\\u202e`` text;
* JUnit XML stays well-formed XML 1.0 when data holds C0 controls, lone surrogates or U+FFFF;
* ``agent-eval run`` prints no ESC, BEL, NUL or CR from the data (terminal escape sequences,
  OSC window titles, carriage-return overwrites), on stdout or stderr.
"""

import html
import json
import math
import re
import xml.etree.ElementTree as ET
import xml.sax
from pathlib import Path
from typing import Any, Dict, List

from agent_evaluators._util.safe_text import display_safe, terminal_safe
from agent_evaluators.cli import RunOutcome
from agent_evaluators.report import write_report
from agent_evaluators.report.junit import write_junit
from agent_evaluators.report.load import cell_status, load_run
from tests.cli.helpers import agent_eval, write_jsonl
from tests.report.helpers import make_run

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
SPOOF_ID = "invoice\u202egnp.exe"  # displays as "invoiceexe.png" when the override is honoured
TERMINAL_NASTY = "\x1b]0;pwned-title\x07\x1b[2J\x1b[31mred\x00nul\rOVERWRITE\x9b31m\u202e"
# XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
XML_ILLEGAL = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _rewrite_rows(run: Path, change: Any) -> None:
    """Edit rows.jsonl as another tool (or an evaluator returning inf) could have written it."""
    rows = [json.loads(line) for line in (run / "rows.jsonl").read_text("utf-8").splitlines() if line.strip()]
    for row in rows:
        change(row)
    (run / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _pre_blocks(page: str) -> List[str]:
    return [html.unescape(m) for m in re.findall(r"<pre>(.*?)</pre>", page, flags=re.S)]


def _strict_json(text: str) -> Any:
    def refuse(token: str) -> Any:
        raise ValueError(f"bare {token} token: not JSON")

    return json.loads(text, parse_constant=refuse)


# ---------------------------------------------------------------------------- HTML: inf / NaN
def test_report_renders_inf_and_nan_scores(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    odd = {"r0": math.inf, "r2": math.nan, "r4": -math.inf}

    def change(row: Dict[str, Any]) -> None:
        if row.get("inputs.id") in odd:
            row["outputs.likert.likert"] = odd[row["inputs.id"]]
            row["outputs.likert.details"] = {"raw": odd[row["inputs.id"]], "list": [math.nan]}

    _rewrite_rows(run, change)
    summary = json.loads((run / "summary.json").read_text("utf-8"))
    summary["metrics"]["likert.likert"] = math.nan
    summary["metrics"]["likert.extra_metric"] = math.inf
    (run / "summary.json").write_text(json.dumps(summary), encoding="utf-8")

    page = write_report(run).read_text("utf-8")
    card = page[page.index('data-alias="likert"') :]
    card = card[: card.index("</div>")]
    assert "NaN/inf scores</dt><dd>3 (not in the histogram)" in card
    assert "finite scores only" in card and "<dd>inf</dd>" in card
    finite = [
        r
        for r in load_run(run).rows
        if isinstance(r.get("outputs.likert.likert"), float)
        and math.isfinite(r["outputs.likert.likert"])
        and cell_status(r, "likert") in ("pass", "fail")
    ]
    assert len(finite) == 2  # r1 and r3 keep finite scores: only they are in the histogram
    hist = card[card.index("<svg") :]
    assert sum(int(n) for n in re.findall(r"<title>[^<]*: (\d+)</title>", hist)) == len(finite)
    assert "inf" in page and "-inf" in page and "NaN" in page
    blocks = _pre_blocks(page)
    assert blocks and all(_strict_json(b) is not None for b in blocks)
    assert any('"Infinity"' in b and '"NaN"' in b for b in blocks)
    for attr in re.findall(r' data-(?:pass|fail|error|notapplicable)="([^"]*)"', page):
        _strict_json(html.unescape(attr))


# ---------------------------------------------------------------------------- HTML: bidi
def test_report_shows_bidi_controls_as_escapes_never_raw(tmp_path: Path) -> None:
    data = [
        {"id": SPOOF_ID, "response": "Paris" + BIDI, "expected": "Paris"},
        {"id": "plain\u2066id\u2069", "response": "x\x1b[31m\x85", "expected": "Rome\u202e"},
    ]
    run = make_run(tmp_path / "run", data)
    page = write_report(run).read_text("utf-8")
    assert not any(ch in page for ch in BIDI), [hex(ord(c)) for c in BIDI if c in page]
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", page)
    assert "invoice\\u202egnp.exe" in page  # the row id, visibly escaped
    assert "\\u2066id\\u2069" in page
    assert "missing: Rome\\u202e" in page  # a reason
    for block in _pre_blocks(page):
        _strict_json(block)  # the escapes keep the JSON shown in the page valid JSON


# ---------------------------------------------------------------------------- JUnit
def _outcome(aliases: List[str], keys: Dict[str, str]) -> RunOutcome:
    return RunOutcome(metrics={}, usage={}, aliases=aliases, result_keys=dict(keys), skipped={})


def _assert_well_formed(path: Path) -> ET.Element:
    raw = path.read_bytes()
    text = raw.decode("utf-8")  # strict: a lone surrogate could not have been written
    assert not XML_ILLEGAL.search(text), [hex(ord(c)) for c in XML_ILLEGAL.findall(text)]
    assert not re.search(r"&#(x0*([0-8bcef]|1[0-9a-f])|0*([0-8]|1[124-9]|2[0-9]|3[01]));", text, flags=re.I)
    xml.sax.parseString(raw, xml.sax.ContentHandler())  # expat, non-validating but strict on well-formedness
    return ET.fromstring(raw)


def test_junit_is_well_formed_with_control_characters_in_the_data(tmp_path: Path) -> None:
    bad = "".join(chr(c) for c in range(0x20)) + "\x7f\x85\ud800\uffff" + BIDI
    rows = [
        {
            "line_number": 0,
            "inputs.id": "row" + bad,
            "outputs.m.score": 0.1,
            "outputs.m.score_threshold": 0.5,
            "outputs.m.score_result": "fail",
            "outputs.m.score_reason": "reason " + bad,
        },
        {"line_number": 1, "inputs.id": "e\x1b", "cell_status": {"m": "error"}, "outputs.m.score_error": "boom" + bad},
        {
            "line_number": 2,
            "outputs.m.score_result": "not_applicable",
            "outputs.m.score_reason": "n/a\x00" + bad,
        },
    ]
    outcome = _outcome(["m"], {"m": "score"})
    outcome.checks = [{"check": "m.score >= 1", "status": "fail", "value": math.nan, "note": "note\x1b" + bad}]
    root = _assert_well_formed(write_junit(tmp_path / "junit.xml", rows, outcome))
    cases = root.findall(".//testcase")
    assert len(cases) == 4
    failure = root.find(".//failure")
    assert failure is not None and "\\u001b" in (failure.text or "") and "\\u202e" in (failure.text or "")
    names = [c.get("name") or "" for c in cases]
    assert names[0].startswith("row 0 (row\\u0000\\u0001") and "\\ud800\\uffff" in names[0]
    assert "\t" in names[0] and "\n" in names[0]  # legal in XML, kept
    error = root.find(".//error")
    assert error is not None and (error.get("message") or "").startswith("boom\\u0000")


def test_cli_junit_and_html_from_nasty_data_are_well_formed(tmp_path: Path) -> None:
    data = _nasty_rows()
    r = agent_eval(
        "run",
        "--data",
        write_jsonl(tmp_path / "d.jsonl", data),
        "--evaluator",
        "response_match",
        "-o",
        tmp_path / "out",
        "--junit",
        tmp_path / "j.xml",
        "--html",
    )
    assert r.rc in (1, 2), r
    _assert_well_formed(tmp_path / "j.xml")
    page = (tmp_path / "out" / "report.html").read_text("utf-8")
    assert "\x1b" not in page and not any(ch in page for ch in BIDI)


# ---------------------------------------------------------------------------- terminal
def _nasty_rows() -> List[Dict[str, Any]]:
    return [
        {"id": "a" + TERMINAL_NASTY, "response": "Paris " + TERMINAL_NASTY, "ground_truth": "Lyon is a city"},
        {"id": "b\x1b[1A\x1b[2K", "response": "Paris", "ground_truth": "Paris"},
        {"id": "c\rFAKE PASS", "response": {"bad\x1b]0;t\x07": 1}, "ground_truth": "x"},
        {"id": SPOOF_ID, "response": "nothing in common", "ground_truth": "the reference answer" + TERMINAL_NASTY},
    ]


def test_cli_prints_no_terminal_control_sequences_from_data(tmp_path: Path) -> None:
    r = agent_eval(
        "run",
        "--data",
        write_jsonl(tmp_path / "d.jsonl", _nasty_rows()),
        "--evaluator",
        "response_match",
        "-o",
        tmp_path / "out",
    )
    assert r.rc in (1, 2), r
    for stream in (r.out, r.err):
        for forbidden in ("\x1b", "\x07", "\x00", "\r", "\x9b", "\u202e"):
            assert forbidden not in stream, (repr(forbidden), r)
    assert "a\\x1b]0;pwned-title\\x07" in r.out  # the failing row's id, visibly escaped
    assert "invoice\\u202egnp.exe" in r.out


def test_cli_error_message_from_data_is_escaped(tmp_path: Path) -> None:
    bad = tmp_path / "bad\x1b]0;x\x07.jsonl"
    bad.write_text('{"response": "a", "ground_truth": "b"}\n{not json\n', encoding="utf-8")
    r = agent_eval("run", "--data", bad, "--evaluator", "response_match", "-o", tmp_path / "out")
    assert "\x1b" not in r.out + r.err and "\x07" not in r.out + r.err, r


def test_terminal_and_display_rules() -> None:
    assert terminal_safe("ok é 日本 \\") == "ok é 日本 \\"
    assert terminal_safe("\x1b]0;t\x07\x00\r\n\t\x9b\u202e\ud800") == "\\x1b]0;t\\x07\\x00\\x0d\\x0a\\x09\\x9b\\u202e\\ud800"
    assert terminal_safe(ValueError("e\x1b")) == "e\\x1b"
    assert display_safe("a\tb\nc\r\x1b\x85\u2066\uffff") == "a\tb\nc\r\\u001b\\u0085\\u2066\\uffff"
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    shown = terminal_safe(every)
    assert not re.search("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]", shown)
    assert not XML_ILLEGAL.search(display_safe(every))
