"""azure-ai-evaluation 1.18's NLP evaluators, in its result shape.

Each class is the top-level metric of :mod:`agent_evaluators.evaluators.nlp` (the same
tokenizers and arithmetic: one implementation) with azure's result key and row
(:func:`._shape.azure_result`): ``f1_score``, ``bleu``, ``gleu``, ``meteor``, ``rouge`` and
``document_retrieval``, each with ``_score``, ``_passed``, ``_result``, ``_reason`` (``None``),
``_status``, ``_threshold`` and ``_properties`` (ROUGE: precision, recall and F1 with their
verdicts; DocumentRetrieval: every metric with its verdict). Constructors take azure's
arguments; ROUGE's three thresholds must be floats, as azure requires.
"""

import math
from typing import Any, ClassVar, Dict, Optional, Union

from ..errors import ConfigError
from ..evaluators.base import Outcome
from ..evaluators.nlp import document_retrieval, f1, meteor, ngram, rouge
from ..evaluators.nlp.rouge import RougeType
from ._shape import azure_result

__all__ = [
    "F1ScoreEvaluator",
    "BleuScoreEvaluator",
    "GleuScoreEvaluator",
    "MeteorScoreEvaluator",
    "RougeScoreEvaluator",
    "RougeType",
    "DocumentRetrievalEvaluator",
]


class _PairShape:
    """Writes a text-pair metric's outcome as 1.18 writes it: pass at ``score >= threshold``, no reason or properties."""

    result_key: ClassVar[str]
    threshold: Any

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        score = outcome.score
        return azure_result(self.result_key, score=score, passed=score is not None and score >= self.threshold,
                            reason=None, threshold=self.threshold, properties=None)


class F1ScoreEvaluator(_PairShape, f1.F1ScoreEvaluator):
    """azure 1.18's ``F1ScoreEvaluator``: token F1, key ``f1_score``, threshold 0.5."""

    id: ClassVar[str] = "azureai://built-in/evaluators/f1_score"


class BleuScoreEvaluator(_PairShape, ngram.BleuScoreEvaluator):
    """azure 1.18's ``BleuScoreEvaluator``: sentence BLEU (smoothing method 4), key ``bleu``, threshold 0.5."""

    id: ClassVar[str] = "azureai://built-in/evaluators/bleu_score"
    result_key = "bleu"


class GleuScoreEvaluator(_PairShape, ngram.GleuScoreEvaluator):
    """azure 1.18's ``GleuScoreEvaluator``: sentence GLEU, key ``gleu``, threshold 0.5."""

    id: ClassVar[str] = "azureai://built-in/evaluators/gleu_score"
    result_key = "gleu"


class MeteorScoreEvaluator(_PairShape, meteor.MeteorScoreEvaluator):
    """azure 1.18's ``MeteorScoreEvaluator(alpha=0.9, beta=3.0, gamma=0.5)``: key ``meteor``, threshold 0.5."""

    id: ClassVar[str] = "azureai://built-in/evaluators/meteor_score"
    result_key = "meteor"


class RougeScoreEvaluator(rouge.RougeScoreEvaluator):
    """azure 1.18's ``RougeScoreEvaluator(rouge_type)``: key ``rouge`` (the F1), precision and recall in properties."""

    id: ClassVar[str] = "azureai://built-in/evaluators/rouge_score"

    def __init__(
        self,
        rouge_type: Union[RougeType, str],
        *,
        precision_threshold: float = 0.5,
        recall_threshold: float = 0.5,
        f1_score_threshold: float = 0.5,
    ) -> None:
        for name, value in (("precision_threshold", precision_threshold), ("recall_threshold", recall_threshold),
                            ("f1_score_threshold", f1_score_threshold)):
            if not isinstance(value, float):
                raise ConfigError(f"RougeScoreEvaluator: {name} must be a float, got {type(value)} "
                                  "(azure-ai-evaluation requires floats: write 1.0, not 1)")
        super().__init__(rouge_type, precision_threshold=precision_threshold, recall_threshold=recall_threshold,
                         f1_score_threshold=f1_score_threshold)

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        details = outcome.details
        values = {part: float(details[part]) for part in ("precision", "recall", "f1_score")}
        thresholds = {"precision": self.precision_threshold, "recall": self.recall_threshold,
                      "f1_score": self.f1_score_threshold}
        passed = {part: not math.isnan(v) and v >= thresholds[part] for part, v in values.items()}
        properties: Dict[str, Any] = {f"rouge_{part}": v for part, v in values.items()}
        properties.update({f"rouge_{part}_result": "pass" if ok else "fail" for part, ok in passed.items()})
        properties.update({f"rouge_{part}_passed": ok for part, ok in passed.items()})
        properties.update({f"rouge_{part}_threshold": t for part, t in thresholds.items()})
        return azure_result("rouge", score=values["f1_score"], passed=passed["f1_score"], reason=None,
                            threshold=self.f1_score_threshold, properties=properties)


class DocumentRetrievalEvaluator(document_retrieval.DocumentRetrievalEvaluator):
    """azure 1.18's ``DocumentRetrievalEvaluator``: key ``document_retrieval`` (= ``ndcg@3``), every metric in properties."""

    id: ClassVar[str] = "azureai://built-in/evaluators/document_retrieval"

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        score: Optional[float] = outcome.score
        return azure_result("document_retrieval", score=score, passed=score is not None and score >= self.threshold,
                            reason=None, threshold=self.threshold, properties=outcome.details)
