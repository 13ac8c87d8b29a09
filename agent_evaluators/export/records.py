"""The cells of a finished run as one record each: what both exporters send.

A row record (``rows.jsonl``'s shape) holds each evaluator's outputs under ``outputs.<alias>.<key>``
and its status in ``cell_status``; the run's summary says each alias's result key and class. A row
read from a trace carries ``trace_id`` / ``span_id`` (OTLP/JSON's hex: 32 and 16 characters) as
input columns, or a target returns them; those link a cell back to the span it judged.
"""

import re
from dataclasses import dataclass
from numbers import Real
from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Tuple

_HEX = re.compile(r"[0-9a-fA-F]+")
#: an exception class named in our error texts ("evaluator 'x' (X): ValueError: ...")
_ERROR_CLASS = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Timeout))\b")


@dataclass(frozen=True)
class Cell:
    """One evaluator's result on one row; ``error`` set means no score (``score`` is ``None``)."""

    line: int
    alias: str
    name: str
    evaluator: str
    score: Optional[float] = None
    label: Optional[str] = None
    reason: Optional[str] = None
    threshold: Optional[float] = None
    error: Optional[str] = None
    trace_id: Optional[str] = None
    span_id: Optional[str] = None
    response_id: Optional[str] = None

    @property
    def error_type(self) -> Optional[str]:
        """A low-cardinality kind of the error (OpenTelemetry's ``error.type``): the exception class
        our message names, ``timeout``, else ``_OTHER`` (the conventions' fallback)."""
        if self.error is None:
            return None
        found = _ERROR_CLASS.search(self.error)
        if found:
            return found.group(1)
        return "timeout" if "timed out" in self.error else "_OTHER"


def evaluators_of(summary: Mapping[str, Any]) -> Dict[str, Tuple[Optional[str], str]]:
    """``{alias: (result key or None, class name)}`` from a run's ``summary`` (its ``config``)."""
    described = (summary.get("config") or {}).get("evaluators") or {}
    return {alias: (d.get("result_key"), str(d.get("class") or alias)) for alias, d in described.items()}


def trace_link(record: Mapping[str, Any]) -> Tuple[Optional[str], Optional[str]]:
    """The row's ``(trace_id, span_id)`` when they are well-formed OTLP hex ids, from the data
    (``inputs.*``) or the target (``outputs.*``); a malformed one is left out."""
    def pick(column: str, length: int) -> Optional[str]:
        for key in (f"inputs.{column}", f"outputs.{column}"):
            value = record.get(key)
            if isinstance(value, str) and len(value) == length and _HEX.fullmatch(value) and value.strip("0"):
                return value.lower()
        return None
    return pick("trace_id", 32), pick("span_id", 16)


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, Real):
        return None
    number = float(value)
    return None if number != number else number  # NaN: no score


def _score_key(record: Mapping[str, Any], alias: str, result_key: Optional[str]) -> Optional[str]:
    if result_key is not None:
        return result_key
    prefix = f"outputs.{alias}."
    for key, value in record.items():  # a plain callable's dict: its first number
        if key.startswith(prefix) and _number(value) is not None:
            return key[len(prefix):]
    return None


def row_cells(record: Mapping[str, Any], evaluators: Mapping[str, Tuple[Optional[str], str]]) -> Iterator[Cell]:
    """Every cell of one row record, in the run's evaluator order."""
    status = record.get("cell_status") or {}
    trace_id, span_id = trace_link(record)
    response_id = record.get("inputs.response_id")
    common = dict(line=int(record.get("line_number", -1)), trace_id=trace_id, span_id=span_id,
                  response_id=response_id if isinstance(response_id, str) else None)
    for alias, (result_key, evaluator) in evaluators.items():
        if alias not in status:
            continue
        out = f"outputs.{alias}."
        if status[alias] == "error":
            message = record.get(out + "error")
            yield Cell(alias=alias, name=result_key or alias, evaluator=evaluator,
                       error=str(message or "the evaluator failed"), **common)  # type: ignore[arg-type]
            continue
        key = _score_key(record, alias, result_key)
        name = key or alias
        label, reason = record.get(f"{out}{name}_result"), record.get(f"{out}{name}_reason")
        yield Cell(alias=alias, name=name, evaluator=evaluator,
                   score=_number(record.get(out + name)) if key else None,
                   label=label if isinstance(label, str) else None,
                   reason=reason if isinstance(reason, str) else None,
                   threshold=_number(record.get(f"{out}{name}_threshold")), **common)  # type: ignore[arg-type]


def run_cells(rows: Iterable[Mapping[str, Any]], summary: Mapping[str, Any]) -> Iterator[Cell]:
    """Every cell of ``rows`` (read one row at a time)."""
    evaluators = evaluators_of(summary)
    for record in rows:
        yield from row_cells(record, evaluators)
