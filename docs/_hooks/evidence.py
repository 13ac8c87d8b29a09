"""MkDocs hook: the evidence page's tables, rendered from the records the bench and parity scripts wrote.

``docs/evidence.md`` holds the prose and a marker where each table goes::

    <!-- record: bench_evaluate -->          every table of docs/evidence/records/bench_evaluate.json
    <!-- record: bench_nlp "call 8-40" -->   one table of it

A record is what ``python bench/<script>.py ... --record docs/evidence/records`` wrote
(``bench/common.py``): the exact command line, the date, the machine and the figures, table by table.
Under each table the page shows the command and the date, so no figure stands without the run that
measured it; re-running the command refreshes the figure. A marker naming a record that is missing, or
one without its command or date, fails the build (``tests/docs/test_evidence.py`` checks the same
without building).
"""

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Optional

PAGE = "evidence.md"
RECORDS = Path(__file__).resolve().parent.parent / "evidence" / "records"
MARKER = re.compile(r'<!-- record: (?P<name>[\w.-]+)(?: "(?P<table>[^"]+)")? -->')
REQUIRED = ("command", "date", "machine", "figures")


class RecordError(Exception):
    """A marker whose record is missing or incomplete: the message says which and the command to run."""


def load(name: str, folder: Path = RECORDS) -> Dict[str, Any]:
    path = folder / f"{name}.json"
    if not path.is_file():
        raise RecordError(f"{PAGE}: no record {path.name} in {folder}; run the script with "
                          f"`--record docs/evidence/records` (see bench/common.py) and commit the file")
    record = json.loads(path.read_text(encoding="utf-8"))
    missing = [key for key in REQUIRED if not record.get(key)]
    if missing:
        raise RecordError(f"{path}: the record lacks {', '.join(missing)}; write it again with `--record`")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(record["date"])):
        raise RecordError(f"{path}: date {record['date']!r} is not an ISO date (YYYY-MM-DD)")
    return record


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.4g}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def render_table(table: Dict[str, Any]) -> List[str]:
    columns = table["columns"]
    lines = [f"**{table['title']}**", "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in table["rows"]]
    return lines


def provenance(record: Dict[str, Any]) -> str:
    machine = record["machine"]
    where = ", ".join(str(part) for part in (
        f"{machine['cpus']} CPUs" if machine.get("cpus") else None,
        f"Python {machine['python']}" if machine.get("python") else None,
        machine.get("system")) if part)
    return f"Measured {record['date']} ({where}) with `{record['command']}`."


def render(name: str, table: Optional[str] = None, folder: Path = RECORDS) -> str:
    """The Markdown a marker becomes: the record's tables (or the one named), then the command and the date."""
    record = load(name, folder)
    tables = record["figures"]
    if table is not None:
        if table not in tables:
            raise RecordError(f"{PAGE}: record {name} has no table {table!r} (it has {', '.join(tables)})")
        tables = {table: tables[table]}
    lines: List[str] = []
    for item in tables.values():
        lines += render_table(item) + [""]
    lines.append(provenance(record))
    lines += [""] + [note for note in record.get("notes", [])]
    return "\n".join(lines).rstrip() + "\n"


def markers(markdown: str) -> List[Dict[str, Optional[str]]]:
    return [m.groupdict() for m in MARKER.finditer(markdown)]


def expand(markdown: str, folder: Path = RECORDS) -> str:
    return MARKER.sub(lambda m: render(m.group("name"), m.group("table"), folder), markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != PAGE:
        return markdown
    try:
        return expand(markdown)
    except RecordError as e:
        from mkdocs.exceptions import PluginError

        raise PluginError(str(e)) from e
