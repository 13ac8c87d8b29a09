"""Exceptions raised by agent-evaluators.

Everything we raise on purpose derives from one root, so ``except AgentEvalError``
catches all of it, except the one interruption that must not be caught by accident::

    Exception
    └── AgentEvalError          the root: every error raised on purpose
        ├── ConfigError         bad configuration: run options, model config, thresholds, column
        │                       mappings (also a ValueError)
        ├── InputError          an evaluator input is missing, unknown or of the wrong shape;
        │                       an unreadable data file (also a ValueError)
        ├── JudgeError          the judge model could not produce a usable verdict (HTTP failure
        │   │                   after retries, timeout, unparseable or truncated reply); carries
        │   │                   the raw judge text when there was one
        │   └── BudgetExhausted the run's max_judge_calls / max_cost would be passed: the call
        │                       was not sent (the engine marks the cell not_run, not error)
        └── EvaluatorErrors     fail_on_evaluator_errors=True and some cell errored; raised
                                after every result was saved (``.result`` holds them)

    BaseException
    └── KeyboardInterrupt
        └── RunInterrupted      Ctrl-C during a run, after the finished rows were saved. A
                                KeyboardInterrupt on purpose: ``except Exception`` in user
                                code must not swallow a Ctrl-C (``except AgentEvalError``
                                does not catch it either)

Failure is never a number: an evaluator that cannot score raises one of these;
inside ``evaluate()`` the cell becomes ``<key>_result: "error"`` with the message.

Every message is a :class:`~agent_evaluators.wording.Text`: ``str(err)`` says it in
Python's words (``force=True``, ``model_config 'base_url'``), ``err.text`` keeps its
references so the command line and a run config can say the same in theirs (``--force``,
``judge.base_url``). The machine-readable fields name what the message is about, when it
is about one thing: ``option`` (a run option's keyword), ``key`` (a judge setting),
``evaluator`` (an evaluator alias or name), ``input_name`` (an evaluator input or a data
path), ``row`` (the input line). Given explicitly, or else taken from the message's first
reference of that kind.
"""

from pathlib import Path
from typing import Any, Optional, Union

from .wording import ColumnMap, JudgeKey, Option, Text, remember

__all__ = ["AgentEvalError", "InputError", "ConfigError", "JudgeError", "BudgetExhausted", "EvaluatorErrors",
           "RunInterrupted"]

Message = Union[str, Text]


class AgentEvalError(Exception):
    """Root of every exception agent-evaluators raises on purpose."""

    def __init__(
        self,
        message: Message = "",
        *,
        option: Optional[str] = None,
        key: Optional[str] = None,
        evaluator: Optional[str] = None,
        input_name: Optional[str] = None,
        row: Optional[int] = None,
    ) -> None:
        text = Text.of(message)
        super().__init__(remember(text))  # Python's words; remembered, for a reader of stored text (wording.recall)
        #: the message with its references, for a reader who does not speak Python (``Words.render``)
        self.text = text
        named_option = text.first(Option)
        named_key = text.first(JudgeKey)
        mapping = text.first(ColumnMap)
        #: the run option the message is about (``"max_concurrency"``)
        self.option = option if option is not None else (named_option.name if named_option else None)
        #: the judge setting (``model_config`` / ``judge:`` key) the message is about (``"base_url"``)
        self.key = key if key is not None else (named_key.key if named_key else None)
        #: the evaluator (alias, or its name) the message is about
        self.evaluator = evaluator if evaluator is not None else (mapping.alias if mapping else None)
        #: the evaluator input (or data path) the message is about
        self.input_name = input_name if input_name is not None else (mapping.input if mapping else None)
        #: the input line the message is about
        self.row = row


class InputError(AgentEvalError, ValueError):
    """An evaluator input is missing, unknown, or of the wrong shape.

    ``evaluator`` and ``input_name`` are set when known so callers (and
    ``evaluate()`` error cells) can point at the exact column to fix.
    """


class ConfigError(AgentEvalError, ValueError):
    """Configuration is invalid (run options, model config, thresholds, column mappings).

    ``option`` names the run option (``ConfigError`` for ``max_concurrency=0`` has
    ``option == "max_concurrency"``), ``key`` the judge setting, ``evaluator`` / ``input_name``
    the column mapping.
    """


class JudgeError(AgentEvalError):
    """The judge could not produce a usable verdict.

    ``raw_text`` holds what the judge said (when it said anything) so the user can
    see why parsing failed; ``status_code`` the last HTTP status; ``attempts`` how
    many HTTP requests were made for this verdict; ``usage`` what they used.
    """

    def __init__(
        self,
        message: Message = "",
        *,
        raw_text: Optional[str] = None,
        status_code: Optional[int] = None,
        attempts: Optional[int] = None,
        usage: Any = None,
        evaluator: Optional[str] = None,
        key: Optional[str] = None,
    ) -> None:
        super().__init__(message, evaluator=evaluator, key=key)
        self.raw_text = raw_text
        self.status_code = status_code
        self.attempts = attempts
        self.usage = usage


class BudgetExhausted(JudgeError):
    """The run's ``max_judge_calls`` / ``max_cost`` would be passed by this call: it was not sent.
    ``reason`` says which cap and by how much."""

    def __init__(self, reason: str) -> None:
        super().__init__(Text("judge call not sent: {reason}; resume the run with a higher {cost} / {calls}",
                              reason=reason, cost=Option("max_cost"), calls=Option("max_judge_calls")))
        self.reason = reason


class EvaluatorErrors(AgentEvalError):
    """Raised by ``fail_on_evaluator_errors=True`` after every result was saved.

    ``result`` holds the complete :class:`~agent_evaluators.runner.EvaluationResult` (error cells included).
    """

    def __init__(self, message: Message, result: Any) -> None:  # an EvaluationResult (the engine's, above us)
        super().__init__(message, option="fail_on_evaluator_errors")
        self.result = result


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a cancelled run) after the ledger saved what was done and marked ``summary.json``
    ``"interrupted"``.

    A :class:`KeyboardInterrupt` (not an :class:`AgentEvalError`), so that an ``except Exception``
    in user code does not swallow a Ctrl-C. ``rows_done`` rows are on disk in ``output_path``
    (``None`` for a run without a folder), ``total`` is the row count when it was known; a CLI
    prints ``message`` and exits 130, and ``resume=True`` on the same folder continues the run.
    ``text`` is the message with its references (``resume=True`` is ``--resume`` on the command line).
    """

    #: set on the log record that announces an interruption (``extra={LOG_MARK: True}``), so that a
    #: command line which prints its own notice (with the exact resume command) can leave it out
    LOG_MARK = "run_interrupted"

    def __init__(self, message: Message, *, rows_done: int, total: Optional[int], output_path: Optional[Path]) -> None:
        text = Text.of(message)
        super().__init__(remember(text))
        self.text = text
        self.message = str(text)
        self.rows_done = rows_done
        self.total = total
        self.output_path = output_path
