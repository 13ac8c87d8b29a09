"""``agent-eval``: run evaluations from the command line.

::

    agent-eval run --config samples/eval.yaml [--html] [--junit results.xml]
    agent-eval run --data runs.jsonl --evaluator tool_trajectory=trajectory --evaluator intent_resolution
    agent-eval report RUN_DIR [--compare PREVIOUS_RUN_DIR]
    agent-eval list
    agent-eval adk EVALSET --config test_config.json      (Google ADK's runner, see agent_evaluators.adk.runner)

Exit codes of ``run``: 2 on bad configuration or when any row × evaluator cell
errored (errors take precedence); else 1 when a run-level threshold failed or,
with no thresholds, when any scored cell failed; else 0. Judge-backed evaluators
that were skipped because no judge is configured do not count.
"""

import argparse
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, TextIO, Tuple

from ._safe_text import terminal_safe as _safe
from .config import (
    JUDGE_HOWTO,
    RunConfig,
    Threshold,
    build_evaluators,
    describe_class,
    evaluator_class,
    evaluator_names,
    load_config,
    parse_evaluator_arg,
    parse_threshold,
)
from .errors import AgentEvalError

__all__ = ["main", "RunOutcome", "exit_code"]

EXIT_CODES = (
    "Exit codes: 2 on bad configuration or any errored cell; else 1 when a run-level threshold failed "
    "(or, with no thresholds, any scored cell failed); else 0. Evaluators skipped for want of a judge do not count."
)

logger = logging.getLogger("agent_evaluators.cli")

CHECKS_FILE = "checks.json"
MAX_FAILING_SHOWN = 15


# ---------------------------------------------------------------------------- outcome of a run
@dataclass
class CellFailure:
    line: int
    label: str
    alias: str
    kind: str  # "fail" | "error"
    score: Any = None
    threshold: Any = None
    reason: str = ""


@dataclass
class RunOutcome:
    """What the table, JUnit file and exit code are made from."""

    metrics: Dict[str, Any]
    usage: Dict[str, Any]
    aliases: List[str]
    result_keys: Dict[str, Optional[str]]
    skipped: Dict[str, str]  # alias -> why
    checks: List[Dict[str, Any]] = field(default_factory=list)
    failures: List[CellFailure] = field(default_factory=list)
    fail_count: int = 0
    error_count: int = 0
    rows: int = 0


def exit_code(outcome: RunOutcome) -> int:
    """2: error cells; 1: a threshold failed (or, without applicable thresholds, a scored cell failed); 0: pass."""
    if outcome.error_count:
        return 2
    applicable = [c for c in outcome.checks if c["status"] != "skipped"]
    if applicable:
        return 1 if any(c["status"] == "fail" for c in applicable) else 0
    return 1 if outcome.fail_count else 0


def _summarize_rows(rows: Any, aliases: Sequence[str], result_keys: Mapping[str, Optional[str]]) -> Tuple[List[CellFailure], int, int, int]:
    """Failing and erroring cells (for the table and exit code), read once from the rows."""
    from .report.load import cell_status, row_label

    failures: List[CellFailure] = []
    n_fail = n_err = n_rows = 0
    for row in rows:
        n_rows += 1
        line = row.get("line_number", n_rows - 1)
        for alias in aliases:
            key = result_keys.get(alias)
            prefix = f"outputs.{alias}."
            status = cell_status(row, alias)
            if status == "error":
                n_err += 1
                msg = (row.get(f"{prefix}{key}_error") if key else None) or row.get(f"{prefix}error")
                failures.append(CellFailure(line, row_label(row), alias, "error",
                                            reason=str(msg or row.get("row_error") or row.get("target_error") or "error")))
            elif status == "fail":
                n_fail += 1
                failures.append(CellFailure(
                    line, row_label(row), alias, "fail",
                    score=row.get(f"{prefix}{key}") if key else None,
                    threshold=row.get(f"{prefix}{key}_threshold") if key else None,
                    reason=str(row.get(f"{prefix}{key}_reason") or "") if key else "",
                ))
    return failures, n_fail, n_err, n_rows


def check_thresholds(thresholds: Sequence[Threshold], metrics: Mapping[str, Any], skipped: Mapping[str, str]) -> List[Dict[str, Any]]:
    out = []
    for t in thresholds:
        if t.alias in skipped:
            out.append({"check": str(t), "metric": t.metric, "value": None, "status": "skipped", "note": skipped[t.alias]})
            continue
        value = metrics.get(t.metric)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            known = sorted(k for k in metrics if k.startswith(t.alias + "."))
            out.append({"check": str(t), "metric": t.metric, "value": None, "status": "fail",
                        "note": f"no value for {t.metric} (this run has: {', '.join(known)})"})
            continue
        out.append({"check": str(t), "metric": t.metric, "value": value, "status": "pass" if t.check(value) else "fail",
                    "note": ""})
    return out


# ---------------------------------------------------------------------------- terminal output
def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _tokens(usage: Any) -> str:
    if not isinstance(usage, Mapping):
        return "-"
    p, c = usage.get("prompt_tokens"), usage.get("completion_tokens")
    calls = usage.get("judge_calls")
    if p is None and c is None and not calls:
        return "-"
    total = "?" if p is None or c is None else f"{p + c:,}"
    return f"{total} ({calls or 0} calls)"


def _shorten(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def print_table(outcome: RunOutcome, out: TextIO) -> None:
    headers = ["evaluator", "metric", "mean", "pass rate", "scored", "failed", "errors", "n/a", "judge tokens"]
    table: List[List[str]] = []
    for alias in outcome.aliases:
        key = outcome.result_keys.get(alias) or "-"
        if alias in outcome.skipped:
            table.append([alias, key, "skipped", "", "", "", "", "", ""])
            continue
        m = outcome.metrics
        rate = m.get(f"{alias}.pass_rate")
        fails = sum(1 for f in outcome.failures if f.alias == alias and f.kind == "fail")
        table.append([
            alias, key, _fmt(m.get(f"{alias}.{key}")),
            "-" if rate is None else f"{100 * rate:.1f}%",
            _fmt(m.get(f"{alias}.n")), str(fails), _fmt(m.get(f"{alias}.error_count")),
            _fmt(m.get(f"{alias}.not_applicable_count")), _tokens(outcome.usage.get(alias)),
        ])
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(headers)]
    right = {2, 3, 4, 5, 6, 7}

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    print(line(headers), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for r in table:
        print(_safe(line(r)), file=out)


def print_failures(outcome: RunOutcome, out: TextIO) -> None:
    if not outcome.failures:
        return
    errors = [f for f in outcome.failures if f.kind == "error"]
    fails = [f for f in outcome.failures if f.kind == "fail"]
    if errors:
        print(f"\nErrors ({len(errors)} cell(s)):", file=out)
        for f in errors[:MAX_FAILING_SHOWN]:
            reason = _safe(_shorten(f.reason, 600))
            print(f"  row {f.line:<4} {_safe(f.label):<16} {_safe(f.alias):<16}\n      {reason}", file=out)
        if len(errors) > MAX_FAILING_SHOWN:
            print(f"  ... and {len(errors) - MAX_FAILING_SHOWN} more (see summary.json)", file=out)
    if fails:
        print(f"\nFailing rows ({len(fails)} cell(s) below their threshold):", file=out)
        for f in fails[:MAX_FAILING_SHOWN]:
            cmp = f"{_fmt(f.score, 2)} < {_fmt(f.threshold, 2)}" if f.score is not None else "fail"
            reason = _safe(_shorten(f.reason, 80))
            print(f"  row {f.line:<4} {_safe(f.label):<16} {_safe(f.alias):<16} {cmp:<13} {reason}", file=out)
        if len(fails) > MAX_FAILING_SHOWN:
            print(f"  ... and {len(fails) - MAX_FAILING_SHOWN} more (see rows.jsonl or --html)", file=out)


def print_checks(outcome: RunOutcome, out: TextIO) -> None:
    if not outcome.checks:
        return
    print("\nRun thresholds:", file=out)
    for c in outcome.checks:
        value = "" if c["value"] is None else f"(actual {_fmt(c['value'])})"
        note = "(judge skipped)" if c["status"] == "skipped" else c["note"]
        label = {"pass": "PASS", "fail": "FAIL", "skipped": "SKIP"}[c["status"]]
        print(_safe(f"  {label:<4}  {c['check']:<44} {value:<16}{note}".rstrip()), file=out)


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
    from .runner import evaluate

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
    failures, n_fail, n_err, n_rows = _summarize_rows(result.rows, ran, result_keys)
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
        from .report.junit import write_junit

        write_junit(Path(args.junit), result.rows, outcome)
        written.append(Path(args.junit))
    if args.html:
        from .report import write_report

        written.append(write_report(output))
    print("\nWrote " + ", ".join(str(p) for p in written), file=out)
    verdict = {0: "PASS", 1: "FAIL (threshold)", 2: "ERROR (evaluator errors)"}[code]
    print(f"Result: {verdict}, exit code {code}", file=out)
    return code


def _write_checks(output: Path, outcome: RunOutcome, code: int) -> None:
    """What the report shows beyond summary.json: skipped evaluators, run thresholds, the exit code."""
    from .runner.store import write_json_atomic

    write_json_atomic(output / CHECKS_FILE, {
        "skipped": outcome.skipped,
        "judge_howto": JUDGE_HOWTO if outcome.skipped else None,
        "thresholds": outcome.checks,
        "exit_code": code,
        "failed_cells": outcome.fail_count,
        "error_cells": outcome.error_count,
    })


# ---------------------------------------------------------------------------- report / list
def report_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .report import write_report

    try:
        path = write_report(Path(args.run_dir), compare_to=Path(args.compare) if args.compare else None,
                            path=Path(args.output) if args.output else None)
    except AgentEvalError as exc:
        print(f"agent-eval: error: {_safe(exc)}", file=err)
        return 2
    print(f"Wrote {path}", file=out)
    return 0


def list_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json

    described = {}
    for name in evaluator_names():
        try:
            described[name] = describe_class(evaluator_class(name))
        except Exception as exc:  # one broken module must not hide the others
            described[name] = {"error": f"{type(exc).__name__}: {exc}"}
    if args.json:
        print(json.dumps(described, indent=2, default=str), file=out)
        return 0
    for name, d in described.items():
        if "error" in d:
            print(f"{name}\n    (cannot be imported: {d['error']})\n", file=out)
            continue
        kind = "judge" if d["judge"] else "deterministic"
        print(f"{name}  [{kind}]  {d['class']}, key {d['key']}, default threshold {d['threshold']}", file=out)
        print(f"    {d['summary']}", file=out)
        print(f"    inputs:  {', '.join(d['inputs'])}", file=out)
        if d["options"]:
            print(f"    options: {', '.join(d['options'])}", file=out)
        print(file=out)
    return 0


# ---------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agent-eval", description="Evaluate LLM agents from the command line.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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

    rep = sub.add_parser("report", help="write the HTML report of a finished run")
    rep.add_argument("run_dir", metavar="DIR", help="results folder with rows.jsonl and summary.json")
    rep.add_argument("--compare", metavar="PREV_DIR", help="an earlier run to compare with")
    rep.add_argument("--output", "-o", metavar="FILE", help="where to write (default DIR/report.html)")
    rep.set_defaults(func=report_command)

    lst = sub.add_parser("list", help="list the evaluators with their inputs and defaults")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(func=list_command)

    sub.add_parser("adk", help="run ADK eval sets with ADK's criteria (agent-eval adk --help)", add_help=False)
    sub.add_parser("judge", help="serve a local GGUF judge: agent-eval judge serve --model FILE.gguf", add_help=False)
    sub.add_parser("calibrate", help="accuracy and Cohen's kappa of your judge on our labelled sets", add_help=False)
    return parser


def _delegated(argv: List[str]) -> Optional[int]:
    """Subcommands whose parsers live beside their code (ADK runner, local judge, calibration)."""
    if not argv:
        return None
    if argv[0] == "adk":
        from .adk.runner import main as adk_main

        return adk_main(argv[1:])
    if argv[0] == "judge" and argv[1:2] == ["serve"]:
        from .local.cli import serve_main

        return serve_main(argv[2:])
    if argv[0] == "calibrate":
        from .calibration.cli import calibrate_main

        return calibrate_main(argv[1:])
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    delegated = _delegated(argv)
    if delegated is not None:
        return delegated
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else 2
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="agent-eval: %(levelname)s: %(message)s", stream=sys.stderr)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return args.func(args, sys.stdout, sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
