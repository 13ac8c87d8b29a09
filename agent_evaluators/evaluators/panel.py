"""A judge panel: one evaluator asking several judges, and one verdict from theirs.

``IntentResolutionEvaluator(model_config=[judge_a, judge_b, judge_c])`` asks every judge
the same question and combines their verdicts, because one judge's score is partly that
judge's taste: where judges disagree, the number deserves less trust, and the run says so
(the per-row ``disagreement`` flag here, the panel's agreement in ``summary.json``,
``INCONCLUSIVE`` thresholds below ``min_agreement``).

Each judge runs the evaluator's whole judging path (per-turn conversations, sampled votes,
per-call verdicts) through its own :class:`~agent_evaluators.judge.JudgeClient`, so retries,
the cache, the response-format memory and the run's shared concurrency gate work per judge
exactly as for a single one. Which judge a request goes to is the run context's ``panel_index``,
set per judge task: no evaluator code knows about panels.

Combining (``<key>_details["panel"]`` records which):

* ``"mean"`` (scores): the mean of the judges' scores; pass/fail from the threshold as usual.
* ``"majority"`` (label metrics, and metrics that declare ``panel_vote = "majority"``): the
  score most judges gave; a tie goes to the lowest tied score, so a split panel never
  passes a row one of its halves failed.
* Where the metric decides pass/fail itself (ADK statuses), the pass/fail verdict is the
  judges' majority and a tie is a fail.

A judge that fails makes the row an error (``JudgeError`` naming the judge), as a failed
sample does for a sampled metric: a panel with a missing voice is not the panel configured.
"""

import asyncio
import math
from collections import Counter
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import ConfigError, JudgeError
from ..judge.usage import merge_usage
from ..run_context import current, set_for_task
from .base import Outcome

#: the key of a judge config that names the judge (ours; never sent to the client)
NAME_KEY = "name"


def current_judge() -> int:
    """The index of the panel judge the running task asks (0 for a single judge)."""
    return current().panel_index


def panel_configs(owner: str, model_config: Any) -> Optional[List[Any]]:
    """The judge configs of a panel (``model_config=[...]``), or ``None`` for a single judge.

    A one-item list is a single judge. Raises ``ConfigError`` for an empty list or a
    repeated judge name."""
    if not isinstance(model_config, (list, tuple)):
        return None
    if not model_config:
        raise ConfigError(f"{owner}: model_config is an empty list; give one judge config, or several for a panel")
    return list(model_config)


def judge_labels(configs: Sequence[Any]) -> List[str]:
    """A readable, unique name per judge: its ``name`` key, else its model (``#2`` added to repeats)."""
    labels: List[str] = []
    for i, cfg in enumerate(configs):
        name = None
        if isinstance(cfg, Mapping):
            name = cfg.get(NAME_KEY) or cfg.get("model") or cfg.get("azure_deployment")
        label = str(name) if name else f"judge{i + 1}"
        if label in labels:
            label = f"{label}#{i + 1}"
        labels.append(label)
    return labels


def without_name(cfg: Any) -> Any:
    """A judge config as the client reads it (the panel's ``name`` key taken out)."""
    if isinstance(cfg, Mapping) and NAME_KEY in cfg:
        return {k: v for k, v in cfg.items() if k != NAME_KEY}
    return cfg


class JudgePanel:
    """Several judges behind one evaluator: runs the evaluator's judging once per judge and combines."""

    def __init__(self, configs: Sequence[Any]) -> None:
        self.configs = [without_name(c) for c in configs]
        self.labels = judge_labels(configs)

    def __len__(self) -> int:
        return len(self.configs)

    async def outcome(self, evaluator: Any, bound: Dict[str, Any]) -> Outcome:
        """Every judge's outcome for the bound inputs, combined (any judge's failure fails the row)."""
        replies = await asyncio.gather(*(self._one(evaluator, bound, i) for i in range(len(self))),
                                       return_exceptions=True)
        outcomes: List[Outcome] = []
        for label, reply in zip(self.labels, replies):
            if isinstance(reply, BaseException):
                raise self._failed(evaluator, label, reply, replies)
            outcomes.append(reply)
        return combine(evaluator, self.labels, outcomes)

    @staticmethod
    async def _one(evaluator: Any, bound: Dict[str, Any], index: int) -> Outcome:
        set_for_task(panel_index=index)  # this task's context only: gather() gave each judge its own
        if evaluator._per_turn(bound):
            return await evaluator._per_turn_async(bound)  # type: ignore[no-any-return]
        if evaluator._evaluate_is_async:
            return await evaluator._evaluate(**bound)  # type: ignore[no-any-return]
        return evaluator._evaluate(**bound)  # type: ignore[no-any-return]

    def _failed(self, evaluator: Any, label: str, exc: BaseException, replies: Sequence[Any]) -> BaseException:
        if not isinstance(exc, JudgeError):
            return exc  # an input error (the same for every judge), a bug or a cancellation
        usage = merge_usage([r.usage for r in replies if isinstance(r, Outcome)] + [exc.usage])
        return JudgeError(
            f"judge {label!r} of the panel failed, so the row is not scored (a panel with a missing judge is "
            f"not the panel configured; rerun the errors with --rerun-failed): {exc}",
            raw_text=exc.raw_text, status_code=exc.status_code, attempts=exc.attempts, usage=usage,
        )


def vote_of(evaluator: Any) -> str:
    """``"majority"`` for label metrics and those that declare ``panel_vote = "majority"``, else ``"mean"``."""
    declared = getattr(evaluator, "panel_vote", None)
    if declared in ("mean", "majority"):
        return str(declared)
    return "majority" if getattr(evaluator, "labels", None) else "mean"


def _result(evaluator: Any, o: Outcome) -> str:
    if o.not_applicable or o.score is None:
        return "not_applicable"
    passed = o.passed if o.passed is not None else o.score >= evaluator.threshold
    return "pass" if passed else "fail"


def combine(evaluator: Any, labels: Sequence[str], outcomes: Sequence[Outcome]) -> Outcome:
    """One outcome from the judges' (see the module docstring for the rules)."""
    vote = vote_of(evaluator)
    judges = [{"judge": label, "score": o.score, "result": _result(evaluator, o), "reason": o.reason,
               "details": o.details, "usage": o.usage} for label, o in zip(labels, outcomes)]
    scored = [o for o in outcomes if not o.not_applicable and o.score is not None]
    results = {j["result"] for j in judges if j["result"] != "not_applicable"}
    panel: Dict[str, Any] = {
        "vote": vote,
        "level": "nominal" if vote == "majority" else "interval",
        "judges": judges,
        "disagreement": len(results) > 1 or (vote == "majority" and len({o.score for o in scored}) > 1),
        "spread": (max(o.score for o in scored) - min(o.score for o in scored)) if scored else None,  # type: ignore[type-var,operator]
    }
    usage = merge_usage([o.usage for o in outcomes])
    if not scored:
        return Outcome(None, outcomes[0].reason, {"panel": panel}, usage, not_applicable=True)
    score, how = _vote([float(o.score) for o in scored], vote)  # type: ignore[arg-type]
    passed = _passed_by_majority(scored)
    by_judge = ", ".join(f"{j['judge']} {_num(j['score'])}" for j in judges)
    reason = f"Panel of {len(outcomes)} judges, {how} {_num(score)} ({by_judge})"
    if panel["disagreement"]:
        reason += "; the judges disagree"
    reasons = "; ".join(f"{j['judge']}: {j['reason']}" for j in judges if j["reason"])
    return Outcome(score, f"{reason}. {reasons}" if reasons else reason, {"panel": panel}, usage, passed=passed)


def _vote(scores: List[float], vote: str) -> Tuple[float, str]:
    if vote == "mean":
        return math.fsum(scores) / len(scores), "mean"
    counts = Counter(scores)
    top = max(counts.values())
    return min(s for s, c in counts.items() if c == top), "majority"


def _passed_by_majority(scored: Sequence[Outcome]) -> Optional[bool]:
    """The judges' majority pass/fail where the metric decides it itself (a tie fails); else ``None``."""
    if any(o.passed is None for o in scored):
        return None
    yes = sum(1 for o in scored if o.passed)
    return yes * 2 > len(scored)


def _num(value: Any) -> str:
    return "n/a" if value is None else f"{value:g}"
