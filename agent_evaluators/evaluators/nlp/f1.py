"""``F1ScoreEvaluator``: the SQuAD-style token F1 of azure-ai-evaluation 1.18.

Both texts are lowercased, stripped of ASCII punctuation and of the words a/an/the, split on
whitespace; F1 is the harmonic mean of the shared-token precision and recall (a token shared
twice counts twice). No shared token scores 0.0, empty texts included.
"""

import re
import string
from collections import Counter
from typing import Any, Dict, List, Tuple

from .pair import PairMetric

__all__ = ["F1ScoreEvaluator", "token_f1", "f1_tokens"]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)


def f1_tokens(text: str) -> List[str]:
    """azure's normalized tokens: lowercase, punctuation dropped, articles dropped, whitespace split."""
    return _ARTICLES.sub(" ", text.lower().translate(_NO_PUNCTUATION)).split()


def token_f1(response: str, ground_truth: str) -> Tuple[float, float, float]:
    """``(f1, precision, recall)`` with azure's arithmetic, in azure's order (bit-identical floats)."""
    prediction = f1_tokens(response)
    reference = f1_tokens(ground_truth)
    common = sum((Counter(prediction) & Counter(reference)).values())
    if common == 0:
        return 0.0, 0.0, 0.0
    precision = 1.0 * common / len(prediction)
    recall = 1.0 * common / len(reference)
    return (2.0 * precision * recall) / (precision + recall), precision, recall


class F1ScoreEvaluator(PairMetric):
    """Token F1 between the response and the ground truth (azure's ``F1ScoreEvaluator``).

    Key ``f1_score``; inputs ``response``, ``ground_truth`` (text, or messages: the final
    answer); score 0–1; default threshold 0.5. Details: ``precision``, ``recall``.
    """

    result_key = "f1_score"
    metric_label = "token F1"

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        f1, precision, recall = token_f1(response, ground_truth)
        return f1, {"precision": precision, "recall": recall}
