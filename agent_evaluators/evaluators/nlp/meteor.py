"""``MeteorScoreEvaluator``: NLTK's METEOR on azure's tokens, WordNet from this machine.

azure-ai-evaluation 1.18 scores ``meteor_score([reference], hypothesis, alpha=0.9, beta=3.0,
gamma=0.5)`` over :func:`~.tokenize.nltk_tokens`: exact matches, then Porter-stem matches,
then WordNet synonyms, with a fragmentation penalty. We call NLTK's own ``meteor_score`` with
the same arguments and the WordNet 3.0 of :mod:`.wordnet` (no download).
"""

from typing import Any, Dict, Tuple

from .pair import _PairMetric
from .tokenize import nltk_tokens
from .wordnet import find_wordnet, wordnet_reader


def meteor(response: str, ground_truth: str, *, alpha: float, beta: float, gamma: float, wordnet: Any) -> float:
    """azure's METEOR of ``response`` against ``ground_truth``."""
    from nltk.translate.meteor_score import meteor_score

    return float(meteor_score([nltk_tokens(ground_truth)], nltk_tokens(response),
                              alpha=alpha, beta=beta, gamma=gamma, wordnet=wordnet))


class MeteorScoreEvaluator(_PairMetric):
    """METEOR of the response against the ground truth (azure's ``MeteorScoreEvaluator``).

    Key ``meteor_score``; inputs ``response``, ``ground_truth``; score 0–1; default threshold 0.5.
    ``alpha`` (precision/recall weight, 0.9), ``beta`` (penalty shape, 3.0) and ``gamma``
    (penalty weight, 0.5) as azure's. Needs WordNet 3.0 (``apt-get install wordnet-base``, or
    NLTK's download); without it the constructor raises ``ConfigError`` saying how to get it.
    """

    result_key = "meteor_score"
    metric_label = "METEOR"

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5, *, threshold: float = 0.5) -> None:
        super().__init__(threshold=threshold)
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        if find_wordnet() is None:
            wordnet_reader(self.name)  # raises the ConfigError that says how to install it

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        wordnet = wordnet_reader(self.name)
        return meteor(response, ground_truth, alpha=self.alpha, beta=self.beta, gamma=self.gamma, wordnet=wordnet), {}
