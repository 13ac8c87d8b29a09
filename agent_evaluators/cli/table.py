"""Plain-text tables that fit the terminal: ``agent-eval run``'s metrics, ``agent-eval calibrate``'s scores.

Why: alias and metric names run to 40 characters (``rubric_based_final_response_quality_v1``), so a
table laid out for its widest cell is 100-140 columns and every row wraps on an 80-column terminal.
The width comes from ``COLUMNS`` or the terminal itself; on a pipe (CI logs, files) nothing is cut.
A table too wide first uses its short headers and one-space gaps, then cuts the name columns (with
``…``) in the order given, never the numbers.
"""

import shutil
from typing import List, Mapping, Optional, Sequence, Set

#: the width when there is no terminal and no ``COLUMNS``: a pipe or a file keeps every character
UNLIMITED = 10_000
_MIN_CUT = 6


def terminal_width() -> int:
    """Columns of the terminal (``COLUMNS`` first); :data:`UNLIMITED` when output is not a terminal."""
    return shutil.get_terminal_size((UNLIMITED, 24)).columns


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def fit_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    right: Set[int] = frozenset(),  # type: ignore[assignment]
    width: Optional[int] = None,
    short_headers: Optional[Mapping[int, str]] = None,
    cut_order: Sequence[int] = (),
) -> List[str]:
    """The table's lines (header, rule, rows), no wider than ``width`` (default: the terminal's) where
    cutting the columns in ``cut_order`` down to a few characters allows it."""
    width = terminal_width() if width is None else width
    heads = list(headers)
    gap = "  "

    def natural(i: int) -> int:
        return max([len(heads[i])] + [len(r[i]) for r in rows])

    widths = [natural(i) for i in range(len(heads))]
    if sum(widths) + len(gap) * (len(heads) - 1) > width:
        heads = [(short_headers or {}).get(i, h) for i, h in enumerate(heads)]
        gap = " "
        widths = [natural(i) for i in range(len(heads))]
        for i in cut_order:
            over = sum(widths) + len(gap) * (len(heads) - 1) - width
            if over <= 0:
                break
            widths[i] = max(widths[i] - over, min(_MIN_CUT, widths[i]), len(heads[i]))

    def line(cells: Sequence[str]) -> str:
        out = [_cut(c, w).rjust(w) if i in right else _cut(c, w).ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return gap.join(out).rstrip()

    return [line(heads), gap.join("-" * w for w in widths)] + [line(r) for r in rows]
