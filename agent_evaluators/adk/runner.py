"""Run ADK eval sets the way ``adk eval`` does, against invocations we are given or produce.

ADK runs the agent itself; we do not import agents. The agent's invocations come from:

* a file (``actual=`` / ``--actual``): an ADK eval-set result JSON (the
  ``*.evalset_result.json`` ADK writes; its ``actual_invocation`` entries are used),
  or JSONL lines ``{"eval_id": ..., "invocations": [Invocation, ...]}`` (optionally with
  ``"eval_set_id"`` to tell apart cases of several sets with the same id);
* a ``target`` callable, called once per expected invocation, in order. It receives
  the keyword arguments it declares among ``query`` (user text), ``user_content``
  (genai Content dict), ``session_input`` (dict or ``None``), ``history`` (this case's
  earlier actual invocations, as dicts), ``eval_id`` and ``invocation_id``, and returns
  the final text or an Invocation-like dict (``final_response``, ``intermediate_data``
  ...; ``user_content`` and ``invocation_id`` are filled in from the expected one).
  It may be async.

Verdicts follow ADK exactly: a metric passes when ``score >= threshold``; a case
passes when some metric passed and none failed; ``NOT_EVALUATED`` metrics are skipped,
so a case with only those is ``NOT_EVALUATED``; a metric that raises is
``NOT_EVALUATED`` (the reason goes into the case's ``notes``); a case whose invocations
could not be obtained is ``FAILED`` with no metric results. In the summary, everything
that is not ``PASSED`` counts as failed, and the exit code is 1 then (or when nothing
ran), 2 on a bad config or bad usage.

``conversation_scenario`` cases need ADK's user simulator and are ``NOT_EVALUATED``.
The informational efficiency metrics ADK appends (tool_call_count_v1, ...) are not
computed.
"""

import argparse
import asyncio
import inspect
import json
import logging
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from pydantic import ValidationError

from .._concurrency import new_limiter, use_judge_limiter
from ..errors import AgentEvalError, ConfigError, InputError
from .config import EvalConfig, find_config_for, load_eval_config, parse_eval_config
from .convert import content_text, function_calls, as_invocation
from .loading import load_eval_set, validation_message
from .metrics import aevaluate_invocations, get_metric
from .models import Content, EvalCase, EvalSet, Invocation, Part, Rubric
from .results import (
    EvalCaseResult,
    EvalMetricResult,
    EvalMetricResultDetails,
    EvalMetricResultPerInvocation,
    EvalStatus,
    RubricScore,
    new_eval_set_result,
)

__all__ = ["run_eval_sets", "arun_eval_sets", "load_actual_invocations", "main", "final_eval_status"]

logger = logging.getLogger(__name__)

ActualKey = Union[str, Tuple[str, str]]
ActualMap = Mapping[ActualKey, Sequence[Any]]
ConfigLike = Union[None, str, Path, EvalConfig, Mapping[str, Any]]

TARGET_ARGUMENTS = ("query", "user_content", "session_input", "history", "eval_id", "invocation_id")
SCENARIO_NOTE = (
    "conversation_scenario cases are driven by ADK's user simulator, which agent-eval does not run; "
    "not evaluated"
)


# ----------------------------------------------------------------------------- public API


def run_eval_sets(
    paths: Union[str, Path, Sequence[Union[str, Path]]],
    *,
    config: ConfigLike = None,
    actual: Union[None, str, Path, ActualMap] = None,
    target: Optional[Callable[..., Any]] = None,
    output_dir: Union[None, str, Path] = None,
    model_config: Any = None,
    max_concurrency: int = 10,
) -> List[EvalCaseResult]:
    """Evaluate eval-set files; returns one :class:`EvalCaseResult` per case, in file order.

    Args:
        paths: eval-set files (``.evalset.json`` / ``.test.json``, any ADK shape); a
            ``FILE:case1,case2`` suffix selects cases, as in ``adk eval``.
        config: a ``test_config.json`` path, a parsed :class:`EvalConfig` or dict; ``None``
            uses the ``test_config.json`` beside each eval-set file, else ADK's defaults.
        actual: where the agent's invocations come from (a file or ``{eval_id: [...]}``).
        target: or a callable producing them (see the module docstring).
        output_dir: where to write one ``<id>_<time>.evalset_result.json`` per eval set.
        model_config: the judge for judge metrics (``None``: from the environment).
        max_concurrency: judge calls in flight at once, across the whole run.

    Raises:
        ConfigError / InputError: bad config, unreadable eval set, neither or both of
            ``actual`` and ``target``. Metric failures never raise: they are recorded.
    """
    from .._loop import run_sync

    return run_sync(
        arun_eval_sets(paths, config=config, actual=actual, target=target, output_dir=output_dir,
                       model_config=model_config, max_concurrency=max_concurrency)
    )


async def arun_eval_sets(
    paths: Union[str, Path, Sequence[Union[str, Path]]],
    *,
    config: ConfigLike = None,
    actual: Union[None, str, Path, ActualMap] = None,
    target: Optional[Callable[..., Any]] = None,
    output_dir: Union[None, str, Path] = None,
    model_config: Any = None,
    max_concurrency: int = 10,
) -> List[EvalCaseResult]:
    """Async twin of :func:`run_eval_sets`."""
    plan = prepare_run(paths, config=config, actual=actual, target=target, model_config=model_config)
    return await plan.run(output_dir=output_dir, model_config=model_config, max_concurrency=max_concurrency)


# ----------------------------------------------------------------------------- planning


@dataclass
class EvalSetJob:
    """One eval-set file with its config and the cases selected to run."""

    path: str
    eval_set: EvalSet
    config: EvalConfig
    cases: List[EvalCase]


@dataclass
class RunPlan:
    """Everything checked before any case runs: files, configs, metrics, the source of invocations."""

    jobs: List[EvalSetJob]
    actual: Optional[ActualMap] = None
    target: Optional[Callable[..., Any]] = None
    written: List[Path] = field(default_factory=list)

    async def run(self, *, output_dir: Union[None, str, Path], model_config: Any, max_concurrency: int) -> List[EvalCaseResult]:
        results: List[EvalCaseResult] = []
        with use_judge_limiter(new_limiter(max_concurrency)):
            case_slots = asyncio.Semaphore(max_concurrency)

            async def one(job: EvalSetJob, case: EvalCase) -> EvalCaseResult:
                async with case_slots:
                    return await _run_case(job, case, self.actual, self.target, model_config)

            for job in self.jobs:
                case_results = list(await asyncio.gather(*(one(job, case) for case in job.cases)))
                results.extend(case_results)
                if output_dir is not None:
                    path = new_eval_set_result(job.eval_set.eval_set_id, case_results).write(output_dir)
                    self.written.append(path)
                    logger.info("wrote %s", path)
        return results


def prepare_run(
    paths: Union[str, Path, Sequence[Union[str, Path]]],
    *,
    config: ConfigLike = None,
    actual: Union[None, str, Path, ActualMap] = None,
    target: Optional[Callable[..., Any]] = None,
    model_config: Any = None,
) -> RunPlan:
    """Load and check everything up front, so that bad input fails before any judge call:
    files, configs, metric names, judge metrics being installed, a judge being configured."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if not paths:
        raise InputError("no eval-set file given", input_name="paths")
    if actual is not None and target is not None:
        raise ConfigError("give either actual invocations or a target, not both")
    if actual is None and target is None:
        raise ConfigError(
            "no agent invocations to evaluate: an eval set holds only the expected invocations. Pass "
            "--actual FILE (an ADK *.evalset_result.json, or JSONL lines {\"eval_id\": ..., \"invocations\": [...]}) "
            "or, from Python, target=callable"
        )
    if target is not None and not callable(target):
        raise ConfigError(f"target must be callable, got {type(target).__name__}")
    if target is not None:
        _target_arguments(target)  # fail now if it accepts none of the arguments we pass
    explicit = _as_config(config) if config is not None else None
    jobs = []
    for raw in paths:
        path, selected = split_case_selector(str(raw))
        cfg = explicit or _config_beside(path)
        for name, crit in cfg.criteria.items():
            spec = get_metric(name)
            spec.evaluator_class()  # a judge metric that is not available yet fails the run here
            if spec.uses_judge:
                _check_judge(model_config, crit)
        eval_set = load_eval_set(path, criteria=cfg.criteria)
        cases = eval_set.eval_cases
        if selected:
            known = {c.eval_id for c in cases}
            missing = [s for s in selected if s not in known]
            if missing:
                raise InputError(f"{path}: no eval case with id {', '.join(map(repr, missing))}", input_name=path)
            cases = [c for c in cases if c.eval_id in selected]
        jobs.append(EvalSetJob(path, eval_set, cfg, cases))
    actual_map = load_actual_invocations(actual) if isinstance(actual, (str, Path)) else actual
    return RunPlan(jobs, actual_map, target)


def _check_judge(model_config: Any, crit: Any) -> None:
    """Resolve the judge config now (no request is sent), so a missing judge is a usage error
    rather than every case coming back NOT_EVALUATED."""
    from ..judge.config import resolve_config
    from .metrics import judge_endpoint

    resolve_config(judge_endpoint(model_config, crit))


def split_case_selector(spec: str) -> Tuple[str, List[str]]:
    """``"FILE:case1,case2"`` → ``(FILE, [case1, case2])``; a file name that exists as given wins,
    and a Windows drive prefix (``C:\\``) is not a selector (ADK's ``parse_and_get_evals_to_run``)."""
    if Path(spec).exists():
        return spec, []
    start = 3 if len(spec) >= 3 and spec[0].isalpha() and spec[1] == ":" and spec[2] in "\\/" else 0
    i = spec.find(":", start)
    if i == -1:
        return spec, []
    cases = [s.strip() for s in spec[i + 1:].split(":")[0].split(",") if s.strip()]
    return spec[:i], cases


def _as_config(config: ConfigLike) -> EvalConfig:
    if isinstance(config, EvalConfig):
        return config
    if isinstance(config, Mapping):
        return parse_eval_config(config, source="config")
    return load_eval_config(config)  # type: ignore[arg-type]


def _config_beside(path: str) -> EvalConfig:
    found = find_config_for(path)
    return load_eval_config(found) if found is not None else load_eval_config(None)


# ----------------------------------------------------------------------------- actual invocations


def load_actual_invocations(path: Union[str, Path]) -> Dict[ActualKey, List[Dict[str, Any]]]:
    """Read the agent's invocations per eval case from an ADK eval-set result file (JSON,
    or the legacy double-encoded JSON string; a list of results works too) or from JSONL
    lines ``{"eval_id", "invocations"[, "eval_set_id"]}``.

    Returns ``{eval_id: [invocation dict, ...]}``; entries that name their eval set are
    also stored under ``(eval_set_id, eval_id)``.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"actual invocations file not found: {p}", input_name="actual")
    text = p.read_text(encoding="utf-8")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        return _from_jsonl(text, str(p))
    if isinstance(data, str):  # ADK's legacy double-encoded result file
        try:
            data = json.loads(data)
        except json.JSONDecodeError:
            raise InputError(f"{p}: holds a JSON string that is not JSON itself", input_name="actual") from None
    out: Dict[ActualKey, List[Dict[str, Any]]] = {}
    if isinstance(data, dict) and "eval_id" in data and "invocations" in data:
        _add_line(out, data, str(p), "$")
        return out
    results = data if isinstance(data, list) else [data]
    for ri, result in enumerate(results):
        where = f"$[{ri}]" if isinstance(data, list) else "$"
        if not isinstance(result, dict):
            raise InputError(f"{p}: {where} is not an eval-set result object", input_name="actual")
        cases = result.get("eval_case_results", result.get("evalCaseResults"))
        if not isinstance(cases, list):
            raise InputError(
                f"{p}: {where} is not an ADK eval-set result (no 'eval_case_results') nor a JSONL line with "
                "'eval_id' and 'invocations'",
                input_name="actual",
            )
        set_id = result.get("eval_set_id", result.get("evalSetId"))
        for ci, case in enumerate(cases):
            cwhere = f"{where}.eval_case_results[{ci}]"
            eval_id = case.get("eval_id", case.get("evalId")) if isinstance(case, dict) else None
            if eval_id is None:
                raise InputError(f"{p}: {cwhere} has no eval_id", input_name="actual")
            per = case.get("eval_metric_result_per_invocation", case.get("evalMetricResultPerInvocation")) or []
            invocations = []
            for ii, item in enumerate(per):
                inv = item.get("actual_invocation", item.get("actualInvocation")) if isinstance(item, dict) else None
                if inv is None:
                    raise InputError(
                        f"{p}: {cwhere}.eval_metric_result_per_invocation[{ii}] has no actual_invocation",
                        input_name="actual",
                    )
                invocations.append(inv)
            _store(out, set_id, str(eval_id), invocations)
    return out


def _from_jsonl(text: str, source: str) -> Dict[ActualKey, List[Dict[str, Any]]]:
    out: Dict[ActualKey, List[Dict[str, Any]]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{source}: line {lineno} is not JSON ({exc.msg}); expected an ADK eval-set result JSON or "
                "JSONL lines {\"eval_id\": ..., \"invocations\": [...]}",
                input_name="actual",
            ) from None
        _add_line(out, item, source, f"line {lineno}")
    return out


def _add_line(out: Dict[ActualKey, List[Dict[str, Any]]], item: Any, source: str, where: str) -> None:
    if not isinstance(item, dict) or "eval_id" not in item or not isinstance(item.get("invocations"), list):
        raise InputError(
            f"{source}: {where} must be an object with 'eval_id' and a list 'invocations'", input_name="actual"
        )
    _store(out, item.get("eval_set_id"), str(item["eval_id"]), item["invocations"])


def _store(out: Dict[ActualKey, List[Dict[str, Any]]], set_id: Any, eval_id: str, invocations: List[Any]) -> None:
    if set_id is not None:
        out[(str(set_id), eval_id)] = invocations
    out.setdefault(eval_id, invocations)


def _lookup(actual: ActualMap, eval_set_id: str, eval_id: str) -> Optional[Sequence[Any]]:
    found = actual.get((eval_set_id, eval_id))
    return found if found is not None else actual.get(eval_id)


# ----------------------------------------------------------------------------- one case


async def _run_case(
    job: EvalSetJob, case: EvalCase, actual: Optional[ActualMap], target: Optional[Callable[..., Any]], model_config: Any
) -> EvalCaseResult:
    set_id = job.eval_set.eval_set_id
    user_id = case.session_input.user_id if case.session_input and case.session_input.user_id else None
    base = dict(eval_set_file=set_id, eval_set_id=set_id, eval_id=case.eval_id, session_id="", user_id=user_id)
    if case.conversation is None:
        return EvalCaseResult(final_eval_status=EvalStatus.NOT_EVALUATED, notes=[SCENARIO_NOTE], **base)
    expected = case.conversation
    try:
        if actual is not None:
            given = _lookup(actual, set_id, case.eval_id)
            if given is None:
                raise InputError(f"the actual invocations have no entry for eval case {case.eval_id!r}")
            actual_invs = [as_invocation(v, where=f"actual[{case.eval_id!r}][{i}]") for i, v in enumerate(given)]
        else:
            actual_invs = await _infer(target, case)  # type: ignore[arg-type]
        if len(actual_invs) != len(expected):
            raise InputError(
                f"eval case {case.eval_id!r} has {len(expected)} expected invocation(s) but {len(actual_invs)} actual"
            )
        _copy_rubrics(case, expected, actual_invs)
    except Exception as exc:  # noqa: BLE001 - ADK records an inference failure as FAILED, no metric results
        logger.error("eval case %r of %s: could not obtain the agent's invocations: %s", case.eval_id, job.path, exc)
        return EvalCaseResult(final_eval_status=EvalStatus.FAILED, notes=[f"no invocations to evaluate: {exc}"], **base)

    names = list(job.config.criteria)
    outcomes = await asyncio.gather(
        *(aevaluate_invocations(n, actual_invs, expected, job.config.criteria[n], model_config) for n in names),
        return_exceptions=True,
    )
    per_invocation = [
        EvalMetricResultPerInvocation(actual_invocation=a, expected_invocation=e) for a, e in zip(actual_invs, expected)
    ]
    overall: List[EvalMetricResult] = []
    notes: List[str] = []
    for name, outcome in zip(names, outcomes):
        crit = job.config.criteria[name]
        head = dict(metric_name=name, threshold=crit.threshold, criterion=crit.to_json_dict())
        if isinstance(outcome, BaseException):
            if not isinstance(outcome, Exception):
                raise outcome
            logger.error("metric %s failed for eval case %r: %s", name, case.eval_id, outcome, exc_info=outcome)
            notes.append(f"{name}: not evaluated: {type(outcome).__name__}: {outcome}")
            overall.append(EvalMetricResult(eval_status=EvalStatus.NOT_EVALUATED, **head))
            for item in per_invocation:
                item.eval_metric_results.append(EvalMetricResult(eval_status=EvalStatus.NOT_EVALUATED, **head))
            continue
        overall.append(EvalMetricResult(
            score=outcome.score, eval_status=EvalStatus[outcome.status],
            details=EvalMetricResultDetails(rubric_scores=_rubrics(outcome.details.get("rubric_scores"))), **head,
        ))
        if outcome.status == "NOT_EVALUATED":
            notes.append(f"{name}: not evaluated: {outcome.details.get('reason', '')}")
        for item, inv in zip(per_invocation, outcome.per_invocation):
            if inv.error:
                notes.append(f"{name}: invocation {item.actual_invocation.invocation_id or '?'}: {inv.error}")
            item.eval_metric_results.append(EvalMetricResult(
                score=inv.score, eval_status=EvalStatus[inv.status],
                details=EvalMetricResultDetails(
                    rubric_scores=_rubrics(inv.details.get("rubric_scores") if isinstance(inv.details, Mapping) else None)
                ),
                **head,
            ))
    return EvalCaseResult(
        final_eval_status=final_eval_status(m.eval_status for m in overall),
        overall_eval_metric_results=overall,
        eval_metric_result_per_invocation=per_invocation,
        notes=notes,
        **base,
    )


def final_eval_status(statuses: Iterable[EvalStatus]) -> EvalStatus:
    """ADK's ``_generate_final_eval_status``: PASSED once any metric passed, FAILED at the first
    failure; NOT_EVALUATED and INFORMATIONAL metrics are skipped."""
    final = EvalStatus.NOT_EVALUATED
    for status in statuses:
        if status == EvalStatus.PASSED:
            final = EvalStatus.PASSED
        elif status == EvalStatus.FAILED:
            return EvalStatus.FAILED
    return final


def _rubrics(items: Any) -> Optional[List[RubricScore]]:
    if not items:
        return None
    out = []
    for s in items:
        if isinstance(s, Mapping) and s.get("rubric_id") is not None:
            out.append(RubricScore(rubric_id=str(s["rubric_id"]), rationale=s.get("rationale"), score=s.get("score")))
    return out or None


def _copy_rubrics(case: EvalCase, expected: Sequence[Invocation], actual: Sequence[Invocation]) -> None:
    """ADK copies case rubrics and each expected invocation's rubrics onto the actual invocations.
    A rubric already there unchanged (e.g. actual invocations read from an ADK result file, where
    ADK had copied them) is skipped; the same id with other content is an error, as in ADK."""
    for i, inv in enumerate(actual):
        for rubric in list(case.rubrics or []) + list(expected[i].rubrics or []):
            _add_rubric(inv, rubric)


def _add_rubric(invocation: Invocation, rubric: Rubric) -> None:
    current = invocation.rubrics or []
    for existing in current:
        if existing.rubric_id == rubric.rubric_id:
            if existing == rubric:
                return
            raise ValueError(f"Rubric with rubric_id '{rubric.rubric_id}' already exists.")
    invocation.rubrics = [*current, rubric]


# ----------------------------------------------------------------------------- target


def _target_arguments(target: Callable[..., Any]) -> Optional[Tuple[str, ...]]:
    """The keyword arguments ``target`` takes among ours; ``None`` means it takes ``**kwargs``."""
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return None
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    names = tuple(n for n in TARGET_ARGUMENTS if n in params)
    if not names:
        raise ConfigError(
            f"target {getattr(target, '__name__', target)!r} takes none of the arguments it would be given: "
            f"{', '.join(TARGET_ARGUMENTS)}"
        )
    return names


async def _infer(target: Callable[..., Any], case: EvalCase) -> List[Invocation]:
    accepted = _target_arguments(target)
    history: List[Invocation] = []
    for expected in case.conversation or []:
        offered = {
            "query": content_text(expected.user_content),
            "user_content": expected.user_content.to_json_dict(),
            "session_input": case.session_input.to_json_dict() if case.session_input else None,
            "history": [h.to_json_dict() for h in history],
            "eval_id": case.eval_id,
            "invocation_id": expected.invocation_id,
        }
        kwargs = offered if accepted is None else {k: offered[k] for k in accepted}
        if inspect.iscoroutinefunction(target):
            reply = await target(**kwargs)
        else:
            reply = await asyncio.to_thread(target, **kwargs)
            if inspect.isawaitable(reply):
                reply = await reply
        history.append(_as_actual(reply, expected))
    return history


def _as_actual(reply: Any, expected: Invocation) -> Invocation:
    if isinstance(reply, str):
        return Invocation(
            invocation_id=expected.invocation_id,
            user_content=expected.user_content,
            final_response=Content(role="model", parts=[Part(text=reply)]),
        )
    if isinstance(reply, Invocation):
        return reply
    if isinstance(reply, Mapping):
        data = dict(reply)
        if "user_content" not in data and "userContent" not in data:
            data["user_content"] = expected.user_content.to_json_dict()
        if not data.get("invocation_id") and not data.get("invocationId"):
            data["invocation_id"] = expected.invocation_id
        try:
            return Invocation.model_validate(data)
        except ValidationError as exc:
            raise InputError(f"target returned an invalid invocation:\n{validation_message(exc)}") from None
    raise InputError(f"target must return the final text or an invocation dict, got {type(reply).__name__}")


# ----------------------------------------------------------------------------- printing (CLI only)

_FIELD_VALUE_COLUMN = 30
_FIELD_VALUE_WIDTH = 80
_RULE = "-" * 69


def format_summary(results: Sequence[EvalCaseResult]) -> str:
    """ADK's ``Eval Run Summary`` block."""
    counts: Dict[str, List[int]] = {}
    for r in results:
        pf = counts.setdefault(r.eval_set_id, [0, 0])
        pf[0 if r.final_eval_status == EvalStatus.PASSED else 1] += 1
    lines = ["*" * 69, "Eval Run Summary"]
    for set_id, (passed, failed) in counts.items():
        lines.append(f"{set_id}:\n  Tests passed: {passed}\n  Tests failed: {failed}")
    return "\n".join(lines)


def format_case(result: EvalCaseResult) -> str:
    """ADK's ``pretty_print_eval_result`` (plus our ``Note:`` lines saying why something was not evaluated)."""
    lines = [
        f"Eval Set Id: {result.eval_set_id}",
        f"Eval Id: {result.eval_id}",
        f"Overall Eval Status: {result.final_eval_status.name}",
    ]
    lines += [f"Note: {note}" for note in result.notes]
    for m in result.overall_eval_metric_results:
        lines.append(_RULE)
        lines.append(f"Metric: {m.metric_name}, Status: {m.eval_status.name}, Score: {m.score}, Threshold: {m.threshold}")
        if m.details.rubric_scores:
            lines.append("Rubric Scores:")
            texts = _rubric_texts(m)
            for s in m.details.rubric_scores:
                lines.append(f"Rubric: {texts.get(s.rubric_id) or s.rubric_id}, Score: {s.score}, Reasoning: {s.rationale}")
    if result.eval_metric_result_per_invocation:
        lines.append(_RULE)
        lines.append("Invocation Details:")
        n = len(result.eval_metric_result_per_invocation)
        for index, item in enumerate(result.eval_metric_result_per_invocation, start=1):
            lines.append(f"\nInvocation {index} of {n}")
            for label, value in _invocation_fields(item):
                lines.extend(_field_lines(label, value))
        lines.append("\n")
    return "\n".join(lines)


def _rubric_texts(m: EvalMetricResult) -> Dict[str, Optional[str]]:
    rubrics = (m.criterion or {}).get("rubrics") or []
    return {r.get("rubric_id"): (r.get("rubric_content") or {}).get("text_property") for r in rubrics if isinstance(r, dict)}


def _format_call(call: Any) -> str:
    args = [f"{k}={v!r}" for k, v in (call.args or {}).items()]
    if not args:
        return f"{call.name}()"
    return f"{call.name}(\n  " + ",\n  ".join(args) + ")"


def _invocation_fields(item: EvalMetricResultPerInvocation) -> List[Tuple[str, str]]:
    act, exp = item.actual_invocation, item.expected_invocation
    fields: List[Tuple[str, Optional[str]]] = [
        ("prompt", content_text(act.user_content)),
        ("expected_response", content_text(exp.final_response) if exp else None),
        ("actual_response", content_text(act.final_response)),
        ("expected_tool_calls", "\n".join(_format_call(c) for c in function_calls(exp)) if exp else None),
        ("actual_tool_calls", "\n".join(_format_call(c) for c in function_calls(act))),
    ]
    for m in item.eval_metric_results:
        fields.append((m.metric_name, f"{m.eval_status.name} ({m.score})"))
        if m.details.rubric_scores:
            texts = _rubric_texts(m)
            for s in m.details.rubric_scores:
                fields.append(("rubric", f"{texts.get(s.rubric_id) or s.rubric_id}\nScore: {s.score}, Reasoning: {s.rationale}"))
    return [(label, value) for label, value in fields if value is not None]


def _field_lines(label: str, value: str) -> List[str]:
    wrapped = [w for line in value.splitlines() or ["(none)"] for w in textwrap.wrap(line, _FIELD_VALUE_WIDTH) or [""]]
    prefix = f"  {label}: ".ljust(_FIELD_VALUE_COLUMN)
    return [f"{prefix}{wrapped[0]}"] + [f"{' ' * len(prefix)}{w}" for w in wrapped[1:]]


# ----------------------------------------------------------------------------- CLI


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-eval adk",
        description="Evaluate agent invocations against ADK eval sets with ADK's criteria (test_config.json).",
    )
    parser.add_argument("eval_sets", nargs="+", metavar="EVALSET",
                        help="eval-set file (.evalset.json / .test.json); FILE:case1,case2 selects cases")
    parser.add_argument("--config", "--config_file_path", dest="config", metavar="test_config.json",
                        help="criteria config (default: test_config.json beside each eval set, else ADK's defaults)")
    parser.add_argument("--actual", metavar="FILE", required=False,
                        help="the agent's invocations: an ADK *.evalset_result.json, or JSONL "
                             '{"eval_id": ..., "invocations": [...]} lines')
    parser.add_argument("--output", metavar="DIR", help="folder for the *.evalset_result.json files")
    parser.add_argument("--print_detailed_results", "--print-detailed-results", action="store_true",
                        help="print every case's metrics and invocations")
    parser.add_argument("--max_concurrency", "--max-concurrency", type=int, default=10,
                        help="judge calls in flight at once (default 10)")
    return parser


def main(argv: Optional[Sequence[str]] = None, *, target: Optional[Callable[..., Any]] = None) -> int:
    """``agent-eval adk EVALSET... [--config F] [--actual F] [--output DIR] [--print_detailed_results]``.

    Exit code: 0 when every case passed, 1 when any did not (or none ran), 2 on bad usage or config.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse reports usage errors itself
        return int(exc.code or 0)
    out = sys.stdout
    try:
        plan = prepare_run(args.eval_sets, config=args.config, actual=args.actual, target=target)
        if args.max_concurrency < 1:
            raise ConfigError("--max_concurrency must be at least 1")
    except AgentEvalError as exc:
        print(f"agent-eval adk: error: {exc}", file=sys.stderr)
        return 2
    seen = set()
    for job in plan.jobs:
        shown = repr(job.config)
        if shown not in seen:
            seen.add(shown)
            print(f"Using evaluation criteria: {shown}", file=out)
    from .._loop import run_sync

    try:
        results = run_sync(plan.run(output_dir=args.output, model_config=None, max_concurrency=args.max_concurrency))
    except AgentEvalError as exc:
        print(f"agent-eval adk: error: {exc}", file=sys.stderr)
        return 2
    print(format_summary(results), file=out)
    if args.print_detailed_results:
        for r in results:
            print("*" * 68, file=out)
            print(format_case(r), file=out)
    for path in plan.written:
        print(f"Eval set result written to {path}", file=out)
    failed = sum(1 for r in results if r.final_eval_status != EvalStatus.PASSED)
    return 1 if failed or not results else 0
