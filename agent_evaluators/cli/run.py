"""``agent-eval run``: build the run from flags and the config file, evaluate, print, write checks.json."""

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TextIO, Tuple

from .._util.safe_text import terminal_safe as _safe
from ..config.run_config import (
    JUDGE_HOWTO,
    RunConfig,
    build_evaluators,
    load_config,
    parse_evaluator_arg,
    parse_threshold,
)
from ..config.thresholds import check_threshold_metrics, check_threshold_scales
from ..errors import AgentEvalError, ConfigError
from ..runner.option_table import CONTINUING
from .judge_flags import add_judge_arguments, judge_settings_from_args
from .messages import cell_reason, evalset_hint, interruption_told_here, print_error
from .output import print_checks, print_failures, print_table
from .run_flags import add_run_option_flags, run_option_overrides
from .run_outcome import RunOutcome, check_thresholds, exit_code, summarize_rows

if TYPE_CHECKING:
    from ..runner import RunInterrupted

EXIT_CODES = (
    "Exit codes: 2 on bad configuration, any errored cell, or a run the judge budget (--max-cost / --max-judge-calls) "
    "stopped with cells not run; else 1 when a run-level threshold failed "
    "(or, with no thresholds, any scored cell failed); else 3 when a threshold is INCONCLUSIVE (a judge panel "
    "agreeing below --min-agreement, or with --require-certified a judge not certified by people's labels); "
    "else 0. Evaluators skipped for want of a judge do not count."
)

CHECKS_FILE = "checks.json"


# ---------------------------------------------------------------------------- run
def _split_assignment(text: str, flag: str, example: str) -> Tuple[str, str, str]:
    """``ALIAS.KEY=VALUE`` -> (alias, key, value)."""
    target, eq, value = str(text).partition("=")
    alias, dot, key = target.strip().partition(".")
    if not eq or not dot or not alias or not key.strip():
        raise ConfigError(f"{flag} {text!r}: write {flag} ALIAS.KEY=VALUE, e.g. {flag} {example}")
    return alias, key.strip(), value.strip()


def _spec(cfg: RunConfig, alias: str, flag: str) -> Any:
    for spec in cfg.evaluators:
        if spec.alias == alias:
            return spec
    raise ConfigError(f"{flag}: no evaluator with alias {alias!r} in this run "
                      f"(aliases: {', '.join(s.alias for s in cfg.evaluators)})")


def _apply_maps(cfg: RunConfig, maps: List[str]) -> None:
    """``--map ALIAS.INPUT=COLUMN`` (``default.INPUT`` for every evaluator); COLUMN may be ``${data.x}`` or ``x``."""
    for text in maps:
        alias, name, column = _split_assignment(text, "--map", "trajectory.ground_truth=expected_tool_calls")
        if not column:
            raise ConfigError(f"--map {text!r}: name the column after '='")
        ref = column if column.startswith("${") else "${data." + column + "}"
        if alias == "default":
            cfg.column_mapping = {**(cfg.column_mapping or {}), name: ref}
        else:
            spec = _spec(cfg, alias, f"--map {text}")
            spec.column_mapping = {**(spec.column_mapping or {}), name: ref}


def _apply_options(cfg: RunConfig, options: List[str]) -> None:
    """``--option ALIAS.KEY=VALUE``: a constructor argument; VALUE is read as a YAML scalar (1, 0.5, true, [a, b])."""
    import yaml

    for text in options:
        alias, key, raw = _split_assignment(text, "--option", "trajectory.match_type=in_order")
        try:
            value = yaml.safe_load(raw) if raw else ""
        except yaml.YAMLError:
            value = raw
        _spec(cfg, alias, f"--option {text}").options[key] = value


def _build_config(args: argparse.Namespace) -> RunConfig:
    cfg = load_config(args.config) if args.config else RunConfig()
    if args.data:
        cfg.data = Path(args.data)
    if args.evaluator:
        cfg.evaluators = [parse_evaluator_arg(e) for e in args.evaluator]
    if args.threshold:
        cfg.thresholds = cfg.thresholds + [parse_threshold(t) for t in args.threshold]
    cfg.run_options.update(run_option_overrides(args))  # flags over the file's keys
    if getattr(args, "judge_config", None):  # a judge file of its own replaces the run config's judge:
        from ..config.judge_panels import read_judge_config_file
        cfg.judge, cfg.judge_panel = read_judge_config_file(Path(args.judge_config))
    cfg.judge = judge_settings_from_args(args, cfg.judge)
    _apply_maps(cfg, args.map or [])
    _apply_options(cfg, args.option or [])
    cfg.check()
    return cfg


def _known_result_keys(cfg: RunConfig, evaluators: Dict[str, Any],
                       result_keys: Dict[str, Optional[str]]) -> Dict[str, Any]:
    """The result keys of the aliases whose metrics are known before the run: the package's evaluators
    (a composite's: its own key and its members')."""
    from ..evaluators.base import Evaluator

    def ours(spec: Any) -> bool:
        built = evaluators.get(spec.alias)
        cls = type(built) if built is not None else spec.cls
        return isinstance(cls, type) and issubclass(cls, Evaluator)

    def key(spec: Any) -> Any:
        composite = getattr(evaluators.get(spec.alias) or spec.cls, "result_keys", None)
        if composite:
            return tuple(composite)
        if spec.alias in evaluators:
            return result_keys.get(spec.alias)
        return spec.options.get("result_key") or result_keys.get(spec.alias)  # not built: no judge configured

    return {spec.alias: key(spec) for spec in cfg.evaluators if ours(spec)}


def _known_scales(cfg: RunConfig, evaluators: Dict[str, Any]) -> Dict[str, Tuple[str, Tuple[float, float], bool]]:
    """alias -> (result key, score scale, higher is better) for the evaluators that declare a scale (built,
    or their class when no judge is configured): what a threshold on them can mean."""
    from ..evaluators.base import score_scale

    out: Dict[str, Tuple[str, Tuple[float, float], bool]] = {}
    for spec in cfg.evaluators:
        obj = evaluators.get(spec.alias) or spec.cls
        key, scale = getattr(obj, "result_key", None), score_scale(obj)
        if isinstance(key, str) and key and scale is not None:
            out[spec.alias] = (key, scale, bool(getattr(obj, "higher_is_better", True)))
    return out


def _default_output(cfg: RunConfig) -> Path:
    assert cfg.data is not None
    stem = cfg.data.name.split(".")[0] or "run"
    return Path("agent-eval-results") / stem


#: the exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells report it
EXIT_INTERRUPTED = 130


def _interrupted(exc: "RunInterrupted", out: TextIO, err: TextIO) -> int:
    """Ctrl-C: the finished rows are saved; say how many and the exact command that continues the run."""
    out.flush()
    of = f" of {exc.total}" if exc.total is not None else ""
    print(f"\nagent-eval: interrupted; {exc.rows_done}{of} row(s) done", file=err)
    if exc.output_path is not None:
        argv = [a for a in sys.argv[1:] if a not in ("--resume", "--force")]
        print(f"Saved in {_safe(exc.output_path)}. Resume with:\n  "
              + _safe(shlex.join(["agent-eval", *argv, "--resume"])), file=err)
    return EXIT_INTERRUPTED


def _print_judge_batches(used: Optional[Dict[str, int]], out: TextIO) -> None:
    """A batch run says it was one (``summary.json``'s ``judge_batches``): its judge was asked through the
    provider's Batch API, at the batch price and pace, which the table alone does not show."""
    if not used:
        return
    direct = used.get("direct_requests") or 0
    print(f"\nJudge mode: batch: {used.get('batched_requests', 0)} judge request(s) answered from "
          f"{used.get('batches', 0)} batch(es) of the provider's Batch API"
          + (f", {direct} sent directly (retries)" if direct else ""), file=out)


def run_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..config.run_call import evaluate_with
    from ..runner import RunInterrupted
    from ..runner.ledger import no_rows_message

    cfg: Optional[RunConfig] = None
    try:
        cfg = _build_config(args)
        evaluators, skipped, model_config = build_evaluators(cfg)
        result_keys: Dict[str, Optional[str]] = {
            spec.alias: getattr(evaluators.get(spec.alias) or spec.cls, "result_key", None) for spec in cfg.evaluators
        }
        azure_compat = bool(cfg.run_options.get("azure_compat"))
        check_threshold_metrics(cfg.thresholds, _known_result_keys(cfg, evaluators, result_keys), azure_compat)
        check_threshold_scales(cfg.thresholds, _known_scales(cfg, evaluators))
        output = cfg.run_options.setdefault("output_path", _default_output(cfg))
        print(_safe(f"agent-eval: evaluating {cfg.data} with {', '.join(evaluators)} -> {output}"), file=out)
        if model_config is not None and any(s.uses_judge for s in cfg.evaluators):
            from ..config.judge_panels import describe_judges
            print(_safe(describe_judges(model_config) or ""), file=out)  # a ?key=... never reaches the terminal
        out.flush()
        with interruption_told_here():  # _interrupted says it, with the resume command
            result = evaluate_with(str(cfg.data), evaluators, cfg.evaluator_config() or None, cfg.run_options)
    except RunInterrupted as exc:
        return _interrupted(exc, out, err)
    except AgentEvalError as exc:
        hint = evalset_hint(cfg.data if cfg else None, [str(exc)])
        code = print_error(err, exc)
        if hint:
            print(_safe(hint), file=err)
        return code

    if cfg.run_options.get("dry_run"):
        return _dry_run_done(result, output, out)
    aliases = [s.alias for s in cfg.evaluators]
    ran = [a for a in aliases if a not in skipped]
    failures, n_fail, n_err, n_rows = summarize_rows(result.rows, ran, result_keys, result.problems)
    if n_rows == 0:
        return print_error(err, no_rows_message(cfg.data))
    outcome = RunOutcome(
        metrics=dict(result.metrics), usage=dict(result.usage or {}), aliases=aliases, result_keys=result_keys,
        skipped=skipped, failures=failures, fail_count=n_fail, error_count=n_err, rows=n_rows,
        intervals=dict((result.summary or {}).get("intervals") or {}),
        azure_compat=bool(cfg.run_options.get("azure_compat")),
        budget_stop=_budget_stop(result.summary or {}),
    )
    for f in outcome.failures:
        if f.kind == "error" and f.problem is not None:  # its problem in flag words, the cell named above it
            f.reason = cell_reason(f.problem)
    outcome.checks = check_thresholds(cfg.thresholds, outcome.metrics, skipped, (result.summary or {}).get("agreement"),
                                      (result.summary or {}).get("certification"),
                                      bool(cfg.run_options.get("require_certified")))
    code = exit_code(outcome)

    continued = any(cfg.run_options.get(name) for name in CONTINUING)
    reused = int((result.summary or {}).get("rows_reused") or 0) if continued else 0
    kept = f" ({reused} kept from the earlier run, {n_rows - reused} evaluated now)" if continued else ""
    print(f"\n{n_rows} row(s) evaluated{kept}\n", file=out)
    print_table(outcome, out)
    _print_judge_batches((result.summary or {}).get("judge_batches"), out)
    print_failures(outcome, out)
    print_checks(outcome, out)
    _print_agreement((result.summary or {}).get("agreement") or {}, out)
    _print_calibration(args, evaluators, out)
    _print_certification((result.summary or {}).get("certification") or {}, outcome.metrics, out)
    if skipped:
        print(f"\nSkipped {_safe(', '.join(skipped))}: judge-backed evaluators need a judge model; to run them, {JUDGE_HOWTO}.",
              file=out)
    hint = evalset_hint(cfg.data, [f.reason for f in outcome.failures if f.kind == "error"])
    if hint:
        print("\n" + _safe(hint), file=out)
    azure_file = None
    if output.suffix.lower() == ".json":  # azure-ai-evaluation style: its result file there, our folder beside it
        azure_file, output = output, output.with_suffix("")
    _record_calibration(_calibration_status(args, evaluators), output)
    _write_checks(output, outcome, code)
    written = [output / "rows.jsonl", output / "summary.json"] + ([azure_file] if azure_file else [])
    if args.junit:
        from ..report.junit import write_junit

        write_junit(Path(args.junit), result.rows, outcome)
        written.append(Path(args.junit))
    if args.html:
        from ..report import write_report

        written.append(write_report(output))
    print("\nWrote " + ", ".join(str(p) for p in written), file=out)
    print(f"Result: {verdict(code, outcome)}, exit code {code}", file=out)
    if outcome.budget_stop is not None:
        _print_budget_stop(outcome.budget_stop, err)
    return code


def _dry_run_done(result: Any, output: Path, out: TextIO) -> int:
    """A dry run's table and where its estimate went; exit 0 (no thresholds are checked)."""
    from .estimate_table import print_estimate

    summary = result.summary or {}
    print(f"\nDry run: {summary.get('rows', 0)} row(s) rendered, no judge called, thresholds not checked\n", file=out)
    print_estimate(result.estimate or {}, out)
    if summary.get("error_count"):
        print("\n" + _safe(f"{summary['error_count']} cell(s) could not be rendered (they would be errors in a real run); "
                    f"first: row {summary['errors'][0]['line_number']} {summary['errors'][0]['alias']}: "
                    f"{summary['errors'][0]['message']}"), file=out)
    where = output / ("summary.json" if (output / "summary.json").is_file() and not (output / "rows.jsonl").is_file()
                      else "estimate.json")
    print("\n" + _safe(f"Wrote {where}"), file=out)
    print("Result: DRY RUN, exit code 0", file=out)
    return 0


def _budget_stop(summary: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    budget = summary.get("budget")
    return budget if isinstance(budget, dict) and budget.get("stopped") else None


def _print_budget_stop(budget: Dict[str, Any], err: TextIO) -> None:
    """The judge budget stopped the run (the run's warning said why and what was spent): the command that
    finishes it."""
    argv: List[str] = []
    dropped = False
    for a in sys.argv[1:]:  # the old caps and --resume / --force out; the new cap goes last
        if dropped or a in ("--resume", "--force") or a.split("=")[0] in ("--max-cost", "--max-judge-calls"):
            dropped = a in ("--max-cost", "--max-judge-calls")  # its value is the next word
            continue
        argv.append(a)
    cap = "--max-cost USD" if budget.get("max_cost") is not None else "--max-judge-calls N"
    print(f"\nagent-eval: {budget.get('not_run_cells')} cell(s) not run, saved. Finish the run with a higher cap:\n  "
          + _safe(shlex.join(["agent-eval", *argv, "--resume"])) + f" {cap}", file=err)


def _calibration_status(args: argparse.Namespace, evaluators: Dict[str, Any]) -> Dict[str, Any]:
    """Each judge evaluator's calibration, from the record beside ``--judge-config`` or ``--config``."""
    from ..config.calibration_records import record_path_for, run_calibration

    source = getattr(args, "judge_config", None) or args.config
    return run_calibration(evaluators, record_path_for(Path(source)) if source else None)


def _print_agreement(agreement: Dict[str, Any], out: TextIO) -> None:
    from ..runner.panel_votes import describe_agreement

    if agreement:
        print("\nJudge panels:", file=out)
        for metric, record in agreement.items():
            print(_safe(f"  {metric}: {describe_agreement(record)}"), file=out)


def _print_calibration(args: argparse.Namespace, evaluators: Dict[str, Any], out: TextIO) -> None:
    from ..config.calibration_records import describe_calibration

    status = _calibration_status(args, evaluators)
    if status:
        print("\nJudge calibration:", file=out)
        for alias, record in status.items():
            print(_safe(f"  {alias}: {describe_calibration(record)}"), file=out)


def _record_calibration(status: Dict[str, Any], output: Path) -> None:
    """Add ``calibration`` (which calibration each judge had) to the run's ``summary.json``."""
    import json

    from ..runner.store import write_json_atomic

    path = output / "summary.json"
    if status and path.is_file():
        summary = json.loads(path.read_text(encoding="utf-8"))
        summary["calibration"] = status
        write_json_atomic(path, summary)


def verdict(code: int, outcome: RunOutcome) -> str:
    """``PASS``, ``FAIL (threshold)`` or ``ERROR (...)``, saying how many thresholds were not checked and why."""
    if code == 2 and outcome.budget_stop is not None and not outcome.error_count:
        n = outcome.budget_stop.get("not_run_cells")
        return f"INCOMPLETE (stopped by the judge budget: {n} cell(s) not run)"
    if code == 2 and outcome.not_run_total and not outcome.error_count:
        return f"INCOMPLETE ({outcome.not_run_total} cell(s) not run; finish them with --resume)"
    text = {0: "PASS", 1: "FAIL (threshold)", 2: f"ERROR ({_error_causes(outcome)})",
            3: f"INCONCLUSIVE ({_inconclusive_cause(outcome)})"}[code]
    unchecked = [c for c in outcome.checks if c["status"] == "skipped"]
    if code != 2 and unchecked:
        why = "no judge" if all(c.get("note") == "no judge configured" for c in unchecked) else "evaluator skipped"
        text += f" ({len(unchecked)} of {len(outcome.checks)} thresholds not checked: {why})"
    return text


def _inconclusive_cause(outcome: RunOutcome) -> str:
    """Why a run is INCONCLUSIVE: a judge panel agreeing too little, a judge people's labels did not certify."""
    notes = [c.get("note") or "" for c in outcome.checks if c["status"] == "inconclusive"]
    causes = (["a judge panel agrees below min_agreement"] if any("min_agreement" in n for n in notes) else []) + \
        (["a judge is not certified by people's labels"] if any("not certified" in n for n in notes) else [])
    return "; ".join(causes) or "a judge panel agrees below min_agreement"


def _print_certification(certification: Dict[str, Any], metrics: Dict[str, Any], out: TextIO) -> None:
    """Each judge's certification from people's labels and, where certified, the corrected pass rate."""
    from ..calibration import describe_certification

    if certification:
        print("\nJudge certification (people's labels):", file=out)
        for alias, record in certification.items():
            print(_safe("  " + describe_certification(alias, record, metrics)), file=out)


def _error_causes(outcome: RunOutcome) -> str:
    """What made a run ERROR: errored cells, unreadable input lines, or both, counted."""
    cells = sum(1 for f in outcome.failures if f.kind == "error")
    lines = sum(1 for f in outcome.failures if f.kind == "row")
    causes = ([f"{cells} evaluator error(s)"] if cells else []) + ([f"{lines} unreadable input line(s)"] if lines else [])
    return ", ".join(causes) or "evaluator errors"


def _write_checks(output: Path, outcome: RunOutcome, code: int) -> None:
    """What the report shows beyond summary.json: skipped evaluators, run thresholds, the exit code."""
    from ..runner.store import write_json_atomic

    write_json_atomic(output / CHECKS_FILE, {
        "skipped": outcome.skipped,
        "judge_howto": JUDGE_HOWTO if outcome.skipped else None,
        "thresholds": outcome.checks,
        "exit_code": code,
        **({"budget_stopped": True} if outcome.budget_stop is not None else {}),
        "failed_cells": outcome.fail_count,
        "error_cells": outcome.error_count,
    })




def add_run_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    run = sub.add_parser("run", help="evaluate a dataset", description=EXIT_CODES)
    run.add_argument("--config", metavar="FILE", help="run config (YAML or JSON): data, evaluators, thresholds, judge")
    run.add_argument("--data", metavar="FILE", help="JSONL / CSV / JSON / ADK eval-set file (overrides the config)")
    run.add_argument("--evaluator", "-e", action="append", metavar="NAME[=ALIAS]",
                     help="registry name (see `agent-eval list`), prompty:PATH or module:Class; repeatable; "
                          "replaces the config's evaluators")
    run.add_argument("--map", action="append", metavar="ALIAS.INPUT=COLUMN",
                     help="column mapping, repeatable: feed data column COLUMN to input INPUT of evaluator ALIAS "
                          "(ALIAS 'default': every evaluator)")
    run.add_argument("--option", action="append", metavar="ALIAS.KEY=VALUE",
                     help="constructor argument of evaluator ALIAS, repeatable; VALUE is read as YAML (1, 0.5, true, [a, b])")
    run.add_argument("--threshold", "-t", action="append", metavar="'ALIAS.METRIC >= N'",
                     help="run-level threshold, repeatable (added to the config's)")
    add_run_option_flags(run.add_argument_group("run options (any key of the config file; evaluate()'s keywords)"),
                         skip=("max_concurrency", "judge_mode"))  # the judge group has these two
    run.add_argument("--html", action="store_true", help="also write report.html into the results folder")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML (a test case per row and evaluator)")
    add_judge_arguments(run)
    run.set_defaults(func=run_command)
