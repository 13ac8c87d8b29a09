"""``F1ScoreEvaluator``: the SQuAD-style token F1 of azure-ai-evaluation 1.18.

Both texts are lowercased, stripped of ASCII punctuation and of the words a/an/the, split on
whitespace; F1 is the harmonic mean of the shared-token precision and recall (a token shared
twice counts twice). No shared token scores 0.0, empty texts included.
"""

import re
import string
from collections import _count_elements  # type: ignore[attr-defined]
from operator import sub
from typing import Any, Dict, List, Optional, Tuple

from .pair import _PairMetric

__all__ = ["F1ScoreEvaluator", "token_f1", "f1_tokens"]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_ARTICLE_WORDS = frozenset(("a", "an", "the"))
#: what the plain-ASCII path drops from the counts: the articles, and the empty "words" that
#: splitting on single spaces leaves between two spaces
_DROPPED_BYTES = (b"a", b"an", b"the", b"")
_PUNCTUATION = string.punctuation.encode()
#: ASCII characters that are neither word characters nor whitespace once punctuation is gone
_ODD_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f]")


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


def _counts(words: Any) -> Dict[Any, int]:
    """word -> count, by ``collections``' own C loop into a plain dict (cheaper than a ``Counter``)."""
    counts: Dict[Any, int] = {}
    _count_elements(counts, words)
    return counts


def _ascii_counts(text: str) -> Optional[Dict[bytes, int]]:
    """The token counts of a plain-ASCII text in one translate and one split, or ``None`` for a
    text that must take azure's steps as written (non-ASCII, or an odd control character).

    On such a text every word azure keeps is a run of ``[a-z0-9]`` between whitespace, so
    deleting punctuation, splitting on single spaces and dropping the articles and the empty
    words is azure's normalization, several times faster."""
    if not text.isascii():
        return None
    kept = text.encode().translate(_ASCII_TABLE, _PUNCTUATION)
    if 0 in kept:
        return None
    counts = _counts(kept.split(b" "))
    for dropped in _DROPPED_BYTES:
        counts.pop(dropped, None)
    return counts


def _token_counts(text: str) -> Dict[str, int]:
    """How often each of azure's normalized tokens occurs in ``text`` (lowercase, punctuation
    dropped, the articles a/an/the dropped, whitespace split), with azure's steps as written
    except for the ASCII shortcut of ``_ascii_counts`` (as text)."""
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


def shared_count(first: Dict[Any, int], second: Dict[Any, int]) -> int:
    """``sum(min(first[w], second[w]))`` over the shared words, in C loops: the sum of the minima is
    half of (both totals minus the absolute differences), an identity on integers."""
    shared = first.keys() & second.keys()
    if not shared:
        return 0
    ones, twos = list(map(first.__getitem__, shared)), list(map(second.__getitem__, shared))
    return (sum(ones) + sum(twos) - sum(map(abs, map(sub, ones, twos)))) // 2


def token_f1(response: str, ground_truth: str) -> Tuple[float, float, float]:
    """``(f1, precision, recall)`` with azure's arithmetic, in azure's order (bit-identical floats)."""
    predicted, expected = _ascii_counts(response), _ascii_counts(ground_truth)
    if predicted is None or expected is None:  # both sides as text, so the words compare
        predicted, expected = _token_counts(response), _token_counts(ground_truth)  # type: ignore[assignment]
    common = shared_count(predicted, expected)  # type: ignore[arg-type]
    if common == 0:
        return 0.0, 0.0, 0.0
    precision = 1.0 * common / sum(predicted.values())  # type: ignore[union-attr]
    recall = 1.0 * common / sum(expected.values())  # type: ignore[union-attr]
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
