"""``agent-eval``: the command-line entry point; dispatches to one module per subcommand.

::

    agent-eval run --config samples/eval.yaml [--html] [--junit results.xml]
    agent-eval run --data runs.jsonl --evaluator tool_trajectory=trajectory --evaluator intent_resolution
    agent-eval report RUN_DIR [--compare PREVIOUS_RUN_DIR]
    agent-eval compare RUN_A RUN_B [--fail-on-regression] [--json]   (did it get worse?)
    agent-eval plan --from RUN --effect 0.05 --power 0.8            (rows x repetitions a comparison needs)
    agent-eval list
    agent-eval traces FILE                                 (the agent runs a trace file holds)
    agent-eval adk EVALSET --config test_config.json      (Google ADK's runner)
    agent-eval judge serve --model FILE.gguf               (a local judge)
    agent-eval calibrate --judge-model M                   (the judge on our labelled sets)

``run``'s exit codes are described in :mod:`.outcome`.
"""

import argparse
import importlib
import logging
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .compare import add_compare_parser
from .listing import add_list_parser
from .messages import FlagWords
from .plan import add_plan_parser
from .report import add_report_parser
from .run import add_run_parser
from .traces import add_traces_parser

__all__ = ["main", "build_parser", "DELEGATED"]

#: Subcommands whose parsers live beside their code: (argv prefix) -> "module:function(argv)".
#: Strings, imported only when that subcommand runs, so ``agent-eval list`` loads none of them.
DELEGATED: Dict[Tuple[str, ...], str] = {
    ("adk",): "agent_evaluators.cli.eval_sets:main",
    ("judge", "serve"): "agent_evaluators.cli.judge_serve:serve_main",
    ("calibrate",): "agent_evaluators.cli.calibrate:calibrate_main",
}


def _load(target: str) -> Callable[[List[str]], int]:
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    fn: Callable[[List[str]], int] = getattr(module, attr)
    return fn


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agent-eval", description="Evaluate LLM agents from the command line.")
    from .. import __version__

    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    parser.add_argument("--version", action="version", version=f"agent-eval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_run_parser(sub)
    add_report_parser(sub)
    add_compare_parser(sub)
    add_plan_parser(sub)
    add_list_parser(sub)
    add_traces_parser(sub)
    sub.add_parser("adk", help="run ADK eval sets with ADK's criteria (agent-eval adk --help)", add_help=False)
    judge = sub.add_parser("judge", help="serve a local GGUF judge: agent-eval judge serve --model FILE.gguf",
                           description="Local judge commands.")
    judge_sub = judge.add_subparsers(dest="judge_command", metavar="SUBCOMMAND")
    judge_sub.add_parser("serve", help="serve a GGUF model as an OpenAI-compatible judge (agent-eval judge serve --help)",
                         add_help=False)
    judge.set_defaults(func=_print_help_of(judge))
    sub.add_parser("calibrate", help="accuracy and Cohen's kappa of your judge on our labelled sets", add_help=False)
    return parser


def _print_help_of(parser: argparse.ArgumentParser) -> Callable[..., int]:
    """``agent-eval judge`` alone: that command's help (not the top-level one), exit 2."""

    def show(args: argparse.Namespace, out: Any, err: Any) -> int:
        parser.print_help(out)
        return 2

    return show


def _delegated(argv: List[str]) -> Optional[int]:
    for prefix, target in DELEGATED.items():
        if tuple(argv[: len(prefix)]) == prefix:
            return _load(target)(argv[len(prefix):])
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
    for handler in logging.getLogger().handlers:
        handler.addFilter(FlagWords())
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    code: int = args.func(args, sys.stdout, sys.stderr)
    return code
