"""The one source of a run's rows: numbered, cut at the row limit, with the total when it can be known.

Every reader of a run's input goes through :class:`RowSource`: the local engine, both Ray
paths (rows sent by the driver, byte ranges read by the workers), the progress line and
the pytest plugin's one-test-per-row listing (the Ray workers reading byte ranges get ranges
cut at :attr:`RowSource.limit`). So a row limit (``max_rows``) or a line
numbering rule is written here once, and a run evaluates the same rows on every engine.

Line numbers are 0-based positions among the input's rows (blank JSONL lines do not count),
the numbers ``rows.jsonl`` and a resume use.
"""

import itertools
import os
from typing import Any, Iterator, List, Mapping, Optional, Tuple

from .progress import count_rows
from .readers import Row, data_path, is_trace_data, iter_input


class RowSource:
    """The rows of ``data``, the first ``limit`` of them when a limit is given."""

    __slots__ = ("data", "limit", "data_format")

    def __init__(self, data: Any, limit: Optional[int] = None, data_format: str = "auto") -> None:
        self.data = data
        self.limit = limit
        self.data_format = data_format

    @classmethod
    def of_options(cls, data: Any, options: Mapping[str, Any]) -> "RowSource":
        """The source a run with these run options reads (a run config's, by keyword)."""
        return cls(data, options.get("max_rows"), options.get("data_format") or "auto")

    @property
    def traces(self) -> bool:
        """Whether the input is read as OpenTelemetry traces (one row per agent run, not per line)."""
        return is_trace_data(self.data, self.data_format)

    def __iter__(self) -> Iterator[Tuple[int, Row]]:
        """``(line, row or RowError)`` for every row up to the limit."""
        numbered = enumerate(iter_input(self.data, self.data_format))
        return numbered if self.limit is None else itertools.islice(numbered, self.limit)

    def cut(self, total: Optional[int]) -> Optional[int]:
        """A row count of the whole input, cut at the limit."""
        if total is None or self.limit is None:
            return total
        return min(total, self.limit)

    def known_total(self) -> Optional[int]:
        """The row count when it is known without reading (an in-memory list), else ``None``."""
        data = self.data
        if isinstance(data, (str, bytes)) or data_path(data) is not None or not hasattr(data, "__len__"):
            return None
        return self.cut(len(data))

    def counted_total(self) -> Optional[int]:
        """The row count of a JSONL / CSV file by counting its lines (about a second per gigabyte), cut
        at the limit; ``None`` for other data. Only for what is shown (progress, an interruption)."""
        return None if self.traces else self.cut(count_rows(self.data))

    @property
    def approximate(self) -> bool:
        """A counted CSV total is an estimate (a quoted field may span lines)."""
        return isinstance(self.data, (str, os.PathLike)) and os.fspath(self.data).lower().endswith(".csv")

    def chunks(self, size: int) -> Iterator[Tuple[int, List[Row]]]:
        """``(first line, rows)`` in chunks of ``size`` (the Ray driver sends them with their shard)."""
        it = iter(self)
        while True:
            chunk = list(itertools.islice(it, size))
            if not chunk:
                return
            yield chunk[0][0], [row for _, row in chunk]
