"""``F1ScoreEvaluator``: the SQuAD-style token F1 of azure-ai-evaluation 1.18.

Both texts are lowercased, stripped of ASCII punctuation and of the words a/an/the, split on
whitespace; F1 is the harmonic mean of the shared-token precision and recall (a token shared
twice counts twice). No shared token scores 0.0, empty texts included.
"""

import re
import string
from typing import Any, Dict, List, Tuple

from .grams import shared_grams
from .pair import _PairMetric

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = string.punctuation.encode()


def _ascii_table() -> bytes:
    """One ``bytes.translate`` table for azure's steps on plain ASCII: ``A-Z`` lowered, every
    character ``str.split`` splits on made a space, the odd control characters made ``\\x00``
    (the mark that sends a text down azure's own steps), all else kept."""
    table = bytearray(range(256))
    for c in range(ord("A"), ord("Z") + 1):
        table[c] = c + 32
    for c in (*range(0x09, 0x0E), *range(0x1C, 0x20)):
        table[c] = 0x20
    for c in (*range(0x00, 0x09), *range(0x0E, 0x1C), 0x7F):
        table[c] = 0x00
    return bytes(table)


_ASCII_TABLE = _ascii_table()


def f1_tokens(text: str) -> List[str]:
    """azure's normalized tokens of ``text``, in order (azure's steps as written)."""
    kept = "".join(ch for ch in text.lower() if ch not in string.punctuation)
    return _ARTICLES.sub(" ", kept).split()


def _spaced_tokens(text: str) -> bytes:
    """azure's tokens of ``text`` as bytes separated by spaces, articles possibly still in (the
    count leaves them out: :func:`.grams.shared_grams` with ``drop_articles``).

    On plain ASCII with no odd control character, every word azure keeps is a run of
    ``[a-z0-9]`` between whitespace, so one translate (lowering, deleting punctuation, making
    whitespace a space) gives azure's words with the articles still in. Any other text takes
    azure's steps as written (:func:`f1_tokens`); its tokens hold no whitespace and no article,
    so joining them with spaces and encoding them keeps them apart and equal where they were."""
    if text.isascii():
        kept = text.encode().translate(_ASCII_TABLE, _PUNCTUATION)
        if 0 not in kept:
            return kept
    return " ".join(f1_tokens(text)).encode("utf-8", "surrogatepass")


def shared_tokens(response: str, ground_truth: str) -> Tuple[int, int, int]:
    """``(shared, predicted, expected)``: azure's count of shared tokens and each text's token count."""
    return shared_grams(_spaced_tokens(response), _spaced_tokens(ground_truth), 1, True)


def token_f1(response: str, ground_truth: str) -> Tuple[float, float, float]:
    """``(f1, precision, recall)`` with azure's arithmetic, in azure's order (bit-identical floats)."""
    common, predicted, expected = shared_tokens(response, ground_truth)
    if common == 0:
        return 0.0, 0.0, 0.0
    precision = 1.0 * common / predicted
    recall = 1.0 * common / expected
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
