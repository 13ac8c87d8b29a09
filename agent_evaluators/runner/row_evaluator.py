"""Evaluating one row: the target, then every evaluator's cell, assembled into one record.

:class:`RowEvaluator` is what every engine runs each row through (the local engine
in-process, the Ray engine inside each worker), so a row gets exactly the same column
mapping, target call, error cells, ``num_runs`` and timeouts wherever it runs. It is
built from a :class:`~.options.RowSpec` by :meth:`RowEvaluator.prepare`.

A record is the flat dict written to ``rows.jsonl``: ``line_number``,
``inputs.<col>``, ``outputs.<col>`` (target), ``outputs.<alias>.<key>``,
``cell_status`` and, when they happened, ``row_error`` / ``target_error`` / ``target_not_run``.

With a judge budget (``max_cost`` / ``max_judge_calls``, :mod:`agent_evaluators.judge.caps`),
a judge evaluator's cell whose call the budget refused is ``not_run``, and once the budget
has stopped, judge cells are not started at all; deterministic evaluators need no judge and
still run. A target is skipped too when every evaluator left on its row needs a judge (or
when it asks a judge itself, a simulated user, and is refused): then the whole row is
``not_run`` and ``target_not_run`` says so, so a resume runs the target again.
"""

import asyncio
import logging
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .._util.scrub import RunSecrets, joining_run
from ..errors import ConfigError
from ..judge.batch_route import note_origin
from ..judge.caps import BUDGET_REASON, CallBudget, watch_refusals
from ..wording import Text, remember
from .aggregate import add_usage
from .callables import ASYNC, INLINE, THREAD, Invoker, make_invoker
from .cells import (
    CallTimeout,
    Cell,
    NotRunCell,
    as_dict,
    call_with_timeout,
    combine_runs,
    describe_exc_text,
    error_cell,
    exception_cell,
    is_not_run,
    not_run_cell,
    sync_result,
    target_failed,
    timeout_message,
)
from .mapping import ArgPlan, plan_arguments, validate_first_row
from .options import RowSpec
from .readers import RowError
from .row_hash import row_hash

logger = logging.getLogger("agent_evaluators.runner")

Record = Dict[str, Any]
Cells = Dict[str, Cell]
TargetResult = Tuple[Optional[Dict[str, Any]], Optional[Text]]


class RowEvaluator:
    """Turns an input row into a record and its cells (see the module docstring)."""

    def __init__(self, spec: RowSpec, invokers: Dict[str, Invoker], plans: List[ArgPlan],
                 target: Optional[Invoker]) -> None:
        self.spec = spec
        self.invokers = invokers
        self.aliases = list(invokers)
        self.plans = plans
        self.target = target
        self.num_runs = spec.num_runs
        self.timeout = spec.timeout
        self._in_keys: Dict[str, str] = {}
        self._prefixes = {a: f"outputs.{a}." for a in self.aliases}
        self._by_len = sorted(self.aliases, key=len, reverse=True)
        self.all_inline = all(p.invoker.mode == INLINE for p in plans) and (target is None or target.mode == INLINE)
        # With judge evaluators in the run, the sync ones leave the event loop:
        # a CPU-bound metric then cannot stall judge traffic (or a Ray worker's heartbeat). One thread
        # for them keeps their old guarantee of never running concurrently with each other.
        self.offload_sync = any(_judges(p.invoker) for p in plans) and any(p.invoker.mode == INLINE for p in plans)
        #: every row is judge calls and nothing else (see :class:`~.window.RowWindow`)
        self.judge_bound = target is None and all(p.invoker.mode == ASYNC and _judges(p.invoker) for p in plans)
        self._sync_executor: Optional[ThreadPoolExecutor] = None
        #: store ``row_hash`` in records: only a run with a folder can be resumed, which is all it is
        #: for; the engines turn it off for runs kept in memory (it costs a JSON dump and a hash per row)
        self.hash_rows = True
        #: the secrets of the judge clients this run used (each joins on its first request in the run;
        #: the engines install them in the run's context): rows.jsonl and summary.json are masked with
        #: them, and with nothing else
        self.secrets = RunSecrets()
        self._warned_unhashable = False
        #: the run's judge budget, when it has a cap (the local engine's, or a Ray worker's view of the cluster's)
        self.budget: Optional[CallBudget] = None

    @classmethod
    def prepare(cls, spec: RowSpec) -> "RowEvaluator":
        """Wrap the evaluators and target, ask judge evaluators whether a judge is configured,
        and parse the column mapping: everything that can fail before the first row."""
        invokers = {alias: make_invoker(ev, role=f"evaluator {alias!r}") for alias, ev in spec.evaluators.items()}
        for alias, ev in spec.evaluators.items():
            check_ready = getattr(ev, "check_ready", None)  # judge evaluators: is a judge configured?
            if callable(check_ready):
                try:
                    check_ready()
                except ConfigError as exc:
                    raise ConfigError(Text("evaluator {alias!r}: {problem}", alias=alias, problem=exc.text),
                                      evaluator=alias) from None
        target = make_invoker(spec.target, role="target", default_mode=THREAD) if spec.target is not None else None
        plans = plan_arguments(spec.evaluator_config, invokers)
        return cls(spec, invokers, plans, target)

    # --------------------------------------------------------------- records
    def alias_of(self, key: str) -> Optional[str]:
        """The evaluator an ``outputs.<alias>.<key>`` record key belongs to (``None``: a target output)."""
        return next((a for a in self._by_len if key.startswith(self._prefixes[a])), None)

    def split_prior(self, record: Mapping[str, Any]) -> Tuple[Dict[str, Dict[str, Any]], Dict[str, Any]]:
        """A stored record → (cells by alias, target outputs)."""
        cells: Dict[str, Dict[str, Any]] = {}
        target: Dict[str, Any] = {}
        for key, v in record.items():
            if not key.startswith("outputs."):
                continue
            for alias in self._by_len:
                p = self._prefixes[alias]
                if key.startswith(p):
                    cells.setdefault(alias, {})[key[len(p):]] = v
                    break
            else:
                target[key[8:]] = v
        return cells, target

    def assemble(self, line: int, row: Optional[Mapping[str, Any]], tout: Optional[Mapping[str, Any]], cells: Cells,
                 *, row_error: Optional[str] = None, target_error: Union[None, str, Text] = None) -> Record:
        record: Record = {"line_number": line}
        if row is not None:
            if self.hash_rows:
                digest, why = row_hash(row)
                if digest is not None:
                    record["row_hash"] = digest
                elif not self._warned_unhashable:
                    self._warned_unhashable = True
                    logger.warning("row %d cannot be hashed (%s): a resume cannot tell whether it changed or moved "
                                   "and keeps its result as it is; make such values plain data (str, numbers, "
                                   "lists, dicts) to have it checked", line, why)
            keys = self._in_keys
            for col, v in row.items():
                key = keys.get(col)
                if key is None:
                    key = keys[col] = f"inputs.{col}"
                record[key] = v
        if tout:
            for col, v in tout.items():
                record[f"outputs.{col}"] = v
        status: Dict[str, str] = {}
        for alias in self.aliases:
            cell = cells.get(alias)
            if cell is None:
                continue
            p = self._prefixes[alias]
            for k, v in cell.out.items():
                record[p + k] = v
            status[alias] = ("ok" if type(cell) is not NotRunCell else NotRunCell.status) if cell.ok else "error"
        record["cell_status"] = status
        if row_error:
            record["row_error"] = row_error
        if target_error:
            record["target_error"] = remember(target_error)  # recallable by a wing that reads it back (ADK)
        if tout is None and self.target is not None and any(type(c) is NotRunCell for c in cells.values()):
            record["target_not_run"] = BUDGET_REASON
        return record

    def error_row(self, line: int, err: RowError) -> Tuple[Record, Cells]:
        """A row that could not be read: every evaluator gets an error cell naming the line."""
        msg = f"row {line}: {err.message}; fix this entry in the data (the other rows are evaluated)"
        cells = {p.alias: error_cell(p.invoker, msg) for p in self.plans}
        return self.assemble(line, None, None, cells, row_error=err.message), cells

    def kept(self, prior: Optional[Mapping[str, Any]], needed: Sequence[str]) -> Tuple[Cells, Optional[Dict[str, Any]]]:
        """Cells carried over from an earlier record, and its target outputs (if the target succeeded)."""
        if prior is None:
            return {}, None
        prior_cells, tout = self.split_prior(prior)
        kept = {a: self._kept_cell(a, c) for a, c in prior_cells.items() if a not in needed and a in self.invokers}
        if self.target is None or "target_error" in prior or "target_not_run" in prior:
            return kept, None
        return kept, tout

    def _kept_cell(self, alias: str, out: Dict[str, Any]) -> Cell:
        return NotRunCell(out, True) if is_not_run(self.invokers[alias], out) else Cell(out, True)

    # --------------------------------------------------------------- target
    def _target_kwargs(self, row: Mapping[str, Any]) -> Tuple[Dict[str, Any], Optional[Text]]:
        t = self.target
        assert t is not None
        kwargs = dict(row) if t.var_kw else {n: row[n] for n in t.params if n in row}
        absent: List[str] = []
        for req in t.required:
            absent = [n for n in sorted(req) if n not in kwargs]
            if not absent:
                return kwargs, None
        return kwargs, Text.of(f"the target needs input {absent[0]!r}, which this row does not have "
                               f"(columns: {', '.join(row)})")

    async def run_target(self, line: int, row: Mapping[str, Any]) -> TargetResult:
        assert self.target is not None
        kwargs, problem = self._target_kwargs(row)
        if problem:
            return None, f"row {line}: " + problem
        try:
            out = await call_with_timeout(self.target, kwargs, self.timeout)
        except CallTimeout:
            return None, f"row {line}: " + timeout_message(f"the target ({self.target.class_name})", self.timeout)
        except Exception as exc:
            logger.debug("target failed on row %d", line, exc_info=True)
            return None, self._target_raised(line, exc)
        return as_dict(out), None

    def run_target_sync(self, line: int, row: Mapping[str, Any]) -> TargetResult:
        assert self.target is not None
        kwargs, problem = self._target_kwargs(row)
        if problem:
            return None, f"row {line}: " + problem
        try:
            out = sync_result(self.target.call(**kwargs))
        except Exception as exc:
            logger.debug("target failed on row %d", line, exc_info=True)
            return None, self._target_raised(line, exc)
        return as_dict(out), None

    def _target_raised(self, line: int, exc: BaseException) -> Text:
        assert self.target is not None
        return Text("row {line}: the target ({name}) raised {problem}", line=line, name=self.target.class_name,
                    problem=describe_exc_text(exc))

    # --------------------------------------------------------------- cells
    def _where(self, line: int, plan: ArgPlan) -> str:
        return f"row {line}: evaluator {plan.alias!r} ({plan.invoker.class_name})"

    def cell_sync(self, line: int, plan: ArgPlan, row: Mapping[str, Any], tout: Optional[Mapping[str, Any]]) -> Cell:
        kwargs, problem = plan.build(row, tout)
        inv = plan.invoker
        if problem:
            return error_cell(inv, problem, where=self._where(line, plan))
        try:
            if self.num_runs == 1:
                return Cell(as_dict(sync_result(inv.call(**kwargs))), True)
            runs = [as_dict(sync_result(inv.call(**kwargs))) for _ in range(self.num_runs)]
        except Exception as exc:
            logger.debug("evaluator %r failed on row %d", plan.alias, line, exc_info=True)
            return exception_cell(inv, self._where(line, plan), exc, self.timeout)
        return Cell(combine_runs(inv, runs), True)

    async def cell_async(self, line: int, plan: ArgPlan, row: Mapping[str, Any],
                         tout: Optional[Mapping[str, Any]]) -> Cell:
        budget = self.budget
        if budget is None or not _judges(plan.invoker):
            return await self._cell_async(line, plan, row, tout)
        if budget.stopped is not None:
            return not_run_cell(plan.invoker, self._where(line, plan), budget.stopped)
        with watch_refusals() as refused:  # a refusal an evaluator caught (a panel, a sample) counts too
            cell = await self._cell_async(line, plan, row, tout)
        if not refused:
            return cell
        key = plan.invoker.result_key if plan.invoker.ours else None
        return not_run_cell(plan.invoker, self._where(line, plan), refused[0], cell.out.get(f"{key}_usage") if key else None)

    async def _cell_async(self, line: int, plan: ArgPlan, row: Mapping[str, Any],
                          tout: Optional[Mapping[str, Any]]) -> Cell:
        kwargs, problem = plan.build(row, tout)
        inv = plan.invoker
        if problem:
            return error_cell(inv, problem, where=self._where(line, plan))
        note_origin(line, plan.alias)  # batch mode records it beside each request
        if self.num_runs == 1:
            try:
                return Cell(as_dict(await call_with_timeout(inv, kwargs, self.timeout)), True)
            except Exception as exc:
                logger.debug("evaluator %r failed on row %d", plan.alias, line, exc_info=True)
                return exception_cell(inv, self._where(line, plan), exc, self.timeout)
        results = await asyncio.gather(
            *(call_with_timeout(inv, dict(kwargs), self.timeout) for _ in range(self.num_runs)), return_exceptions=True
        )
        failures = [r for r in results if isinstance(r, BaseException)]
        for r in failures:
            if isinstance(r, asyncio.CancelledError):
                raise r
        if failures:
            return self._failed_runs_cell(line, plan, results, failures)
        return Cell(combine_runs(inv, [as_dict(r) for r in results]), True)

    def _failed_runs_cell(self, line: int, plan: ArgPlan, results: Sequence[Any],
                          failures: Sequence[BaseException]) -> Cell:
        """``num_runs > 1`` with a failed run: an error cell that keeps the usage of the runs that
        did finish (they were still paid for)."""
        inv = plan.invoker
        cell = exception_cell(inv, self._where(line, plan), failures[0], self.timeout)
        if inv.ours and inv.result_key:
            k = inv.result_key
            usage: Dict[str, Any] = dict(cell.out.get(f"{k}_usage") or {})
            for r in results:
                u = r.get(f"{k}_usage") if isinstance(r, Mapping) else getattr(r, "usage", None)
                if isinstance(u, Mapping) and r is not failures[0]:
                    add_usage(usage, u)
            if usage:
                cell.out[f"{k}_usage"] = usage
        runs_failed = f" ({len(failures)} of {self.num_runs} runs failed)"
        cell.message = f"{cell.message}{runs_failed}"
        if cell.problem is not None:
            cell.problem = cell.problem._replace(text=cell.problem.text + runs_failed)
        cell.out[next(k for k in cell.out if k.endswith("error"))] = cell.message
        return cell

    # --------------------------------------------------------------- rows
    def _target_failed(self, plans: Sequence[ArgPlan], cells: Cells, terr: Text) -> None:
        for p in plans:
            cells[p.alias] = error_cell(p.invoker, target_failed(terr, p.alias))

    async def _budgeted_target(self, line: int, row: Mapping[str, Any], plans: Sequence[ArgPlan],
                               cells: Cells) -> Tuple[TargetResult, bool]:
        """The target under the budget: skipped once it has stopped when every evaluator left needs a
        judge, and refused when it asks a judge itself; then every cell of the row is ``not_run``."""
        budget = self.budget
        assert budget is not None
        stopped = budget.stopped if all(_judges(p.invoker) for p in plans) else None
        if stopped is not None:
            why = f"{stopped}; the target was not run"
        else:
            with watch_refusals() as refused:
                result = await self.run_target(line, row)
            if not refused:
                return result, False
            why = f"{refused[0]}; the target's own judge call was refused"
        for p in plans:
            cells[p.alias] = not_run_cell(p.invoker, self._where(line, p), why)
        return (None, None), True

    def row_sync(self, line: int, row: Mapping[str, Any], plans: Sequence[ArgPlan],
                 prior: Optional[Mapping[str, Any]], tout: Any = None) -> Tuple[Record, Cells]:
        """One row in the engine's own task (every evaluator inline); the engine has installed the
        run's context (its ``secrets`` among it)."""
        cells, prior_tout = self.kept(prior, [p.alias for p in plans])
        terr = None
        if self.target is not None:
            tout = tout if tout is not None else prior_tout
            if tout is None:
                tout, terr = self.run_target_sync(line, row)
        if terr:
            self._target_failed(plans, cells, terr)
        else:
            for p in plans:
                cells[p.alias] = self.cell_sync(line, p, row, tout)
        return self.assemble(line, row, tout, cells, target_error=terr), cells

    async def row_async(self, line: int, row: Mapping[str, Any], plans: Sequence[ArgPlan],
                        prior: Optional[Mapping[str, Any]], tout: Any = None) -> Tuple[int, Record, Cells]:
        """One row as a task of the engine's, which inherits the run's context (its ``secrets`` among it)."""
        cells, prior_tout = self.kept(prior, [p.alias for p in plans]) if prior is not None else ({}, None)
        terr = None
        skipped = False
        if self.target is not None:
            tout = tout if tout is not None else prior_tout
            if tout is None and self.budget is not None:
                (tout, terr), skipped = await self._budgeted_target(line, row, plans, cells)
            elif tout is None:
                tout, terr = await self.run_target(line, row)
        if terr:
            self._target_failed(plans, cells, terr)
        elif not skipped:
            await self._row_cells(line, row, plans, tout, cells)
        return line, self.assemble(line, row, tout, cells, target_error=terr), cells

    async def _row_cells(self, line: int, row: Mapping[str, Any], plans: Sequence[ArgPlan],
                         tout: Optional[Mapping[str, Any]], cells: Cells) -> None:
        if len(plans) == 1 and plans[0].invoker.mode != INLINE:  # one judge (or other awaited) evaluator
            # without a budget, cell_async is _cell_async: called at once, one coroutine frame less per call
            cell = self._cell_async if self.budget is None else self.cell_async
            cells[plans[0].alias] = await cell(line, plans[0], row, tout)
            return
        inline = [p for p in plans if p.invoker.mode == INLINE]
        waiting = [p for p in plans if p.invoker.mode != INLINE]
        jobs: List[Any] = [self.cell_async(line, p, row, tout) for p in waiting]
        if inline and self.offload_sync:
            if self._sync_executor is None:
                self._sync_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agent-eval-sync")
            loop = asyncio.get_running_loop()
            jobs.append(loop.run_in_executor(self._sync_executor, self._sync_cells, line, inline, row, tout))
        else:
            cells.update(self._sync_cells(line, inline, row, tout))
        if len(jobs) == 1:
            done = [await jobs[0]]
        elif jobs:
            done = list(await asyncio.gather(*jobs))
        else:
            done = []
        for p, c in zip(waiting, done):
            cells[p.alias] = c
        if len(done) > len(waiting):
            cells.update(done[-1])

    def _sync_cells(self, line: int, plans: Sequence[ArgPlan], row: Mapping[str, Any],
                    tout: Optional[Mapping[str, Any]]) -> Cells:
        with joining_run(self.secrets):  # for the offload thread, which does not share the run's context
            return {p.alias: self.cell_sync(line, p, row, tout) for p in plans}

    def close(self) -> None:
        """Stop the thread the sync evaluators ran in, if one was started."""
        if self._sync_executor is not None:
            self._sync_executor.shutdown(wait=False)
            self._sync_executor = None

    async def validate_first(self, line: int, item: Mapping[str, Any], prior: Optional[Mapping[str, Any]],
                             todo: Sequence[ArgPlan]) -> Optional[Dict[str, Any]]:
        """Check the column mappings against the first row to evaluate (fail fast, before any judge call).

        With a target, the target runs on that row first (its outputs are mappable);
        returns those outputs so the row does not run the target twice.
        """
        if self.target is None:
            validate_first_row(self.plans, item, None)
            return None
        _, tout = self.kept(prior, [p.alias for p in todo])
        if tout is None:
            with joining_run(self.secrets):  # a target that asks a judge joins the run (the Ray driver has no run context)
                tout, terr = await self.run_target(line, item)
            if terr:
                logger.warning(terr + "; column mappings could not be checked against target outputs")
                return None
        validate_first_row(self.plans, item, tout)
        return tout


def _judges(inv: Invoker) -> bool:
    """Whether an evaluator calls a judge model (ours say so; another library's that call their own judge do)."""
    return bool(getattr(inv.fn, "uses_judge", False)) or inv.calls_own_judge
