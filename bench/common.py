"""What the benchmarks share: the local judge server in its own process, judge data, and records.

The judge runs as ``python -m agent_evaluators.testing`` in a separate process so its
CPU does not count against the client being measured; ``/stats`` gives requests and
the maximum in flight.

A record (``--record DIR``) is the figures a script printed, as ``DIR/<name>.json`` with the exact
command line, the date and the machine: the documentation's evidence page renders its tables from
the records committed in ``docs/evidence/records/`` (``docs/_hooks/evidence.py``), so a figure on
the page always names the command that measured it.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

REPO = Path(__file__).resolve().parent.parent


class Server:
    def __init__(self, delay_ms: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "agent_evaluators.testing", "--port", "0", "--delay-ms", str(delay_ms), "--score", "4"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        m = re.search(r"listening on (http://\S+)", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"judge server did not start: {line!r}")
        self.url = m.group(1)

    def reset(self) -> None:
        urllib.request.urlopen(urllib.request.Request(self.url + "/reset", method="POST", data=b"")).read()

    def stats(self) -> Dict[str, Any]:
        return json.loads(urllib.request.urlopen(self.url + "/stats").read())

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def write_judge_data(path: Path, n: int) -> Path:
    """``n`` rows of ``query``/``response`` for IntentResolution."""
    with open(path, "w") as f:
        for i in range(n):
            f.write(json.dumps({"query": f"Please cancel my meeting number {i} tomorrow.",
                                "response": f"Meeting {i} is cancelled."}) + "\n")
    return path


# ---------------------------------------------------------------------------- records


def add_record_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--record", metavar="DIR",
                        help="also write the figures as DIR/<name>.json (command, date, machine, figures); "
                             "docs/evidence/records is what the evidence page renders")


def command_line(argv: Optional[Sequence[str]] = None) -> str:
    """The command as typed from the repository root: ``python bench/x.py ARGS`` (``PYTHONPATH=.`` first
    when the repository was on the path), whichever interpreter ran it."""
    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0]).resolve()
    try:
        shown = str(script.relative_to(REPO))
    except ValueError:
        shown = argv[0]
    prefix = "PYTHONPATH=. " if any(Path(p or ".").resolve() == REPO
                                    for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p) else ""
    return prefix + shlex.join(["python", shown, *argv[1:]])


def figure(value: float, digits: int = 3) -> float:
    """A measured float rounded for the page (the JSON keeps no false precision)."""
    return float(f"{value:.{digits}g}") if abs(value) < 10 ** digits else round(value)


class Recorder:
    """The figures of one script run, table by table, written as one record.

    ``table(key, title, columns)`` starts a table; ``row(key, label, *values)`` adds a row under
    ``columns``; ``note`` adds a sentence shown under the tables (the mode the run was in, what a
    quick run left out)."""

    def __init__(self, name: str, directory: Optional[str]) -> None:
        self.name = name
        self.directory = directory
        self.tables: Dict[str, Dict[str, Any]] = {}
        self.notes: List[str] = []

    def table(self, key: str, title: str, columns: Sequence[str]) -> None:
        self.tables[key] = {"title": title, "columns": list(columns), "rows": []}

    def row(self, key: str, *values: Any) -> None:
        table = self.tables[key]
        if len(values) != len(table["columns"]):
            raise ValueError(f"{self.name}/{key}: {len(values)} values for columns {table['columns']}")
        table["rows"].append(list(values))

    def note(self, text: str) -> None:
        self.notes.append(text)

    def write(self, argv: Optional[Sequence[str]] = None) -> Optional[Path]:
        if not self.directory:
            return None
        folder = Path(self.directory)
        folder.mkdir(parents=True, exist_ok=True)
        record = {
            "name": self.name,
            "command": command_line(argv),
            "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "system": f"{platform.system()} {platform.machine()}"},
            "figures": self.tables,
            "notes": self.notes,
        }
        path = folder / f"{self.name}.json"
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"record written: {path}", flush=True)
        return path
