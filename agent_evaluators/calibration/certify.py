"""Certify a run's judge from people's labels: its TPR and TNR with exact intervals, per evaluator.

A person's label (``labels.jsonl``, :mod:`.labels`) and the judge's verdict (the cell's
``outputs.<alias>.<key>_result`` in ``rows.jsonl``) on the same cells make a confusion matrix;
a human ``"pass"`` is the positive class. Per evaluator alias :func:`certify` reports::

    {"n": 40, "agreement": 0.9, "kappa": 0.78, "tpr": 0.93, "tpr_interval": [0.80, 0.99],
     "tnr": 0.85, "tnr_interval": [0.62, 0.97], "certified": false, "floor": 0.8, "level": 0.95,
     "positives": 27, "true_positives": 25, "negatives": 13, "true_negatives": 11,
     "left_out": {"not_applicable": 0, "error": 1, "not_run": 0, "skip": 2, "tie": 1, "no_row": 0},
     "annotators": ["ana", "bo"], "inter_annotator": {...}, "consensus": "majority"}

Intervals are two-sided exact (Clopper–Pearson) at ``level``; the judge is certified for the
metric when both lower bounds are at least ``floor`` (default 0.8). Cells whose judge gave no
verdict (not applicable, errored, not run by the budget, no row) and cells labelled ``skip`` are
left out and counted. Where several people labelled a cell, the label used is the majority of
their pass/fail answers (``skip`` does not vote); a tie is left out and counted as ``tie``, since
neither side is the people's word. ``inter_annotator`` gives, over the cells two or more people
answered pass/fail: Cohen's κ for two annotators, Fleiss' κ over the cells every annotator
answered for more, and the raw share of cells where all agreed.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Set, Tuple, Union

from ..errors import ConfigError
from ..runner.store import cell_status
from ..stats.agreement import fleiss_kappa
from ..stats.judge_error import clopper_pearson
from .kappa import accuracy, cohen_kappa, confusion_matrix
from .labels import labels_by_cell, labels_path

DEFAULT_FLOOR = 0.8
DEFAULT_LEVEL = 0.95
LEFT_OUT = ("not_applicable", "error", "not_run", "skip", "tie", "no_row")


def read_run_cells(run_folder: Union[str, Path],
                   lines: Optional[Set[int]] = None) -> Tuple[Dict[str, Any], Dict[int, Dict[str, Any]]]:
    """``(summary, {line_number: latest row record})`` of a run folder (a damaged line is skipped); ``lines``:
    keep only these rows (the labelled ones: a run of a million rows is read, not held)."""
    folder = Path(run_folder)
    summary_path, rows_path = folder / "summary.json", folder / "rows.jsonl"
    if not rows_path.is_file():
        raise ConfigError(f"{folder} holds no rows.jsonl: point at the output folder of a run "
                          "(evaluate(output_path=...) or agent-eval run --output)")
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else {}
    except ValueError as exc:
        raise ConfigError(f"{summary_path}: not valid JSON ({exc})") from None
    rows: Dict[int, Dict[str, Any]] = {}
    with rows_path.open("rb") as f:
        for raw in f:
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            line = record.get("line_number") if isinstance(record, dict) else None
            if isinstance(line, int) and (lines is None or line in lines):
                rows[line] = record
    return (summary if isinstance(summary, dict) else {}), rows


def consensus(answers: List[str]) -> Optional[str]:
    """The people's label of a cell from each annotator's answer: the majority of pass/fail (``skip`` does
    not vote); ``"skip"`` when nobody answered pass or fail, ``None`` on a tie."""
    votes = Counter(a for a in answers if a in ("pass", "fail"))
    if not votes:
        return "skip"
    if votes["pass"] == votes["fail"]:
        return None
    return "pass" if votes["pass"] > votes["fail"] else "fail"


def _interval(k: int, n: int, level: float) -> Optional[List[float]]:
    ci = clopper_pearson(k, n, level)
    return None if ci is None else [ci.low, ci.high]


def inter_annotator(cells: Mapping[Tuple[int, str], List[Any]]) -> Optional[Dict[str, Any]]:
    """Agreement between people over the cells at least two of them answered pass/fail; ``None`` with fewer
    than two annotators."""
    people = sorted({item.annotator for items in cells.values() for item in items})
    if len(people) < 2:
        return None
    shared = []
    for items in cells.values():
        answers = {item.annotator: item.label for item in items if item.label in ("pass", "fail")}
        if len(answers) >= 2:
            shared.append(answers)
    out: Dict[str, Any] = {"annotators": people, "cells": len(shared),
                           "all_agree": (sum(len(set(a.values())) == 1 for a in shared) / len(shared)) if shared else None}
    if len(people) == 2:
        both = [a for a in shared if len(a) == 2]
        matrix = confusion_matrix(["good" if a[people[0]] == "pass" else "bad" for a in both],
                                  ["good" if a[people[1]] == "pass" else "bad" for a in both])
        out.update(method="cohen", kappa=cohen_kappa(matrix))
    else:
        out.update(method="fleiss", kappa=fleiss_kappa([[a.get(p) for p in people] for a in shared]))
    return out


def certify_alias(pairs: List[Tuple[str, str]], left_out: Dict[str, int], floor: float = DEFAULT_FLOOR,
                  level: float = DEFAULT_LEVEL) -> Dict[str, Any]:
    """The certification of one evaluator from ``(people's label, judge verdict)`` pairs (both pass/fail)."""
    positives = sum(1 for human, _ in pairs if human == "pass")
    true_pos = sum(1 for human, judge in pairs if human == "pass" and judge == "pass")
    negatives = len(pairs) - positives
    true_neg = sum(1 for human, judge in pairs if human == "fail" and judge == "fail")
    matrix = confusion_matrix(["good" if h == "pass" else "bad" for h, _ in pairs],
                              ["good" if j == "pass" else "bad" for _, j in pairs])
    tpr_interval, tnr_interval = _interval(true_pos, positives, level), _interval(true_neg, negatives, level)
    certified = (tpr_interval is not None and tnr_interval is not None
                 and tpr_interval[0] >= floor and tnr_interval[0] >= floor)
    return {
        "n": len(pairs), "agreement": accuracy(matrix), "kappa": cohen_kappa(matrix),
        "tpr": true_pos / positives if positives else None, "tpr_interval": tpr_interval,
        "tnr": true_neg / negatives if negatives else None, "tnr_interval": tnr_interval,
        "certified": certified, "floor": floor, "level": level, "interval_method": "clopper-pearson",
        "positives": positives, "true_positives": true_pos, "negatives": negatives, "true_negatives": true_neg,
        "left_out": dict(left_out),
    }


def certify(run_folder: Union[str, Path], floor: float = DEFAULT_FLOOR,
            level: float = DEFAULT_LEVEL) -> Dict[str, Dict[str, Any]]:
    """Per labelled evaluator alias of the run in ``run_folder``, its judge's certification (see the module).

    Raises:
        ConfigError: the folder is not a run, has no labels, or ``floor`` / ``level`` is not in (0, 1)."""
    for name, value in (("floor", floor), ("level", level)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise ConfigError(f"certify: {name} must be a number between 0 and 1 (exclusive), got {value!r}")
    cells = labels_by_cell(run_folder)
    summary, rows = read_run_cells(run_folder, {line for line, _ in cells})
    if not cells:
        raise ConfigError(f"{labels_path(run_folder)}: no labels; label the run first with `agent-eval label "
                          f"{run_folder}`")
    evaluators = (summary.get("config") or {}).get("evaluators") or {}
    by_alias: Dict[str, Dict[Tuple[int, str], List[Any]]] = {}
    for (line, alias), items in cells.items():
        by_alias.setdefault(alias, {})[(line, alias)] = items
    out: Dict[str, Dict[str, Any]] = {}
    for alias in sorted(by_alias):
        pairs: List[Tuple[str, str]] = []
        left_out = {k: 0 for k in LEFT_OUT}
        for (line, _), items in sorted(by_alias[alias].items()):
            human = consensus([item.label for item in items])
            row = rows.get(line)
            judge = cell_status(row, alias) if row is not None else "no_row"
            if judge in ("none", "no_row"):
                left_out["no_row"] += 1
            elif judge in ("error", "not_run", "not_applicable"):
                left_out[judge] += 1
            elif human == "skip":
                left_out["skip"] += 1
            elif human is None:
                left_out["tie"] += 1
            else:
                pairs.append((human, judge))
        record = certify_alias(pairs, left_out, floor, level)
        desc = evaluators.get(alias) or {}
        model = ((desc.get("config") or {}).get("model_config") or {})
        record.update(
            annotators=sorted({item.annotator for items in by_alias[alias].values() for item in items}),
            inter_annotator=inter_annotator(by_alias[alias]), consensus="majority",
            result_key=desc.get("result_key"), template_hash=desc.get("template_hash"),
            model=model.get("model") or model.get("azure_deployment") if isinstance(model, Mapping) else None,
            labels_from=str(Path(run_folder)))
        out[alias] = record
    return out


def uncertified_note(record: Any) -> str:
    """``"judge not certified (TPR lower bound 0.62, ...)"`` for a run's certification record of an evaluator
    (``summary.json``'s ``certification[alias]``) that is not certified; ``""`` when certified or not a record."""
    if not isinstance(record, Mapping) or record.get("certified"):
        return ""
    why = record.get("reason")
    if not why and record.get("tpr_interval") and record.get("tnr_interval"):
        why = (f"TPR lower bound {record['tpr_interval'][0]:.2f}, TNR lower bound {record['tnr_interval'][0]:.2f}, "
               f"floor {record.get('floor')}")
    return f"judge not certified ({why or 'too few labels of a pass or a fail'})"


def describe_certification(alias: str, record: Mapping[str, Any], metrics: Optional[Mapping[str, Any]] = None) -> str:
    """One line: ``intent: certified (TPR 0.95 [0.83, 0.99], TNR 0.90 [0.81, 0.96], 60 labels, floor 0.8)``,
    then, given a run's ``metrics`` holding it, ``; pass rate 0.84, corrected 0.71 [0.62, 0.80]``."""
    if "tpr" not in record:
        return f"{alias}: NOT certified ({record.get('reason') or 'no labels'})"

    def rate(name: str) -> str:
        value, ci = record.get(name), record.get(f"{name}_interval")
        return f"{name.upper()} n/a" if value is None or not ci else f"{name.upper()} {value:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]"
    verdict = "certified" if record.get("certified") else "NOT certified"
    why = f"; {record['reason']}" if record.get("reason") else ""
    text = (f"{alias}: {verdict} ({rate('tpr')}, {rate('tnr')}, {record.get('n')} labels, "
            f"floor {record.get('floor'):g}{why})")
    corrected = record.get("corrected_pass_rate")
    raw = (metrics or {}).get(f"{alias}.pass_rate")
    if isinstance(corrected, Mapping) and isinstance(raw, (int, float)):
        ci = corrected["interval"]
        text += f"; pass rate {raw:.2f}, corrected {corrected['rate']:.2f} [{ci['low']:.2f}, {ci['high']:.2f}]"
    return text
