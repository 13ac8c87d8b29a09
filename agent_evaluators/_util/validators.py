"""The checks of values a user sets: numbers, choices, texts, folders. One message per kind of mistake.

Each check is ``check(what, value) -> value``: ``what`` is the run option's keyword (a ``str``,
named as :class:`~agent_evaluators.wording.Option`) or another reference (a judge setting,
:class:`~agent_evaluators.wording.JudgeKey`); a bad value raises
:class:`~agent_evaluators.errors.ConfigError` whose message names ``what`` by reference, so the
same mistake reads ``max_concurrency must be a positive integer, got 0`` from Python,
``--max-concurrency must be ...`` on the command line and ``max_concurrency: must be ...`` in a
run config. The run option table (:mod:`agent_evaluators.runner.option_table`) declares which
check each option gets; every other entry point that takes the same setting (``calibrate()``,
the ADK runner, ``agent-eval adk``) calls the table's check, never a copy of it.
"""

import importlib.util
import os
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, TypeVar, Union

from ..errors import ConfigError
from ..wording import Option, Ref, Text
from .install_hint import install_hint

#: what a check names: a run option's keyword, or a reference (a judge setting)
Subject = Union[str, Ref]
T = TypeVar("T")
Check = Callable[[Subject, Any], Any]


def subject(what: Subject) -> Ref:
    """``what`` as a reference: a keyword is the run option of that name."""
    return what if isinstance(what, Ref) else Option(what)


def _refuse(template: str, what: Subject, **fields: Any) -> ConfigError:
    return ConfigError(Text(template, what=subject(what), **fields))


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


# ---------------------------------------------------------------------------- numbers
def positive_int(what: Subject, value: Any) -> int:
    """A whole number >= 1 (``max_concurrency``, ``num_runs``, ``batch_max_requests``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _refuse("{what} must be a positive integer, got {value!r}", what, value=value)
    return value


def whole_number_at_least(what: Subject, value: Any, minimum: int, unit: str = "") -> int:
    """A whole number >= ``minimum`` (a judge's ``max_attempts``, ``max_reply_bytes`` in bytes)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        unit_note = f" ({unit})" if unit else ""
        raise _refuse("{what} must be an integer >= {minimum}{unit}, got {value!r}", what, minimum=minimum,
                      unit=unit_note, value=value)
    return value


def positive_number(what: Subject, value: Any) -> float:
    """A number > 0 (``batch_poll_s``)."""
    if not _is_number(value) or value <= 0:
        raise _refuse("{what} must be a positive number, got {value!r}", what, value=value)
    return float(value)


def positive_seconds(what: Subject, value: Any, *, none_is_no_limit: bool = False) -> Any:
    """A number of seconds > 0; with ``none_is_no_limit``, ``None`` too (the run's ``timeout``)."""
    if value is None and none_is_no_limit:
        return None
    if not _is_number(value) or value <= 0:
        # Python's None; a run config's null; nothing on the command line (a flag cannot be given None)
        no_limit = Text.keyed("no-limit", " (or None for no limit)") if none_is_no_limit else ""
        raise _refuse("{what} must be a positive number of seconds{no_limit}, got {value!r}", what,
                      no_limit=no_limit, value=value)
    return value


def agreement(what: Subject, value: Any) -> Optional[float]:
    """An agreement coefficient in [-1, 1] (Krippendorff's alpha), or ``None``."""
    if value is None:
        return None
    if not _is_number(value) or not -1.0 <= value <= 1.0:
        raise _refuse("{what} must be an agreement coefficient between -1 and 1 (e.g. 0.667, Krippendorff's usual "
                      "floor for tentative conclusions), got {value!r}", what, value=value)
    return float(value)


def budget_cap(what: Subject, value: Any, *, whole: bool) -> Any:
    """A budget cap >= 0: a whole number of judge calls (``whole``) or USD; ``None`` for no cap."""
    if value is None:
        return None
    if not _is_number(value) or value < 0 or (whole and not isinstance(value, int)):
        amount = "a whole number of judge calls" if whole else "an amount in USD"
        no_cap = Text.keyed("no-cap", " (or None for no cap)")  # a run config's null; no flag value means it
        raise _refuse("{what} must be {amount} >= 0{no_cap}, got {value!r}", what, amount=amount, no_cap=no_cap,
                      value=value)
    return value if whole else float(value)


def optional(check: Callable[[Subject, Any], T]) -> Callable[[Subject, Any], Optional[T]]:
    """``check``, with ``None`` (not set) let through."""
    def optional_check(what: Subject, value: Any) -> Optional[T]:
        return None if value is None else check(what, value)
    return optional_check


# ---------------------------------------------------------------------------- switches, texts, choices
def keep(what: Subject, value: Any) -> Any:
    """No check: the value as given (a path, read by the code that uses it)."""
    return value


def flag(what: Subject, value: Any) -> bool:
    """A switch: any value, read as true or false."""
    return bool(value)


def optional_flag(what: Subject, value: Any) -> Optional[bool]:
    """A switch whose ``None`` means "decide for me" (``show_progress``)."""
    return None if value is None else bool(value)


def text(what: Subject, value: Any) -> Optional[str]:
    """A string, or ``None``."""
    if value is not None and not isinstance(value, str):
        raise _refuse("{what} must be a string, got {kind}", what, kind=type(value).__name__)
    return value


def tags(what: Subject, value: Any) -> Dict[str, str]:
    """A mapping of tag names to values (``None``: no tags)."""
    if value is not None and not isinstance(value, Mapping):
        raise _refuse("{what} must be a dict of str -> str, got {kind}", what, kind=type(value).__name__)
    return dict(value or {})


def callable_value(shape: str) -> Callable[[Subject, Any], Any]:
    """A callable (``None``: none); ``shape`` says what it is called with (``callable(**row) -> dict``)."""
    def check(what: Subject, value: Any) -> Any:
        if value is not None and not callable(value):
            raise _refuse("{what} must be a {shape}, got {kind}", what, shape=shape, kind=type(value).__name__)
        return value
    return check


def one_of(choices: Sequence[str], note: str = "", *, either: bool = False) -> Callable[[Subject, Any], str]:
    """One of ``choices``; ``note`` (after the list) says what they mean; ``either``: two choices, said
    ``'a' or 'b'`` (else ``one of a, b, c``)."""
    listed = " or ".join(repr(c) for c in choices) if either else "one of " + ", ".join(choices)

    def check(what: Subject, value: Any) -> str:
        if value not in choices:
            raise _refuse("{what} must be {listed}{note}, got {value!r}", what, listed=listed,
                          note=f" ({note})" if note else "", value=value)
        return str(value)
    return check


def needs_extra(extra: str, module: str) -> Callable[[Subject, Any], bool]:
    """A switch whose ``True`` needs an optional extra: refused before the run starts when the package is
    missing (found without importing it, so a run without the switch imports nothing)."""
    def check(what: Subject, value: Any) -> bool:
        if value and not _installed(module):
            on, off = subject(what), subject(what)
            if isinstance(on, Option):
                on, off = Option(on.name, True), Option(on.name)
            raise ConfigError(Text("{on} needs the {extra!r} extra, which is not installed: "
                                   "{hint} (or leave {off} off)",
                                   on=on, off=off, extra=extra, hint=install_hint(extra)))
        return bool(value)
    return check


def _installed(module: str) -> bool:
    try:  # imports only the parent packages of a dotted name (namespace packages for these)
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


# ---------------------------------------------------------------------------- paths
def path(what: Subject, value: Any) -> Optional[Path]:
    """A file or folder path (``str`` or path-like), or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, os.PathLike)):
        raise _refuse("{what} must be a path, got {value!r}", what, value=value)
    return Path(value)


def run_folder(what: Subject, value: Any) -> Optional[Path]:
    """A run's results folder (``output_path``): a folder for ``rows.jsonl`` and ``summary.json``, never a
    ``.json`` file (an azure-style ``results.json`` was split into its file and folder before this)."""
    folder = path(what, value)
    if folder is None:
        return None
    if folder.suffix.lower() == ".json":
        raise _refuse("{what} is a folder for rows.jsonl and summary.json, not a .json file: {folder}", what,
                      folder=folder)
    return folder
