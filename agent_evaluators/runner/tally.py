"""Counting finished rows: metric totals per evaluator alias and the error cells kept for the summary.

One mechanism for every place a finished row is counted: the local engine's ledger,
each Ray worker's shard (which then hands its tally to the driver's ledger in one
piece), so "count it, keep its error" is written once. With each kept error goes its
:class:`~.cells.CellProblem` (the message with its references), in memory only, for a
reader that lists error cells in its own words (``EvaluationResult.problems``).
"""

from typing import Any, Dict, List, Mapping, Tuple

from .aggregate import AliasStats
from .cells import CellProblem

#: errors kept in memory / summary.json; the full set is always in rows.jsonl.
MAX_ERRORS_KEPT = 10_000


class RowTally:
    """Metric totals per alias, the first :data:`MAX_ERRORS_KEPT` error cells (and their problems), and the
    error count (cells); ``progress_errors``: the errors the progress line shows, where a row that could
    not be read (or saved) is one error however many evaluators it failed for."""

    __slots__ = ("stats", "errors", "problems", "error_count", "progress_errors")

    def __init__(self, result_keys: Mapping[str, Any], num_runs: int) -> None:
        self.stats: Dict[str, AliasStats] = {alias: AliasStats(key, num_runs) for alias, key in result_keys.items()}
        self.errors: List[Dict[str, Any]] = []
        #: (line, alias) -> the kept error cell's problem, with its references
        self.problems: Dict[Tuple[int, str], CellProblem] = {}
        self.error_count = 0
        self.progress_errors = 0

    def add(self, line: int, cells: Mapping[str, Any], *, row_error: bool = False) -> int:
        """Count one finished row's cells (:class:`~.cells.Cell`); returns the errors the progress line
        counts for it: its error cells, or one for a row that has a ``row_error`` (a malformed line)."""
        n_err = 0
        for alias, cell in cells.items():
            self.stats[alias].add(cell.out, cell.ok)
            if not cell.ok:
                n_err += 1
                if len(self.errors) < MAX_ERRORS_KEPT:
                    self.errors.append({"line_number": line, "alias": alias, "message": cell.message})
                    if cell.problem is not None:
                        self.problems[(line, alias)] = cell.problem
        self.error_count += n_err
        shown = min(n_err, 1) if row_error else n_err
        self.progress_errors += shown
        return shown

    def add_reused(self, cells: Mapping[str, Mapping[str, Any]]) -> None:
        """Count a finished record of an earlier run (every cell ok) in the metrics."""
        for alias, stats in self.stats.items():
            stats.add(cells.get(alias, {}), True)

    def merge(self, other: "RowTally") -> None:
        """Fold another tally (a finished Ray shard's) into this one."""
        for alias, part in other.stats.items():
            self.stats[alias].merge(part)
        room = MAX_ERRORS_KEPT - len(self.errors)
        if room > 0:
            kept = other.errors[:room]
            self.errors.extend(kept)
            for e in kept:
                key = (e["line_number"], e["alias"])
                if key in other.problems:
                    self.problems[key] = other.problems[key]
        self.error_count += other.error_count
        self.progress_errors += other.progress_errors
