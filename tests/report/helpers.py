"""A small run folder with a hostile row, for the report tests."""

from pathlib import Path
from typing import Any, Dict, List

from agent_evaluators import evaluate
from agent_evaluators.evaluators.base import Evaluator, Outcome

PAYLOAD = ("</pre></details><script>document.body.setAttribute('data-pwned','script')</script>"
           "<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">")


class Contains(Evaluator):
    """1.0 when the expected word is in the response; deterministic, for report tests."""

    result_key = "contains"
    default_threshold = 1.0

    def _evaluate(self, *, response: str, expected: str) -> Outcome:
        if expected == "":
            return Outcome(None, "nothing expected", not_applicable=True)
        hit = expected in response
        return Outcome(1.0 if hit else 0.0, f"{'found' if hit else 'missing'}: {expected}", details={"expected": expected})


class Likert(Evaluator):
    """Length of the response clipped to 1–5 (a stand-in for a judge scale)."""

    result_key = "likert"
    default_threshold = 3

    def _evaluate(self, *, response: str) -> Outcome:
        return Outcome(float(max(1, min(5, len(response) // 10))), "length-based")


def rows() -> List[Dict[str, Any]]:
    return [
        {"id": "r0", "response": "Paris is the capital of France.", "expected": "Paris"},
        {"id": "r1", "response": "I think it is Lyon " + PAYLOAD, "expected": "Paris"},
        {"id": "r2", "response": "Berlin, obviously, is where the parliament sits.", "expected": "Berlin"},
        {"id": "r3", "response": "no idea", "expected": ""},
        {"id": "r4", "response": "Madrid", "expected": "Rome"},
        {"id": "r5", "expected": "Oslo"},  # no response column: an error cell
    ]


def make_run(path: Path, data: List[Dict[str, Any]] = None) -> Path:
    evaluate(data=data if data is not None else rows(),
             evaluators={"contains": Contains(), "likert": Likert()}, output_path=path)
    return path
