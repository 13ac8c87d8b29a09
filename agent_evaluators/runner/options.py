"""The arguments of one run, checked once.

``evaluate()`` and ``evaluate_async()`` keep azure-ai-evaluation's explicit keyword
signature (a fixed call shape); both hand their arguments straight to
:class:`RunOptions`, which validates them in one place. Every engine (local, Ray) reads
the run from this object. The options themselves are declared in :mod:`.option_table`
(checks, defaults, flags, keys); a new one is an entry there plus its keyword in the two
public signatures, and nothing in between forwards it by hand: it is in ``values``.

:class:`RowSpec` is the part of a run a worker process needs to evaluate rows (the
evaluators, their column mapping, the target, ``num_runs``, ``timeout``, the judge
budget); the Ray engine ships exactly that, never the data or the output folder.
"""

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

from ..errors import ConfigError
from .option_table import CONTINUING, OWN_FORM_ARGUMENTS, RUN_OPTIONS, check_options, option, positive_int
from .row_source import RowSource

__all__ = ["RunOptions", "RowSpec", "RayOptions", "DEFAULT_SHARD_SIZE", "DEFAULT_WORKER_EXPIRE_S", "LOCAL_ONLY_NOTE"]

logger = logging.getLogger("agent_evaluators.runner")

#: what ``azure_ai_project=`` does here: accepted, so azure-ai-evaluation code runs unchanged, and nothing more
LOCAL_ONLY_NOTE = ("azure_ai_project was given: results stay local (nothing is uploaded to Azure AI Foundry, "
                   "studio_url is None); read them from the result or output_path")

DEFAULT_SHARD_SIZE = 1000
#: a Ray worker not heard from for this long is presumed dead and its judge permits return
DEFAULT_WORKER_EXPIRE_S = 10.0


def _positive_int(name: str, value: Any) -> None:
    positive_int(name, value)


@dataclass(frozen=True)
class RowSpec:
    """How every row is evaluated: what a worker needs, and all it gets."""

    evaluators: Mapping[str, Callable[..., Any]]
    evaluator_config: Optional[Mapping[str, Any]] = None
    target: Optional[Callable[..., Any]] = None
    num_runs: int = 1
    timeout: Optional[float] = 300.0
    max_concurrency: int = 10
    #: the run's ``prices`` (checked): a Ray worker installs them, as the local engine does, so a
    #: run-level price reaches the judge calls made in other processes
    prices: Optional[Mapping[str, Any]] = None

    def __post_init__(self) -> None:
        evaluators = self.evaluators
        if not isinstance(evaluators, Mapping) or not evaluators:
            raise ConfigError(
                "evaluators must be a non-empty dict of alias -> evaluator, e.g. {'intent': IntentResolutionEvaluator(...)}"
            )
        for alias in evaluators:
            if not isinstance(alias, str) or not alias or alias == "default":
                raise ConfigError(f"evaluator alias {alias!r} is not allowed: use a non-empty string other than 'default'")
        for name in ("max_concurrency", "num_runs", "timeout"):
            option(name).check(name, getattr(self, name))
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
    """Every argument of ``evaluate()`` / ``evaluate_async()``, validated.

    ``rows`` says how a row is evaluated; ``values`` holds every option of
    :mod:`.option_table`, checked, defaults filled in, and each is also an attribute
    (``options.resume``), so an option added to the table needs no field here.
    """

    data: Any
    rows: RowSpec
    output_path: Optional[Path] = None
    values: Mapping[str, Any] = field(default_factory=dict)
    #: ``resume`` (or re-running the failed cells): the run folder's earlier results are read, not replaced
    #: (a field, not a property: the ledger asks for every row)
    continues_earlier_run: bool = False

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values")
        if values is not None and name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def build(
        cls,
        *,
        data: Any,
        evaluators: Mapping[str, Callable[..., Any]],
        evaluator_config: Optional[Mapping[str, Any]] = None,
        azure_ai_project: Any = None,
        **options: Any,
    ) -> "RunOptions":
        """The options of one call, from the public keyword arguments (same names)."""
        if azure_ai_project is not None:
            logger.warning(LOCAL_ONLY_NOTE)  # once per call: a warnings.warn would show only the first
        values = check_options(options)
        if values["engine"] == "ray" and values["judge_mode"] == "batch":
            raise ConfigError("judge_mode='batch' runs on the local engine only (one process follows the batches): "
                              "use engine='local', or judge_mode='direct' on Ray")
        rows = RowSpec(
            evaluators=evaluators, evaluator_config=evaluator_config, target=values["target"],
            num_runs=values["num_runs"], max_concurrency=values["max_concurrency"], prices=values["prices"],
            # in batch mode a call waits for its batch (hours, within the provider's 24 h window)
            timeout=values["timeout"] if values["judge_mode"] != "batch" else None,
        )
        output_path = values["output_path"]
        continuing = any(values[name] for name in CONTINUING)
        if continuing and output_path is None:
            raise ConfigError(" / ".join(f"{name}=True" for name in CONTINUING)
                              + " need output_path (the folder of the run to continue)")
        out_dir = Path(output_path) if output_path is not None else None
        if out_dir is not None and out_dir.suffix.lower() == ".json":
            raise ConfigError(f"output_path is a folder for rows.jsonl and summary.json, not a .json file: {out_dir}")
        values["output_path"] = out_dir
        return cls(data=data, rows=rows, output_path=out_dir, values=values, continues_earlier_run=continuing)

    @classmethod
    def from_arguments(cls, arguments: Mapping[str, Any]) -> "RunOptions":
        """The options from a public entry point's ``locals()``: the fixed arguments and every table
        option it has (``evaluate_async`` has no engine choice: those keep their defaults).

        ``evaluate()`` and ``evaluate_async()`` keep their explicit signatures (users and
        tools read them); a test checks that both offer exactly the table's keywords.
        """
        names = OWN_FORM_ARGUMENTS + tuple(o.name for o in RUN_OPTIONS)
        return cls.build(**{name: arguments[name] for name in names if name in arguments})

    def row_source(self) -> RowSource:
        """The rows this run reads (its input, cut at the row limit), for every engine."""
        return RowSource.of_options(self.data, self.values)

    @property
    def max_concurrency(self) -> int:
        return self.rows.max_concurrency



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
            _positive_int("shard_size", self.shard_size)
        if self.num_workers is not None:
            _positive_int("num_workers", self.num_workers)
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int) or self.max_retries < 0:
            raise ConfigError(f"max_retries must be an integer >= 0, got {self.max_retries!r}")
        expire = self.worker_expire_s
        if isinstance(expire, bool) or not isinstance(expire, (int, float)) or expire <= 0:
            raise ConfigError(f"worker_expire_s must be a positive number of seconds, got {expire!r}")
