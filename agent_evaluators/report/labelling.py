"""One person labelling a run's cells: the queue, where they are, their answers, undo.

Everything a page needs to resume is in the run folder: progress is read back from
``labels.jsonl`` at every step (the cells of this session's queue the annotator has a label for),
so a reload, or a second tab, shows where the person is. The queue is fixed when the session
starts (:func:`agent_evaluators.calibration.label_queue.order_queue`): the cells this annotator
had labelled before are left out of it. Undo keeps a stack of this session's answers; it writes
the cell's earlier label again (or ``"unlabelled"``), never rewrites a line.

The judge's verdict of a cell is not part of what :meth:`LabelSession.state` shows for the cell
being asked; it is revealed in ``last`` once the person has answered (no anchoring).
"""

import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..calibration.label_queue import Candidate, Cell, Queue, order_queue
from ..calibration.labels import Label, append_label, latest_labels
from ..errors import InputError
from ..runner.panel_votes import panel_of
from .html import _row_home, _values_block
from .load import RunData, cell_status, load_run, row_label
from .text import clip, esc
from .text import num_text as _num

#: what a person answers on the page (``"unlabelled"`` is undo's, not theirs)
ANSWERS = ("pass", "fail", "skip")


def _number(value: Any) -> Optional[float]:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _split(details: Any) -> bool:
    """Whether a judge panel split on pass/fail in this cell (in any repetition, with ``num_runs > 1``)."""
    if isinstance(details, Mapping) and isinstance(details.get("runs"), list):
        return any(_split(v) for run in details["runs"] if isinstance(run, Mapping)
                   for k, v in run.items() if k.endswith("_details"))
    panel = panel_of(details)
    return bool(panel and panel.get("disagreement"))


def candidates(run: RunData, aliases: Sequence[str]) -> List[Candidate]:
    """Every cell of ``aliases`` in ``run``, as the queue sees it."""
    out = []
    for alias in aliases:
        key = run.result_key(alias)
        scale = run.score_scale(alias)
        span = (scale[1] - scale[0]) if scale else None
        for row in run.rows:
            prefix = f"outputs.{alias}.{key}" if key else None
            out.append(Candidate(
                line_number=int(row["line_number"]), evaluator=alias, status=cell_status(row, alias),
                score=_number(row.get(prefix)) if prefix else None,
                threshold=_number(row.get(f"{prefix}_threshold")) if prefix else None,
                span=span, disagreement=_split(row.get(f"{prefix}_details")) if prefix else False))
    return out


class LabelSession:
    """``annotator`` labelling the run in ``run_folder``: at most ``limit`` cells of ``evaluators``."""

    def __init__(self, run_folder: Any, annotator: str, *, limit: Optional[int] = None,
                 evaluators: Optional[Sequence[str]] = None, seed: int = 0) -> None:
        if not annotator or not annotator.strip():
            raise InputError("labels need the annotator's name: pass --annotator NAME (or set $USER)")
        self.run = load_run(run_folder)
        self.annotator = annotator.strip()
        known = [a for a in self.run.aliases if a not in self.run.skipped]
        unknown = [a for a in evaluators or () if a not in known]
        if unknown:
            raise InputError(f"no evaluator {', '.join(map(repr, unknown))} in the run in {self.run.path}; "
                             f"its evaluators are: {', '.join(known) or '(none)'}")
        self.aliases = list(evaluators) if evaluators else known
        mine = {(line, alias) for (_, line, alias) in latest_labels(self.run.path, self.annotator)}
        self.queue: Queue = order_queue(candidates(self.run, self.aliases), mine, limit=limit, seed=seed)
        self._rows = {int(r["line_number"]): r for r in self.run.rows}
        self._undo: List[Tuple[Cell, Optional[Label]]] = []
        self._last: Optional[Dict[str, Any]] = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ reading
    def _mine(self) -> Dict[Cell, Label]:
        return {(line, alias): item for (_, line, alias), item in latest_labels(self.run.path, self.annotator).items()}

    def state(self) -> Dict[str, Any]:
        """Where the person is: progress, the cell to ask now (verdict hidden), the last answer revealed."""
        with self._lock:
            return self._state()

    def _state(self) -> Dict[str, Any]:
        mine = self._mine()
        done = sum(1 for cell in self.queue.cells if cell in mine)
        current = next((cell for cell in self.queue.cells if cell not in mine), None)
        return {
            "annotator": self.annotator,
            "run": str(self.run.path),
            "done": done,
            "total": len(self.queue.cells),
            "labelled_in_all": len(mine),
            "left_out": dict(self.queue.left_out),
            "cell": self.cell_view(current) if current else None,
            "can_undo": bool(self._undo),
            "last": self._last,
        }

    def cell_view(self, cell: Cell) -> Dict[str, Any]:
        """What the page shows to ask about a cell: the row's conversation and data, never its verdicts."""
        line, alias = cell
        row = self._rows[line]
        home = _row_home(row)
        inputs = {k[7:]: v for k, v in row.items() if k.startswith("inputs.")}
        target = {k[8:]: v for k, v in row.items()
                  if k.startswith("outputs.") and not any(k.startswith(f"outputs.{a}.") for a in self.run.aliases)}
        desc = ((self.run.summary.get("config") or {}).get("evaluators") or {}).get(alias) or {}
        label = row_label(row)
        html = (f'<h3 class="asked"><span class="line">#{esc(line)}</span> <span class="rid">{esc(label)}</span> '
                f'· evaluator <b>{esc(alias)}</b> <span class="muted">{esc(desc.get("class") or "")}</span></h3>'
                f"{_values_block('inputs', inputs, home)}{_values_block('target outputs', target, home)}")
        return {"line_number": line, "evaluator": alias, "row": label, "html": html}

    def _verdict(self, cell: Cell) -> Dict[str, Any]:
        line, alias = cell
        row = self._rows[line]
        key = self.run.result_key(alias)
        prefix = f"outputs.{alias}.{key}"
        reason = row.get(f"{prefix}_reason")
        score, threshold = row.get(prefix), row.get(f"{prefix}_threshold")
        return {"judge": cell_status(row, alias), "score": _num(score) if _number(score) is not None else None,
                "threshold": _num(threshold) if _number(threshold) is not None else None,
                "judge_reason": clip(str(reason), _row_home(row), 2000) if reason else ""}

    # ------------------------------------------------------------------ writing
    def answer(self, line_number: Any, evaluator: Any, label: Any, reason: Any = "") -> Dict[str, Any]:
        """Write the person's answer for a cell of the queue (at once, one line), reveal the judge's verdict."""
        if label not in ANSWERS:
            raise InputError(f"a label is one of {', '.join(ANSWERS)}, not {label!r}")
        if not isinstance(line_number, int) or isinstance(line_number, bool) or not isinstance(evaluator, str):
            raise InputError("an answer names its cell: an integer line_number and the evaluator alias")
        cell = (line_number, evaluator)
        if cell not in self.queue.cells:
            raise InputError(f"row {line_number}, evaluator {evaluator!r} is not in this session's queue "
                             f"(reload the page to get the cell to label)")
        with self._lock:
            before = self._mine().get(cell)
            written = append_label(self.run.path, Label(line_number, evaluator, label, self.annotator,
                                                        str(reason or "")[:2000]))
            self._undo.append((cell, before))
            self._last = {"line_number": line_number, "evaluator": evaluator, "row": row_label(self._rows[line_number]),
                          "label": written.label, "reason": written.reason, **self._verdict(cell)}
            return self._state()

    def undo(self) -> Dict[str, Any]:
        """Take back the last answer of this session: the cell gets its earlier label again (a new line)."""
        with self._lock:
            if not self._undo:
                raise InputError("nothing to undo in this session")
            (line, alias), before = self._undo.pop()
            append_label(self.run.path, Label(line, alias, before.label if before else "unlabelled", self.annotator,
                                              before.reason if before else ""))
            self._last = None
            return self._state()
