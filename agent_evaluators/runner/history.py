"""A finished run is not lost to the next one: a new run in the same folder keeps it under ``history/``.

``output_path`` is the folder of the *latest* run: ``rows.jsonl`` and ``summary.json`` stay where
readers, ``resume`` and reports look. When a new run (not a resume) starts there over a run that
completed, the earlier run's files move to ``<output_path>/history/<its start time>/`` first, so a
paid-for run is never overwritten by a rerun with the same command. (A run that did not finish is
refused instead unless ``force``: see the ledger.)
"""

from pathlib import Path
from typing import Any, Mapping, Optional

from ..judge.batch_journal import JOURNAL_FILE
from .store import ROWS_FILE, SUMMARY_FILE

HISTORY_DIR = "history"
#: what a finished run leaves in its folder (a dry run's ``estimate.json`` is for the run to come: it stays)
KEPT_FILES = (ROWS_FILE, SUMMARY_FILE, "checks.json", "report.html", JOURNAL_FILE)


def _stamp(started_at: Any) -> str:
    """A folder name from ``summary.json``'s ``started_at`` (ISO time): ``2026-11-28T05-55-59``."""
    text = str(started_at or "unknown-start")[:19]
    return "".join(c if c.isalnum() or c in "-T" else "-" for c in text)


def keep_finished_run(folder: Path, summary: Mapping[str, Any]) -> Optional[Path]:
    """Move the complete run in ``folder`` into its ``history/`` entry; the entry, or ``None`` if nothing moved."""
    files = [folder / name for name in KEPT_FILES if (folder / name).exists()]
    if not files:
        return None
    base = folder / HISTORY_DIR / _stamp(summary.get("started_at"))
    entry, n = base, 1
    while entry.exists():  # two runs started in the same second
        n += 1
        entry = base.with_name(f"{base.name}-{n}")
    entry.mkdir(parents=True)
    for path in files:
        path.replace(entry / path.name)
    return entry
