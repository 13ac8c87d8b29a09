"""Issue 20 "A verdict you can trust", item 18 (part): a mean must not depend on the order rows finish in.

Before the fix each metric was a running ``+=`` in completion order, so the same rows in
another order (a resume, a Ray run, a slower judge) gave other last digits:
``(0.1 + 0.2) + 0.3`` is ``0.6000000000000001``, ``(0.3 + 0.2) + 0.1`` is ``0.6``.
"""

import itertools
import math

from agent_evaluators import evaluate


def _score(value: float) -> dict:
    return {"score": value}


VALUES = [0.1, 0.2, 0.3, 1e16, 1.0, -1e16, 0.7]


def test_the_mean_is_the_same_for_every_order_of_the_rows():
    means = set()
    for order in itertools.islice(itertools.permutations(VALUES), 0, None, 97):
        result = evaluate(data=[{"value": v} for v in order], evaluators={"s": _score})
        means.add(result.metrics["s.score"])
    assert means == {math.fsum(VALUES) / len(VALUES)}


def test_the_per_run_spread_is_the_same_for_every_order(tmp_path):
    spreads = set()
    for order in (VALUES, list(reversed(VALUES))):
        result = evaluate(data=[{"value": v} for v in order], evaluators={"s": _score}, num_runs=2)
        spreads.add((result.metrics["s.score"], result.metrics.get("s.score_std")))
    assert len(spreads) == 1
