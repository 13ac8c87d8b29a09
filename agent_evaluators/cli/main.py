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
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .commands import GROUPS, argv_commands, command_table
from .messages import FlagWords

#: the commands that parse their own arguments (:mod:`.commands`): words -> "module:function(argv)"
DELEGATED: Dict[Tuple[str, ...], str] = argv_commands()


def _load(target: str) -> Callable[..., Any]:
    module_name, _, attr = target.partition(":")
    fn: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
    return fn


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agent-eval", description="Evaluate LLM agents from the command line.")
    from .. import __version__

    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    parser.add_argument("--version", action="version", version=f"agent-eval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    groups: Dict[str, Any] = {}
    for command in command_table():
        if command.kind == "parser":
            _load(command.target)(sub)
        elif len(command.words) == 1:  # parses its own flags when run: listed here, loaded then
            sub.add_parser(command.words[0], help=command.help, add_help=False)
        else:
            group = groups.get(command.words[0]) or _group(sub, command.words[0], groups)
            group.add_parser(command.words[1], help=command.help, add_help=False)
    return parser


def _group(sub: Any, word: str, groups: Dict[str, Any]) -> Any:
    """The parser of a command group (``agent-eval judge``); alone, it prints its own help."""
    line, description = GROUPS[word]
    group = sub.add_parser(word, help=line, description=description)
    group.set_defaults(func=_print_help_of(group))
    groups[word] = group.add_subparsers(dest=f"{word}_command", metavar="SUBCOMMAND")
    return groups[word]


def _print_help_of(parser: argparse.ArgumentParser) -> Callable[..., int]:
    """``agent-eval judge`` alone: that command's help (not the top-level one), exit 2."""

    def show(args: argparse.Namespace, out: Any, err: Any) -> int:
        parser.print_help(out)
        return 2

    return show


def _delegated(argv: List[str]) -> Optional[int]:
    for prefix, target in argv_commands().items():
        if tuple(argv[: len(prefix)]) == prefix:
            return _load(target)(argv[len(prefix):])
    return None


#: the exit status of a program stopped by SIGPIPE (128 + 13), as `yes | head` reports it
EXIT_PIPE_CLOSED = 141


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``agent-eval``. Output piped into a reader that stops early (``agent-eval traces --json | head``)
    ends the command quietly, as other Unix tools end, instead of with a BrokenPipeError traceback."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, not at exit, where a closed pipe can no longer be caught
        return code
    except BrokenPipeError:
        # stdout to /dev/null, so the interpreter's own flush at exit has nowhere to fail
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED


def _main(argv: Optional[Sequence[str]]) -> int:
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
    # where the results were sent (--otel, --mlflow) is confirmed in one line, as a failure is warned of in one
    logging.getLogger("agent_evaluators.export").setLevel(logging.INFO)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    code: int = args.func(args, sys.stdout, sys.stderr)
    return code
