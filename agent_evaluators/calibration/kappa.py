"""Agreement between the judge's pass/fail and the human labels: confusion matrix, accuracy, Cohen's κ.

κ corrects accuracy for the agreement expected by chance from each side's label
frequencies (Cohen 1960): κ = (p_o − p_e) / (1 − p_e). A judge that passes
everything scores 50 % accuracy on a balanced set but κ = 0, which is why κ is the
headline number. When chance agreement is total (both sides used one single label)
κ is undefined and reported as ``None``, never as a number.
"""

from typing import Dict, Optional, Sequence

from ..stats.agreement import chance_note

LABELS = ("good", "bad")


def confusion_matrix(truth: Sequence[str], predicted: Sequence[str]) -> Dict[str, Dict[str, int]]:
    """``matrix[label][prediction]`` counts for the labels ``good`` / ``bad``."""
    if len(truth) != len(predicted):
        raise ValueError(f"truth has {len(truth)} labels but predicted has {len(predicted)}")
    matrix = {t: {p: 0 for p in LABELS} for t in LABELS}
    for t, p in zip(truth, predicted):
        if t not in matrix or p not in matrix:
            raise ValueError(f"labels must be one of {LABELS}, got {t!r} / {p!r}")
        matrix[t][p] += 1
    return matrix


def accuracy(matrix: Dict[str, Dict[str, int]]) -> Optional[float]:
    total = sum(sum(row.values()) for row in matrix.values())
    if total == 0:
        return None
    return sum(matrix[k][k] for k in matrix) / total


def cohen_kappa(matrix: Dict[str, Dict[str, int]]) -> Optional[float]:
    """Cohen's κ of a square confusion matrix; ``None`` when undefined (no items, or p_e = 1)."""
    labels = list(matrix)
    total = sum(sum(matrix[t][p] for p in labels) for t in labels)
    if total == 0:
        return None
    observed = sum(matrix[k][k] for k in labels) / total
    expected = sum(
        (sum(matrix[k][p] for p in labels) / total) * (sum(matrix[t][k] for t in labels) / total) for k in labels
    )
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def kappa_band(kappa: Optional[float]) -> str:
    """Landis & Koch's (1977) reading of κ, for reports; near 0 or below, the shared
    :func:`~agent_evaluators.stats.agreement.chance_note` ("no better than chance")."""
    if kappa is None:
        return "undefined"
    note = chance_note(kappa)
    if note:
        return f"poor ({note})"
    for bound, words in ((0.2, "slight"), (0.4, "fair"), (0.6, "moderate"), (0.8, "substantial")):
        if kappa <= bound:
            return words
    return "almost perfect"
