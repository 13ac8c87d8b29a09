"""``F1ScoreEvaluator``: the SQuAD-style token F1 of azure-ai-evaluation 1.18.

Both texts are lowercased, stripped of ASCII punctuation and of the words a/an/the, split on
whitespace; F1 is the harmonic mean of the shared-token precision and recall (a token shared
twice counts twice). No shared token scores 0.0, empty texts included.
"""

import re
import string
from collections import _count_elements  # type: ignore[attr-defined]
from typing import Any, Dict, List, Tuple

from .pair import _PairMetric

__all__ = ["F1ScoreEvaluator", "token_f1", "f1_tokens"]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_ARTICLE_WORDS = frozenset(("a", "an", "the"))
_PUNCTUATION = string.punctuation.encode()
#: ASCII characters that are neither word characters nor whitespace once punctuation is gone
_ODD_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f]")


def _counts(words: Any) -> Dict[str, int]:
    """word -> count, by ``collections``' own C loop into a plain dict (cheaper than a ``Counter``)."""
    counts: Dict[str, int] = {}
    _count_elements(counts, words)
    return counts


def _token_counts(text: str) -> Dict[str, int]:
    """How often each of azure's normalized tokens occurs in ``text`` (lowercase, punctuation
    dropped, the articles a/an/the dropped, whitespace split).

    azure deletes ``string.punctuation`` one character at a time and removes ``\\b(a|an|the)\\b``
    with a regular expression. On ASCII text without odd control characters every word left is a
    run of ``[a-z0-9]`` between whitespace, so counting the split words and then dropping the
    articles is the same thing, several times faster. Any other text takes azure's steps as written."""
    lowered = text.lower()
    if lowered.isascii() and _ODD_CONTROLS.search(lowered) is None:
        counts = _counts(lowered.encode().translate(None, _PUNCTUATION).decode().split())
        for article in _ARTICLE_WORDS:
            counts.pop(article, None)
        return counts
    kept = "".join(ch for ch in lowered if ch not in string.punctuation)
    return _counts(_ARTICLES.sub(" ", kept).split())


def f1_tokens(text: str) -> List[str]:
    """azure's normalized tokens of ``text``, in order (azure's steps as written)."""
    kept = "".join(ch for ch in text.lower() if ch not in string.punctuation)
    return _ARTICLES.sub(" ", kept).split()


def token_f1(response: str, ground_truth: str) -> Tuple[float, float, float]:
    """``(f1, precision, recall)`` with azure's arithmetic, in azure's order (bit-identical floats)."""
    predicted, expected = _token_counts(response), _token_counts(ground_truth)
    shared = predicted.keys() & expected.keys()
    common = sum(map(min, map(predicted.__getitem__, shared), map(expected.__getitem__, shared)))
    if common == 0:
        return 0.0, 0.0, 0.0
    precision = 1.0 * common / sum(predicted.values())
    recall = 1.0 * common / sum(expected.values())
    return (2.0 * precision * recall) / (precision + recall), precision, recall


class F1ScoreEvaluator(_PairMetric):
    """Token F1 between the response and the ground truth (azure's ``F1ScoreEvaluator``).

    Key ``f1_score``; inputs ``response``, ``ground_truth`` (text, or messages: the final
    answer); score 0–1; default threshold 0.5. Details: ``precision``, ``recall``.
    """

    result_key = "f1_score"
    metric_label = "token F1"

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        f1, precision, recall = token_f1(response, ground_truth)
        return f1, {"precision": precision, "recall": recall}
