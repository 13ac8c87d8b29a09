"""``agent-eval adk [AGENT_DIR] EVALSET_FILE_OR_DIR[:case,...]... [--config F] [--actual F] [--output DIR] [--timeout S]
[--record-tools DIR | --replay-tools DIR [--replay-match JSON_OR_FILE]]``.

Two forms, as ``adk eval``:

* ``agent-eval adk AGENT_DIR EVALSET...``: the first positional is an ADK agent package
  folder (its ``agent.py`` defines ``root_agent``). The agent runs with ADK's own ``Runner``
  on every selected case (static cases replay their user turns; ``conversation_scenario``
  cases are driven by the user simulator on the judge, or on ``user_simulator_config.model``),
  ``--num_runs`` times, each run within ``--timeout`` seconds (default 600; a case past it is
  an error case), and its invocations are scored;
* ``agent-eval adk EVALSET... --actual FILE``: score recorded invocations.

With an agent, ``--record-tools DIR`` keeps every tool call of each case (tool, arguments,
result, turn) in ``DIR/<eval_set_id>/<eval_id>.json``; ``--replay-tools DIR`` executes no tool
and serves each call its recorded result (a Runner plugin: the agent is not changed). A call
whose tool and arguments are not recorded, or a case without a recording, is an error case
naming the case and the call (``--replay-match`` relaxes the argument matching per tool).

An eval-set argument is a file or a folder (every ``*.evalset.json`` / ``*.test.json`` in
it); ``FILE:case1,case2`` selects cases. Without ``--config`` the ``test_config.json`` beside
each eval set is used, else ADK's defaults. The judge comes from ``--judge-model``,
``--judge-base-url`` and ``--judge-api-key-env`` (``agent-eval run``'s flags), else the environment.

Prints what ``adk eval`` prints (the criteria used, the ``Eval Run Summary``, and with
``--print_detailed_results`` every case's metrics and invocations), and writes ADK's
eval-set result file ``<app>_<eval_set_id>_<timestamp>.evalset_result.json`` per eval set
under ``--output DIR``, by default ``./.adk/eval_history`` (ADK keeps its eval history in
``.adk/eval_history`` too), printing each path. The run's rows (every case with its
invocations, the simulated user's turns and each criterion's cell) are kept in
``DIR/run_<timestamp>/`` for ``agent-eval report`` (``--html`` writes the report at once).

Exit code: 0 when every evaluated case passed, 1 when a case failed (a case whose metrics
are all ``NOT_EVALUATED`` is not a failure), 2 on bad usage or configuration, or when a case
has errors (a criterion the judge could not score, an agent that crashed or ran past
``--timeout``): those are printed to stderr, one line each, and the result file is still written
with the case ``FAILED`` and its ``errors``.
"""

import argparse
import logging
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterator, List, Optional, Sequence, Tuple

from ..adk.evalsets.printing import format_case, format_errors, format_summary
from ..adk.evalsets.runner import DEFAULT_CASE_TIMEOUT, RunPlan, prepare_run, split_case_selector
from ..adk.results import EvalStatus
from ..errors import AgentEvalError, ConfigError, InputError
from ..runner.option_table import checked
from .flag_vocabulary import EVAL_SETS
from .judge_flags import add_judge_arguments, model_config_from_args
from .messages import for_cli, render_record

#: where result files go without ``--output`` (relative to the working directory)
DEFAULT_OUTPUT = Path(".adk") / "eval_history"
EVAL_FILE_PATTERNS = ("*.evalset.json", "*.test.json")
#: the name ADK gives the threads of its tool pool (``google.adk.utils._sync_runner``)
ADK_TOOL_THREAD_PREFIX = "adk_tool_executor"


def for_adk_cli(text: Any) -> str:
    """A message as an ``agent-eval adk`` user should read it: its references (``model_config``,
    ``num_runs``, where a raw judge reply is kept) in this command's words (:data:`~.words.EVAL_SETS`)."""
    return for_cli(text, EVAL_SETS)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-eval adk",
        description="Run an ADK agent on eval sets (or score recorded invocations) with ADK's criteria "
                    "(test_config.json).",
    )
    parser.add_argument("paths", nargs="+", metavar="[AGENT_DIR] EVALSET",
                        help="an ADK agent package folder to run (optional, first), then eval-set files or "
                             "folders (.evalset.json / .test.json); FILE:case1,case2 selects cases")
    parser.add_argument("--config", "--config_file_path", dest="config", metavar="test_config.json",
                        help="criteria config (default: test_config.json beside each eval set, else ADK's defaults)")
    parser.add_argument("--actual", metavar="FILE", required=False,
                        help="without AGENT_DIR: the agent's recorded invocations, an ADK *.evalset_result.json "
                             'or JSONL {"eval_id": ..., "invocations": [...]} lines')
    parser.add_argument("--output", metavar="DIR", default=None,
                        help=f"folder for the *.evalset_result.json files and the run's rows (default: {DEFAULT_OUTPUT})")
    parser.add_argument("--html", action="store_true", help="also write report.html into the run's rows folder")
    parser.add_argument("--app_name", "--app-name", default=None,
                        help="app name in result file names (default: the cases' session_input.app_name, "
                             "else the eval-set file's folder)")
    parser.add_argument("--print_detailed_results", "--print-detailed-results", action="store_true",
                        help="print every case's metrics and invocations")
    parser.add_argument("--num_runs", "--num-runs", type=int, default=1,
                        help="run each case this many times, each run with its own result (default 1)")
    tools = parser.add_mutually_exclusive_group()
    tools.add_argument("--record-tools", "--record_tools", metavar="DIR", default=None,
                       help="with AGENT_DIR: record every tool call (tool, arguments, result, turn) of each case "
                            "into DIR/<eval_set_id>/<eval_id>.json (plain JSON you can read and edit)")
    tools.add_argument("--replay-tools", "--replay_tools", metavar="DIR", default=None,
                       help="with AGENT_DIR: execute no tool; serve each call the result recorded in DIR. A call "
                            "not in the recording, or a case without one, is an error case (exit 2)")
    parser.add_argument("--replay-match", "--replay_match", metavar="JSON_OR_FILE", default=None,
                        help='with --replay-tools: argument matching per tool, e.g. '
                             '\'{"get_weather": {"ignore_args": ["date"]}}\' ("*": every tool; true: ignore all '
                             "arguments), inline or a .json/.yaml file; a recording's own \"match\" wins")
    parser.add_argument("--timeout", type=float, default=DEFAULT_CASE_TIMEOUT, metavar="SECONDS",
                        help="deadline of each case's agent run, every turn included; a case past it is an error "
                             f"case and the run goes on (default {DEFAULT_CASE_TIMEOUT:g}; 0: no limit)")
    # the same judge flags, spelled the same, as `agent-eval run` (ADK's --max_concurrency stays an alias)
    add_judge_arguments(parser, concurrency_default=10)
    return parser


def _is_agent_dir(path: str) -> bool:
    folder = Path(path)
    return folder.is_dir() and ((folder / "agent.py").is_file() or (folder / "__init__.py").is_file())


def split_agent_and_eval_sets(paths: Sequence[str]) -> Tuple[Optional[str], List[str]]:
    """(agent folder or ``None``, eval-set files with their ``:case,...`` selectors).

    The first positional is the agent when it is a package folder and more follow; an
    eval-set folder expands to the eval files in it (sorted), as ``AgentEvaluator`` does.
    """
    agent: Optional[str] = None
    rest = list(paths)
    if len(rest) >= 2 and _is_agent_dir(rest[0]):
        agent = rest.pop(0)
    elif len(rest) == 1 and _is_agent_dir(rest[0]) and not any(Path(rest[0]).glob(EVAL_FILE_PATTERNS[0])):
        raise ConfigError(f"{rest[0]} is an agent folder: name the eval set too "
                          "(agent-eval adk AGENT_DIR EVALSET_FILE_OR_DIR)")
    specs: List[str] = []
    for spec in rest:
        path, selected = split_case_selector(spec)
        if Path(path).is_dir():
            if selected:
                raise InputError(f"{spec}: a case selector needs an eval-set file, not a folder", input_name=spec)
            found = sorted({str(f) for pattern in EVAL_FILE_PATTERNS for f in Path(path).rglob(pattern)})
            if not found:
                raise InputError(f"{path}: no eval files (*.evalset.json or *.test.json) in this folder",
                                 input_name=path)
            specs += found
        else:
            specs.append(spec)
    return agent, specs


def _judge(args: argparse.Namespace) -> Any:
    """The judge ``model_config`` from the flags and the environment (``None``: the environment, later)."""
    return model_config_from_args(args)


def _new_run_dir(output: Path) -> Path:
    """``output/run_<timestamp>``, suffixed when a run of the same second is already there
    (the engine would otherwise read that folder's rows as a run to continue)."""
    base = output / time.strftime("run_%Y%m%d-%H%M%S")
    run_dir, n = base, 1
    while run_dir.exists():
        n += 1
        run_dir = base.with_name(f"{base.name}-{n}")
    return run_dir


def _plan(args: argparse.Namespace, target: Optional[Callable[..., Any]]) -> Tuple[RunPlan, Any]:
    checked("max_concurrency", args.max_concurrency)  # before the agent loads: the run option's own check
    if args.timeout < 0:
        raise ConfigError(f"--timeout must be a number of seconds (0: no limit), got {args.timeout:g}")
    agent, eval_sets = split_agent_and_eval_sets(args.paths)
    if agent is None and (args.record_tools or args.replay_tools):
        raise ConfigError(f"{'--record-tools' if args.record_tools else '--replay-tools'} needs the agent to run: "
                          "name its folder first (agent-eval adk AGENT_DIR EVALSET)")
    if args.replay_match is not None and not args.replay_tools:
        raise ConfigError("--replay-match applies to --replay-tools DIR: give both")
    model_config = _judge(args)
    producer = None
    if agent is not None:
        if args.actual is not None or target is not None:
            raise ConfigError("give an agent folder or --actual, not both: the agent's run is what gets scored")
        from ..adk.agent_runner import agent_producer

        recorder = _tool_recorder(args)
        try:
            producer = agent_producer(agent, simulator_model_config=model_config, tool_recorder=recorder)
        except AgentEvalError:
            raise
        except Exception as exc:  # noqa: BLE001 - the user's agent module failed to import
            raise ConfigError(f"{agent}: the agent could not be loaded: {type(exc).__name__}: {exc}") from exc
    plan = prepare_run(eval_sets, config=args.config, actual=args.actual, target=target, producer=producer,
                       model_config=model_config, app_name=args.app_name, num_runs=args.num_runs)
    return plan, model_config


def _tool_recorder(args: argparse.Namespace) -> Any:
    """The run's :class:`~agent_evaluators.agents.tool_replay.ToolRecorder` (``None``: tools run live)."""
    from ..agents.recordings import RECORD, REPLAY, load_match_rules
    from ..agents.tool_replay import ToolRecorder

    if args.record_tools:
        if args.num_runs > 1:
            raise ConfigError("--record-tools keeps one run per case: record with --num_runs 1, then replay "
                              "(--replay-tools) as many runs as you like")
        return ToolRecorder(args.record_tools, RECORD)
    if args.replay_tools:
        if not Path(args.replay_tools).is_dir():
            raise ConfigError(f"--replay-tools {args.replay_tools}: no such folder of tool recordings; record one "
                              "first with --record-tools DIR")
        return ToolRecorder(args.replay_tools, REPLAY, match=load_match_rules(args.replay_match))
    return None


def main(argv: Optional[Sequence[str]] = None, *, target: Optional[Callable[..., Any]] = None) -> int:
    """Run ``agent-eval adk`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    ``target`` (Python callers only) is a per-turn agent callable, instead of ``--actual``.
    When a case ran past ``--timeout`` and ADK's tool threads are still alive (a sync tool that
    never returns would hold the process at exit), the command's process ends here with the exit
    code, once everything is written and printed (not when a Python program called this function).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse reports usage errors itself
        return int(exc.code or 0)
    with _warnings_in_flag_words(), _adk_logs_without_replay_misses():
        return _run(args, target)


@contextmanager
def _stderr_warnings(logger_name: str, handler: logging.Handler) -> Iterator[None]:
    """While the command runs, ``logger_name``'s warnings go to stderr through ``handler``, unless
    logging is configured (then the user's own handlers decide, and this adds nothing)."""
    logger = logging.getLogger(logger_name)
    if logger.handlers or logging.getLogger().handlers:
        yield
        return
    handler.setLevel(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def _warnings_in_flag_words() -> ContextManager[None]:
    """The package's log warnings (a judge that failed on an invocation ...) as
    ``agent-eval adk: warning: ...`` in flag words."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_FlagWordsFormatter("agent-eval adk: %(levelname)s: %(message)s"))
    return _stderr_warnings("agent_evaluators", handler)


def _adk_logs_without_replay_misses() -> ContextManager[None]:
    """ADK logs a plugin's exception with its traceback at three levels (plugin, node, runner): a
    replayed tool call missing from the recording is said once instead, on its case's error line.
    ADK's other log records reach stderr as before."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_not_a_replay_miss)
    return _stderr_warnings("google_adk", handler)


def _not_a_replay_miss(record: logging.LogRecord) -> bool:
    exc = record.exc_info[1] if record.exc_info else None
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, InputError) and exc.input_name == "replay-tools":
            return False
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return True


class _FlagWordsFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        render_record(record, EVAL_SETS)
        return super().format(record).replace(": WARNING: ", ": warning: ", 1)


def _run(args: argparse.Namespace, target: Optional[Callable[..., Any]]) -> int:
    out = sys.stdout
    try:
        plan, model_config = _plan(args, target)
    except AgentEvalError as exc:
        print(f"agent-eval adk: error: {for_adk_cli(exc)}", file=sys.stderr)
        return 2
    seen = set()
    for job in plan.jobs:
        shown = repr(job.config)
        if shown not in seen:
            seen.add(shown)
            print(f"Using evaluation criteria: {shown}", file=out)
    out.flush()
    from .._util.loop import run_sync

    output = Path(args.output) if args.output is not None else DEFAULT_OUTPUT
    run_dir = _new_run_dir(output)
    try:
        results = run_sync(plan.run(output_dir=output, model_config=model_config,
                                    max_concurrency=args.max_concurrency, run_dir=run_dir,
                                    timeout=args.timeout or None, judge_mode=args.judge_mode or "direct"))
    except AgentEvalError as exc:
        print(f"agent-eval adk: error: {for_adk_cli(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # the result folder cannot be written
        print(f"agent-eval adk: error: cannot write the results to {output}: {exc}", file=sys.stderr)
        return 2
    print(format_summary(results), file=out)
    if args.print_detailed_results:
        for r in results:
            print("*" * 68, file=out)
            print(format_case(r, EVAL_SETS), file=out)
    for path in plan.written:
        print(f"Eval set result written to {path}", file=out)
    if run_dir.is_dir():
        print(f"Run rows written to {run_dir} (agent-eval report {run_dir} renders them as HTML)", file=out)
        if args.html:
            from ..report import write_report

            print(f"Report written to {write_report(run_dir)}", file=out)
    errors = format_errors(results, EVAL_SETS)
    for line in errors:
        print(f"agent-eval adk: error: {line}", file=sys.stderr)
    code = 2 if errors else 1 if any(r.final_eval_status == EvalStatus.FAILED for r in results) else 0
    if plan.timed_out and _stuck_threads() and _is_command():
        # a timed-out case's blocking tool still holds a thread, which Python would wait for at
        # exit (for as long as the tool blocks): everything is written, so the process ends now
        print(f"agent-eval adk: {len(plan.timed_out)} case(s) ran past --timeout; a tool still blocked "
              "in its thread is abandoned", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _is_command() -> bool:
    """Whether this process is the command (``agent-eval``, ``python -m agent_evaluators...``), not a
    Python program that called :func:`main`: only the command may end the process."""
    launched = Path(sys.argv[0] if sys.argv else "")
    return launched.stem == "agent-eval" or (launched.name == "__main__.py" and "agent_evaluators" in launched.parts)


def _stuck_threads() -> bool:
    """Whether ADK's tool threads are alive: after a timed-out case one may still be inside a sync
    tool that never returns, and Python joins those threads at exit (however long the tool blocks)."""
    import threading

    return any(t.is_alive() and t.name.startswith(ADK_TOOL_THREAD_PREFIX) for t in threading.enumerate())


if __name__ == "__main__":  # pragma: no cover - ``python -m agent_evaluators.cli.eval_sets``
    sys.exit(main())
