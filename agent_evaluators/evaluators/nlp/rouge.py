"""``RougeScoreEvaluator`` and ``RougeType``: azure-ai-evaluation 1.18's ROUGE, computed faster.

azure scores ``RougeScorer([rouge_type]).score(ground_truth, response)`` with its vendored
copy of ``rouge-score`` (no stemmer): lowercase, every run of characters outside ``[a-z0-9]``
separates, ROUGE-N counts shared n-grams, ROUGE-L takes the longest common subsequence.
We compute the same integers and divide them in rouge-score's order, so the floats are
identical (``tests/parity/test_azure_1_18_nlp.py``), but without building a scorer per row
and with a bit-parallel LCS (Hyyrö's algorithm on Python integers) instead of rouge-score's
quadratic table of Python lists.
"""

import enum
import math
import re
from typing import Any, Dict, List, Tuple, Union

from ...errors import ConfigError
from .grams import shared_grams
from .pair import _PairMetric


class RougeType(str, enum.Enum):
    """Which ROUGE to compute (azure's names and values)."""

    ROUGE_1 = "rouge1"
    """Shared unigrams."""
    ROUGE_2 = "rouge2"
    """Shared bigrams."""
    ROUGE_3 = "rouge3"
    """Shared trigrams."""
    ROUGE_4 = "rouge4"
    """Shared 4-grams."""
    ROUGE_5 = "rouge5"
    """Shared 5-grams."""
    ROUGE_L = "rougeL"
    """Longest common subsequence of tokens."""


_TOKEN = re.compile(r"[a-z0-9]+")
#: bytes -> themselves for ``[a-z0-9]``, ``A-Z`` lowered, a space for anything else
_KEEP_ALNUM = bytes(c if 48 <= c <= 57 or 97 <= c <= 122 else c + 32 if 65 <= c <= 90 else 32 for c in range(256))


def rouge_tokens(text: str) -> List[str]:
    """rouge-score's tokens without a stemmer: the ``[a-z0-9]`` runs of the lowercased text."""
    return _TOKEN.findall(text.lower())


def _token_pair(response: str, ground_truth: str) -> Tuple[List[Any], List[Any]]:
    """Both texts' tokens, as bytes when both are ASCII (one C pass each: lowering and
    separating in one translate), else as strings.

    The tokens are only counted and compared, so bytes and strings give the same numbers, as
    long as both sides are of one kind."""
    if ground_truth.isascii() and response.isascii():
        return ground_truth.encode().translate(_KEEP_ALNUM).split(), response.encode().translate(_KEEP_ALNUM).split()
    return _TOKEN.findall(ground_truth.lower()), _TOKEN.findall(response.lower())


def lcs_length(a: List[Any], b: List[Any]) -> int:
    """Length of the longest common subsequence of two token lists (Hyyrö's bit-vector algorithm)."""
    if not a or not b:
        return 0
    positions: Dict[Any, int] = {}
    for i, token in enumerate(a):
        positions[token] = positions.get(token, 0) | (1 << i)
    mask = (1 << len(a)) - 1
    v = mask
    for token in b:
        u = v & positions.get(token, 0)
        v = ((v + u) | (v - u)) & mask
    return len(a) - bin(v).count("1")


def _fmeasure(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _spaced_tokens(text: str) -> bytes:
    """rouge-score's tokens of ``text`` as bytes separated by spaces: on ASCII one translate
    (lowering, every character outside ``[a-z0-9]`` a space), else the tokens of
    :func:`rouge_tokens` joined (they hold no space, so they stay apart and equal)."""
    if text.isascii():
        return text.encode().translate(_KEEP_ALNUM)
    return " ".join(rouge_tokens(text)).encode("utf-8", "surrogatepass")


def rouge_scores(rouge_type: str, response: str, ground_truth: str) -> Tuple[float, float, float]:
    """``(precision, recall, fmeasure)`` of ``response`` against ``ground_truth``, as azure's scorer gives them.

    rouge-score's counts are integers: the shared n-grams (:func:`.grams.shared_grams`) and each
    text's n-grams (``len - n + 1``, at least 0, what its ``sum(counts.values())`` gives), so
    dividing them in its order gives its floats."""
    return _scores(_gram_size(rouge_type), response, ground_truth)


def _gram_size(rouge_type: str) -> int:
    """``n`` of ``"rouge<n>"``; 0 for ``"rougeL"``."""
    return 0 if rouge_type == "rougeL" else int(rouge_type[5:])


def _scores(n: int, response: str, ground_truth: str) -> Tuple[float, float, float]:
    """:func:`rouge_scores` by gram size (0: the longest common subsequence)."""
    if not n:
        target, prediction = _token_pair(response, ground_truth)
        if not target or not prediction:
            return 0.0, 0.0, 0.0
        lcs = lcs_length(target, prediction)
        precision = lcs / len(prediction)
        recall = lcs / len(target)
        return precision, recall, _fmeasure(precision, recall)
    shared, predicted, expected = shared_grams(_spaced_tokens(response), _spaced_tokens(ground_truth), n, False)
    precision = shared / max(predicted - n + 1, 1)
    recall = shared / max(expected - n + 1, 1)
    return precision, recall, _fmeasure(precision, recall)


def rouge_type_value(evaluator_name: str, rouge_type: Any) -> str:
    """The ROUGE type as its string value (``RougeType.ROUGE_L`` or ``"rougeL"``); ``ConfigError`` otherwise."""
    value = rouge_type.value if isinstance(rouge_type, RougeType) else rouge_type
    if isinstance(value, str) and re.fullmatch(r"rouge[1-9]|rougeL", value):
        return value
    choices = ", ".join(t.value for t in RougeType)
    raise ConfigError(f"{evaluator_name}: rouge_type must be one of {choices} (or RougeType.*), got {rouge_type!r}")


class RougeScoreEvaluator(_PairMetric):
    """ROUGE precision, recall and F1 of the response against the ground truth (azure's ``RougeScoreEvaluator``).

    Key ``rouge`` (the F1, which decides pass/fail); beside it, flat, ``rouge_precision``,
    ``rouge_recall`` and ``rouge_f1_score``, each with its ``_result`` and ``_threshold``.
    Inputs ``response``, ``ground_truth``; ``rouge_type`` one of ``RougeType`` (rouge1 ... rouge5,
    rougeL); thresholds 0.5 each.
    """

    result_key = "rouge"
    metric_label = "ROUGE F1"

    def __init__(
        self,
        rouge_type: Union[RougeType, str] = "rouge1",
        *,
        precision_threshold: float = 0.5,
        recall_threshold: float = 0.5,
        f1_score_threshold: float = 0.5,
    ) -> None:
        super().__init__(threshold=f1_score_threshold)
        self.rouge_type = rouge_type_value(self.name, rouge_type)
        self._gram_size = _gram_size(self.rouge_type)
        for name, value in (("precision_threshold", precision_threshold), ("recall_threshold", recall_threshold)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
                raise ConfigError(f"{self.name}: {name} must be a number, got {value!r}")
        self.precision_threshold = precision_threshold
        self.recall_threshold = recall_threshold
        self.f1_score_threshold = f1_score_threshold

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        precision, recall, f1 = _scores(self._gram_size, response, ground_truth)
        return f1, {"rouge_type": self.rouge_type, "precision": precision, "recall": recall, "f1_score": f1}

    def _finish(self, outcome: Any) -> Dict[str, Any]:
        out = super()._finish(outcome)
        details = outcome.details or {}
        for part, threshold in (("precision", self.precision_threshold), ("recall", self.recall_threshold),
                                ("f1_score", self.f1_score_threshold)):
            value = details.get(part)
            key = f"rouge_{part}"
            out[key] = value
            out[f"{key}_result"] = None if value is None else ("pass" if value >= threshold else "fail")
            out[f"{key}_threshold"] = threshold
        return out
