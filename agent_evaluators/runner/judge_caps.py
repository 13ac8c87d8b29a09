"""The run engine's side of a judge budget (``max_cost`` / ``max_judge_calls``).

The budget itself, and the rule that admits or refuses each judge call, is
:mod:`agent_evaluators.judge.caps` (on the Ray engine, one for the cluster:
:mod:`agent_evaluators.ray_engine.cluster_caps`). Here: which runs may have one, where a resumed run's
spending starts (what its folder's earlier runs spent), and what ``summary.json`` and the
log say when it stopped a run.
"""

from typing import Any, Dict, Mapping, Optional, Tuple

from ..errors import ConfigError
from ..judge.caps import BudgetBook, JudgeBudget
from ..judge.prices import format_usd
from ..wording import Option, Text
from .options import RunOptions
from .row_evaluator import RowEvaluator

#: the run options that cap judge work
CAP_OPTIONS = ("max_judge_calls", "max_cost")
#: ``summary.json``'s status of a run its budget stopped
STOPPED = "stopped"


def run_budget(options: RunOptions, rows: RowEvaluator) -> Optional[JudgeBudget]:
    """The run's budget (``None`` without a cap); a resume then carries the earlier runs' spending in
    (:meth:`~agent_evaluators.judge.caps.JudgeBudget.carry`).

    An evaluator that calls its judge through its own client (another library's class, :mod:`.foreign`)
    would not be counted: a cap with one is a ``ConfigError`` naming it and what to use instead."""
    settings = options.settings
    if settings.max_judge_calls is None and settings.max_cost is None:
        return None
    for alias, inv in rows.invokers.items():
        if inv.library is not None and inv.calls_own_judge:
            raise ConfigError(Text(inv.library.budget_refusal, alias=alias, class_name=inv.class_name,
                                   max_cost=Option("max_cost"), max_judge_calls=Option("max_judge_calls")))
    return JudgeBudget(settings.max_judge_calls, settings.max_cost)


def earlier_spend(summary: Mapping[str, Any]) -> Tuple[int, float]:
    """What an earlier run of the folder spent on judge calls: its budget record, else its usage totals
    (a run made without a cap; an unknown cost counts as nothing known, 0)."""
    record = summary.get("budget")
    if isinstance(record, Mapping):
        return int(record.get("judge_calls") or 0), float(record.get("cost_usd") or 0.0)
    usage = summary.get("usage") or {}
    calls = sum(int(u.get("judge_calls") or 0) for u in usage.values() if isinstance(u, Mapping))
    return calls, float(summary.get("cost_usd") or 0.0)


def budget_record(budget: BudgetBook, not_run: int) -> Dict[str, Any]:
    """``summary.json``'s ``"budget"``: caps, what the folder's runs spent, and the cells left unrun."""
    chain = getattr(budget.journal, "chain", None)  # the run's chain in spend.jsonl, which a resume continues
    return {**budget.record(), "not_run_cells": not_run, **({"journal": chain} if chain else {})}


def stop_message(record: Mapping[str, Any], reason: Optional[Text] = None) -> Text:
    """What a run its budget stopped says: why (``reason``, with its references, else the record's), what was
    spent, what was left, how to go on."""
    return Text("stopped by the judge budget ({reason}): {calls} judge call(s), {spent} spent in this run folder; "
                "{not_run} cell(s) not run (not_run: budget). The results so far are saved; to finish, resume the run "
                "with a higher {cost} / {calls_cap} (agent-eval run ... --resume --max-cost USD)",
                reason=reason if reason is not None else str(record.get("reason")), calls=record.get("judge_calls"),
                spent=format_usd(record.get("cost_usd")), not_run=record.get("not_run_cells"),
                cost=Option("max_cost"), calls_cap=Option("max_judge_calls"))
