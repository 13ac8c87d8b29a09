"""People's labels of a run's cells: ``labels.jsonl`` in the run folder.

One JSON object a line, appended as each label is given::

    {"line_number": 3, "evaluator": "task_adherence", "label": "pass",
     "annotator": "ana", "reason": "", "time": "2026-11-28T12:00:00+00:00"}

``line_number`` is the row's as in ``rows.jsonl``; ``evaluator`` is the run's alias. Labels are
never rewritten: the last label of an annotator for a cell wins, so an undo is a new line (the
label the cell had before, or ``"unlabelled"`` where it had none). Each label is one ``write()``
on an ``O_APPEND`` descriptor, so a crash loses at most the label being written, and several
people can label the same run at once, each under their own name.
"""

import json
import os
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple, Union

LABELS_FILE = "labels.jsonl"
#: what a person may answer; ``"unlabelled"`` is what an undo writes where the cell had no label
LABEL_VALUES = ("pass", "fail", "skip", "unlabelled")

Cell = Tuple[int, str]  # (line_number, evaluator alias)


@dataclass(frozen=True)
class Label:
    """One person's answer for one cell of a run."""

    line_number: int
    evaluator: str
    label: str
    annotator: str
    reason: str = ""
    time: str = ""

    def __post_init__(self) -> None:
        if self.label not in LABEL_VALUES:
            raise ValueError(f"a label is one of {', '.join(LABEL_VALUES)}, not {self.label!r}")
        if not self.annotator:
            raise ValueError("a label needs the annotator's name")


def labels_path(run_folder: Union[str, Path]) -> Path:
    return Path(run_folder) / LABELS_FILE


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def append_label(run_folder: Union[str, Path], label: Label) -> Label:
    """Append ``label`` (stamped with the time now where it has none) as one whole line."""
    if not label.time:
        label = Label(**{**asdict(label), "time": now_iso()})
    line = (json.dumps(asdict(label), ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(labels_path(run_folder), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)
    return label


def iter_labels(run_folder: Union[str, Path]) -> Iterator[Label]:
    """Every label in file order; a torn or foreign line (a crash mid-write) is skipped."""
    path = labels_path(run_folder)
    if not path.exists():
        return
    with path.open("rb") as f:
        for raw in f:
            try:
                item = json.loads(raw)
                yield Label(line_number=int(item["line_number"]), evaluator=str(item["evaluator"]),
                            label=str(item["label"]), annotator=str(item["annotator"]),
                            reason=str(item.get("reason") or ""), time=str(item.get("time") or ""))
            except (ValueError, KeyError, TypeError):
                continue


def latest_labels(run_folder: Union[str, Path],
                  annotator: Optional[str] = None) -> Dict[Tuple[str, int, str], Label]:
    """``(annotator, line_number, evaluator) -> Label``: each annotator's last word on each cell.

    A cell whose last word is ``"unlabelled"`` (an undo back to nothing) is left out.
    """
    latest: Dict[Tuple[str, int, str], Label] = {}
    for item in iter_labels(run_folder):
        if annotator is None or item.annotator == annotator:
            latest[(item.annotator, item.line_number, item.evaluator)] = item
    return {key: item for key, item in latest.items() if item.label != "unlabelled"}


def labels_by_cell(run_folder: Union[str, Path]) -> Dict[Cell, List[Label]]:
    """``(line_number, evaluator) -> [each annotator's latest label]`` (inter-annotator views)."""
    cells: Dict[Cell, List[Label]] = {}
    for (_, line, alias), item in sorted(latest_labels(run_folder).items()):
        cells.setdefault((line, alias), []).append(item)
    return cells
