"""``agent-eval run``: build the run from flags and the config file, evaluate, print, write checks.json."""

import argparse
from pathlib import Path
from typing import Dict, Optional, TextIO

from .._safe_text import terminal_safe as _safe
from ..errors import AgentEvalError
from ..run_config import JUDGE_HOWTO, RunConfig, build_evaluators, load_config, parse_evaluator_arg, parse_threshold
from .outcome import RunOutcome, check_thresholds, exit_code, summarize_rows
from .output import print_checks, print_failures, print_table

__all__ = ["run_command", "add_run_parser", "CHECKS_FILE", "EXIT_CODES"]

EXIT_CODES = (
    "Exit codes: 2 on bad configuration or any errored cell; else 1 when a run-level threshold failed "
    "(or, with no thresholds, any scored cell failed); else 0. Evaluators skipped for want of a judge do not count."
)

CHECKS_FILE = "checks.json"


# ---------------------------------------------------------------------------- run
def _build_config(args: argparse.Namespace) -> RunConfig:
    cfg = load_config(args.config) if args.config else RunConfig()
    if args.data:
        cfg.data = Path(args.data)
    if args.evaluator:
        cfg.evaluators = [parse_evaluator_arg(e) for e in args.evaluator]
    if args.threshold:
        cfg.thresholds = cfg.thresholds + [parse_threshold(t) for t in args.threshold]
    if args.output:
        cfg.output = Path(args.output)
    if args.concurrency is not None:
        cfg.concurrency = args.concurrency
    cfg.judge = cfg.judge.merged(model=args.judge_model, base_url=args.judge_base_url, api_key_env=args.judge_api_key_env)
    cfg.check()
    return cfg


def _default_output(cfg: RunConfig) -> Path:
    assert cfg.data is not None
    stem = cfg.data.name.split(".")[0] or "run"
    return Path("agent-eval-results") / stem


def run_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..runner import evaluate

    try:
        cfg = _build_config(args)
        evaluators, skipped, model_config = build_evaluators(cfg)
        result_keys: Dict[str, Optional[str]] = {
            spec.alias: getattr(evaluators.get(spec.alias) or spec.cls, "result_key", None) for spec in cfg.evaluators
        }
        output = cfg.output or _default_output(cfg)
        print(_safe(f"agent-eval: evaluating {cfg.data} with {', '.join(evaluators)} -> {output}"), file=out)
        if model_config is not None and any(s.uses_judge for s in cfg.evaluators):
            where = model_config.get("base_url") or model_config.get("azure_endpoint") or "https://api.openai.com/v1"
            print(f"judge: {model_config.get('model') or model_config.get('azure_deployment')} at {where}", file=out)
        out.flush()
        result = evaluate(
            data=str(cfg.data),
            evaluators=evaluators,
            evaluator_config=cfg.evaluator_config() or None,
            output_path=output,
            max_concurrency=cfg.concurrency or 10,
            resume=bool(args.resume),
        )
    except AgentEvalError as exc:
        print(f"agent-eval: error: {_safe(exc)}", file=err)
        return 2

    aliases = [s.alias for s in cfg.evaluators]
    ran = [a for a in aliases if a not in skipped]
    failures, n_fail, n_err, n_rows = summarize_rows(result.rows, ran, result_keys)
    outcome = RunOutcome(
        metrics=dict(result.metrics), usage=dict(result.usage or {}), aliases=aliases, result_keys=result_keys,
        skipped=skipped, failures=failures, fail_count=n_fail, error_count=n_err, rows=n_rows,
    )
    outcome.checks = check_thresholds(cfg.thresholds, outcome.metrics, skipped)
    code = exit_code(outcome)

    print(f"\n{n_rows} row(s) evaluated\n", file=out)
    print_table(outcome, out)
    print_failures(outcome, out)
    print_checks(outcome, out)
    if skipped:
        print(f"\nSkipped {_safe(', '.join(skipped))}: judge-backed evaluators need a judge model; to run them, {JUDGE_HOWTO}.",
              file=out)
    _write_checks(output, outcome, code)
    written = [output / "rows.jsonl", output / "summary.json"]
    if args.junit:
        from ..report.junit import write_junit

        write_junit(Path(args.junit), result.rows, outcome)
        written.append(Path(args.junit))
    if args.html:
        from ..report import write_report

        written.append(write_report(output))
    print("\nWrote " + ", ".join(str(p) for p in written), file=out)
    verdict = {0: "PASS", 1: "FAIL (threshold)", 2: "ERROR (evaluator errors)"}[code]
    print(f"Result: {verdict}, exit code {code}", file=out)
    return code


def _write_checks(output: Path, outcome: RunOutcome, code: int) -> None:
    """What the report shows beyond summary.json: skipped evaluators, run thresholds, the exit code."""
    from ..runner.store import write_json_atomic

    write_json_atomic(output / CHECKS_FILE, {
        "skipped": outcome.skipped,
        "judge_howto": JUDGE_HOWTO if outcome.skipped else None,
        "thresholds": outcome.checks,
        "exit_code": code,
        "failed_cells": outcome.fail_count,
        "error_cells": outcome.error_count,
    })




def add_run_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    run = sub.add_parser("run", help="evaluate a dataset", description=EXIT_CODES)
    run.add_argument("--config", metavar="FILE", help="run config (YAML or JSON): data, evaluators, thresholds, judge")
    run.add_argument("--data", metavar="FILE", help="JSONL / CSV / JSON / ADK eval-set file (overrides the config)")
    run.add_argument("--evaluator", "-e", action="append", metavar="NAME[=ALIAS]",
                     help="registry name (see `agent-eval list`), repeatable; replaces the config's evaluators")
    run.add_argument("--threshold", "-t", action="append", metavar="'ALIAS.METRIC >= N'",
                     help="run-level threshold, repeatable (added to the config's)")
    run.add_argument("--judge-model", metavar="M", help="judge model (or Azure deployment) name")
    run.add_argument("--judge-base-url", metavar="URL", help="OpenAI-compatible judge endpoint, e.g. http://127.0.0.1:11434/v1")
    run.add_argument("--judge-api-key-env", metavar="VAR", help="environment variable that holds the judge API key")
    run.add_argument("--output", "-o", metavar="DIR", help="results folder (default: agent-eval-results/<data name>)")
    run.add_argument("--concurrency", type=int, metavar="N", help="judge requests in flight (default 10)")
    run.add_argument("--resume", action="store_true", help="continue the run in --output: only missing or errored cells run")
    run.add_argument("--html", action="store_true", help="also write report.html into the results folder")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML (a test case per row and evaluator)")
    run.set_defaults(func=run_command)
