"""``BleuScoreEvaluator`` and ``GleuScoreEvaluator``: NLTK's sentence BLEU and GLEU on azure's tokens.

azure-ai-evaluation 1.18 scores ``sentence_bleu([reference], hypothesis,
smoothing_function=SmoothingFunction().method4)`` and ``sentence_gleu([reference], hypothesis)``
over :func:`~.tokenize.nltk_tokens`; so do we, with NLTK's own functions (imported on first
use), so the numbers are NLTK's. NLTK's warnings about zero n-gram overlaps are not repeated
per row: a low score says the same.
"""

import warnings
from typing import Any, Dict, Tuple

from .pair import _PairMetric
from .tokenize import nltk_tokens

_SMOOTHING: Any = None


def bleu(response: str, ground_truth: str) -> float:
    """azure's BLEU: 4-gram sentence BLEU with Chen & Cherry's smoothing method 4."""
    global _SMOOTHING
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    if _SMOOTHING is None:
        _SMOOTHING = SmoothingFunction().method4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # as NLTK returns it: the int 0 when no n-gram is shared (azure passes that on)
        return sentence_bleu([nltk_tokens(ground_truth)], nltk_tokens(response), smoothing_function=_SMOOTHING)


def gleu(response: str, ground_truth: str) -> float:
    """azure's GLEU: sentence GLEU over 1- to 4-grams (the smaller of n-gram precision and recall)."""
    from nltk.translate.gleu_score import sentence_gleu

    return float(sentence_gleu([nltk_tokens(ground_truth)], nltk_tokens(response)))


class BleuScoreEvaluator(_PairMetric):
    """Sentence BLEU of the response against the ground truth (azure's ``BleuScoreEvaluator``).

    Key ``bleu_score``; inputs ``response``, ``ground_truth``; score 0–1; default threshold 0.5.
    """

    result_key = "bleu_score"
    metric_label = "BLEU"

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        return bleu(response, ground_truth), {}


class GleuScoreEvaluator(_PairMetric):
    """Sentence GLEU (Google-BLEU) of the response against the ground truth (azure's ``GleuScoreEvaluator``).

    Key ``gleu_score``; inputs ``response``, ``ground_truth``; score 0–1; default threshold 0.5.
    """

    result_key = "gleu_score"
    metric_label = "GLEU"

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        return gleu(response, ground_truth), {}
