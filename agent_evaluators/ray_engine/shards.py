"""Cutting the input into shards without loading it on the driver.

Two ways, chosen by the engine:

* **byte ranges** (a JSONL file the workers can read: a local cluster, or shared storage):
  the driver streams through the file once, counting rows and noting the byte offset
  of every ``shard_size``-th row, without parsing JSON; each worker seeks to its range
  and parses only its own rows. The driver holds one small tuple per shard.
* **row chunks** (every other input: CSV, ADK files, iterables, DataFrames, or a file
  the workers cannot see): the driver reads rows lazily and ships ``shard_size`` of them
  at a time to the object store, only as many shards as are running, so its memory
  stays bounded by ``num_workers × shard_size`` rows.

Row numbers (``line_number``) are global and identical to the local engine's:
the index of the row among the non-blank lines of the file (or items of the iterable).
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from ..runner.options import DEFAULT_SHARD_SIZE
from ..runner.readers import Row, _iter_jsonl_lines

#: marker in :attr:`Shard.work`: the driver accounts for this line; the worker leaves it alone.
SKIP = "skip"


@dataclass
class Shard:
    """One unit of work for a worker: rows ``first_line .. first_line + count - 1``.

    ``work`` only lists lines that differ from "run every evaluator, no earlier result":
    ``SKIP``, or ``(aliases to run, earlier record or None, target outputs or None)``.
    """

    index: int
    first_line: int
    count: int
    path: Optional[str] = None
    start: int = 0
    end: int = 0
    first_file_line: int = 1
    rows: Optional[List[Row]] = None
    work: Dict[int, Any] = field(default_factory=dict)


#: shards per worker the automatic size aims at: the last shards then finish close together
SHARDS_PER_WORKER = 4
MIN_AUTO_SHARD, MAX_AUTO_SHARD = 20, DEFAULT_SHARD_SIZE


def auto_shard_size(rows: Optional[int], workers: int) -> int:
    """Rows per shard: about :data:`SHARDS_PER_WORKER` shards per worker when the row count is
    known (or estimated), so 12 workers are not left with 6 shards of 1,000 rows between them;
    bounded so a shard is never so small that Ray's per-task cost dominates."""
    if not rows:
        return DEFAULT_SHARD_SIZE
    size = -(-rows // (workers * SHARDS_PER_WORKER))
    return max(MIN_AUTO_SHARD, min(MAX_AUTO_SHARD, size))


def estimate_rows(path: Path, sample_bytes: int = 1 << 20) -> int:
    """Rows in a JSONL file, estimated from its size and the lines of its first megabyte
    (exact for files up to that size) without reading it all."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        head = f.read(sample_bytes)
    lines = [line for line in head.splitlines() if line.strip()]
    if not lines or len(head) >= size:
        return len(lines)
    return max(1, round(size * len(lines) / len(head)))


def jsonl_ranges(path: Path, shard_size: int, limit: Optional[int] = None) -> Iterator[Tuple[int, int, int, int, int]]:
    """``(start_byte, end_byte, first_file_line, first_row, rows)`` per shard of a JSONL file,
    its first ``limit`` rows only when given (:attr:`~..row_source.RowSource.limit`).

    Blank lines count as file lines but not as rows, exactly as the local reader does.
    """
    rows = 0
    in_shard = 0
    start = offset = 0
    first_file_line = 1
    with open(path, "rb") as f:
        for file_line, raw in enumerate(f, 1):
            if in_shard == 0 and not raw.strip():
                offset += len(raw)
                continue  # blank lines before a shard's first row belong to no shard
            if in_shard == 0:
                start, first_file_line = offset, file_line
            offset += len(raw)
            if raw.strip():
                in_shard += 1
                rows += 1
            if in_shard == shard_size:
                yield start, offset, first_file_line, rows - in_shard, in_shard
                in_shard = 0
            if rows == limit:
                break
    if in_shard:
        yield start, offset, first_file_line, rows - in_shard, in_shard


def _read_range(path: str, start: int, end: int) -> Iterator[bytes]:
    with open(path, "rb") as f:
        f.seek(start)
        pos = start
        while pos < end:
            raw = f.readline()
            if not raw:
                return
            pos += len(raw)
            yield raw


def shard_rows(shard: Shard) -> Iterator[Tuple[int, Row]]:
    """``(global line, row or RowError)`` for every row of ``shard``."""
    if shard.rows is not None:
        items: Iterable[Row] = shard.rows
    else:
        assert shard.path is not None
        items = _iter_jsonl_lines(_read_range(shard.path, shard.start, shard.end), Path(shard.path).name,
                                  shard.first_file_line)
    return enumerate(items, shard.first_line)
