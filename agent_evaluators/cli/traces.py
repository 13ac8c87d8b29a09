"""``agent-eval traces FILE``: what a trace file or folder holds, as the evaluators will see it.

One line per agent run (trace, or conversation id): its turns, model calls, tool calls, tokens,
duration and which convention its messages were read from; then every run or line that could
not be read, with what is missing. Check this before ``agent-eval run --data FILE``: a run shown
here is a row there. Exit 0 when every run was read, 1 when some could not be, 2 on bad input.

Everything printed that came from the data (file names, conversation ids, span names inside the
problems) goes through :func:`.._util.safe_text.terminal_safe`: a file named with an escape
sequence or a newline is shown quoted (``\x1b``, ``\x0a``), never sent to the terminal. Runs
are read one at a time (:func:`..traces.runs_of`); only their table lines are kept.
"""

import argparse
import json
from pathlib import Path
from typing import Any, Iterable, List, TextIO

from .._util.safe_text import terminal_safe
from ..errors import ConfigError
from .messages import print_error
from .table import fit_table


def _short(trace_id: str) -> str:
    return trace_id[:12] + "…" if len(trace_id) > 13 else trace_id


def traces_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..traces import looks_like_otlp, runs_of
    from ..traces.trace_rows import run_row

    path = Path(args.file)
    shown = terminal_safe(path)
    if not path.exists():
        return print_error(err, ConfigError(f"traces: {shown} not found"))
    if not looks_like_otlp(path):
        return print_error(err, ConfigError(
            f"traces: {shown} holds no OTLP/JSON trace data (lines like {{\"resourceSpans\": [...]}}, as the "
            "OpenTelemetry collector's file exporter writes them)"))
    try:
        runs, problems = runs_of(path)
        if args.json:
            return _print_json(runs, problems, args.rows, run_row, out)
        rows: List[List[str]] = []
        unread: List[str] = []
        read = 0
        for run in runs:
            tokens = sum(run.usage.values()) if run.usage else None
            key = run.key if run.key not in run.trace_ids else _short(run.key)
            rows.append([terminal_safe(key), str(len(run.trace_ids)), str(run.turns), str(run.llm_calls),
                         str(run.tool_calls), "-" if tokens is None else str(tokens), f"{run.duration_s:.3f}",
                         ", ".join(run.conventions) or "-"])
            if run.problem:
                unread.append(run.problem)
            else:
                read += 1
    except BrokenPipeError:  # the reader of our output went away (| head): cli.main ends quietly
        raise
    except OSError as e:
        return print_error(err, ConfigError(f"traces: {shown} could not be read ({terminal_safe(e)})"))
    heads = ["run", "traces", "turns", "llm calls", "tool calls", "tokens", "seconds", "read from"]
    for line in fit_table(heads, rows, right=set(range(1, 7)), cut_order=(7, 0)):
        print(line, file=out)
    unread += problems
    print(f"\n{read} agent run(s) read from {shown}"
          f"{f'; {len(unread)} not readable (error rows in a run):' if unread else ''}", file=out)
    for problem in unread:
        print(f"  - {terminal_safe(problem)}", file=out)
    return 1 if unread else 0


def _print_json(runs: Iterable[Any], problems: List[str], rows: bool, run_row: Any, out: TextIO) -> int:
    """One JSON object per run as it is read, then one per line that could not be; JSON escapes every control."""
    failed = bool(problems)
    for run in runs:
        failed = failed or bool(run.problem)
        print(json.dumps({"id": run.key, "trace_ids": run.trace_ids, "span_id": run.root_span_id,
                          "turns": run.turns, "llm_calls": run.llm_calls, "tool_calls": run.tool_calls,
                          "usage": run.usage, "duration_s": run.duration_s, "conventions": run.conventions,
                          "problem": run.problem,
                          "row": run_row(run) if rows and run.problem is None else None}), file=out)
    for problem in problems:
        print(json.dumps({"problem": problem}), file=out)
    return 1 if failed else 0


def add_traces_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    traces = sub.add_parser("traces", help="the agent runs a trace file (OTLP/JSON) or folder holds, as rows",
                            description="Show the agent runs found in OpenTelemetry trace files (OTLP/JSON, the "
                                        "collector's file exporter format): one per trace or conversation id.")
    traces.add_argument("file", metavar="FILE", help="a trace file, or a folder of them (spans and logs)")
    traces.add_argument("--json", action="store_true", help="one JSON object per run")
    traces.add_argument("--rows", action="store_true", help="with --json: each run's row as evaluate() reads it")
    traces.set_defaults(func=traces_command)
