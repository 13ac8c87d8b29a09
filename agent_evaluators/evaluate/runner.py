"""``evaluate()`` / ``evaluate_async()``: run evaluators over a dataset.

One event loop runs everything. Rows are read lazily and scheduled through a
bounded window (``2 × max_concurrency`` rows in flight), so 100,000 rows cost
the memory of a few dozen; every judge HTTP attempt of every evaluator draws
on one shared budget of ``max_concurrency`` permits. Rows whose evaluators are
all plain sync functions are evaluated inline, without a task per row.

Each finished row is appended to ``<output_path>/rows.jsonl`` at once, so a
crash loses only the rows in flight and ``resume=True`` picks up from there.
"""

import asyncio
import inspect
import logging
import platform
import sys
import threading
import time
from array import array
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .._concurrency import new_limiter, use_judge_limiter
from ..errors import AgentEvalError, ConfigError, JudgeError
from .aggregate import AliasStats, add_usage
from .callables import ASYNC, INLINE, THREAD, Invoker, make_invoker
from .fingerprint import build_fingerprint, describe_evaluator, file_digest, fingerprint_changes, public_config
from .mapping import ArgPlan, parse_evaluator_config, validate_first_row
from .progress import Progress
from .readers import RowError, data_path, describe_data, iter_input
from .result import EvaluationResult
from .store import ROWS_FILE, SUMMARY_FILE, RowsView, RowWriter, read_json, read_record, scan_rows, write_json_atomic

__all__ = ["evaluate", "evaluate_async", "EvaluatorErrors"]

logger = logging.getLogger("agent_evaluators.evaluate")

#: errors kept in memory / summary.json; the full set is always in rows.jsonl.
MAX_ERRORS_KEPT = 10_000


class EvaluatorErrors(AgentEvalError):
    """Raised by ``fail_on_evaluator_errors=True`` after every result was saved.

    ``result`` holds the complete :class:`EvaluationResult` (error cells included).
    """

    def __init__(self, message: str, result: EvaluationResult) -> None:
        super().__init__(message)
        self.result = result


# ---------------------------------------------------------------------------- cells


def _describe_exc(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


_HAS_TIMEOUT_CM = hasattr(asyncio, "timeout")  # Python 3.11+


class _CallTimeout(Exception):
    """Our per-call ``timeout`` expired (distinct from a TimeoutError the evaluator raised itself)."""


def _sync_result(out: Any) -> Any:
    if inspect.isawaitable(out):
        if inspect.iscoroutine(out):
            out.close()
        raise TypeError("a sync evaluator returned an awaitable; define it with `async def` so evaluate() awaits it")
    return out


class _Cell:
    """One row × evaluator result: the evaluator's flat dict, and whether it is an error."""

    __slots__ = ("out", "ok", "message")

    def __init__(self, out: Dict[str, Any], ok: bool, message: Optional[str] = None) -> None:
        self.out = out
        self.ok = ok
        self.message = message


def _error_cell(inv: Invoker, message: str, exc: Optional[BaseException] = None, usage: Any = None) -> _Cell:
    if inv.ours and inv.result_key:
        k = inv.result_key
        out: Dict[str, Any] = {k: None, f"{k}_result": "error", f"{k}_error": message}
        if isinstance(exc, JudgeError):
            details = {"error_type": type(exc).__name__, "status_code": exc.status_code, "attempts": exc.attempts}
            if exc.raw_text is not None:
                details["raw_text"] = exc.raw_text[:4000]
            out[f"{k}_details"] = details
        if usage:
            out[f"{k}_usage"] = usage
    else:
        out = {"error": message}
    return _Cell(out, False, message)


def _as_dict(value: Any) -> Dict[str, Any]:
    if isinstance(value, dict):
        return value
    if isinstance(value, Mapping):
        return dict(value)
    return {"output": value}


def _combine_runs(inv: Invoker, runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """``num_runs > 1``: one cell holding the mean, with every run in its details."""
    usage: Optional[Dict[str, Any]] = None
    if inv.ours and inv.result_key:
        k = inv.result_key
        for r in runs:
            u = r.get(f"{k}_usage")
            if isinstance(u, Mapping):
                usage = usage if usage is not None else {}
                add_usage(usage, u)
        scores = [r[k] for r in runs if isinstance(r.get(k), (int, float)) and r.get(f"{k}_result") != "not_applicable"]
        out = dict(runs[0])
        threshold = runs[0].get(f"{k}_threshold")
        if not scores:
            out.update({k: None, f"{k}_result": "not_applicable", f"{k}_reason": f"No run of {len(runs)} was scored"})
        else:
            mean = sum(scores) / len(scores)
            std = (sum((s - mean) ** 2 for s in scores) / len(scores)) ** 0.5
            passed = threshold is None or mean >= threshold
            out.update(
                {
                    k: mean,
                    f"{k}_result": "pass" if passed else "fail",
                    f"{k}_reason": f"Mean of {len(scores)} scored run(s) of {len(runs)} (std {std:.4g})",
                }
            )
        out[f"{k}_details"] = {
            "runs": runs,
            "scores": [r.get(k) for r in runs],
            "std": None if not scores else std,
            "min": min(scores) if scores else None,
            "max": max(scores) if scores else None,
        }
        if inv.fn is not None and getattr(inv.fn, "uses_judge", False):
            out[f"{k}_usage"] = usage
        return out
    out = dict(runs[0])
    keys = {key for r in runs for key, v in r.items() if type(v) in (int, float)}
    for key in keys:
        vals = [r[key] for r in runs if type(r.get(key)) in (int, float)]
        out[key] = sum(vals) / len(vals)
    out["runs"] = runs
    return out


# ---------------------------------------------------------------------------- the run


class _Run:
    """State of one ``evaluate_async`` call."""

    def __init__(
        self,
        *,
        invokers: Dict[str, Invoker],
        plans: List[ArgPlan],
        target: Optional[Invoker],
        num_runs: int,
        timeout: Optional[float],
    ) -> None:
        self.invokers = invokers
        self.aliases = list(invokers)
        self.plans = plans
        self.target = target
        self.num_runs = num_runs
        self.timeout = timeout
        self._in_keys: Dict[str, str] = {}
        self._prefixes = {a: f"outputs.{a}." for a in self.aliases}
        self._by_len = sorted(self.aliases, key=len, reverse=True)
        self.all_inline = all(p.invoker.mode == INLINE for p in plans) and (target is None or target.mode == INLINE)

    # --------------------------------------------------------------- helpers
    def inputs_of(self, record: Dict[str, Any], row: Mapping[str, Any]) -> None:
        keys = self._in_keys
        for col, v in row.items():
            key = keys.get(col)
            if key is None:
                key = keys[col] = f"inputs.{col}"
            record[key] = v

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

    def target_kwargs(self, row: Mapping[str, Any]) -> Tuple[Dict[str, Any], Optional[str]]:
        t = self.target
        assert t is not None
        if t.var_kw:
            kwargs = dict(row)
        else:
            kwargs = {n: row[n] for n in t.params if n in row}
        for req in t.required:
            absent = [n for n in sorted(req) if n not in kwargs]
            if not absent:
                return kwargs, None
        return kwargs, f"the target needs input {absent[0]!r}, which this row does not have (columns: {', '.join(row)})"

    def _timeout_msg(self, what: str) -> str:
        return (
            f"{what} timed out after {self.timeout:g} s; raise evaluate(timeout=...) "
            "or check that the judge endpoint / agent is responding"
        )

    async def _await(self, inv: Invoker, kwargs: Dict[str, Any]) -> Any:
        if inv.mode == ASYNC:
            aw = inv.call(**kwargs)
        elif inv.mode == THREAD:
            aw = asyncio.to_thread(inv.call, **kwargs)
        else:
            out = inv.call(**kwargs)
            if inspect.isawaitable(out):
                out = await out
            return out
        if self.timeout is None:
            return await aw
        if _HAS_TIMEOUT_CM:
            try:
                async with asyncio.timeout(self.timeout) as scope:  # type: ignore[attr-defined]
                    return await aw
            except TimeoutError:
                if scope.expired():
                    raise _CallTimeout() from None
                raise  # the evaluator's own TimeoutError: reported as it is
        try:
            return await asyncio.wait_for(aw, self.timeout)
        except asyncio.TimeoutError:
            raise _CallTimeout() from None

    # --------------------------------------------------------------- target
    async def run_target(self, line: int, row: Mapping[str, Any]) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
        assert self.target is not None
        kwargs, problem = self.target_kwargs(row)
        if problem:
            return None, f"row {line}: {problem}"
        try:
            out = await self._await(self.target, kwargs)
        except _CallTimeout:
            return None, f"row {line}: " + self._timeout_msg(f"the target ({self.target.class_name})")
        except Exception as exc:
            logger.debug("target failed on row %d", line, exc_info=True)
            return None, f"row {line}: the target ({self.target.class_name}) raised {_describe_exc(exc)}"
        return _as_dict(out), None

    def run_target_sync(self, line: int, row: Mapping[str, Any]) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
        assert self.target is not None
        kwargs, problem = self.target_kwargs(row)
        if problem:
            return None, f"row {line}: {problem}"
        try:
            out = _sync_result(self.target.call(**kwargs))
        except Exception as exc:
            logger.debug("target failed on row %d", line, exc_info=True)
            return None, f"row {line}: the target ({self.target.class_name}) raised {_describe_exc(exc)}"
        return _as_dict(out), None

    # --------------------------------------------------------------- cells
    def _exc_cell(self, line: int, plan: ArgPlan, exc: BaseException) -> _Cell:
        inv = plan.invoker
        where = f"row {line}: evaluator {plan.alias!r} ({inv.class_name})"
        if isinstance(exc, _CallTimeout):
            return _error_cell(inv, f"row {line}: " + self._timeout_msg(f"evaluator {plan.alias!r} ({inv.class_name})"), exc)
        usage = getattr(exc, "usage", None) if isinstance(exc, JudgeError) else None
        if usage is not None and not isinstance(usage, Mapping):
            usage = None
        if usage is None and isinstance(exc, JudgeError) and exc.attempts:
            usage = {"attempts": exc.attempts}  # the failed requests were still sent (and billed)
        return _error_cell(inv, f"{where}: {_describe_exc(exc)}", exc, dict(usage) if usage else None)

    def cell_sync(self, line: int, plan: ArgPlan, row: Mapping[str, Any], tout: Optional[Mapping[str, Any]]) -> _Cell:
        kwargs, problem = plan.build(row, tout)
        inv = plan.invoker
        if problem:
            return _error_cell(inv, f"row {line}: evaluator {plan.alias!r} ({inv.class_name}): {problem}")
        try:
            if self.num_runs == 1:
                return _Cell(_as_dict(_sync_result(inv.call(**kwargs))), True)
            runs = [_as_dict(_sync_result(inv.call(**kwargs))) for _ in range(self.num_runs)]
        except Exception as exc:
            logger.debug("evaluator %r failed on row %d", plan.alias, line, exc_info=True)
            return self._exc_cell(line, plan, exc)
        return _Cell(_combine_runs(inv, runs), True)

    async def cell_async(
        self, line: int, plan: ArgPlan, row: Mapping[str, Any], tout: Optional[Mapping[str, Any]]
    ) -> _Cell:
        kwargs, problem = plan.build(row, tout)
        inv = plan.invoker
        if problem:
            return _error_cell(inv, f"row {line}: evaluator {plan.alias!r} ({inv.class_name}): {problem}")
        if self.num_runs == 1:
            try:
                return _Cell(_as_dict(await self._await(inv, kwargs)), True)
            except Exception as exc:
                logger.debug("evaluator %r failed on row %d", plan.alias, line, exc_info=True)
                return self._exc_cell(line, plan, exc)
        results = await asyncio.gather(
            *(self._await(inv, dict(kwargs)) for _ in range(self.num_runs)), return_exceptions=True
        )
        failures = [r for r in results if isinstance(r, BaseException)]
        for r in failures:
            if isinstance(r, asyncio.CancelledError):
                raise r
        if failures:
            cell = self._exc_cell(line, plan, failures[0])
            # The runs that did finish were still paid for: keep their usage on the error cell.
            if inv.ours and inv.result_key:
                k = inv.result_key
                usage: Dict[str, Any] = dict(cell.out.get(f"{k}_usage") or {})
                for r in results:
                    u = r.get(f"{k}_usage") if isinstance(r, Mapping) else getattr(r, "usage", None)
                    if isinstance(u, Mapping) and r is not failures[0]:
                        add_usage(usage, u)
                if usage:
                    cell.out[f"{k}_usage"] = usage
            cell.message = f"{cell.message} ({len(failures)} of {self.num_runs} runs failed)"
            cell.out[next(k for k in cell.out if k.endswith("error"))] = cell.message
            return cell
        return _Cell(_combine_runs(inv, [_as_dict(r) for r in results]), True)

    # --------------------------------------------------------------- rows
    def assemble(
        self,
        line: int,
        row: Optional[Mapping[str, Any]],
        tout: Optional[Mapping[str, Any]],
        cells: Dict[str, _Cell],
        *,
        row_error: Optional[str] = None,
        target_error: Optional[str] = None,
    ) -> Dict[str, Any]:
        record: Dict[str, Any] = {"line_number": line}
        if row is not None:
            self.inputs_of(record, row)
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
            status[alias] = "ok" if cell.ok else "error"
        record["cell_status"] = status
        if row_error:
            record["row_error"] = row_error
        if target_error:
            record["target_error"] = target_error
        return record

    def error_row(self, line: int, err: RowError) -> Tuple[Dict[str, Any], Dict[str, _Cell]]:
        msg = f"row {line}: {err.message}; fix this entry in the data (the other rows are evaluated)"
        cells = {p.alias: _error_cell(p.invoker, msg) for p in self.plans}
        return self.assemble(line, None, None, cells, row_error=err.message), cells

    def kept(self, prior: Optional[Mapping[str, Any]], needed: Sequence[str]) -> Tuple[Dict[str, _Cell], Optional[Dict[str, Any]]]:
        """Cells carried over from an earlier record, and its target outputs (if the target succeeded)."""
        if prior is None:
            return {}, None
        prior_cells, tout = self.split_prior(prior)
        kept = {a: _Cell(c, True) for a, c in prior_cells.items() if a not in needed and a in self.invokers}
        if self.target is None or "target_error" in prior:
            return kept, None
        return kept, tout

    def row_sync(
        self, line: int, row: Mapping[str, Any], plans: Sequence[ArgPlan], prior: Optional[Mapping[str, Any]], tout: Any = None
    ) -> Tuple[Dict[str, Any], Dict[str, _Cell]]:
        cells, prior_tout = self.kept(prior, [p.alias for p in plans])
        terr = None
        if self.target is not None:
            if tout is None:
                tout = prior_tout
            if tout is None:
                tout, terr = self.run_target_sync(line, row)
        if terr:
            for p in plans:
                cells[p.alias] = _error_cell(p.invoker, f"{terr}; evaluator {p.alias!r} was not run")
        else:
            for p in plans:
                cells[p.alias] = self.cell_sync(line, p, row, tout)
        return self.assemble(line, row, tout, cells, target_error=terr), cells

    async def row_async(
        self, line: int, row: Mapping[str, Any], plans: Sequence[ArgPlan], prior: Optional[Mapping[str, Any]], tout: Any = None
    ) -> Tuple[int, Dict[str, Any], Dict[str, _Cell]]:
        cells, prior_tout = self.kept(prior, [p.alias for p in plans])
        terr = None
        if self.target is not None:
            if tout is None:
                tout = prior_tout
            if tout is None:
                tout, terr = await self.run_target(line, row)
        if terr:
            for p in plans:
                cells[p.alias] = _error_cell(p.invoker, f"{terr}; evaluator {p.alias!r} was not run")
        else:
            waiting = []
            for p in plans:
                if p.invoker.mode == INLINE:
                    cells[p.alias] = self.cell_sync(line, p, row, tout)
                else:
                    waiting.append(p)
            if len(waiting) == 1:
                p = waiting[0]
                cells[p.alias] = await self.cell_async(line, p, row, tout)
            elif waiting:
                done = await asyncio.gather(*(self.cell_async(line, p, row, tout) for p in waiting))
                for p, c in zip(waiting, done):
                    cells[p.alias] = c
        return line, self.assemble(line, row, tout, cells, target_error=terr), cells


# ---------------------------------------------------------------------------- entry points


def _versions(invokers: Mapping[str, Invoker], *, thorough: bool) -> Dict[str, Any]:
    """Package versions for ``summary.json``.

    Loaded modules report their own ``__version__``; others are looked up in the
    installed metadata only when ``thorough`` (a run with ``output_path``), because
    importing ``importlib.metadata`` alone costs ~50 ms, a lot for a quick in-memory run.
    """
    from .. import __version__

    out: Dict[str, Any] = {"agent_evaluators": __version__, "python": platform.python_version()}
    names = {"openai": "openai"}
    if any(inv.foreign_kind == "azure" for inv in invokers.values()):
        names["azure-ai-evaluation"] = "azure.ai.evaluation"
    for dist, module in names.items():
        mod = sys.modules.get(module)
        version = getattr(mod, "__version__", None) if mod is not None else None
        if version is None and thorough:
            from importlib import metadata

            try:
                version = metadata.version(dist)
            except metadata.PackageNotFoundError:
                version = None
        out[dist] = version
    return out


def _check_args(evaluators: Any, max_concurrency: Any, num_runs: Any, timeout: Any) -> None:
    if not isinstance(evaluators, Mapping) or not evaluators:
        raise ConfigError("evaluators must be a non-empty dict of alias -> evaluator, e.g. {'intent': IntentResolutionEvaluator(...)}")
    for alias in evaluators:
        if not isinstance(alias, str) or not alias or alias == "default":
            raise ConfigError(f"evaluator alias {alias!r} is not allowed: use a non-empty string other than 'default'")
    if isinstance(max_concurrency, bool) or not isinstance(max_concurrency, int) or max_concurrency < 1:
        raise ConfigError(f"max_concurrency must be a positive integer, got {max_concurrency!r}")
    if isinstance(num_runs, bool) or not isinstance(num_runs, int) or num_runs < 1:
        raise ConfigError(f"num_runs must be a positive integer, got {num_runs!r}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        raise ConfigError(f"timeout must be a positive number of seconds (or None for no limit), got {timeout!r}")


def _raw_mapping(evaluator_config: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    return {k: dict((v or {}).get("column_mapping") or {}) for k, v in (evaluator_config or {}).items()}


# ---------------------------------------------------------------------------- run pieces (shared with the Ray engine)


def prepare_run(
    *,
    evaluators: Any,
    evaluator_config: Optional[Mapping[str, Any]],
    target: Optional[Callable[..., Any]],
    max_concurrency: Any,
    num_runs: Any,
    timeout: Any,
    azure_ai_project: Any = None,
) -> Tuple[_Run, Optional[Invoker]]:
    """Check the arguments and prepare the evaluators: the :class:`_Run` every row goes through.

    Used by ``evaluate_async`` and by each shard of the Ray engine, so a row is
    evaluated by exactly the same code in both.
    """
    _check_args(evaluators, max_concurrency, num_runs, timeout)
    if azure_ai_project is not None:
        raise ConfigError("azure_ai_project is not supported: results stay local (use output_path)")
    invokers = {alias: make_invoker(ev, role=f"evaluator {alias!r}") for alias, ev in evaluators.items()}
    for alias, ev in evaluators.items():
        check_ready = getattr(ev, "check_ready", None)  # judge evaluators: is a judge configured?
        if callable(check_ready):
            try:
                check_ready()
            except ConfigError as exc:
                raise ConfigError(f"evaluator {alias!r}: {exc}") from None
    target_inv = make_invoker(target, role="target", default_mode=THREAD) if target is not None else None
    explicit = parse_evaluator_config(evaluator_config, list(invokers))
    plans = [ArgPlan(alias, inv, explicit[alias]) for alias, inv in invokers.items()]
    run = _Run(invokers=invokers, plans=plans, target=target_inv, num_runs=num_runs, timeout=timeout)
    return run, target_inv


def check_output_path(output_path: Any, resume: bool, rerun_failed: bool) -> Optional[Path]:
    if (resume or rerun_failed) and output_path is None:
        raise ConfigError("resume=True / rerun_failed=True need output_path (the folder of the run to continue)")
    out_dir = Path(output_path) if output_path is not None else None
    if out_dir is not None and out_dir.suffix.lower() == ".json":
        raise ConfigError(f"output_path is a folder for rows.jsonl and summary.json, not a .json file: {out_dir}")
    return out_dir


def describe_run(
    *,
    run: _Run,
    data: Any,
    evaluator_config: Optional[Mapping[str, Any]],
    max_concurrency: int,
    num_runs: int,
    timeout: Optional[float],
    evaluation_name: Optional[str],
    tags: Optional[Mapping[str, str]],
    thorough: bool,
) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    """``(config, fingerprint, versions)`` for ``summary.json`` and the resume check."""
    invokers, target_inv = run.invokers, run.target
    dpath = data_path(data)
    ev_desc = {alias: describe_evaluator(alias, inv) for alias, inv in invokers.items()}
    target_name = None
    if target_inv is not None:
        target_name = f"{getattr(target_inv.fn, '__module__', '')}.{target_inv.class_name}"
    config: Dict[str, Any] = {
        "evaluators": ev_desc,
        "evaluator_config": _raw_mapping(evaluator_config),
        "target": target_name,
        "target_config": public_config(target_inv.fn) if target_inv is not None else None,
        "data": describe_data(data),
        "max_concurrency": max_concurrency,
        "num_runs": num_runs,
        "timeout": timeout,
        "evaluation_name": evaluation_name,
        "tags": dict(tags or {}),
    }
    fingerprint = build_fingerprint(
        data_digest=file_digest(dpath) if dpath is not None and dpath.is_file() else None,
        evaluators={a: {k: v for k, v in d.items() if k != "mode"} for a, d in ev_desc.items()},
        mapping=config["evaluator_config"],
        target=target_name,
        num_runs=num_runs,
    )
    return config, fingerprint, _versions(invokers, thorough=thorough)


def load_prior(
    out_dir: Path, *, resume: bool, rerun_failed: bool, force: bool, config: Mapping[str, Any], fingerprint: Mapping[str, Any]
) -> Tuple[Dict[int, int], Dict[int, Dict[str, str]]]:
    """Create ``out_dir``; on resume, check the earlier run's fingerprint and index its rows.

    Returns ``(offset, cell_status)`` of the latest record per line (empty for a new run).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    rows_path, summary_path = out_dir / ROWS_FILE, out_dir / SUMMARY_FILE
    if resume or rerun_failed:
        old = read_json(summary_path)
        if old is None:
            if rows_path.exists() and rows_path.stat().st_size:
                if not force:
                    raise ConfigError(
                        f"resume refused: {rows_path} exists but {summary_path.name} is missing, so it cannot be "
                        "checked that the data and evaluators are unchanged; pass force=True to reuse the rows anyway"
                    )
            else:
                logger.info("nothing to resume in %s; starting a new run", out_dir)
        else:
            changes = fingerprint_changes(old.get("fingerprint") or {}, fingerprint, old.get("config") or {}, config)
            if changes and not force:
                raise ConfigError(
                    f"resume refused: the run in {out_dir} was made with a different setup: "
                    + "; ".join(changes)
                    + ". Pass force=True to reuse the earlier results anyway, or resume=False to start over "
                    "(this replaces rows.jsonl)."
                )
            if changes:
                logger.warning("resuming despite changes (force=True): %s", "; ".join(changes))
        prior_offsets, prior_status, _ = scan_rows(rows_path)
        return prior_offsets, prior_status
    if rows_path.exists() and rows_path.stat().st_size:
        logger.warning("%s: replacing the results of an earlier run (use resume=True to continue it)", rows_path)
    return {}, {}


def work_for(
    line: int,
    plans: List[ArgPlan],
    prior_status: Mapping[int, Mapping[str, str]],
    *,
    resume: bool,
    rerun_failed: bool,
) -> Optional[List[ArgPlan]]:
    """Evaluators still to run on ``line`` (``None`` = leave the line as it is, ``[]`` = reuse it)."""
    if not prior_status and not (resume or rerun_failed):
        return plans
    status = prior_status.get(line)
    if status is None:
        return plans if resume else None
    if rerun_failed and not resume:
        return [p for p in plans if status.get(p.alias) == "error"]
    return [p for p in plans if status.get(p.alias) != "ok"]


class RowWindow:
    """Rows being evaluated at once, at most ``size``; each finished row goes to ``emit``.

    Shared by the local engine and each Ray shard, so both schedule rows the same way:
    runs whose evaluators are all inline are evaluated on the spot (no task per row);
    otherwise each row is a task, and a new one waits for a free place in the window,
    which keeps memory flat however long the input.
    """

    def __init__(self, run: "_Run", size: int, emit: Callable[..., None]) -> None:
        self.run = run
        self.size = max(size, 2)
        self.emit = emit
        self.pending: set = set()
        self._loop = asyncio.get_running_loop()

    async def _drain(self, return_when: str) -> None:
        done, _ = await asyncio.wait(self.pending, return_when=return_when)
        for task in done:
            self.pending.discard(task)
            self.emit(*task.result())

    async def submit(self, line: int, item: Mapping[str, Any], todo: Any, prior: Any, tout: Any) -> None:
        if self.run.all_inline:
            self.emit(line, *self.run.row_sync(line, item, todo, prior, tout))
            return
        while len(self.pending) >= self.size:
            await self._drain(asyncio.FIRST_COMPLETED)
        self.pending.add(self._loop.create_task(self.run.row_async(line, item, todo, prior, tout)))

    async def finish(self) -> None:
        while self.pending:
            await self._drain(asyncio.ALL_COMPLETED)

    async def cancel(self) -> None:
        for task in self.pending:
            task.cancel()
        if self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)


async def validate_first(
    run: _Run, line: int, item: Mapping[str, Any], prior: Optional[Mapping[str, Any]], todo: Sequence[ArgPlan]
) -> Optional[Dict[str, Any]]:
    """Check the column mappings against the first row to evaluate (fail fast, before any judge call).

    With a target, the target runs on that row first (its outputs are mappable);
    returns those outputs so the row does not run the target twice.
    """
    if run.target is None:
        validate_first_row(run.plans, item, None)
        return None
    _, tout = run.kept(prior, [p.alias for p in todo])
    if tout is None:
        tout, terr = await run.run_target(line, item)
        if terr:
            logger.warning("%s; column mappings could not be checked against target outputs", terr)
            return None
    validate_first_row(run.plans, item, tout)
    return tout


def finish_run(
    *,
    run: _Run,
    stats: Mapping[str, AliasStats],
    rows: Sequence[Dict[str, Any]],
    summary_base: Mapping[str, Any],
    summary_path: Optional[Path],
    out_dir: Optional[Path],
    started: float,
    reused: int,
    skipped: int,
    error_count: int,
    errors: List[Dict[str, Any]],
    fail_on_evaluator_errors: bool,
    extra: Optional[Mapping[str, Any]] = None,
) -> EvaluationResult:
    """Metrics, the final ``summary.json`` and the result (raising :class:`EvaluatorErrors` if asked)."""
    metrics: Dict[str, Any] = {}
    for alias in run.aliases:
        metrics.update(stats[alias].metrics(alias))
    usage = {alias: stats[alias].usage for alias in run.aliases}
    if skipped:
        logger.warning(
            "%d row(s) have no results yet and were not run (rerun_failed reruns error cells only); "
            "use resume=True to evaluate them",
            skipped,
        )
    finished = time.time()
    summary = dict(summary_base)
    summary.update(
        {
            "status": "complete",
            "finished_at": datetime.fromtimestamp(finished, timezone.utc).isoformat(),
            "duration_s": round(finished - started, 3),
            "rows": len(rows),
            "rows_reused": reused,
            "metrics": metrics,
            "error_count": error_count,
            "errors": errors,
            "errors_truncated": error_count > len(errors),
            "usage": usage,
        }
    )
    if extra:
        summary.update(extra)
    if summary_path is not None:
        write_json_atomic(summary_path, summary)
    result = EvaluationResult(rows=rows, metrics=metrics, errors=errors, usage=usage, summary=summary, output_path=out_dir)
    logger.info(
        "evaluated %d rows in %.2f s (%d reused), %d error cell(s)%s",
        len(rows), finished - started, reused, error_count, f"; results in {out_dir}" if out_dir else "",
    )
    if fail_on_evaluator_errors and error_count:
        first = "\n".join(f"  row {e['line_number']} {e['alias']}: {e['message']}" for e in errors[:5])
        where = f" All results were saved to {out_dir}." if out_dir else ""
        raise EvaluatorErrors(
            f"{error_count} evaluator cell(s) failed (fail_on_evaluator_errors=True).{where} First errors:\n{first}",
            result,
        )
    return result


def summary_start(started: float, config: Dict[str, Any], versions: Dict[str, Any], fingerprint: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "status": "running",
        "started_at": datetime.fromtimestamp(started, timezone.utc).isoformat(),
        "config": config,
        "versions": versions,
        "fingerprint": fingerprint,
    }


# ---------------------------------------------------------------------------- the local engine


async def evaluate_async(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]],
    evaluator_config: Optional[Mapping[str, Any]] = None,
    target: Optional[Callable[..., Any]] = None,
    output_path: Optional[Union[str, Path]] = None,
    fail_on_evaluator_errors: bool = False,
    max_concurrency: int = 10,
    resume: bool = False,
    rerun_failed: bool = False,
    force: bool = False,
    num_runs: int = 1,
    show_progress: Optional[bool] = None,
    timeout: Optional[float] = 300.0,
    evaluation_name: Optional[str] = None,
    tags: Optional[Mapping[str, str]] = None,
    azure_ai_project: Any = None,
) -> EvaluationResult:
    """Run ``evaluators`` over every row of ``data``; see :func:`evaluate`."""
    started = time.time()
    run, target_inv = prepare_run(
        evaluators=evaluators, evaluator_config=evaluator_config, target=target, max_concurrency=max_concurrency,
        num_runs=num_runs, timeout=timeout, azure_ai_project=azure_ai_project,
    )
    plans = run.plans
    out_dir = check_output_path(output_path, resume, rerun_failed)
    dpath = data_path(data)
    config, fingerprint, versions = describe_run(
        run=run, data=data, evaluator_config=evaluator_config, max_concurrency=max_concurrency, num_runs=num_runs,
        timeout=timeout, evaluation_name=evaluation_name, tags=tags, thorough=output_path is not None,
    )

    # ----------------------------------------------------------- prior results (resume)
    prior_offsets: Dict[int, int] = {}
    prior_status: Dict[int, Dict[str, str]] = {}
    rows_path = summary_path = None
    if out_dir is not None:
        rows_path, summary_path = out_dir / ROWS_FILE, out_dir / SUMMARY_FILE
        prior_offsets, prior_status = load_prior(
            out_dir, resume=resume, rerun_failed=rerun_failed, force=force, config=config, fingerprint=fingerprint
        )

    summary_base = summary_start(started, config, versions, fingerprint)
    writer: Optional[RowWriter] = None
    prior_f = None
    if out_dir is not None:
        assert rows_path is not None and summary_path is not None
        write_json_atomic(summary_path, summary_base)
        writer = RowWriter(rows_path, append=resume or rerun_failed)
        if prior_offsets:
            prior_f = open(rows_path, "rb")

    stats = {alias: AliasStats(inv.result_key, num_runs) for alias, inv in run.invokers.items()}
    errors: List[Dict[str, Any]] = []
    error_count = 0
    offsets = array("q")
    mem_rows: List[Optional[Dict[str, Any]]] = []
    total = len(data) if hasattr(data, "__len__") and not isinstance(data, (str, bytes)) and dpath is None else None
    progress = Progress(show_progress, total)
    counts = {"rows": 0, "skipped": 0, "reused": 0}

    def emit(line: int, record: Dict[str, Any], cells: Mapping[str, _Cell]) -> None:
        nonlocal error_count
        if writer is not None:
            offsets[line] = writer.write(record)
        else:
            mem_rows[line] = record
        n_err = 0
        for alias, cell in cells.items():
            stats[alias].add(cell.out, cell.ok)
            if not cell.ok:
                n_err += 1
                if len(errors) < MAX_ERRORS_KEPT:
                    errors.append({"line_number": line, "alias": alias, "message": cell.message})
        error_count += n_err
        progress.update(1, n_err)

    def reuse(line: int) -> None:
        assert prior_f is not None
        reuse_record(run, stats, read_record(prior_f, prior_offsets[line]))
        offsets[line] = prior_offsets[line]
        counts["reused"] += 1
        progress.update(1, 0)

    window = RowWindow(run, 2 * max_concurrency, emit)
    validated = False

    try:
        with use_judge_limiter(new_limiter(max_concurrency)):
            for line, item in enumerate(iter_input(data)):
                counts["rows"] += 1
                offsets.append(-1) if writer is not None else mem_rows.append(None)
                if line & 255 == 255:
                    await asyncio.sleep(0)  # let other tasks of a host loop breathe during long inline runs
                todo = work_for(line, plans, prior_status, resume=resume, rerun_failed=rerun_failed)
                if todo is None:
                    counts["skipped"] += 1
                    continue
                if not todo:
                    reuse(line)
                    continue
                if isinstance(item, RowError):
                    emit(line, *run.error_row(line, item))
                    continue
                prior = read_record(prior_f, prior_offsets[line]) if prior_f is not None and line in prior_offsets else None
                tout = None
                if not validated:
                    validated = True
                    tout = await validate_first(run, line, item, prior, todo)
                await window.submit(line, item, todo, prior, tout)
            await window.finish()
    except BaseException:
        await window.cancel()
        raise
    finally:
        progress.close()
        if writer is not None:
            writer.close()
        if prior_f is not None:
            prior_f.close()

    rows: Sequence[Dict[str, Any]]
    if writer is not None:
        assert rows_path is not None
        rows = RowsView(rows_path, array("q", (o for o in offsets if o >= 0)))
    else:
        rows = [r for r in mem_rows if r is not None]
    return finish_run(
        run=run, stats=stats, rows=rows, summary_base=summary_base, summary_path=summary_path, out_dir=out_dir,
        started=started, reused=counts["reused"], skipped=counts["skipped"], error_count=error_count, errors=errors,
        fail_on_evaluator_errors=fail_on_evaluator_errors,
    )


def reuse_record(run: _Run, stats: Mapping[str, AliasStats], record: Mapping[str, Any]) -> None:
    """Count a finished record of an earlier run (every cell ok) in the metrics."""
    cells, _ = run.split_prior(record)
    for alias in run.aliases:
        stats[alias].add(cells.get(alias, {}), True)


def evaluate(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]],
    evaluator_config: Optional[Mapping[str, Any]] = None,
    target: Optional[Callable[..., Any]] = None,
    output_path: Optional[Union[str, Path]] = None,
    fail_on_evaluator_errors: bool = False,
    max_concurrency: int = 10,
    resume: bool = False,
    rerun_failed: bool = False,
    force: bool = False,
    num_runs: int = 1,
    show_progress: Optional[bool] = None,
    timeout: Optional[float] = 300.0,
    evaluation_name: Optional[str] = None,
    tags: Optional[Mapping[str, str]] = None,
    azure_ai_project: Any = None,
    engine: str = "local",
    ray_address: Optional[str] = None,
    num_workers: Optional[int] = None,
) -> EvaluationResult:
    """Run evaluators over a dataset; the same arguments as azure-ai-evaluation's ``evaluate()``
    plus ``max_concurrency``, ``resume``, ``rerun_failed``, ``force``, ``num_runs``,
    ``show_progress`` and ``timeout``.

    Works in a plain script and inside a running event loop (notebooks, FastAPI): the run
    goes to the package's background event loop, where the judge client pool lives.
    In async code prefer ``await evaluate_async(...)``.

    Args:
        data: JSONL / CSV / JSON / ADK ``.evalset.json`` / ``.test.json`` path, an open
            JSONL file, a DataFrame, or any iterable of row dicts. Read lazily.
        evaluators: ``{alias: evaluator}``; any callable (ours, azure-ai-evaluation's,
            sync or async functions returning a dict or a scalar).
        evaluator_config: ``{alias | "default": {"column_mapping": {input: "${data.path}" | "${target.path}"}}}``.
        target: optional callable(**row) -> dict, run once per row before the evaluators.
        output_path: folder for ``rows.jsonl`` (streamed) and ``summary.json``.
        fail_on_evaluator_errors: raise :class:`EvaluatorErrors` (after saving) if any cell failed.
        max_concurrency: judge HTTP requests in flight, shared by every evaluator.
        resume: continue the run in ``output_path``: only missing or failed cells run.
        rerun_failed: re-run only the failed cells of the run in ``output_path``.
        force: resume even though the data or evaluator configuration changed.
        num_runs: evaluate every cell this many times; the cell holds the mean.
        show_progress: progress line on stderr (default: only on a terminal).
        timeout: seconds per evaluator / target call (async and blocking ones; an inline
            sync function cannot be interrupted). ``None``: no limit.
        engine: ``"local"`` (one process, one event loop) or ``"ray"``: the same run split
            into shards on a Ray cluster (``pip install agent-evaluators[ray]``; see
            :func:`agent_evaluators.distributed.evaluate_ray`), with ``max_concurrency``
            as one budget across the whole cluster.
        ray_address: ``engine="ray"`` only: the cluster to connect to (``None``: an
            already connected one, else a local Ray started for this run).
        num_workers: ``engine="ray"`` only: shards evaluated at once (default: the cluster's CPUs).
    """
    from .. import _loop

    if engine not in ("local", "ray"):
        raise ConfigError(f"engine must be 'local' or 'ray', got {engine!r}")
    if engine == "ray":
        from ..distributed import evaluate_ray  # lazy: Ray is an optional extra

        return evaluate_ray(
            data=data, evaluators=evaluators, evaluator_config=evaluator_config, target=target,
            output_path=output_path, fail_on_evaluator_errors=fail_on_evaluator_errors,
            max_concurrency=max_concurrency, resume=resume, rerun_failed=rerun_failed, force=force,
            num_runs=num_runs, show_progress=show_progress, timeout=timeout, evaluation_name=evaluation_name,
            tags=tags, azure_ai_project=azure_ai_project, ray_address=ray_address, num_workers=num_workers,
        )
    if ray_address is not None or num_workers is not None:
        raise ConfigError("ray_address / num_workers apply to engine='ray' only")

    coro = evaluate_async(
        data=data,
        evaluators=evaluators,
        evaluator_config=evaluator_config,
        target=target,
        output_path=output_path,
        fail_on_evaluator_errors=fail_on_evaluator_errors,
        max_concurrency=max_concurrency,
        resume=resume,
        rerun_failed=rerun_failed,
        force=force,
        num_runs=num_runs,
        show_progress=show_progress,
        timeout=timeout,
        evaluation_name=evaluation_name,
        tags=tags,
        azure_ai_project=azure_ai_project,
    )
    loop = _loop._background_loop()
    if threading.current_thread() is _loop._thread:
        coro.close()
        raise RuntimeError("evaluate() was called from inside the evaluators' event loop; use `await evaluate_async(...)`")
    future = asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return future.result()
    except BaseException:
        if not future.done():
            future.cancel()
            try:
                future.result(timeout=10)
            except BaseException:
                pass
        raise
