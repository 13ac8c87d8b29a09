"""Encoding a finished row for ``rows.jsonl`` so that one bad value cannot sink the run.

A row can hold a value JSON cannot write: a dict that contains itself, an int of more
than 4,300 digits (Python's int-to-text limit), nesting deeper than the recursion
limit. Encoding that record used to raise out of the row writer, abort the run and
leave ``summary.json`` saying ``running``. :func:`encode_row` instead finds the keys
that cannot be written and replaces them with errors that name them: a bad input
column makes the row an error row, a bad target output a target error, a bad
evaluator output an error cell of that evaluator. The other rows go on.
"""

from typing import Any, Dict, List, Optional, Tuple

from .cells import error_cell
from .row_evaluator import Cells, Record, RowEvaluator
from .store import encode_record

#: what the JSON encoder raises on values it cannot write
UNENCODABLE = (ValueError, TypeError, RecursionError, OverflowError)


def _problem(key: str, value: Any) -> Optional[str]:
    try:
        encode_record({key: value})
    except UNENCODABLE as exc:
        text = str(exc) or type(exc).__name__
        return f"{type(exc).__name__}: {text[:200]}"
    return None


def encode_row(rows: RowEvaluator, line: int, record: Record, cells: Cells) -> Tuple[bytes, Record, Cells]:
    """``record`` as one ``rows.jsonl`` line; if it cannot be encoded, an error record for the row instead
    (with the cells that go with it, for the tally)."""
    try:
        return encode_record(record, rows.secrets), record, cells
    except UNENCODABLE:
        pass
    bad = {k: why for k, v in record.items() if (why := _problem(k, v)) is not None}
    row: Dict[str, Any] = {}
    tout: Dict[str, Any] = {}
    row_problems: List[str] = []
    target_problems: List[str] = []
    new_cells = dict(cells)
    for key, value in record.items():
        if key.startswith("inputs."):
            if key in bad:
                row_problems.append(f"column {key[7:]!r} ({bad[key]})")
            else:
                row[key[7:]] = value
            continue
        if not key.startswith("outputs.") or key not in bad:
            continue
        alias = rows.alias_of(key)
        if alias is None:
            target_problems.append(f"output {key[8:]!r} ({bad[key]})")
        elif alias in rows.invokers and (alias not in new_cells or new_cells[alias].ok):
            inv = rows.invokers[alias]
            new_cells[alias] = error_cell(inv, (
                f"row {line}: evaluator {alias!r} ({inv.class_name}) returned a value that cannot be saved to "
                f"rows.jsonl: {key} ({bad[key]}); return plain JSON data (no self-references, ints under 4,300 digits)"
            ))
    row_error = None
    target_error = record.get("target_error")
    if row_problems:
        row_error = (f"row {line}: cannot be saved to rows.jsonl: " + "; ".join(row_problems)
                     + "; fix this entry in the data (the other rows are evaluated)")
        new_cells = {p.alias: error_cell(p.invoker, row_error) for p in rows.plans}
        row = {}
    elif target_problems:
        target_error = (f"row {line}: the target returned a value that cannot be saved to rows.jsonl: "
                        + "; ".join(target_problems))
        tout = {}
        for plan in rows.plans:
            new_cells[plan.alias] = error_cell(plan.invoker, f"{target_error}; evaluator {plan.alias!r} result discarded")
    else:
        tout = {k[8:]: v for k, v in record.items() if k.startswith("outputs.") and rows.alias_of(k) is None}
    fixed = rows.assemble(line, row or None, tout or None, new_cells,
                          row_error=row_error or record.get("row_error"), target_error=target_error)
    if record.get("row_hash") and not row_problems:
        fixed["row_hash"] = record["row_hash"]
    try:
        return encode_record(fixed, rows.secrets), fixed, new_cells
    except UNENCODABLE as exc:  # nothing left should fail; if it does, keep only what surely encodes
        message = f"row {line}: the row's record cannot be saved to rows.jsonl ({type(exc).__name__})"
        last = {p.alias: error_cell(p.invoker, message) for p in rows.plans}
        minimal = rows.assemble(line, None, None, last, row_error=message)
        return encode_record(minimal, rows.secrets), minimal, last
