"""azure-ai-evaluation 1.18's result rows, made from our engine's records.

1.18 builds its rows with pandas: every row has every column any row has (a value a row
lacks is NaN), inputs are ``inputs.<col>``, a target's outputs ``outputs.<col>``, an
evaluator's ``outputs.<alias>.<key>``, a bare scalar ``outputs.<alias>.output``, and a
per-turn dict ``evaluation_per_turn`` is spread into ``outputs.<alias>.evaluation_per_turn.<metric>``
columns; a dict-valued input also gets a column per leaf (``inputs.item.query``).
:class:`AzureTable` gives the same rows, with two deliberate differences:

* a value a row lacks is ``None``, not NaN (NaN is not JSON: strict parsers reject the file);
* an evaluator that failed on a row leaves ``None`` in its columns, as 1.18 leaves NaN, and
  adds ``outputs.<alias>.error`` with the message, so an error never looks like a missing score.

As in 1.18's frame, an output column of numbers with a float or a gap in it is all floats
(``_threshold`` reads ``3.0`` in a run where a row failed).

Our own bookkeeping (``line_number``, ``cell_status``, ``row_hash``) stays in the run folder.
"""

from collections.abc import Mapping
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

#: the key an error cell's message is under, in place of the evaluator's columns
ERROR_KEY = "error"
#: 1.18's per-turn results key, spread into one column per metric
PER_TURN = "evaluation_per_turn"


def _leaves(value: Mapping[str, Any], prefix: str) -> Iterable[Tuple[str, Any]]:
    """``{"a": {"b": 1}}`` -> ``("<prefix>.a.b", 1)``: pandas' ``json_normalize`` naming."""
    for k, v in value.items():
        name = f"{prefix}.{k}"
        if isinstance(v, Mapping):
            yield from _leaves(v, name)
        else:
            yield name, v


def _cell_error(cell: Mapping[str, Any]) -> str:
    """The message of one of our error cells (``error`` for any callable, ``<key>_error`` for ours), or
    why a cell the judge budget left unrun was not run (1.18 has no such cell: it reads as not evaluated)."""
    not_run = any(k.endswith("_result") and v == "not_run" for k, v in cell.items())
    for k, v in cell.items():
        if (k == ERROR_KEY or k.endswith("_error") or (not_run and k.endswith("_reason"))) and isinstance(v, str):
            return v
    return "the evaluator failed on this row"


class _Columns:
    """Column names in first-seen order (pandas' order for a list of dicts)."""

    __slots__ = ("names", "_seen")

    def __init__(self) -> None:
        self.names: List[str] = []
        self._seen: set = set()

    def add(self, keys: Iterable[str]) -> None:
        for k in keys:
            if k not in self._seen:
                self._seen.add(k)
                self.names.append(k)


class AzureTable:
    """The rows of a run in 1.18's shape, and each evaluator's columns for the metrics.

    ``cells[alias]`` holds, per row, the evaluator's output dict as 1.18 sees it (per-turn
    dicts spread), or ``None`` where it failed; ``columns[alias]`` its keys in order.
    """

    def __init__(self, aliases: Sequence[str]) -> None:
        self.aliases = list(aliases)
        self.rows: List[Dict[str, Any]] = []
        self.cells: Dict[str, List[Optional[Dict[str, Any]]]] = {a: [] for a in self.aliases}
        self.columns: Dict[str, List[str]] = {}
        self.errors: Dict[str, List[Optional[str]]] = {a: [] for a in self.aliases}

    @classmethod
    def from_records(cls, records: Iterable[Mapping[str, Any]], aliases: Sequence[str], *,
                     with_target: bool = False) -> "AzureTable":
        """Our engine's records (``result.rows``, in input order) as 1.18's rows."""
        table = cls(aliases)
        prefixes = sorted(((a, f"outputs.{a}.") for a in table.aliases), key=lambda p: len(p[1]), reverse=True)
        inputs, target = _Columns(), _Columns()
        outputs = {a: _Columns() for a in table.aliases}
        parsed: List[Tuple[Mapping[str, Any], Dict[str, Any], Dict[str, Any]]] = []
        for record in records:
            ins: Dict[str, Any] = {}
            tout: Dict[str, Any] = {}
            raw: Dict[str, Dict[str, Any]] = {}
            for key, value in record.items():
                if key.startswith("inputs."):
                    ins[key[7:]] = value
                elif key.startswith("outputs."):
                    for alias, p in prefixes:
                        if key.startswith(p):
                            raw.setdefault(alias, {})[key[len(p):]] = value
                            break
                    else:
                        tout[key[8:]] = value
            inputs.add(ins)
            target.add(tout)
            status = record.get("cell_status") or {}
            for alias in table.aliases:
                cell = raw.get(alias)
                if cell is None and status.get(alias) == "ok":
                    cell = {}  # an empty result (1.18's ``{}`` for a conversation with no reply): no columns, no error
                if status.get(alias) != "ok" or cell is None:
                    why = record.get("target_error") or record.get("row_error")
                    table.cells[alias].append(None)
                    table.errors[alias].append(_cell_error(cell) if cell else str(why or "not evaluated"))
                    continue
                shaped = _spread_per_turn(cell)
                outputs[alias].add(shaped)
                table.cells[alias].append(shaped)
                table.errors[alias].append(None)
            parsed.append((record, ins, tout))
        table.columns = {a: outputs[a].names for a in table.aliases}
        nested = _nested_input_columns(inputs.names, [ins for _, ins, _ in parsed])
        for i, (record, ins, tout) in enumerate(parsed):
            row: Dict[str, Any] = {f"inputs.{c}": ins.get(c) for c in inputs.names}
            for col, path in nested:
                row[f"inputs.{col}.{'.'.join(path)}"] = _dig(ins.get(col), path)
            if with_target:
                row["inputs.line_number"] = record.get("line_number", i)
            for c in target.names:
                row[f"outputs.{c}"] = tout.get(c)
            for alias in table.aliases:
                cell = table.cells[alias][i]
                for c in table.columns[alias]:
                    row[f"outputs.{alias}.{c}"] = cell.get(c) if cell is not None else None
                error = table.errors[alias][i]
                if error is not None:
                    row[f"outputs.{alias}.{ERROR_KEY}"] = error
            table.rows.append(row)
        _as_pandas_numbers(table.rows, [f"inputs.{col}.{'.'.join(path)}" for col, path in nested]
                           + [f"outputs.{a}.{c}" for a in table.aliases for c in table.columns[a]])
        return table

    def column(self, alias: str, key: str) -> List[Any]:
        """One output column of ``alias`` over every row (``None`` where a row has no value)."""
        return [cell.get(key) if cell is not None else None for cell in self.cells[alias]]


def _as_pandas_numbers(rows: Sequence[Dict[str, Any]], columns: Sequence[str]) -> None:
    """1.18's frame types: an output column (or a nested input's leaf column) of numbers holding a
    float or a gap (an errored or missing value) is a float column, so its ints read as floats there
    (``_threshold`` 3 -> 3.0); bools and mixed columns are left as they are (pandas keeps objects)."""
    for column in columns:
        values = [row.get(column) for row in rows]
        present = [v for v in values if v is not None]
        if not present or len(present) == len(values) and all(type(v) is int for v in present):
            continue
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
            for row in rows:
                if type(row.get(column)) is int:
                    row[column] = float(row[column])


def _nested_input_columns(names: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> List[Tuple[str, Tuple[str, ...]]]:
    """1.18 adds a column per leaf of a dict-valued input (``inputs.item.query``), unless the data
    is a chat (a ``conversation`` or ``messages`` column); (column, path) in first-seen order."""
    if "conversation" in names or "messages" in names:
        return []
    found = _Columns()
    for row in rows:
        for col in names:
            value = row.get(col)
            if isinstance(value, Mapping):
                found.add(f"{col}\0{leaf[len(col) + 1:]}" for leaf, _ in _leaves(value, col))
    taken = set(names)
    out = []
    for name in found.names:
        col, leaf = name.split("\0", 1)
        if f"{col}.{leaf}" not in taken:
            out.append((col, tuple(leaf.split("."))))
    return out


def _dig(value: Any, path: Tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _spread_per_turn(cell: Mapping[str, Any]) -> Dict[str, Any]:
    """An output dict with its ``evaluation_per_turn`` dict spread into one key per metric."""
    out: Dict[str, Any] = {}
    for key, value in cell.items():
        if PER_TURN in key and isinstance(value, Mapping):
            out.update(_leaves(value, key))
        else:
            out[key] = value
    return out
