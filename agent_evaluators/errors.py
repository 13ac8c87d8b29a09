"""Exceptions raised by agent-evaluators.

Everything we raise on purpose derives from one root, so ``except AgentEvalError``
catches all of it::

    AgentEvalError
    ├── InputError     bad or missing evaluator input (names the evaluator and the input)
    ├── ConfigError    bad construction-time configuration (model config, thresholds, options)
    └── JudgeError     the judge model could not produce a usable verdict
                       (HTTP failure after retries, timeout, unparseable or truncated reply);
                       carries the raw judge text when there was one

Failure is never a number: an evaluator that cannot score raises one of these;
inside ``evaluate()`` the cell becomes ``<key>_result: "error"`` with the message.
"""

from typing import Any, Optional

__all__ = ["AgentEvalError", "InputError", "ConfigError", "JudgeError"]


class AgentEvalError(Exception):
    """Root of every exception agent-evaluators raises on purpose."""


class InputError(AgentEvalError, ValueError):
    """An evaluator input is missing, unknown, or of the wrong shape.

    ``evaluator`` and ``input_name`` are set when known so callers (and
    ``evaluate()`` error cells) can point at the exact column to fix.
    """

    def __init__(
        self,
        message: str,
        *,
        evaluator: Optional[str] = None,
        input_name: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.evaluator = evaluator
        self.input_name = input_name


class ConfigError(AgentEvalError, ValueError):
    """Construction-time configuration is invalid (model config, options, thresholds)."""


class JudgeError(AgentEvalError):
    """The judge could not produce a usable verdict.

    ``raw_text`` holds what the judge said (when it said anything) so the user can
    see why parsing failed; ``status_code`` the last HTTP status; ``attempts`` how
    many HTTP requests were made for this verdict.
    """

    def __init__(
        self,
        message: str,
        *,
        raw_text: Optional[str] = None,
        status_code: Optional[int] = None,
        attempts: Optional[int] = None,
        usage: Any = None,
    ) -> None:
        super().__init__(message)
        self.raw_text = raw_text
        self.status_code = status_code
        self.attempts = attempts
        self.usage = usage
