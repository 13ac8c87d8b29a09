"""``DocumentRetrievalEvaluator``: azure-ai-evaluation 1.18's search-quality metrics for one query.

Inputs: ``retrieval_ground_truth`` (``[{"document_id", "query_relevance_label"}]``, integer
labels in ``[ground_truth_label_min, ground_truth_label_max]``) and ``retrieved_documents``
(``[{"document_id", "relevance_score"}]``, as the search engine ranked them). The retrieved
documents are ranked by their score; each gets its ground-truth label (0 when unlabelled):

* ``ndcg@3``: DCG of the top 3 labels (gain ``2^label - 1``, discount ``log2(rank + 1)``) over
  the DCG of the 3 best labels;
* ``xdcg@3``: ``25 × label`` discounted by ``0.6^(rank-1)``, over the top 3, normalized by the discounts;
* ``fidelity``: the gain-weighted count of labelled-relevant documents retrieved over that of all
  labelled documents (NaN when no document is labelled above the minimum);
* ``top1_relevance``, ``top3_max_relevance``; ``holes`` (retrieved documents with no label) and
  ``holes_ratio``; ``total_retrieved_documents``, ``total_ground_truth_documents``.

Each has a threshold (azure's defaults; holes pass at 0); the score is ``ndcg@3``. The
arithmetic follows azure's step for step (including its quirks: the label counts of
fidelity are ordered by the label's *text*, and retrieved documents with nothing labelled
score integer zeros), so the numbers are the same.
"""

import functools
import math
from collections import _count_elements, abc  # type: ignore[attr-defined]
from itertools import repeat
from operator import itemgetter, mul
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ...errors import ConfigError, InputError
from ..base import Evaluator, Outcome

K = 3
XDCG_DISCOUNT = 0.6
MAX_DOCUMENTS = 10000
NDCG, XDCG = f"ndcg@{K}", f"xdcg@{K}"


class RetrievalThresholds:
    """The per-metric thresholds (azure's defaults) and how each is compared."""

    def __init__(self, *, ndcg: Optional[float], xdcg: Optional[float], fidelity: Optional[float],
                 top1_relevance: Optional[float], top3_max_relevance: Optional[float],
                 total_retrieved_documents: Optional[int], total_ground_truth_documents: Optional[int]) -> None:
        self.higher: Dict[str, Any] = {
            f"ndcg@{K}": ndcg, f"xdcg@{K}": xdcg, "fidelity": fidelity, "top1_relevance": top1_relevance,
            "top3_max_relevance": top3_max_relevance, "total_retrieved_documents": total_retrieved_documents,
            "total_ground_truth_documents": total_ground_truth_documents,
        }
        self.lower: Dict[str, Any] = {"holes": 0, "holes_ratio": 0}
        # (metric, its four verdict keys, threshold, higher is better), in the order azure's metrics come in
        order = (f"ndcg@{K}", f"xdcg@{K}", "fidelity", "top1_relevance", "top3_max_relevance", "holes", "holes_ratio",
                 "total_retrieved_documents", "total_ground_truth_documents")
        self._rules = tuple(
            (name, f"{name}_result", f"{name}_passed",
             self.higher[name] if name in self.higher else self.lower[name], name in self.higher)
            for name in order)
        # every verdict key in azure's order, the threshold and direction already in place
        self._template: Dict[str, Any] = {}
        for name, result_key, passed_key, threshold, higher in self._rules:
            self._template.update({result_key: None, passed_key: None, f"{name}_threshold": threshold,
                                   f"{name}_higher_is_better": higher})

    def add_verdicts(self, metrics: Dict[str, Any]) -> Dict[str, Any]:
        """``metrics`` with ``<m>_result``, ``<m>_passed``, ``<m>_threshold``, ``<m>_higher_is_better``
        per metric added after them, as azure adds them."""
        metrics.update(self._template)
        for name, result_key, passed_key, threshold, higher in self._rules:
            value = metrics[name]
            passed = value >= threshold if higher else value <= threshold
            metrics[result_key] = "pass" if passed else "fail"
            metrics[passed_key] = passed
        return metrics


_DOCUMENT_ID, _LABEL, _SCORE = itemgetter("document_id"), itemgetter("query_relevance_label"), itemgetter("relevance_score")
# azure's per-rank factors, computed once with azure's own expressions (so the floats are the same)
_DCG_DISCOUNTS = tuple(math.log2(rank + 1) for rank in range(1, K + 1))
_XDCG_DISCOUNTS = tuple(math.pow(XDCG_DISCOUNT, rank - 1) for rank in range(1, K + 1))
_XDCG_NORM = float(sum(_XDCG_DISCOUNTS))


@functools.lru_cache(maxsize=4096)
def _dcg(labels: Tuple[int, ...]) -> float:
    """DCG of the top labels (at most ``K``): a pure function of a few small integers, so each
    distinct tuple is computed once, by azure's expression, and then looked up."""
    return sum([(math.pow(2, label) - 1) / discount for label, discount in zip(labels, _DCG_DISCOUNTS)])


@functools.lru_cache(maxsize=4096)
def _xdcg(labels: Tuple[int, ...]) -> float:
    """XDCG of the top labels (at most ``K``), looked up as :func:`_dcg` is."""
    return sum([25 * label * discount for label, discount in zip(labels, _XDCG_DISCOUNTS)]) / _XDCG_NORM


#: the largest label range whose fidelity sums are exact in floats whatever their order (weights up
#: to ``2^31``, at most ``MAX_DOCUMENTS`` of them: far below ``2^53``)
_EXACT_LABEL_MAX = 30


@functools.lru_cache(maxsize=64)
def _rating_weights(low: int, high: int) -> Tuple[Tuple[int, ...], Tuple[float, ...]]:
    """azure's fidelity weights: label counts ordered by the label's *text* ("10" before "2"), paired
    with the gains ``2^(i+1) - 1`` in numeric order, as azure zips them."""
    labels = tuple(sorted(range(low + 1, high + 1), key=str))
    weights = tuple(math.pow(2, i + 1) - 1 for i in range(low + 1, high + 1))
    return labels, weights


@functools.lru_cache(maxsize=64)
def _weight_by_label(low: int, high: int) -> Dict[int, float]:
    """label -> the fidelity weight azure's zip gives its count (:func:`_rating_weights`)."""
    return dict(zip(*_rating_weights(low, high)))


def _weighted_by_rating(labels: Sequence[int], low: int, high: int) -> float:
    """azure's weighted sum: each label's count times the weight paired with it, summed in azure's order.

    Every product and partial sum is a whole number, exact in a float while it stays below
    ``2^53``; up to :data:`_EXACT_LABEL_MAX` the sum is therefore the same in any order, and
    adding each document's weight is azure's float at a fraction of the cost."""
    if high <= _EXACT_LABEL_MAX:
        return sum(map(_weight_by_label(low, high).get, labels, repeat(0.0)), 0.0)
    counts: Dict[int, int] = {}
    _count_elements(counts, labels)
    rated, weights = _rating_weights(low, high)
    return sum(map(mul, map(counts.get, rated, repeat(0)), weights))


def retrieval_metrics(qrels: List[Mapping[str, Any]], results: List[Mapping[str, Any]],
                      low: int, high: int) -> Dict[str, Any]:
    """The metrics of one query (no verdicts), in azure's order and with azure's number types."""
    if not results:
        return {NDCG: 0.0, XDCG: 0.0, "fidelity": 0.0, "top1_relevance": 0.0, "top3_max_relevance": 0.0,
                "holes": 0, "holes_ratio": 0, "total_retrieved_documents": 0,
                "total_ground_truth_documents": len(qrels)}
    # the same dicts, orders and counts as azure's steps, built by C loops (zip, map, sorted, key views)
    labels_by_id = dict(zip(map(_DOCUMENT_ID, qrels), map(_LABEL, qrels)))
    scores_by_id = dict(zip(map(_DOCUMENT_ID, results), map(_SCORE, results)))
    ranked = sorted(scores_by_id, key=scores_by_id.__getitem__, reverse=True)  # stable, as azure's sort of items
    ranked_labels = list(map(labels_by_id.get, ranked, repeat(0)))
    holes = len(scores_by_id.keys() - labels_by_id.keys())
    holes_ratio = holes / float(len(results))
    if not any(ranked_labels):
        return {NDCG: 0, XDCG: 0, "fidelity": 0, "top1_relevance": 0, "top3_max_relevance": 0,
                "holes": holes, "holes_ratio": holes_ratio, "total_retrieved_documents": len(results),
                "total_ground_truth_documents": len(qrels)}
    ideal_labels = sorted(labels_by_id.values(), reverse=True)
    ideal_weight = _weighted_by_rating(ideal_labels, low, high)
    top = tuple(ranked_labels[:K])
    fidelity = math.nan if ideal_weight == 0 else _weighted_by_rating(ranked_labels, low, high) / float(ideal_weight)
    return {
        NDCG: _dcg(top) / float(_dcg(tuple(ideal_labels[:K]))),
        XDCG: _xdcg(top),
        "fidelity": fidelity,
        "top1_relevance": ranked_labels[0],
        "top3_max_relevance": max(top),
        "holes": holes,
        "holes_ratio": holes_ratio,
        "total_retrieved_documents": len(results),
        "total_ground_truth_documents": len(qrels),
    }


def _int_option(evaluator: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{evaluator}: {name} must be an integer, got {value!r}")
    return value


class DocumentRetrievalEvaluator(Evaluator):
    """Search quality of one query's retrieved documents against labelled ones (azure's ``DocumentRetrievalEvaluator``).

    Key ``document_retrieval`` (= ``ndcg@3``, pass at ``ndcg_threshold``, 0.5); every metric
    (``ndcg@3``, ``xdcg@3``, ``fidelity``, ``top1_relevance``, ``top3_max_relevance``, ``holes``,
    ``holes_ratio``, ``total_retrieved_documents``, ``total_ground_truth_documents``) with its own
    ``_result`` / ``_threshold`` in details. Inputs ``retrieval_ground_truth``, ``retrieved_documents``.
    """

    result_key = "document_retrieval"
    score_scale = (0.0, 1.0)
    default_threshold = 0.5

    def __init__(
        self,
        *,
        ground_truth_label_min: int = 0,
        ground_truth_label_max: int = 4,
        ndcg_threshold: Optional[float] = 0.5,
        xdcg_threshold: Optional[float] = 50.0,
        fidelity_threshold: Optional[float] = 0.5,
        top1_relevance_threshold: Optional[float] = 50.0,
        top3_max_relevance_threshold: Optional[float] = 50.0,
        total_retrieved_documents_threshold: Optional[int] = 50,
        total_ground_truth_documents_threshold: Optional[int] = 50,
    ) -> None:
        super().__init__(threshold=ndcg_threshold if ndcg_threshold is not None else 0.5)
        low = _int_option(self.name, "ground_truth_label_min", ground_truth_label_min)
        high = _int_option(self.name, "ground_truth_label_max", ground_truth_label_max)
        if low >= high:
            raise ConfigError(f"{self.name}: ground_truth_label_max ({high}) must be greater than "
                              f"ground_truth_label_min ({low})")
        self.ground_truth_label_min, self.ground_truth_label_max = low, high
        self.ndcg_threshold = ndcg_threshold
        self.xdcg_threshold = xdcg_threshold
        self.fidelity_threshold = fidelity_threshold
        self.top1_relevance_threshold = top1_relevance_threshold
        self.top3_max_relevance_threshold = top3_max_relevance_threshold
        self.total_retrieved_documents_threshold = total_retrieved_documents_threshold
        self.total_ground_truth_documents_threshold = total_ground_truth_documents_threshold
        self.thresholds = RetrievalThresholds(
            ndcg=ndcg_threshold, xdcg=xdcg_threshold, fidelity=fidelity_threshold,
            top1_relevance=top1_relevance_threshold, top3_max_relevance=top3_max_relevance_threshold,
            total_retrieved_documents=total_retrieved_documents_threshold,
            total_ground_truth_documents=total_ground_truth_documents_threshold)

    def metrics_with_verdicts(self, retrieval_ground_truth: Any, retrieved_documents: Any) -> Dict[str, Any]:
        """azure's ``document_retrieval_properties``: every metric, then its verdict keys."""
        qrels, results = self._checked(retrieval_ground_truth, retrieved_documents)
        metrics = retrieval_metrics(qrels, results, self.ground_truth_label_min, self.ground_truth_label_max)
        return self.thresholds.add_verdicts(metrics)

    def _evaluate(self, *, retrieval_ground_truth: List[Dict[str, Any]],
                  retrieved_documents: List[Dict[str, Any]]) -> Outcome:
        metrics = self.metrics_with_verdicts(retrieval_ground_truth, retrieved_documents)
        ndcg = float(metrics[f"ndcg@{K}"])
        if not self.writes_reason:
            return Outcome(ndcg, "", metrics)
        reason = (f"NDCG@3 {ndcg:.3f} over {metrics['total_retrieved_documents']} retrieved and "
                  f"{metrics['total_ground_truth_documents']} labelled document(s); {metrics['holes']} unlabelled")
        return Outcome(ndcg, reason, metrics)

    def _checked(self, qrels_in: Any, results_in: Any) -> Tuple[List[Mapping[str, Any]], List[Mapping[str, Any]]]:
        """azure's input checks, as ``InputError`` naming the input and what to fix."""
        if not qrels_in or not isinstance(qrels_in, list):
            raise self._bad("retrieval_ground_truth", "must be a non-empty list of {document_id, query_relevance_label}")
        qrels = []
        low, high = self.ground_truth_label_min, self.ground_truth_label_max
        for item in qrels_in:
            if not isinstance(item, (dict, abc.Mapping)) or item.get("document_id") is None \
                    or item.get("query_relevance_label") is None:
                raise self._bad("retrieval_ground_truth", "every item needs 'document_id' and 'query_relevance_label'")
            label = item["query_relevance_label"]
            if not isinstance(label, int):
                raise self._bad("retrieval_ground_truth", f"query_relevance_label must be an integer, got {label!r}")
            if not low <= label <= high:
                raise self._bad("retrieval_ground_truth",
                                f"label {label} is outside [{low}, {high}]; set ground_truth_label_min/max to your "
                                "labels' range")
            qrels.append(item)
        results = []
        if isinstance(results_in, list):
            for item in results_in:
                if not isinstance(item, (dict, abc.Mapping)) or item.get("document_id") is None \
                        or item.get("relevance_score") is None:
                    raise self._bad("retrieved_documents", "every item needs 'document_id' and 'relevance_score'")
                if not isinstance(item["relevance_score"], (int, float)):
                    raise self._bad("retrieved_documents",
                                    f"relevance_score must be a number, got {item['relevance_score']!r}")
                results.append(item)
        if len(qrels) > MAX_DOCUMENTS or len(results) > MAX_DOCUMENTS:
            raise self._bad("retrieved_documents" if len(results) > MAX_DOCUMENTS else "retrieval_ground_truth",
                            f"holds more than {MAX_DOCUMENTS} items (azure's limit)")
        return qrels, results

    def _bad(self, name: str, what: str) -> InputError:
        return InputError(f"{self.name}: input {name!r} {what}", evaluator=self.name, input_name=name)
