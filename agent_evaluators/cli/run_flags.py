"""``agent-eval run``'s flags for the run options, derived from the table.

Every keyword of ``evaluate()`` in :mod:`agent_evaluators.runner.option_table` gets the flag
``--name-with-dashes`` (or the table's ``cli_flag``: ``--output``, ``--tag``) with the
table's help text; nothing here names an option. A flag not given leaves the config file's
value (or the default) in place: every flag defaults to ``None``.
"""

import argparse
from typing import Any, Collection, Dict

from ..config.run_call import option_value
from ..errors import ConfigError
from ..runner.option_table import RUN_OPTIONS, RunOption
from ..runner.option_table import option as table_option

_TYPES = {"int": int, "float": float}


def _add(parser: "argparse._ActionsContainer", option: RunOption) -> None:
    kind, flags = option.kind, [option.flag, *option.flag_aliases] + (["-o"] if option.flag == "--output" else [])
    common: Dict[str, Any] = {"dest": option.name, "default": None, "help": option.help}
    if kind == "flag":
        parser.add_argument(*flags, action="store_true", **common)
    elif kind == "switch":
        parser.add_argument(*flags, action=argparse.BooleanOptionalAction, **common)
    elif kind in ("tags", "mapping"):
        parser.add_argument(*flags, action="append", metavar=option.metavar, **common)
    elif kind == "choice":
        parser.add_argument(*flags, choices=option.choices, **common)
        for flag, value in option.const_flags:
            parser.add_argument(flag, action="store_const", const=value, dest=option.name, default=None,
                                help=f"short for {option.flag} {value}")
    else:
        parser.add_argument(*flags, type=_TYPES.get(kind, str), metavar=option.metavar, **common)


def add_run_option_flag(parser: "argparse._ActionsContainer", name: str) -> None:
    """The flag of one table option on a command of its own (``--judge-mode`` on ``calibrate`` and ``adk``)."""
    _add(parser, table_option(name))


def add_run_option_flags(parser: "argparse._ActionsContainer", *, skip: Collection[str] = ()) -> None:
    """A flag per table option; ``skip``: options another helper already adds (``--max-concurrency``,
    which the judge flags add for every command that calls a judge)."""
    for option in RUN_OPTIONS:
        if option.name not in skip:
            _add(parser, option)


def _tags(texts: Any, flag: str) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for text in texts:
        key, eq, value = str(text).partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"{flag} {text!r}: write {flag} KEY=VALUE, e.g. {flag} model=gpt-4o")
        out[key.strip()] = value.strip()
    return out


def run_option_overrides(args: argparse.Namespace) -> Dict[str, Any]:
    """The run options given as flags (``--tag``s as a dict, ``--target`` imported), by keyword name."""
    out: Dict[str, Any] = {}
    for option in RUN_OPTIONS:
        value = getattr(args, option.name, None)
        if value is None:
            continue
        out[option.name] = _tags(value, option.flag) if option.kind in ("tags", "mapping") else option_value(option, value)
    return out
