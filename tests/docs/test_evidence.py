"""The evidence page's tables come from committed records, each naming the command and the date behind it.

``docs/evidence.md`` marks where each table goes (``<!-- record: NAME -->``); ``docs/_hooks/evidence.py``
renders it from ``docs/evidence/records/NAME.json``, which ``python bench/<script>.py --record
docs/evidence/records`` wrote (``bench/common.py``). A marker without its record, or a record without
its command or date, fails here and fails the build.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

RECORDS = REPO_ROOT / "docs" / "evidence" / "records"


def _hook():
    sys.path.insert(0, str(REPO_ROOT / "docs" / "_hooks"))
    try:
        import evidence
    finally:
        sys.path.pop(0)
    return evidence


def _markers():
    return _hook().markers((REPO_ROOT / "docs" / "evidence.md").read_text(encoding="utf-8"))


def test_the_page_has_a_table_from_each_bench_script_and_the_parity_run():
    named = {m["name"] for m in _markers()}
    scripts = {p.stem for p in (REPO_ROOT / "bench").glob("bench_*.py")}
    assert scripts <= named, f"bench scripts without a table on the evidence page: {sorted(scripts - named)}"
    assert {"parity", "reliability", "bench_prompt_tokens_long"} <= named


@pytest.mark.parametrize("name", sorted({m["name"] for m in _markers()}))
def test_each_table_has_its_record_with_command_and_date(name):
    path = RECORDS / f"{name}.json"
    assert path.is_file(), f"docs/evidence.md shows {name}, but {path} is missing: run its script with --record"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", record.get("date", "")), record.get("date")
    command = record.get("command", "")
    script = re.search(r"python (bench/\S+\.py)", command)
    assert script and (REPO_ROOT / script.group(1)).is_file(), command
    assert "--record docs/evidence/records" in command, command
    assert record["machine"]["cpus"] and record["machine"]["python"]
    assert record["figures"] and all(t["rows"] and all(len(r) == len(t["columns"]) for r in t["rows"])
                                     for t in record["figures"].values()), name
    rendered = _hook().render(name)
    assert f"`{command}`" in rendered and record["date"] in rendered


def test_no_record_is_left_without_its_table():
    named = {m["name"] for m in _markers()}
    assert {p.stem for p in RECORDS.glob("*.json")} <= named


def test_a_missing_or_incomplete_record_stops_the_page(tmp_path):
    evidence = _hook()
    with pytest.raises(evidence.RecordError, match="no record gone.json"):
        evidence.expand("x\n<!-- record: gone -->\n", tmp_path)
    (tmp_path / "undated.json").write_text(json.dumps({"command": "python bench/x.py", "machine": {"cpus": 2},
                                                       "figures": {"t": {}}}))
    with pytest.raises(evidence.RecordError, match="lacks date"):
        evidence.expand("<!-- record: undated -->", tmp_path)


def test_a_record_is_what_the_script_measured(tmp_path):
    """``--record`` writes the command as typed, the date and the figures it printed (the fastest script)."""
    proc = subprocess.run([sys.executable, "bench/bench_deterministic.py", "--rows", "40", "--record", str(tmp_path)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    record = json.loads((tmp_path / "bench_deterministic.json").read_text(encoding="utf-8"))
    assert record["command"].endswith(f"python bench/bench_deterministic.py --rows 40 --record {tmp_path}")
    rows = {r[0]: r[1] for r in record["figures"]["rouge"]["rows"]}
    assert rows["scores identical (precision, recall, F; exact float equality)"] == "40 of 40"
    assert rows["speed-up of the evaluator call"] in proc.stdout.replace("x (target", "× (target")


def test_the_built_page_shows_each_command_and_date(site):
    import html

    text = html.unescape((site / "evidence.html").read_text(encoding="utf-8"))
    for m in _markers():
        record = json.loads((RECORDS / f"{m['name']}.json").read_text(encoding="utf-8"))
        assert record["command"] in text and record["date"] in text, m["name"]
    assert "<!-- record:" not in text
    assert not list(Path(site).glob("evidence/records/*"))  # the records are sources, not pages


def _reliability_section() -> str:
    text = (REPO_ROOT / "docs" / "evidence.md").read_text(encoding="utf-8")
    section = text[text.index("## Reliability"):]
    return section[:section.index("\n## ")] if "\n## " in section else section


def test_the_reliability_record_has_each_measuring_test_files_figures():
    """Every non-heavy file ``bench/reliability.py`` runs recorded at least one row, naming itself."""
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    try:
        import reliability
    finally:
        sys.path.pop(0)
    record = json.loads((RECORDS / "reliability.json").read_text(encoding="utf-8"))
    table = record["figures"]["reliability"]
    assert table["columns"] == ["measurement", "test file", "figures"]
    named = {row[1].strip("`") for row in table["rows"]}
    assert all((REPO_ROOT / f).is_file() for f in named), named
    expected = {f.split("::")[0] for f in set(reliability.MEASURING) - set(reliability.HEAVY_ONLY)}
    assert expected <= named, f"measuring tests without figures in the record: {sorted(expected - named)}"
    assert not any("failed" in note for note in record["notes"]), record["notes"]


#: a figure in the hand-written reliability table is a limit its test asserts, never a measurement
_FIGURE = re.compile(r"\d[\d,.]*(?:\s(?:s|ms|µs)\b|\s?(?:MB|MiB|KB|GB|%))")
_BOUND = re.compile(r"(at most|under|within|bounds it at|after|\+|limit \()\s*$", re.IGNORECASE)


def test_the_reliability_prose_carries_no_measured_figure():
    """Measured figures come from the record (command and date); the prose keeps setups and the checks.

    A number with a unit in the "what the test checks" column must follow a bound ("under 600 MB",
    "at most 1%"): a test asserts it. Anything else is a measurement written by hand."""
    section = _reliability_section()
    assert "<!-- record: reliability -->" in section
    header = next(line for line in section.splitlines() if line.startswith("| what is attacked"))
    assert [c.strip() for c in header.strip("|").split("|")] == ["what is attacked", "setup", "what the test checks"]
    assert "measured on" not in section.lower()
    rows = [line for line in section.splitlines() if line.startswith("| ") and line != header
            and not line.startswith("|---")]
    assert len(rows) > 30
    for line in rows:
        checks = line.split(" | ", 2)[2]
        for m in _FIGURE.finditer(checks):
            before = checks[max(0, m.start() - 20):m.start()]
            assert _BOUND.search(before), f"a hand-written figure {m.group(0)!r} in: {line[:60]}…"


def test_the_prose_check_catches_a_figure_written_by_hand():
    line = "| x | y | Peak RSS 208 MB, under 400 MB |"
    figures = [m for m in _FIGURE.finditer(line.split(" | ", 2)[2])]
    assert [bool(_BOUND.search(line.split(" | ", 2)[2][max(0, m.start() - 20):m.start()])) for m in figures] \
        == [False, True]
