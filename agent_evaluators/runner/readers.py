"""Reading evaluation input lazily, one row at a time.

``data`` may be a path (JSONL, CSV, JSON array, ADK ``.evalset.json`` / ``.test.json``,
OpenTelemetry traces as OTLP/JSON: a file or a folder, recognised by content),
an open file object (JSONL, or CSV when its name ends in ``.csv``), a pandas
DataFrame, or any iterable of dicts. ``data_format="otlp"`` reads any of them as traces.
Nothing is loaded up front, so 100,000 rows cost the memory of one (traces excepted: a trace
may be split over a whole file, so a trace file is read whole, then yields one row per agent run).

A line that cannot be read does not stop the run: it is yielded as a
:class:`RowError` naming the line and what is wrong, and becomes an error row.

More formats plug in by file suffix with :func:`register_reader`.
"""

import csv
import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from .. import plugins
from .._util.json_text import loads as fast_loads
from .._util.otlp_sniff import looks_like_otlp
from ..errors import ConfigError, InputError
from ..wording import Text

#: values of ``data_format``: ``auto`` (by suffix, and traces by content), ``otlp`` (OTLP/JSON traces)
DATA_FORMATS = ("auto", "otlp")

Row = Union[Dict[str, Any], "RowError"]
Reader = Callable[[Path], Iterable[Any]]


@dataclass(frozen=True)
class RowError:
    """An input line that could not be turned into a row (it becomes an error row)."""

    message: str


_READERS: List[Tuple[str, Reader]] = []


def register_reader(suffix: str, reader: Reader) -> None:
    """Read files whose name ends with ``suffix`` (case-insensitive) with ``reader(path)``.

    ``reader`` returns an iterable of dicts (or :class:`RowError` for unreadable
    entries). The longest matching suffix wins, so ``.evalset.json`` beats ``.json``.
    """
    suffix = suffix.lower()
    _READERS[:] = [(s, r) for s, r in _READERS if s != suffix]
    _READERS.append((suffix, reader))
    _READERS.sort(key=lambda sr: -len(sr[0]))


def _iter_jsonl_lines(lines: Iterable[Union[bytes, str]], name: str, first_line: int = 1) -> Iterator[Row]:
    """Rows of JSONL ``lines``; ``first_line`` is the file line number of the first one (a shard starts mid-file)."""
    loads = fast_loads  # json.loads, without its per-call layers
    file_line = first_line - 1
    for raw in lines:  # not enumerate(): its reused result tuple would keep the last line's bytes alive
        file_line += 1
        if not raw or raw.isspace():  # not raw.strip(): that copies every line, 50 MB for a 50 MB row
            continue
        try:
            value = loads(raw)
        except RecursionError:
            yield RowError(f"line {file_line} of {name}: JSON nested too deeply to read (over ~{sys.getrecursionlimit()} levels)")
            continue
        except ValueError as e:  # JSONDecodeError and UnicodeDecodeError
            e = _error_on_stripped(raw, e)
            pos = f" (column {e.colno})" if isinstance(e, json.JSONDecodeError) else ""
            msg = e.msg if isinstance(e, json.JSONDecodeError) else str(e)
            yield RowError(f"line {file_line} of {name}: invalid JSON{pos}: {msg}")
            continue
        if type(value) is dict:
            del raw  # the row holds the content now; the line's bytes need not live while it is evaluated
            yield value
        else:
            yield RowError(
                f"line {file_line} of {name}: expected a JSON object ({{\"column\": value, ...}}), "
                f"got {type(value).__name__}"
            )


def _error_on_stripped(raw: Union[bytes, str], err: ValueError) -> ValueError:
    """Re-parse without the line ending so the error column points into the line itself."""
    try:
        json.loads(raw.rstrip(b"\r\n") if isinstance(raw, bytes) else raw.rstrip("\r\n"))
    except ValueError as e:
        return e
    return err


def read_jsonl(path: Path) -> Iterator[Row]:
    with open(path, "rb") as f:
        yield from _iter_jsonl_lines(f, path.name)


#: csv's default limit per field (128 KiB) is smaller than one long agent transcript.
_CSV_FIELD_LIMIT = 1 << 30


def _undecodable(row: Dict[str, Any]) -> Optional[str]:
    """The column holding bytes that are not UTF-8 (read as lone surrogates), if any."""
    for key, value in row.items():
        for text in (key, value):
            if isinstance(text, str) and any("\udc80" <= ch <= "\udcff" for ch in text):
                return str(key)
    return None


def _iter_csv(f: Iterable[str], name: str) -> Iterator[Row]:
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)
    reader = csv.DictReader(f)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            yield RowError(f"line {reader.line_num} of {name}: unreadable CSV: {e}")
            continue
        if None in row:
            yield RowError(
                f"line {reader.line_num} of {name}: has more fields than the header "
                f"({len(reader.fieldnames or [])} columns)"
            )
            continue
        bad = _undecodable(row)
        if bad is not None:
            yield RowError(f"line {reader.line_num} of {name}: column {bad!r} is not valid UTF-8; save the file as UTF-8")
            continue
        yield row


def read_csv(path: Path) -> Iterator[Row]:
    # surrogateescape: a stray non-UTF-8 byte spoils its own row (reported above), not the whole file
    with open(path, newline="", encoding="utf-8-sig", errors="surrogateescape") as f:
        yield from _iter_csv(f, path.name)


def read_json_array(path: Path) -> Iterator[Row]:
    with open(path, "rb") as f:
        try:
            value = json.load(f)
        except ValueError as e:
            raise ConfigError(f"{path}: not valid JSON ({e}); use JSONL for one row per line") from None
        except RecursionError:
            raise _too_deep(path) from None
    document_reader = next((plugins.JSON_DOCUMENTS[k] for k in value if k in plugins.JSON_DOCUMENTS), None) \
        if isinstance(value, dict) else None
    if document_reader is not None:  # a wing's whole-file format, recognised by its keys
        yield from _wing_reader(document_reader)(path)
        return
    if not isinstance(value, list):
        raise ConfigError(f"{path}: a .json data file must hold a list of row objects")
    for i, item in enumerate(value):
        yield item if isinstance(item, dict) else RowError(
            f"item {i} of {path.name}: expected a JSON object, got {type(item).__name__}"
        )


def _too_deep(path: Path) -> InputError:
    return InputError(
        f"{path}: the JSON is nested deeper than Python can read (recursion limit); flatten the data, "
        "or use JSONL, where one too-deep line is an error row instead of the whole file",
        input_name=str(path),
    )


def _wing_reader(target: str) -> Reader:
    """A whole-file format a wing reads (:data:`agent_evaluators.plugins.DATA_READERS`), imported on first use."""

    def read(path: Path) -> Iterator[Row]:
        # a whole-file format: nesting past the recursion limit anywhere fails the file, with its name
        try:
            yield from plugins.load(target)(path)
        except RecursionError:
            raise _too_deep(path) from None

    return read


register_reader(".jsonl", read_jsonl)
register_reader(".csv", read_csv)
register_reader(".json", read_json_array)
for _suffix, _target in plugins.DATA_READERS.items():
    register_reader(_suffix, _wing_reader(_target))


def data_path(data: Any) -> Optional[Path]:
    """The file behind ``data`` when it is a path, else ``None``."""
    if isinstance(data, (str, os.PathLike)):
        return Path(data)
    return None


def is_file_data(data: Any) -> bool:
    """Whether ``data`` is a file (a path or an open file), not rows held in memory."""
    return data_path(data) is not None or (hasattr(data, "read") and not isinstance(data, (str, bytes)))


def describe_data(data: Any) -> str:
    path = data_path(data)
    if path is not None:
        return str(path)
    name = getattr(data, "name", None)
    if isinstance(name, str):
        return name
    return f"<{type(data).__name__}>"


def _iter_iterable(items: Iterable[Any]) -> Iterator[Row]:
    for i, item in enumerate(items):
        if type(item) is dict:
            yield item
        elif isinstance(item, RowError):
            yield item
        elif hasattr(item, "keys") and hasattr(item, "__getitem__"):
            yield dict(item)
        else:
            yield RowError(f"item {i} of the data: expected a dict of columns, got {type(item).__name__}")


def is_trace_data(data: Any, data_format: str = "auto") -> bool:
    """Whether ``data`` is read as OpenTelemetry traces: forced, or a path whose content is OTLP/JSON."""
    if data_format == "otlp":
        return True
    path = data_path(data)
    if path is None:
        return False
    return path.exists() and looks_like_otlp(path)


def _trace_input(data: Any) -> Iterator[Row]:
    """The rows of trace data: one per agent run (a whole-input format: every span is read first)."""
    from ..traces import trace_rows

    path = data_path(data)
    if path is not None:
        yield from trace_rows(path, RowError)
        return
    items = _iter_jsonl_lines(data, describe_data(data)) if hasattr(data, "read") else iter(data)
    objects = []
    for item in items:
        if isinstance(item, RowError):
            yield item
        else:
            objects.append(item)
    yield from trace_rows(objects, RowError)


def iter_input(data: Any, data_format: str = "auto") -> Iterator[Row]:
    """Rows of ``data`` in order: dicts, or :class:`RowError` for unreadable entries."""
    path = data_path(data)
    if path is not None and path.is_dir():
        if not is_trace_data(path, data_format):
            raise ConfigError(f"data {path} is a folder without OTLP/JSON trace files: a folder is read only "
                              "when it holds traces ({\"resourceSpans\": ...} lines); give a data file")
        return _trace_input(path)
    if path is not None and not path.is_file():
        raise ConfigError(f"data file not found: {path}")
    if is_trace_data(data, data_format):
        return _trace_input(data)
    if path is not None:
        lname = path.name.lower()
        for suffix, reader in _READERS:
            if lname.endswith(suffix):
                return iter(reader(path))
        known = ", ".join(s for s, _ in reversed(_READERS))
        more = Text.keyed("reader-more",
                          " (or pass an iterable of dicts; register more with agent_evaluators.runner.register_reader)")
        raise ConfigError(Text("don't know how to read {name!r}: supported suffixes are {known}{more}", name=path.name,
                               known=known, more=more))
    if isinstance(data, (bytes, bytearray, dict)):
        raise ConfigError(
            f"data must be a path, a file object or an iterable of row dicts, not {type(data).__name__}"
        )
    if hasattr(data, "read"):
        name = describe_data(data)
        if name.lower().endswith(".csv"):
            text = data if not isinstance(data, io.BufferedIOBase) else io.TextIOWrapper(data, "utf-8-sig")  # type: ignore[type-var]
            return _iter_csv(text, name)
        return _iter_jsonl_lines(data, name)
    if hasattr(data, "to_dict") and hasattr(data, "columns"):  # pandas.DataFrame, without importing pandas
        return _iter_iterable(data.to_dict(orient="records"))
    try:
        items = iter(data)
    except TypeError:
        raise ConfigError(
            f"data must be a path, a file object or an iterable of row dicts, not {type(data).__name__}"
        ) from None
    return _iter_iterable(items)
