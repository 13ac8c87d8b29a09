"""Shared pieces of the reliability suite: a rule-based judge and rows it can score.

The judge reads the expected score from a ``[score=N]`` marker that the row puts into
its query, response and ground truth, so a cell only scores N when the row's own
content reached the judge (a mix-up between rows would show as a wrong score).
"""

import re
import time
from typing import Any, Dict, List, Optional, Tuple

from agent_evaluators import IntentResolutionEvaluator, ResponseCompletenessEvaluator, TaskAdherenceEvaluator
from agent_evaluators.testing import ChatRequest, schema_reply

MARKER = re.compile(r"\[score=(\d)\]")
ROW_TAG = re.compile(r"\[row=(\d+)\]")
#: the verdict model's name (sent as the json_schema name) -> alias in JUDGE_EVALUATORS
VERDICT_ALIAS = {"IntentVerdict": "intent", "AdherenceVerdict": "adherence", "CompletenessVerdict": "completeness"}

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
            "query": f"Please cancel meeting number {i} [row={i}] [score={s}]",
            "response": f"Meeting {i} is cancelled [row={i}] [score={s}].",
            "ground_truth": f"Meeting {i} cancelled [row={i}] [score={s}].",
        })
    return rows


def judge_evaluators(model_config: Any) -> Dict[str, Any]:
    return {alias: cls(model_config=model_config) for alias, (cls, _) in JUDGE_EVALUATORS.items()}


def judged_cell(req: ChatRequest) -> Optional[Tuple[int, str]]:
    """Which (row, alias) a judge request was for, from the row tag and the verdict schema's name."""
    m = ROW_TAG.search(req.text)
    rf = req.response_format or {}
    name = (rf.get("json_schema") or {}).get("name") if isinstance(rf, dict) else None
    if m is None or name not in VERDICT_ALIAS:
        return None
    return int(m.group(1)), VERDICT_ALIAS[name]


def settled_stats(server: Any, limit_s: float = 3.0) -> Dict[str, Any]:
    """Server counters once every request a client abandoned (timed out, or its process was killed)
    has arrived and finished: such a request can still sit in a socket buffer when the run returns,
    and the server counts it only when it reads it."""
    deadline = time.monotonic() + limit_s
    last = server.stats()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = server.stats()
        if now["in_flight"] == 0 and now["requests"] == last["requests"]:
            return now
        last = now
    return last


class AttemptFailures:
    """Counts the judge client's failed attempts by kind, from its DEBUG log records
    ("judge attempt K/N failed: ..."), for the request accounting of the fault tests."""

    def __init__(self) -> None:
        import logging

        self.timeouts = 0
        self.total = 0
        self._logger = logging.getLogger("agent_evaluators.judge.client")
        outer = self

        class _Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                message = record.getMessage()
                if message.startswith("judge attempt "):
                    outer.total += 1
                    if "timeout" in message:
                        outer.timeouts += 1

        self._handler = _Handler(level=logging.DEBUG)

    def __enter__(self) -> "AttemptFailures":
        import logging

        self._old_level = self._logger.level
        self._logger.setLevel(logging.DEBUG)
        self._logger.addHandler(self._handler)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._logger.removeHandler(self._handler)
        self._logger.setLevel(self._old_level)
