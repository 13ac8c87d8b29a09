"""Which cells of a run a person labels, in what order: the fewest labels for the judge's error rates.

The judge's true-positive and true-negative rates are measured on cells a person has labelled,
so the queue:

* holds only cells with a verdict (``pass`` / ``fail``); errored, not-applicable and not-run cells
  (and cells without a verdict) are left out and counted, and so are cells this annotator has
  already labelled (a cell is never asked twice);
* is stratified by the judge's verdict (per evaluator): the strata are interleaved in proportion
  to their sizes (each at its share of the picks so far, the rarer one first on a tie, and each
  stratum's first cell among the first picks), so any prefix of the queue, ``--limit N``
  included, holds both verdicts of every evaluator in the run's own mix, and the rates computed
  from it are not skewed by the choice;
* within a stratum puts the informative cells first: those where a judge panel split on
  pass/fail, then those whose score sits within a tenth of the scale of the threshold (nearest
  first), then the rest in a fixed pseudo-random order keyed on the line number and the alias
  (the same run gives the same queue, whoever asks, and the rest are a fair sample).

Pure: it sees plain :class:`Candidate` records, built from a run's rows by the interface that
serves the queue (``agent_evaluators.report.label_server``).
"""

import hashlib
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

Cell = Tuple[int, str]  # (line_number, evaluator alias)

#: the cell statuses a person can label: the judge gave a verdict to compare with
LABELLABLE = ("pass", "fail")
#: a score this close to the threshold (as a share of the evaluator's scale) counts as borderline
BORDERLINE_SHARE = 0.1


@dataclass(frozen=True)
class Candidate:
    """One cell of a run as the queue sees it.

    ``status``: the cell's status as the report reads it (``pass``, ``fail``, ``error``,
    ``not_applicable``, ``not_run``, ``none``). ``span``: the width of the evaluator's score scale
    (``None`` when unknown; the queue then reads it off the scores). ``disagreement``: a judge
    panel split on this cell.
    """

    line_number: int
    evaluator: str
    status: str
    score: Optional[float] = None
    threshold: Optional[float] = None
    span: Optional[float] = None
    disagreement: bool = False

    @property
    def cell(self) -> Cell:
        return (self.line_number, self.evaluator)


@dataclass
class Queue:
    """The ordered cells to ask, and what was left out of the queue and why."""

    cells: List[Cell]
    left_out: Dict[str, int] = field(default_factory=dict)  # reason -> how many cells
    strata: Dict[str, int] = field(default_factory=dict)  # judge verdict -> cells of it in ``cells``


def _fixed_order(seed: int, cell: Cell) -> str:
    """A pseudo-random but reproducible position for a cell (no dependence on the order rows came in)."""
    return hashlib.sha256(f"{seed}:{cell[0]}:{cell[1]}".encode()).hexdigest()


def _spans(candidates: Sequence[Candidate]) -> Dict[str, Optional[float]]:
    """Each evaluator's scale width, or ``None`` where its scores are binary (nothing is borderline)."""
    spans: Dict[str, Optional[float]] = {}
    for alias in {c.evaluator for c in candidates}:
        scores = {c.score for c in candidates if c.evaluator == alias and c.score is not None}
        declared = next((c.span for c in candidates if c.evaluator == alias and c.span), None)
        if len(scores) <= 2:  # a pass/fail score: every pass sits "at" a threshold of 1
            spans[alias] = None
        else:
            spans[alias] = declared or (max(scores) - min(scores)) or None
    return spans


def _within_stratum(items: List[Candidate], spans: Dict[str, Optional[float]], seed: int) -> List[Candidate]:
    def key(c: Candidate) -> Tuple[int, float, str]:
        span = spans.get(c.evaluator)
        if c.disagreement:
            tier, distance = 0, 0.0
        elif span and c.score is not None and c.threshold is not None and \
                abs(c.score - c.threshold) <= BORDERLINE_SHARE * span:
            tier, distance = 1, abs(c.score - c.threshold) / span
        else:
            tier, distance = 2, 0.0
        return tier, distance, _fixed_order(seed, c.cell)

    return sorted(items, key=key)


def _interleave(strata: Dict[Tuple[str, str], List[Candidate]]) -> List[Candidate]:
    """Every stratum in proportion: each next pick from the stratum furthest below its share of the picks
    so far (the rarer on a tie); the first picks take one cell of each stratum, so every evaluator's
    passes and fails are both asked early."""
    total = sum(len(v) for v in strata.values())
    picked = {name: 0 for name in strata}
    names = sorted(strata, key=lambda n: (len(strata[n]), n))
    out: List[Candidate] = []
    while len(out) < total:
        k = len(out) + 1
        open_ = [n for n in names if picked[n] < len(strata[n])]
        unseen = [n for n in open_ if picked[n] == 0]
        if unseen and len(out) > 0:
            open_ = unseen
        best = max(open_, key=lambda n: (len(strata[n]) / total * k - picked[n], -names.index(n)))
        out.append(strata[best][picked[best]])
        picked[best] += 1
    return out


def order_queue(candidates: Iterable[Candidate], labelled: Iterable[Cell] = (), *, limit: Optional[int] = None,
                seed: int = 0) -> Queue:
    """The cells to ask, in order (at most ``limit``), and the counts of those left out.

    Args:
        candidates: every cell of the run (each evaluator alias wanted, each row).
        labelled: cells this annotator has already labelled; never asked again.
        limit: ask at most this many (the first of the whole order, so both verdicts stay in proportion).
        seed: changes the fixed order of the cells that are neither split nor borderline.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"limit is the most cells to ask, at least 1, not {limit}")
    done: Set[Cell] = set(labelled)
    left_out: Dict[str, int] = {}
    strata: Dict[Tuple[str, str], List[Candidate]] = {}
    everything = list(candidates)
    for c in everything:
        if c.status not in LABELLABLE:
            reason = c.status if c.status in ("error", "not_applicable", "not_run") else "no_verdict"
            left_out[reason] = left_out.get(reason, 0) + 1
        elif c.cell in done:
            left_out["already_labelled"] = left_out.get("already_labelled", 0) + 1
        else:
            strata.setdefault((c.evaluator, c.status), []).append(c)
    spans = _spans(everything)
    ordered = _interleave({name: _within_stratum(items, spans, seed) for name, items in strata.items()})
    if limit is not None:
        ordered = ordered[:limit]
    counts: Dict[str, int] = {}
    for c in ordered:
        counts[c.status] = counts.get(c.status, 0) + 1
    return Queue(cells=[c.cell for c in ordered], left_out=left_out, strata=counts)
