"""Shared pieces of the reliability suite: a rule-based judge and rows it can score.

The judge reads the expected score from a ``[score=N]`` marker that the row puts into
its query, response and ground truth, so a cell only scores N when the row's own
content reached the judge (a mix-up between rows would show as a wrong score).
"""

import re
from typing import Any, Dict, List

from agent_evaluators import IntentResolutionEvaluator, ResponseCompletenessEvaluator, TaskAdherenceEvaluator
from agent_evaluators.testing import ChatRequest, schema_reply

MARKER = re.compile(r"\[score=(\d)\]")

#: alias -> (evaluator class, result key); three judge-backed evaluators with different verdict schemas
JUDGE_EVALUATORS = {
    "intent": (IntentResolutionEvaluator, "intent_resolution"),
    "adherence": (TaskAdherenceEvaluator, "task_adherence"),
    "completeness": (ResponseCompletenessEvaluator, "response_completeness"),
}


def expected_score(i: int) -> int:
    return i % 5 + 1


def rule_judge(req: ChatRequest) -> Dict[str, Any]:
    """A schema-conforming verdict whose score is the row's marker; no marker -> the responder raises (a 500
    the server counts as ``responder_error``, which the tests require to stay 0)."""
    m = MARKER.search(req.text)
    if m is None:
        raise AssertionError("the row's content did not reach the judge")
    return schema_reply(req, score=int(m.group(1)))


def judge_rows(n: int) -> List[Dict[str, Any]]:
    rows = []
    for i in range(n):
        s = expected_score(i)
        rows.append({
            "query": f"Please cancel meeting number {i} [score={s}]",
            "response": f"Meeting {i} is cancelled [score={s}].",
            "ground_truth": f"Meeting {i} cancelled [score={s}].",
        })
    return rows


def judge_evaluators(model_config: Any) -> Dict[str, Any]:
    return {alias: cls(model_config=model_config) for alias, (cls, _) in JUDGE_EVALUATORS.items()}
