"""``MeteorScoreEvaluator``: NLTK's METEOR on azure's tokens, WordNet 3.0 from the table this package ships.

azure-ai-evaluation 1.18 scores ``meteor_score([reference], hypothesis, alpha=0.9, beta=3.0,
gamma=0.5)`` over :func:`~.tokenize.nltk_tokens`: exact matches, then Porter-stem matches,
then WordNet synonyms, with a fragmentation penalty. We call NLTK's own ``meteor_score`` with
the same arguments and the WordNet 3.0 of :mod:`.wordnet` (shipped in the package: no download,
no system package).
"""

from typing import Any, Dict, Tuple

from .pair import _PairMetric
from .tokenize import nltk_tokens
from .wordnet import wordnet_reader


def meteor(response: str, ground_truth: str, *, alpha: float, beta: float, gamma: float, wordnet: Any) -> float:
    """azure's METEOR of ``response`` against ``ground_truth``."""
    from nltk.translate.meteor_score import meteor_score

    return float(meteor_score([nltk_tokens(ground_truth)], nltk_tokens(response),
                              alpha=alpha, beta=beta, gamma=gamma, wordnet=wordnet))


class MeteorScoreEvaluator(_PairMetric):
    """METEOR of the response against the ground truth (azure's ``MeteorScoreEvaluator``).

    Key ``meteor_score``; inputs ``response``, ``ground_truth``; score 0–1; default threshold 0.5.
    ``alpha`` (precision/recall weight, 0.9), ``beta`` (penalty shape, 3.0) and ``gamma``
    (penalty weight, 0.5) as azure's. WordNet 3.0's synonyms come with the package
    (:mod:`.wordnet`): ``pip install`` alone is enough, on any OS.
    """

    result_key = "meteor_score"
    metric_label = "METEOR"

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5, *, threshold: float = 0.5) -> None:
        super().__init__(threshold=threshold)
        self.alpha, self.beta, self.gamma = alpha, beta, gamma

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        return meteor(response, ground_truth, alpha=self.alpha, beta=self.beta, gamma=self.gamma,
                      wordnet=wordnet_reader()), {}
