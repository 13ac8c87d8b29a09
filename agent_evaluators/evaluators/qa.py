"""``QAEvaluator``: azure-ai-evaluation's question-answering composite, on any judge.

One call scores a question-answer pair with groundedness, relevance, coherence, fluency and
similarity (judges, 1–5) and token F1 against the ground truth (deterministic, 0–1): the
members of azure's ``QAEvaluator``, on :class:`~.composite.CompositeEvaluator` (members run
concurrently, each under its own keys, plus the summary key ``qa``).
"""

from .composite import CompositeEvaluator
from .declared import CalibrationCases
from .groundedness import GroundednessEvaluator
from .nlp.f1 import F1ScoreEvaluator
from .quality import CoherenceEvaluator, FluencyEvaluator, RelevanceEvaluator, SimilarityEvaluator


class QAEvaluator(CompositeEvaluator):
    """Question answering in one call: groundedness, relevance, coherence, fluency, similarity
    (1–5, pass at 3) and F1 (0–1, pass at 0.5).

    Key ``qa`` (the share of scored members that pass; pass = all pass, threshold 1.0) plus every
    member's own keys; inputs ``query``, ``response``, ``context``, ``ground_truth``, each member
    taking what it reads (a member whose input is missing is ``not_applicable``). ``thresholds=``
    moves a member's pass mark, e.g. ``{"f1_score": 0.3}``.
    """

    result_key = "qa"
    member_classes = (GroundednessEvaluator, RelevanceEvaluator, CoherenceEvaluator, FluencyEvaluator,
                      SimilarityEvaluator, F1ScoreEvaluator)
    calibration_cases = CalibrationCases(
        good={"query": "query", "response": "answer", "context": "result", "ground_truth": "ground_truth"},
        bad={"query": "query", "response": "wrong_answer", "context": "result", "ground_truth": "ground_truth"},
        why_bad="the answer contradicts its context and the ground truth")
