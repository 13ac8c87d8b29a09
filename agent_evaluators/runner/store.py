"""The on-disk run: ``rows.jsonl`` (append-only, one record per finished row) and ``summary.json``.

Each record is one JSON line: the row as ``result.rows`` shows it
(``line_number``, ``inputs.<col>``, ``outputs.<col>``, ``outputs.<alias>.<key>``)
plus ``cell_status`` (``{alias: "ok" | "error"}``) and, where they apply,
``row_error`` (the input line could not be read) and ``target_error``.

A record is written with a single ``write()`` on an ``O_APPEND`` descriptor
(no user-space buffer), so a killed process leaves whole lines; the reader still
skips a torn or garbled line (a power cut can leave one) instead of failing.
On resume the latest record for a line wins.
"""

import json
import logging
import os
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple

from .._util.scrub import RunSecrets
from ..errors import AgentEvalError
from ..wording import Option, Text

logger = logging.getLogger(__name__)

ROWS_FILE = "rows.jsonl"
SUMMARY_FILE = "summary.json"


def _json_default(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)  # pydantic models
    if callable(dump):
        try:
            return dump(mode="json")
        except Exception:
            pass
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "item"):  # numpy scalars
        try:
            return value.item()
        except Exception:
            pass
    if hasattr(value, "tolist"):
        return value.tolist()
    return repr(value)


_encoder = json.JSONEncoder(ensure_ascii=False, default=_json_default, separators=(",", ":"))


def encode_record(record: Dict[str, Any], secrets: Optional[RunSecrets] = None) -> bytes:
    """One ``rows.jsonl`` line. With ``secrets`` (the run's judge secrets), a secret an evaluator or
    judge echoed is masked in the record's string values; the user's ``inputs.*`` and the JSON's
    structure are never touched, so the line keeps the user's data and stays valid JSON."""
    line = _encoder.encode(record)
    masked = secrets.scrub_json(line, keep_inputs=True) if secrets is not None else None
    if masked is not None:
        line = _encoder.encode(masked)
    return (line + "\n").encode("utf-8", "surrogatepass")


class RowWriter:
    """Appends whole records to ``rows.jsonl`` and reports each record's byte offset."""

    def __init__(self, path: Path, *, append: bool) -> None:
        self.path = path
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        if not append:
            flags |= os.O_TRUNC
        self._fd: Optional[int] = os.open(path, flags, 0o644)
        self.size = os.fstat(self._fd).st_size
        if append and self.size and not _ends_with_newline(path, self.size):
            # A torn last line from a crash: end it so the next record starts on its own line.
            self._write(b"\n")

    def _write(self, data: bytes) -> int:
        assert self._fd is not None, "writer is closed"
        offset = self.size
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]
        self.size += len(data)
        return offset

    def write(self, record: Dict[str, Any], secrets: Optional[RunSecrets] = None) -> int:
        return self._write(encode_record(record, secrets))

    def write_encoded(self, data: bytes) -> int:
        """Append records already encoded with :func:`encode_record` (a shard's, from another
        process) in one write; returns the offset of the first."""
        return self._write(data)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _ends_with_newline(path: Path, size: int) -> bool:
    with open(path, "rb") as f:
        f.seek(size - 1)
        return f.read(1) == b"\n"


def scan_rows(path: Path, hashes: Optional[Dict[int, Optional[str]]] = None,
              ) -> Tuple[Dict[int, int], Dict[int, Dict[str, str]], int]:
    """Index ``rows.jsonl``: latest offset per line, its ``cell_status``, and how many lines were unreadable
    (and, into ``hashes``, each line's ``row_hash``)."""
    offsets: Dict[int, int] = {}
    statuses: Dict[int, Dict[str, str]] = {}
    bad = 0
    if not path.exists():
        return offsets, statuses, bad
    with open(path, "rb") as f:
        offset = 0
        for raw in f:
            start = offset
            offset += len(raw)
            if not raw.strip():
                continue
            if not raw.endswith(b"\n"):
                bad += 1  # torn last line
                continue
            try:
                record = json.loads(raw)
                line = record["line_number"]
            except (ValueError, KeyError, TypeError):
                bad += 1
                continue
            if not isinstance(line, int):
                bad += 1
                continue
            offsets[line] = start
            statuses[line] = record.get("cell_status") or {}
            if hashes is not None:
                hashes[line] = record.get("row_hash")
    if bad:
        logger.warning("%s: skipped %d unreadable line(s) (a torn write from a crash is expected)", path, bad)
    return offsets, statuses, bad


def read_record(f: Any, offset: int) -> Dict[str, Any]:
    f.seek(offset)
    return json.loads(f.readline())


def read_checked(f: Any, offset: int, line: int, path: Path) -> Dict[str, Any]:
    """The record of ``line`` at ``offset``, or an error if something else is there now."""
    f.seek(offset)
    raw = f.readline()
    record: Any = None
    if raw.endswith(b"\n"):
        try:
            record = json.loads(raw)
        except ValueError:
            record = None
    if not isinstance(record, dict) or record.get("line_number") != line:
        raise AgentEvalError(Text(
            "{path} changed after this run wrote it (the record of row {line} is no longer at its place): another "
            "run has written to the same {output} since. Re-read the folder, or give each run its own {output}.",
            path=path, line=line, output=Option("output_path")))
    return record


class RowsView(Sequence):
    """``result.rows`` read lazily from ``rows.jsonl``, in input order.

    Holds one byte offset and one line number per row, so memory stays flat however
    many rows there are; each access reads that row's record from disk and checks it is
    the record this run wrote there (a whole line holding the expected ``line_number``).
    If the file was replaced since (another run in the same folder), the access fails
    with a clear :class:`~agent_evaluators.errors.AgentEvalError` instead of returning
    another run's row or a torn line.
    """

    def __init__(self, path: Path, offsets: "array[int]", lines: "Optional[array[int]]" = None) -> None:
        self._path = Path(path)
        self._offsets = offsets
        self._lines = lines if lines is not None else array("q", range(len(offsets)))

    def __len__(self) -> int:
        return len(self._offsets)

    def _read(self, f: Any, i: int) -> Dict[str, Any]:
        return read_checked(f, self._offsets[i], self._lines[i], self._path)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            with open(self._path, "rb") as f:
                return [self._read(f, i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("row index out of range")
        with open(self._path, "rb") as f:
            return self._read(f, index)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        with open(self._path, "rb") as f:
            for i in range(len(self._offsets)):
                yield self._read(f, i)

    def __repr__(self) -> str:
        return f"<{len(self)} rows read lazily from {self._path}>"

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented


def write_json_atomic(path: Path, value: Any, secrets: Optional[RunSecrets] = None) -> None:
    """Write ``value`` as JSON, replacing ``path`` at once; with ``secrets`` (the run's judge secrets),
    masked in its string values first (summary.json holds error texts)."""
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps(value, ensure_ascii=False, indent=2, default=_json_default, allow_nan=True)
    masked = secrets.scrub_json(text) if secrets is not None else None
    if masked is not None:
        text = json.dumps(masked, ensure_ascii=False, indent=2, allow_nan=True)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_json(path: Path) -> Optional[Dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def cell_status(row: Mapping[str, Any], alias: str) -> str:
    """``pass``, ``fail``, ``error``, ``not_applicable``, ``not_run`` (the judge budget stopped first) or
    ``none`` (no verdict) for one cell of a record: the one reading of a cell's verdict that the report, the
    command line's outcome, the pytest plugin and the judge's certification all share."""
    status = row.get("cell_status") or {}
    if status.get(alias) == "error" or (alias not in status and row.get("row_error")):
        return "error"
    if status.get(alias) == "not_run":
        return "not_run"
    prefix = f"outputs.{alias}."
    verdicts = [v for k, v in row.items() if k.startswith(prefix) and k.endswith("_result")]
    if not verdicts and alias not in status:
        return "none"
    if "error" in verdicts:
        return "error"
    if "fail" in verdicts:
        return "fail"
    if "pass" in verdicts:
        return "pass"
    if "not_applicable" in verdicts:
        return "not_applicable"
    return "none"
