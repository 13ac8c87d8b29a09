"""``agent-eval adk EVALSET... [--config F] [--actual F] [--output DIR] [--print_detailed_results]``.

Prints what ``adk eval`` prints (the criteria used, the ``Eval Run Summary``, and with
``--print_detailed_results`` every case's metrics and invocations), and writes ADK's
eval-set result file ``<app>_<eval_set_id>_<timestamp>.evalset_result.json`` per eval set
under ``--output DIR``, by default ``./.adk/eval_history`` (ADK keeps its eval history in
``.adk/eval_history`` too), printing each path.

Exit code: 0 when every evaluated case passed, 1 when a case failed (a case whose metrics
are all ``NOT_EVALUATED`` is not a failure), 2 on bad usage or configuration.
"""

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from ..adk.results import EvalStatus
from ..errors import AgentEvalError, ConfigError
from .printing import format_case, format_summary
from .runner import prepare_run

__all__ = ["main", "build_parser", "DEFAULT_OUTPUT"]

#: where result files go without ``--output`` (relative to the working directory)
DEFAULT_OUTPUT = Path(".adk") / "eval_history"


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
    parser.add_argument("--output", metavar="DIR", default=None,
                        help=f"folder for the *.evalset_result.json files (default: {DEFAULT_OUTPUT})")
    parser.add_argument("--app_name", "--app-name", default=None,
                        help="app name in result file names (default: the cases' session_input.app_name, "
                             "else the eval-set file's folder)")
    parser.add_argument("--print_detailed_results", "--print-detailed-results", action="store_true",
                        help="print every case's metrics and invocations")
    parser.add_argument("--num_runs", "--num-runs", type=int, default=1,
                        help="run each case this many times, each run with its own result (default 1)")
    parser.add_argument("--max_concurrency", "--max-concurrency", type=int, default=10,
                        help="judge calls in flight at once (default 10)")
    return parser


def main(argv: Optional[Sequence[str]] = None, *, target: Optional[Callable[..., Any]] = None) -> int:
    """Run ``agent-eval adk`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    ``target`` (Python callers only) is a per-turn agent callable, instead of ``--actual``.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse reports usage errors itself
        return int(exc.code or 0)
    out = sys.stdout
    try:
        if args.max_concurrency < 1:
            raise ConfigError("--max_concurrency must be at least 1")
        plan = prepare_run(args.eval_sets, config=args.config, actual=args.actual, target=target,
                           app_name=args.app_name, num_runs=args.num_runs)
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

    output = Path(args.output) if args.output is not None else DEFAULT_OUTPUT
    try:
        results = run_sync(plan.run(output_dir=output, model_config=None, max_concurrency=args.max_concurrency))
    except AgentEvalError as exc:
        print(f"agent-eval adk: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the result folder cannot be written
        print(f"agent-eval adk: error: cannot write the results to {output}: {exc}", file=sys.stderr)
        return 2
    print(format_summary(results), file=out)
    if args.print_detailed_results:
        for r in results:
            print("*" * 68, file=out)
            print(format_case(r), file=out)
    for path in plan.written:
        print(f"Eval set result written to {path}", file=out)
    return 1 if any(r.final_eval_status == EvalStatus.FAILED for r in results) else 0


if __name__ == "__main__":  # pragma: no cover - ``python -m agent_evaluators.adk_eval.cli``
    sys.exit(main())
