"""The arguments of one run, checked once.

``evaluate()`` and ``evaluate_async()`` keep azure-ai-evaluation's explicit keyword
signature (a fixed call shape); both pass their run options by name into a
:class:`~.run_settings.RunSettings` (typed, checked against the option table of
:mod:`.option_table`) and hand it, with the data and the evaluators, to
:meth:`RunOptions.build`. Every engine (local, Ray) reads the run from the resulting
:class:`RunOptions`: ``options.settings.max_concurrency`` and so on, plain attributes.

:class:`RowSpec` is the part of a run a worker process needs to evaluate rows (the
evaluators, their column mapping, the target, ``num_runs``, ``timeout``, the judge
budget); the Ray engine ships exactly that, never the data or the output folder.
"""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Tuple

from .._util.validators import positive_int, positive_seconds, whole_number_at_least
from ..errors import ConfigError
from .row_source import RowSource
from .run_settings import RunSettings

logger = logging.getLogger("agent_evaluators.runner")

#: what ``azure_ai_project=`` does here: accepted, so azure-ai-evaluation code runs unchanged, and nothing more
LOCAL_ONLY_NOTE = ("azure_ai_project was given: results stay local (nothing is uploaded to Azure AI Foundry, "
                   "studio_url is None); read them from the result or output_path")

DEFAULT_SHARD_SIZE = 1000
#: a Ray worker not heard from for this long is presumed dead and its judge permits return
DEFAULT_WORKER_EXPIRE_S = 10.0


@dataclass(frozen=True)
class RowSpec:
    """How every row is evaluated: what a worker needs, and all it gets (made by :meth:`RunOptions.build`
    from checked settings, so nothing here is checked twice)."""

    evaluators: Mapping[str, Callable[..., Any]]
    evaluator_config: Optional[Mapping[str, Any]] = None
    target: Optional[Callable[..., Any]] = None
    num_runs: int = 1
    timeout: Optional[float] = 300.0
    max_concurrency: int = 10
    #: the run's ``prices`` (checked): a Ray worker installs them, as the local engine does, so a
    #: run-level price reaches the judge calls made in other processes
    prices: Optional[Mapping[str, Any]] = None
    #: the run's ``max_prompt_tokens`` and ``terminal_tools`` (checked), installed by a Ray worker too
    prompt_budget: Optional[int] = None
    terminal_tools: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        evaluators = self.evaluators
        if not isinstance(evaluators, Mapping) or not evaluators:
            raise ConfigError(
                "evaluators must be a non-empty dict of alias -> evaluator, e.g. {'intent': IntentResolutionEvaluator(...)}"
            )
        for alias in evaluators:
            if not isinstance(alias, str) or not alias or alias == "default":
                raise ConfigError(f"evaluator alias {alias!r} is not allowed: use a non-empty string other than 'default'")
        if self.evaluator_config is not None and not isinstance(self.evaluator_config, Mapping):
            raise ConfigError(
                "evaluator_config must be a dict like {'default': {'column_mapping': {'response': '${data.answer}'}}}"
            )
        # a private copy: the caller may reuse or mutate its dict while the run goes on
        object.__setattr__(self, "evaluators", dict(evaluators))
        if self.evaluator_config is not None:
            object.__setattr__(self, "evaluator_config", dict(self.evaluator_config))


@dataclass(frozen=True)
class RunOptions:
    """One run: its data, how rows are evaluated (``rows``), and its checked run options (``settings``)."""

    data: Any
    rows: RowSpec
    settings: RunSettings
    #: ``resume`` (or re-running the failed cells): the run folder's earlier results are read, not replaced
    #: (a field, not a property: the ledger asks for every row)
    continues_earlier_run: bool = False

    @property
    def output_path(self) -> Optional[Path]:
        """The run folder (``settings.output_path``): where every engine writes."""
        return self.settings.output_path

    @classmethod
    def build(
        cls,
        *,
        data: Any,
        evaluators: Mapping[str, Callable[..., Any]],
        settings: RunSettings,
        evaluator_config: Optional[Mapping[str, Any]] = None,
        azure_ai_project: Any = None,
    ) -> "RunOptions":
        """The run of one call: its data and evaluators with its checked ``settings``."""
        if azure_ai_project is not None:
            logger.warning(LOCAL_ONLY_NOTE)  # once per call: a warnings.warn would show only the first
        rows = RowSpec(
            evaluators=evaluators, evaluator_config=evaluator_config, target=settings.target,
            num_runs=settings.num_runs, max_concurrency=settings.max_concurrency, prices=settings.prices,
            prompt_budget=settings.max_prompt_tokens, terminal_tools=tuple(settings.terminal_tools or ()),
            # in batch mode a call waits for its batch (hours, within the provider's 24 h window)
            timeout=settings.timeout if settings.judge_mode != "batch" else None,
        )
        return cls(data=data, rows=rows, settings=settings, continues_earlier_run=settings.continues_earlier_run)

    @classmethod
    def from_keywords(cls, *, data: Any, evaluators: Mapping[str, Callable[..., Any]],
                      evaluator_config: Optional[Mapping[str, Any]] = None, azure_ai_project: Any = None,
                      **options: Any) -> "RunOptions":
        """The run from ``evaluate()``'s keywords in a mapping (``evaluate_ray(**keywords)``); an unknown
        keyword is a ``ConfigError`` listing the run options."""
        return cls.build(data=data, evaluators=evaluators, evaluator_config=evaluator_config,
                         azure_ai_project=azure_ai_project, settings=RunSettings.from_keywords(options))

    def row_source(self) -> RowSource:
        """The rows this run reads (its input, cut at the row limit), for every engine."""
        return RowSource(self.data, self.settings.max_rows, self.settings.data_format)


@dataclass(frozen=True)
class RayOptions:
    """What only the Ray engine needs (see :func:`agent_evaluators.ray_engine.evaluate_ray`)."""

    ray_address: Optional[str] = None
    num_workers: Optional[int] = None
    shard_size: Optional[int] = None
    num_cpus_per_worker: Optional[float] = None
    data_on_workers: Optional[bool] = None
    max_retries: int = 3
    worker_expire_s: float = DEFAULT_WORKER_EXPIRE_S

    def __post_init__(self) -> None:
        if self.shard_size is not None:
            positive_int("shard_size", self.shard_size)
        if self.num_workers is not None:
            positive_int("num_workers", self.num_workers)
        whole_number_at_least("max_retries", self.max_retries, 0)
        positive_seconds("worker_expire_s", self.worker_expire_s)
