"""A judge panel's verdicts over a run, and how far its judges agreed (``summary.json``'s ``agreement``).

Each scored cell of a panel evaluator holds every judge's score in
``<key>_details["panel"]``; this keeps one small tuple per cell (per run, with
``num_runs > 1``: each repetition is a unit of its own) and at the end computes the panel's
agreement with the pure functions of :mod:`agent_evaluators.stats.agreement`:

* ``alpha``: Krippendorff's alpha over the judges' scores, at the panel's level
  (``interval`` for averaged scores, ``nominal`` for majority-voted labels);
* ``fleiss_kappa``: Fleiss' kappa over the judges' pass/fail verdicts;
* ``disagreements``: how many cells the panel flagged (the judges split on pass/fail).

``min_agreement`` (a run option): a panel whose ``alpha`` is below it is marked
``inconclusive``, and a run-level threshold over that evaluator reports ``INCONCLUSIVE``
instead of PASS/FAIL. An undefined alpha (every judge gave every cell the same score) is
perfect observed agreement, not a low one, and never gates.
"""

from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Tuple

from ..stats.agreement import fleiss_kappa, kappa_text, krippendorff_alpha


def panel_of(details: Any) -> Optional[Mapping[str, Any]]:
    """The ``panel`` record of a cell's details, or ``None``."""
    panel = details.get("panel") if isinstance(details, Mapping) else None
    return panel if isinstance(panel, Mapping) and isinstance(panel.get("judges"), list) else None


class PanelVotes:
    """Every judge's score and pass/fail per cell of one evaluator alias, for the agreement at the end."""

    __slots__ = ("judges", "level", "scores", "results", "disagreements")

    def __init__(self) -> None:
        self.judges: List[str] = []
        self.level = "interval"
        self.scores: List[Tuple[Any, ...]] = []
        self.results: List[Tuple[Any, ...]] = []
        self.disagreements = 0

    def add(self, details: Mapping[str, Any]) -> None:
        """Count one cell's details (its panel record, or each repetition's with ``num_runs > 1``)."""
        runs = details.get("runs")
        if isinstance(runs, list):
            for run in runs:
                if isinstance(run, Mapping):
                    inner = next((v for k, v in run.items() if k.endswith("_details")), None)
                    if isinstance(inner, Mapping):
                        self.add(inner)
            return
        panel = panel_of(details)
        if panel is None:
            return
        judges = panel["judges"]
        if not self.judges:
            self.judges = [str(j.get("judge")) for j in judges]
            self.level = str(panel.get("level") or "interval")
        self.scores.append(tuple(j.get("score") for j in judges))
        self.results.append(tuple(j.get("result") if j.get("result") in ("pass", "fail") else None for j in judges))
        self.disagreements += bool(panel.get("disagreement"))

    def merge(self, other: "PanelVotes") -> None:
        """Fold in another part of the same run (a Ray shard's)."""
        if not self.judges:
            self.judges, self.level = other.judges, other.level
        self.scores.extend(other.scores)
        self.results.extend(other.results)
        self.disagreements += other.disagreements

    def summary(self, min_agreement: Optional[float]) -> Dict[str, Any]:
        """The panel's record for ``summary.json``."""
        alpha = krippendorff_alpha(self.scores, self.level)
        return {
            "judges": self.judges,
            "cells": len(self.scores),
            "level": self.level,
            "alpha": alpha,
            "fleiss_kappa": fleiss_kappa(self.results),
            "disagreements": self.disagreements,
            "min_agreement": min_agreement,
            "inconclusive": min_agreement is not None and alpha is not None and alpha < min_agreement,
        }


def describe_agreement(record: Mapping[str, Any]) -> str:
    """``3 judges, Krippendorff's alpha 0.74 (interval), Fleiss' kappa 0.69, 2 of 40 cells split``
    (the terminal and the HTML report)."""
    def num(x: Any) -> str:
        return "undefined" if x is None else f"{x:.2f}"

    text = (f"{len(record.get('judges') or [])} judges, Krippendorff's alpha {num(record.get('alpha'))} "
            f"({record.get('level')}), Fleiss' kappa {kappa_text(record.get('fleiss_kappa'))}, "
            f"{record.get('disagreements')} of {record.get('cells')} cells split")
    return text + (" - INCONCLUSIVE: below min_agreement" if record.get("inconclusive") else "")


def low_agreement(alias: str, agreement: Mapping[str, Any]) -> Optional[str]:
    """Why a run threshold over ``alias`` is inconclusive (its judge panel agrees below ``min_agreement``), or
    ``None``; ``agreement`` is ``summary.json``'s. Read by ``agent-eval run`` and
    :func:`~agent_evaluators.pytest_plugin.assertions.assert_passes`."""
    for metric, record in agreement.items():
        if metric.split(".", 1)[0] == alias and isinstance(record, Mapping) and record.get("inconclusive"):
            return (f"the {len(record.get('judges') or [])} judges agree too little to tell: Krippendorff's alpha "
                    f"{record['alpha']:.2f} < min_agreement {record['min_agreement']:g} over {record.get('cells')} "
                    f"cells ({record.get('disagreements')} split on pass/fail)")
    return None
