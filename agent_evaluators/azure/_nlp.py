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
from ._calls import AzureCall
from ._shape import azure_result


class _PairShape(AzureCall):
    """Writes a text-pair metric's outcome as 1.18 writes it: pass at ``score >= threshold``, no reason or properties."""

    result_key: ClassVar[str]
    threshold: Any
    writes_reason: ClassVar[bool] = False

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


class RougeScoreEvaluator(AzureCall, rouge.RougeScoreEvaluator):
    """azure 1.18's ``RougeScoreEvaluator(rouge_type)``: key ``rouge`` (the F1), precision and recall in properties."""

    id: ClassVar[str] = "azureai://built-in/evaluators/rouge_score"
    writes_reason: ClassVar[bool] = False

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
        precision, recall, f1_score = float(details["precision"]), float(details["recall"]), float(details["f1_score"])
        p_ok = not math.isnan(precision) and precision >= self.precision_threshold
        r_ok = not math.isnan(recall) and recall >= self.recall_threshold
        f_ok = not math.isnan(f1_score) and f1_score >= self.f1_score_threshold
        properties = {
            "rouge_precision": precision, "rouge_recall": recall, "rouge_f1_score": f1_score,
            "rouge_precision_result": "pass" if p_ok else "fail", "rouge_recall_result": "pass" if r_ok else "fail",
            "rouge_f1_score_result": "pass" if f_ok else "fail",
            "rouge_precision_passed": p_ok, "rouge_recall_passed": r_ok, "rouge_f1_score_passed": f_ok,
            "rouge_precision_threshold": self.precision_threshold, "rouge_recall_threshold": self.recall_threshold,
            "rouge_f1_score_threshold": self.f1_score_threshold,
        }
        return azure_result("rouge", score=f1_score, passed=f_ok, reason=None, threshold=self.f1_score_threshold,
                            properties=properties)


class DocumentRetrievalEvaluator(AzureCall, document_retrieval.DocumentRetrievalEvaluator):
    """azure 1.18's ``DocumentRetrievalEvaluator``: key ``document_retrieval`` (= ``ndcg@3``), every metric in properties."""

    id: ClassVar[str] = "azureai://built-in/evaluators/document_retrieval"
    writes_reason: ClassVar[bool] = False

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        score: Optional[float] = outcome.score
        return azure_result("document_retrieval", score=score, passed=score is not None and score >= self.threshold,
                            reason=None, threshold=self.threshold, properties=outcome.details)
