"""Where the export requests come from: files line by line (or one pretty-printed object), or objects in memory.

Why lines are kept as references (file, byte offset, length) and read again: a trace file can be
far larger than one trace, and a trace's spans can be anywhere in it (and its log events in
another file), so the reader indexes every line once (:mod:`.trace_index`), then reads back only
the lines of the run it is building (:mod:`.run_reader`). Memory then follows the largest run,
not the file. A pretty-printed file (one object over many lines) is one line here: it is read
whole, as any JSON parser must.

A line that cannot be read (not UTF-8, not JSON, nested deeper than the parser goes, truncated)
is reported with its number and what is wrong, and the trace ids written on it are named, so that
each of those traces becomes an error row rather than a run read without some of its spans.
"""

import json
import re
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from .otlp_json import is_request, not_a_request
from .otlp_values import TraceDataError, hex_id

_BOM = b"\xef\xbb\xbf"
#: a trace id as any exporter writes it, found in a line that cannot be parsed
_TRACE_ID = re.compile(rb'"trace_?[iI]d"\s*:\s*"([A-Za-z0-9+/=_-]{1,64})"')
#: the most trace ids named from one unreadable line
_MAX_NAMED = 1000


class LineRef(NamedTuple):
    """One export request's place: ``source``'s bytes ``offset`` to ``offset + length`` (or its item
    ``offset`` for objects in memory); ``number`` is its line number (0: the whole file)."""

    source: int
    offset: int
    length: int
    number: int


class LineTable:
    """Many :class:`LineRef` in four arrays (about 32 bytes a line, not 250 as objects)."""

    def __init__(self) -> None:
        self._columns = (array("q"), array("q"), array("q"), array("q"))

    def add(self, ref: LineRef) -> int:
        for column, value in zip(self._columns, ref):
            column.append(value)
        return len(self._columns[0]) - 1

    def __getitem__(self, line: int) -> LineRef:
        return LineRef(*(column[line] for column in self._columns))

    def __len__(self) -> int:
        return len(self._columns[0])


@dataclass
class Unreadable:
    """A line that gives no request: what is wrong, and the trace ids written on it."""

    where: str
    problem: str
    trace_ids: List[str]

    def message(self) -> str:
        return f"{self.where}: {self.problem}"


def _named_traces(data: bytes) -> List[str]:
    ids: Dict[str, None] = {}
    for match in _TRACE_ID.finditer(data):
        try:
            ids.setdefault(hex_id(match.group(1).decode("ascii"), 16, "traceId"), None)
        except TraceDataError:
            continue
        if len(ids) >= _MAX_NAMED:
            break
    return list(ids)


def _parse(data: bytes) -> Tuple[Any, Optional[str]]:
    """``(value, None)``, or ``(None, why it is not JSON)``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"not UTF-8 text (byte 0x{data[e.start]:02x} at byte {e.start + 1}); the spans on it are missing"
    try:
        return json.loads(text), None
    except RecursionError:
        return None, "JSON nested deeper than the JSON parser goes; the spans on it are missing"
    except ValueError as e:
        return None, f"invalid JSON ({e}); the spans on it are missing"


class RequestLines:
    """The requests of some files or objects, each with its :class:`LineRef`, read once in order by
    :meth:`scan` and read back one at a time by :meth:`load`."""

    def __init__(self, sources: Sequence[Union[Path, List[Any]]]) -> None:
        self.sources = list(sources)
        self._open: Optional[Tuple[int, BinaryIO]] = None

    # ------------------------------------------------------------------ first pass
    def scan(self) -> Iterator[Tuple[LineRef, Union[Dict[str, Any], Unreadable]]]:
        """Every line (file) or item (objects), with its request or why it gives none."""
        for number, source in enumerate(self.sources):
            if isinstance(source, list):
                for i, item in enumerate(source):
                    ref = LineRef(number, i, 0, i)
                    yield ref, item if is_request(item) else Unreadable(self.where(ref), not_a_request(item), [])
            else:
                yield from self._scan_file(number, source)

    def _scan_file(self, number: int, path: Path) -> Iterator[Tuple[LineRef, Union[Dict[str, Any], Unreadable]]]:
        whole = self._whole_file(number, path)
        if whole is not None:
            yield whole
            return
        held: List[Tuple[LineRef, Unreadable]] = []  # unreadable lines before the first readable one
        readable = False
        with open(path, "rb") as f:
            offset = 0
            for line_number, data in enumerate(f, 1):
                start, offset = offset, offset + len(data)
                if line_number == 1 and data.startswith(_BOM):
                    data, start = data[len(_BOM):], start + len(_BOM)
                if not data.strip():
                    continue
                ref = LineRef(number, start, len(data), line_number)
                value, why = _parse(data)
                got: Union[Dict[str, Any], Unreadable]
                if why is not None:
                    got = Unreadable(self.where(ref), why, _named_traces(data))
                elif is_request(value):
                    got = value
                else:
                    got = Unreadable(self.where(ref), not_a_request(value), [])
                if isinstance(got, Unreadable) and not readable:
                    held.append((ref, got))
                    continue
                if not readable:
                    readable = True
                    yield from held
                    held = []
                yield ref, got
        yield from held

    def _whole_file(self, number: int, path: Path) -> Optional[Tuple[LineRef, Union[Dict[str, Any], Unreadable]]]:
        """A pretty-printed file (neither of its first two lines is JSON on its own) as one request,
        or ``None`` (read it line by line).

        A file that is not JSON either way is read line by line, each bad line reported; but a
        pretty-printed file that is cut short is one problem, the whole file's, not one a line.
        A JSONL file with one bad first line is not read whole: its second line parses."""
        with open(path, "rb") as f:
            heads: List[bytes] = []
            for line in f:
                if line.strip():
                    heads.append(line.removeprefix(_BOM) if not heads else line)
                    if len(heads) == 2:
                        break
            if len(heads) < 2 or not heads[0].lstrip().startswith(b"{"):
                return None
            if any(_parse(line)[1] is None for line in heads):
                return None
            f.seek(0)
            data = f.read()
        skip = len(_BOM) if data.startswith(_BOM) else 0
        ref = LineRef(number, skip, len(data) - skip, 0)
        value, why = _parse(data[skip:])
        if why is None and is_request(value):
            return ref, value
        if why is not None and self._no_line_is_json(data[skip:]):
            return ref, Unreadable(self.where(ref), why.replace("the spans on it", "the spans in it"),
                                   _named_traces(data))
        return None

    @staticmethod
    def _no_line_is_json(data: bytes) -> bool:
        return all(_parse(line)[1] is not None for line in data.splitlines() if line.strip())

    def where(self, ref: LineRef) -> str:
        """How a message names ``ref``: ``line 3 of spans.jsonl``, ``spans.json`` (read whole), ``item 2 of the data``."""
        source = self.sources[ref.source]
        if isinstance(source, list):
            return f"item {ref.offset} of the data"
        return f"line {ref.number} of {source.name}" if ref.number else source.name

    # ------------------------------------------------------------------ second pass
    def load(self, ref: LineRef) -> Dict[str, Any]:
        """The request at ``ref`` again (it was read once already: it parses)."""
        source = self.sources[ref.source]
        if isinstance(source, list):
            return source[ref.offset]  # type: ignore[no-any-return]
        try:
            if self._open is None or self._open[0] != ref.source:
                self.close()
                self._open = (ref.source, open(source, "rb"))
            handle = self._open[1]
            handle.seek(ref.offset)
            data = handle.read(ref.length)
        except OSError as e:
            raise TraceDataError(f"{self.where(ref)} could not be read again ({e})") from None
        value, why = _parse(data)
        if why is not None or not isinstance(value, dict):
            raise TraceDataError(f"{self.where(ref)} changed while it was read ({why or 'not an object'})")
        return value

    def close(self) -> None:
        if self._open is not None:
            self._open[1].close()
            self._open = None


def file_lines(paths: Sequence[Path]) -> RequestLines:
    return RequestLines(list(paths))


def object_lines(items: Any) -> RequestLines:
    return RequestLines([list(items)])
