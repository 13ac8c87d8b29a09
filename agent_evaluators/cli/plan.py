"""``agent-eval plan --from RUN --effect 0.05 --power 0.8``: rows x repetitions a comparison needs.

Reads the noise a finished run shows (judge and agent noise from its repetitions) and prints, per
metric, the rows a paired ``agent-eval compare`` needs to detect a change of ``--effect`` with the
probability ``--power``, for 1, 2, 3 and 5 repetitions per row. Exit 0, or 2 on bad input.
"""

import argparse
import json
from typing import List, TextIO

from ..errors import AgentEvalError, InputError
from .messages import print_error
from .table import fit_table


def _v(x: object) -> str:
    return "-" if x is None else f"{x:.4g}" if isinstance(x, float) else str(x)


def plan_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..report import load_run
    from ..report.sample_size import REPETITIONS, plan_run

    try:
        if not args.effect > 0:
            raise InputError(f"plan: --effect must be > 0 (the smallest change worth detecting), got {args.effect}")
        if not 0 < args.power < 1 or not 0 < args.alpha < 1:
            raise InputError("plan: --power and --alpha must be between 0 and 1 (e.g. --power 0.8 --alpha 0.05)")
        plans = plan_run(load_run(args.from_run), effect=args.effect, target=args.power, alpha=args.alpha,
                         metrics=args.metric or None)
    except AgentEvalError as exc:
        return print_error(err, exc)
    if args.json:
        for p in plans:
            print(json.dumps(p.as_json()), file=out)
        return 0
    rows: List[List[str]] = []
    for p in plans:
        n = p.noise
        rows.append([p.metric, str(p.rows), _v(n.judge), _v(n.agent), _v(n.rows),
                     *[_v(p.needed[r]) for r in REPETITIONS]])
    heads = ["metric", "rows", "judge var", "agent var", "row var", *[f"rows x{r}" for r in REPETITIONS]]
    for line in fit_table(heads, rows, right=set(range(1, len(heads))), cut_order=(0,)):
        print(line, file=out)
    print(f"\nrows x R: rows a paired comparison needs to detect a change of {args.effect:g} with power "
          f"{args.power:g} at alpha {args.alpha:g}, with R repetitions per row (--num-runs R)", file=out)
    for p in plans:
        now = f"; with this run's {p.rows} rows it detects about {p.detectable_now:.3g}" if p.detectable_now else ""
        print(f"{p.metric}: {p.basis}{now}", file=out)
    return 0


def add_plan_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    plan = sub.add_parser("plan", help="how many rows x repetitions a comparison needs, from a run's measured noise")
    plan.add_argument("--from", dest="from_run", required=True, metavar="RUN", help="a finished run folder")
    plan.add_argument("--effect", type=float, required=True, help="the change to detect, e.g. 0.05")
    plan.add_argument("--power", type=float, default=0.8, help="probability of detecting it (default 0.8)")
    plan.add_argument("--alpha", type=float, default=0.05, help="test level (default 0.05)")
    plan.add_argument("--metric", "-m", action="append", metavar="ALIAS.METRIC", help="only this metric (repeatable)")
    plan.add_argument("--json", action="store_true", help="one JSON object per metric")
    plan.set_defaults(func=plan_command)
