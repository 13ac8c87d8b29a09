"""``agent-eval report``: the HTML report of a finished run (optionally compared with an earlier one)."""

import argparse
from pathlib import Path
from typing import TextIO

from ..errors import AgentEvalError
from .messages import print_error


def report_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..report import write_report

    try:
        path = write_report(Path(args.run_dir), compare_to=Path(args.compare) if args.compare else None,
                            path=Path(args.output) if args.output else None)
    except AgentEvalError as exc:
        return print_error(err, exc)
    print(f"Wrote {path}", file=out)
    return 0


def add_report_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    rep = sub.add_parser("report", help="write the HTML report of a finished run")
    rep.add_argument("run_dir", metavar="DIR", help="results folder with rows.jsonl and summary.json")
    rep.add_argument("--compare", metavar="PREV_DIR", help="an earlier run to compare with")
    rep.add_argument("--output", "-o", metavar="FILE", help="where to write (default DIR/report.html)")
    rep.set_defaults(func=report_command)
