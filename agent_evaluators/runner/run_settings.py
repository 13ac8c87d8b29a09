"""The run options of one call, checked and typed: what every engine reads.

:class:`RunSettings` has one typed field per entry of the option table
(:data:`~.option_table.RUN_OPTIONS`), in the table's order and with its default
(``tests/runner/test_run_settings.py`` keeps them equal). Constructing it runs each entry's
check (:mod:`agent_evaluators._util.validators`) and stores the checked value, then the checks
that involve two options at once; a bad value raises the table's ``ConfigError`` naming the
option. ``evaluate()`` passes each of its keywords to it by name, and the engines read them
as attributes (``options.settings.max_concurrency``), so a reader, or a type checker, follows
an option from the public signature to where it acts.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence

from .._util import validators
from ..conversation.transcript import DEFAULT_MAX_PROMPT_TOKENS
from ..errors import ConfigError
from ..wording import Option, Text
from .option_table import CONTINUING, RUN_OPTIONS, refuse_unknown


@dataclass(frozen=True)
class RunSettings:
    """Every run option of ``evaluate()``, checked (see :mod:`.option_table` for what each one does).

    Values are stored as checked: ``tags`` a dict, ``output_path`` a :class:`~pathlib.Path`, ``max_cost``
    a float. :meth:`from_keywords` builds one from a mapping of keywords (``evaluate_ray(**options)``).
    """

    target: Optional[Callable[..., Any]] = None
    output_path: Optional[Path] = None
    fail_on_evaluator_errors: bool = False
    max_concurrency: int = 10
    resume: bool = False
    rerun_failed: bool = False
    force: bool = False
    num_runs: int = 1
    show_progress: Optional[bool] = None
    timeout: Optional[float] = 300.0
    evaluation_name: Optional[str] = None
    tags: Optional[Mapping[str, str]] = None
    max_rows: Optional[int] = None
    min_agreement: Optional[float] = None
    certification: Optional[str] = None
    require_certified: bool = False
    prices: Optional[Mapping[str, Any]] = None
    dry_run: bool = False
    max_cost: Optional[float] = None
    max_judge_calls: Optional[int] = None
    max_prompt_tokens: int = DEFAULT_MAX_PROMPT_TOKENS
    terminal_tools: Optional[Sequence[str]] = None
    azure_compat: bool = False
    data_format: str = "auto"
    judge_mode: str = "direct"
    batch_poll_s: float = 30.0
    batch_max_requests: int = 50_000
    batch_max_bytes: int = 200_000_000
    batch_timeout_s: float = 86_400.0
    otel: bool = False
    mlflow: bool = False
    engine: str = "local"
    ray_address: Optional[str] = None
    num_workers: Optional[int] = None

    def __post_init__(self) -> None:
        for option in RUN_OPTIONS:  # the table's check of each value, stored as checked
            object.__setattr__(self, option.name, option.check(option.name, getattr(self, option.name)))
        object.__setattr__(self, "output_path", validators.run_folder("output_path", self.output_path))
        self._check_together()

    def _check_together(self) -> None:
        """The options that are wrong only in company."""
        if self.engine == "ray" and self.judge_mode == "batch":
            raise ConfigError(Text(
                "{batch} runs on the local engine only (one process follows the batches): use {local}, or {direct} on Ray",
                batch=Option("judge_mode", "batch"), local=Option("engine", "local"), direct=Option("judge_mode", "direct")))
        if self.engine == "local" and (self.ray_address is not None or self.num_workers is not None):
            raise ConfigError(Text("{address} / {workers} apply to {ray} only", address=Option("ray_address"),
                                   workers=Option("num_workers"), ray=Option("engine", "ray")))
        if self.continues_earlier_run and self.output_path is None:
            raise ConfigError(Text("{names} need {folder} (the folder of the run to continue)",
                                   names=Text(" / ".join("{%s}" % n for n in CONTINUING),
                                              **{n: Option(n, True) for n in CONTINUING}),
                                   folder=Option("output_path")))

    @property
    def continues_earlier_run(self) -> bool:
        """``resume`` (or re-running the failed cells): the folder's earlier results are read, not replaced."""
        return self.resume or self.rerun_failed

    @classmethod
    def from_keywords(cls, keywords: Mapping[str, Any]) -> "RunSettings":
        """The settings from ``evaluate()`` keywords in a mapping; a name that is not a run option is a
        ``ConfigError`` listing them (a ``TypeError`` would not say which are)."""
        refuse_unknown(keywords)
        return cls(**keywords)
