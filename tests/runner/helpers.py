"""Small deterministic evaluators shared by the evaluate() tests."""

import json
from pathlib import Path
from typing import Any, Iterable

from agent_evaluators.evaluators.base import Evaluator, Outcome


class ExactMatch(Evaluator):
    """Deterministic: 1.0 when response == ground_truth."""

    result_key = "exact"
    default_threshold = 1.0

    def _evaluate(self, *, response: str, ground_truth: str) -> Outcome:
        if response == "n/a":
            return Outcome(None, "nothing to compare", not_applicable=True)
        return Outcome(1.0 if response == ground_truth else 0.0, "compared")


class Length(Evaluator):
    """Deterministic, per turn: length of the response; takes conversation= too."""

    result_key = "length"
    default_threshold = 3
    conversation_turn_inputs = ("query", "response")

    def _evaluate(self, *, query: str, response: str) -> Outcome:
        return Outcome(float(len(str(response))), f"{len(str(query))} chars asked")


class AsyncLength(Evaluator):
    """Async twin (how judge evaluators look to the runner)."""

    result_key = "alen"
    default_threshold = 2

    async def _evaluate(self, *, response: str) -> Outcome:
        return Outcome(float(len(response)), "async")


def write_jsonl(path: Path, rows: Iterable[Any]) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")
    return path


def read_lines(path: Path) -> list:
    return [json.loads(l) for l in Path(path).read_text().splitlines() if l.strip()]
