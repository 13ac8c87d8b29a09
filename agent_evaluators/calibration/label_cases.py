"""People's labels of a run turned into a labelled calibration set, in the shipped sets' format.

Each labelled cell becomes one case ``{"id", "label": "good" | "bad", "inputs": {...}, "why"}``
(:func:`~.catalog.parse_cases` reads it back): the people's label (the majority of their pass/fail
answers, as :mod:`.certify` uses; skips and ties left out) as ``good`` / ``bad``, and as inputs what
the evaluator was given on that row: each input the evaluator's class accepts, taken from the row's
column named by the run's column mapping (``${data.col}`` or ``${target.col}``), else the column of
the input's own name. ``agent-eval calibrate --evaluator NAME --cases FILE`` then runs any judge on
the user's own rows with the machinery it runs on our sets.
"""

import importlib
import inspect
import json
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

from ..errors import ConfigError
from .certify import consensus, read_run_cells
from .labels import labels_by_cell


def _accepted_inputs(desc: Mapping[str, Any], alias: str) -> List[str]:
    try:
        cls = getattr(importlib.import_module(str(desc.get("module"))), str(desc.get("class")))
    except (ImportError, AttributeError, ValueError):
        raise ConfigError(f"evaluator {alias!r}: its class {desc.get('module')}.{desc.get('class')} cannot be "
                          "imported here, so its inputs are unknown") from None
    signature = getattr(cls, "_public_signature", None) or inspect.signature(cls.__call__)
    return [n for n, p in signature.parameters.items()
            if n != "self" and p.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)]


def _column(ref: Optional[str], name: str) -> str:
    """``${data.query}`` -> ``inputs.query``; ``${target.answer}`` -> ``outputs.answer``; none -> ``inputs.<name>``."""
    if isinstance(ref, str) and ref.startswith("${") and ref.endswith("}"):
        source, _, column = ref[2:-1].partition(".")
        return f"{'outputs' if source in ('target', 'outputs') else 'inputs'}.{column}"
    return f"inputs.{name}"


def labels_to_cases(run_folder: Union[str, Path], alias: str) -> List[Dict[str, Any]]:
    """The labelled cells of evaluator ``alias`` in ``run_folder`` as calibration cases (see the module)."""
    summary, rows = read_run_cells(run_folder)
    config = summary.get("config") or {}
    desc = (config.get("evaluators") or {}).get(alias)
    if not isinstance(desc, dict):
        known = ", ".join(config.get("evaluators") or {}) or "none"
        raise ConfigError(f"{run_folder}: the run has no evaluator {alias!r} (its evaluators: {known})")
    mappings = config.get("evaluator_config") or {}
    mapping = {**((mappings.get("default") or {}).get("column_mapping") or {}),
               **((mappings.get(alias) or {}).get("column_mapping") or {})}
    accepted = _accepted_inputs(desc, alias)
    cases: List[Dict[str, Any]] = []
    for (line, cell_alias), items in sorted(labels_by_cell(run_folder).items()):
        human = consensus([item.label for item in items])
        row = rows.get(line)
        if cell_alias != alias or human not in ("pass", "fail") or row is None:
            continue
        inputs = {name: row[_column(mapping.get(name), name)] for name in accepted
                  if _column(mapping.get(name), name) in row}
        why = "; ".join(f"{item.annotator}: {item.reason}" for item in items if item.reason)
        cases.append({"id": f"line{line}", "label": "good" if human == "pass" else "bad", "inputs": inputs,
                      "why": why or f"labelled {human} by {', '.join(sorted(i.annotator for i in items))}"})
    if not cases:
        raise ConfigError(f"{run_folder}: no cell of {alias!r} labelled pass or fail; label it first "
                          f"(agent-eval label {run_folder})")
    return cases


def write_cases(run_folder: Union[str, Path], alias: str, path: Union[str, Path]) -> int:
    """Write :func:`labels_to_cases` to ``path`` as JSONL; returns the number of cases."""
    cases = labels_to_cases(run_folder, alias)
    with open(path, "w", encoding="utf-8") as fh:
        for case in cases:
            fh.write(json.dumps(case, ensure_ascii=False) + "\n")
    return len(cases)
