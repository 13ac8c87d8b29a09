"""azure-ai-evaluation 1.18's ``QAEvaluator``: its six members in one call, 1.18's row.

The members are this layer's Groundedness, Relevance, Coherence, Fluency and Similarity
(:mod:`._quality`) and F1 (:mod:`._nlp`), run concurrently by our composite; the row is their
1.18 rows merged, with no summary key (1.18 writes none). The constructor takes 1.18's
per-member thresholds; all four inputs are required, as in 1.18.
"""

from typing import Any, Dict, Mapping, Optional

from ..errors import ConfigError, InputError
from ..evaluators.composite import CompositeEvaluator
from ._calls import AzureCall
from ._nlp import F1ScoreEvaluator
from ._quality import CoherenceEvaluator, FluencyEvaluator, GroundednessEvaluator, RelevanceEvaluator, SimilarityEvaluator

_INPUTS = ("query", "response", "context", "ground_truth")


class QAEvaluator(AzureCall, CompositeEvaluator):
    """1.18's ``QAEvaluator``: ``groundedness``, ``relevance``, ``coherence``, ``fluency``,
    ``similarity`` (1–5, threshold 3 each) and ``f1_score`` (threshold 0.5), each in 1.18's
    row keys; inputs ``query``, ``response``, ``context``, ``ground_truth``."""

    result_key = "qa"
    takes_any_keyword = True  # 1.18's QAEvaluator takes **kwargs
    member_classes = (GroundednessEvaluator, RelevanceEvaluator, CoherenceEvaluator, FluencyEvaluator,
                      SimilarityEvaluator, F1ScoreEvaluator)

    def __init__(self, model_config: Any = None, *, groundedness_threshold: float = 3,
                 relevance_threshold: float = 3, coherence_threshold: float = 3, fluency_threshold: float = 3,
                 similarity_threshold: float = 3, f1_score_threshold: float = 0.5, is_reasoning_model: bool = False,
                 credential: Any = None, cache: Optional[str] = None) -> None:
        thresholds = {"groundedness": groundedness_threshold, "relevance": relevance_threshold,
                      "coherence": coherence_threshold, "fluency": fluency_threshold,
                      "similarity": similarity_threshold, "f1_score": f1_score_threshold}
        for key, value in thresholds.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"QAEvaluator: {key}_threshold must be a number, got {value!r}")
        super().__init__(model_config, thresholds=thresholds, is_reasoning_model=is_reasoning_model,
                         credential=credential, cache=cache)

    async def _combine(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        missing = next((name for name in _INPUTS if given.get(name) is None), None)
        if missing is not None:
            raise InputError(f"{self.name}: missing required input {missing!r}; 1.18's QAEvaluator takes "
                             f"{', '.join(_INPUTS)}", evaluator=self.name, input_name=missing)
        row = await super()._combine(given)
        summary = {self.result_key, *(f"{self.result_key}_{s}" for s in ("result", "threshold", "reason", "details",
                                                                        "usage"))}
        return {k: v for k, v in row.items() if k not in summary}
