"""``agent-eval traces FILE``: what a trace file or folder holds, as the evaluators will see it.

One line per agent run (trace, or conversation id): its turns, model calls, tool calls, tokens,
duration and which convention its messages were read from; then every run or line that could
not be read, with what is missing. Check this before ``agent-eval run --data FILE``: a run shown
here is a row there. Exit 0 when every run was read, 1 when some could not be, 2 on bad input.
"""

import argparse
import json
from pathlib import Path
from typing import List, TextIO

from ..errors import ConfigError
from .messages import print_error
from .table import fit_table


def _short(trace_id: str) -> str:
    return trace_id[:12] + "…" if len(trace_id) > 13 else trace_id


def traces_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..traces import looks_like_otlp, read_runs
    from ..traces.trace_rows import run_row

    path = Path(args.file)
    if not path.exists():
        return print_error(err, ConfigError(f"traces: {path} not found"))
    if not looks_like_otlp(path):
        return print_error(err, ConfigError(
            f"traces: {path} holds no OTLP/JSON trace data (lines like {{\"resourceSpans\": [...]}}, as the "
            "OpenTelemetry collector's file exporter writes them)"))
    runs, problems = read_runs(path)
    if args.json:
        for run in runs:
            print(json.dumps({"id": run.key, "trace_ids": run.trace_ids, "span_id": run.root_span_id,
                              "turns": run.turns, "llm_calls": run.llm_calls, "tool_calls": run.tool_calls,
                              "usage": run.usage, "duration_s": run.duration_s, "conventions": run.conventions,
                              "problem": run.problem,
                              "row": run_row(run) if args.rows and run.problem is None else None}), file=out)
        for problem in problems:
            print(json.dumps({"problem": problem}), file=out)
        return 1 if problems or any(r.problem for r in runs) else 0
    rows: List[List[str]] = []
    for run in runs:
        tokens = sum(run.usage.values()) if run.usage else None
        rows.append([run.key if run.key not in run.trace_ids else _short(run.key), str(len(run.trace_ids)),
                     str(run.turns), str(run.llm_calls), str(run.tool_calls), "-" if tokens is None else str(tokens),
                     f"{run.duration_s:.3f}", ", ".join(run.conventions) or "-"])
    heads = ["run", "traces", "turns", "llm calls", "tool calls", "tokens", "seconds", "read from"]
    for line in fit_table(heads, rows, right=set(range(1, 7)), cut_order=(7, 0)):
        print(line, file=out)
    unread = [r.problem for r in runs if r.problem] + problems
    print(f"\n{len(runs) - sum(1 for r in runs if r.problem)} agent run(s) read from {path}"
          f"{f'; {len(unread)} not readable (error rows in a run):' if unread else ''}", file=out)
    for problem in unread:
        print(f"  - {problem}", file=out)
    return 1 if unread else 0


def add_traces_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    traces = sub.add_parser("traces", help="the agent runs a trace file (OTLP/JSON) or folder holds, as rows",
                            description="Show the agent runs found in OpenTelemetry trace files (OTLP/JSON, the "
                                        "collector's file exporter format): one per trace or conversation id.")
    traces.add_argument("file", metavar="FILE", help="a trace file, or a folder of them (spans and logs)")
    traces.add_argument("--json", action="store_true", help="one JSON object per run")
    traces.add_argument("--rows", action="store_true", help="with --json: each run's row as evaluate() reads it")
    traces.set_defaults(func=traces_command)
