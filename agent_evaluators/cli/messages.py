"""Messages for command-line users: the library's messages in the command line's words.

The library's errors and warnings keep their references (:class:`~agent_evaluators.wording.Text`:
the run option, the judge setting, the column mapping they are about), and ``str()`` says them
in Python's words (``force=True``). Every message the CLI prints goes through :func:`for_cli`,
which renders those references with the command line's vocabulary (:mod:`.words`: ``--force``,
``--judge-base-url``, ``--map``); log records get the same through :class:`FlagWords`, and an
error cell's problem through :func:`cell_reason`. Nothing is rewritten after the fact: a message
that carries no references is printed as it is.
"""

import contextlib
import logging
from pathlib import Path
from typing import Any, Iterator, List, Optional, TextIO

from .._util.safe_text import terminal_message
from ..wording import Words, words_of
from .flag_vocabulary import COMMAND_LINE


def for_cli(message: Any, words: Words = COMMAND_LINE) -> str:
    """``message`` (an error of this package, a :class:`~agent_evaluators.wording.Text`, or any text) in
    the command line's words."""
    return words.render(message)


def cell_reason(problem: Any, words: Words = COMMAND_LINE) -> str:
    """An error cell's message as the CLI lists it under its row and alias: its
    :class:`~agent_evaluators.runner.cells.CellProblem` (the message without the ``row N: evaluator 'a'
    (Class):`` that names the cell) in flag words, without the class name the line above already gives
    (a judge evaluator's message repeats it: ``JudgeError: IntentResolutionEvaluator: ...``). A stored
    message without its problem (a cell past the ones kept in memory) is shown as it is."""
    text = getattr(problem, "text", None)
    if text is None:
        return str(problem)
    class_name = getattr(problem, "class_name", "")
    said = words.render(text)
    return said.replace(f"{class_name}: ", "") if class_name else said


def render_record(record: logging.LogRecord, words: Words = COMMAND_LINE) -> None:
    """Say a log record's message (and its ``%s`` arguments) in ``words`` where they carry references."""
    if words_of(record.msg) is not None:
        record.msg = words.render(record.msg)
    if isinstance(record.args, tuple) and any(words_of(a) is not None for a in record.args):
        record.args = tuple(words.render(a) if words_of(a) is not None else a for a in record.args)


class FlagWords(logging.Filter):
    """A logging filter for the CLI's handler: library warnings (``use resume=True ...``) in flag words too."""

    def __init__(self, words: Words = COMMAND_LINE) -> None:
        super().__init__()
        self.words = words

    def filter(self, record: logging.LogRecord) -> bool:
        render_record(record, self.words)
        return True


def _not_an_interruption_notice(record: logging.LogRecord) -> bool:
    from ..errors import RunInterrupted

    return not getattr(record, RunInterrupted.LOG_MARK, False)


@contextlib.contextmanager
def interruption_told_here() -> Iterator[None]:
    """While a command that prints its own Ctrl-C notice (rows done, the exact resume command) runs,
    the library's warning of the same interruption is not printed too: one Ctrl-C, one message."""
    handlers = list(logging.getLogger().handlers)
    for handler in handlers:
        handler.addFilter(_not_an_interruption_notice)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(_not_an_interruption_notice)


def print_error(err: TextIO, text: Any, prog: str = "agent-eval") -> int:
    """Print ``prog: error: text`` in flag words, its line breaks kept and data escaped; return exit code 2."""
    print(f"{prog}: error: {terminal_message(for_cli(text))}", file=err)
    return 2


def is_eval_set(data: Optional[Path]) -> bool:
    return data is not None and data.name.lower().endswith((".evalset.json", ".test.json"))


def evalset_hint(data: Optional[Path], messages: List[str]) -> Optional[str]:
    """Why every cell of an ADK eval set misses ``response``: an eval set holds no agent output."""
    if not is_eval_set(data) or not any("'response'" in m or "'actual" in m for m in messages):
        return None
    return (
        f"{data} is an ADK eval set: it holds the conversation the agent should have, not what your agent "
        "answered, so there is no 'response' to evaluate. Use `agent-eval adk EVALSET --actual RUNS.jsonl` "
        "(recorded agent runs), or call evaluate(target=your_agent) from Python to produce the responses."
    )
