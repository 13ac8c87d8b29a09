"""ADK's ``test_config.json``: which criteria to run and with which options.

A criterion is a bare number (its threshold) or an object::

    {"criteria": {
        "tool_trajectory_avg_score": {"threshold": 1.0, "match_type": "in-order", "ignore_args": true},
        "response_match_score": 0.8,
        "final_response_match_v2": {"threshold": 0.8, "judgeModelOptions": {"numSamples": 3}},
        "rubric_based_final_response_quality_v1": {"threshold": 0.8, "rubrics": [...]}}}

Keys may be snake_case or camelCase; ``match_type`` takes every spelling ADK takes
(``"IN_ORDER"``, ``"in-order"``, ``"any order"``, ``1``). Unknown criterion keys are
kept (ADK's ``BaseCriterion`` allows them); unknown top-level keys are ignored.

``user_simulator_config`` (for ``conversation_scenario`` cases) is parsed into
:class:`UserSimulatorConfig` (``model``, ``max_allowed_invocations``, the rest kept), so
that whatever drives the simulated user reads one checked object.

Two deliberate differences from ADK, both turning silent surprises into errors or
obvious defaults:

* an explicitly named config file that does not exist is a :class:`ConfigError`
  (ADK silently falls back to the default criteria);
* ``threshold`` may be left out of an object criterion for the two deterministic
  metrics (their ADK default applies); ADK requires it everywhere. Judge metrics
  still require it.
"""

from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from ..errors import ConfigError, InputError
from .efficiency.metrics import EFFICIENCY_METRICS, reject_threshold
from .loading import read_json_file, validation_message
from .models import Rubric

#: ADK's ``_DEFAULT_EVAL_CONFIG``: used when no config file is given or found.
DEFAULT_CRITERIA: Dict[str, float] = {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}
#: the metrics whose threshold may be omitted, and the value it then takes.
DETERMINISTIC_DEFAULT_THRESHOLDS: Dict[str, float] = dict(DEFAULT_CRITERIA)

CONFIG_FILE_NAME = "test_config.json"


class MatchType(str, Enum):
    """Trajectory match types; ``str`` values so they print and serialise readably."""

    EXACT = "EXACT"
    IN_ORDER = "IN_ORDER"
    ANY_ORDER = "ANY_ORDER"

    @classmethod
    def parse(cls, value: Any) -> "MatchType":
        """ADK's coercion: the enum, its int value (0/1/2), or a name normalised by
        ``strip().upper()`` with ``-`` and spaces turned into ``_``."""
        if isinstance(value, cls):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            by_int = {0: cls.EXACT, 1: cls.IN_ORDER, 2: cls.ANY_ORDER}
            if value in by_int:
                return by_int[value]
        if isinstance(value, str):
            normalized = value.strip().upper().replace("-", "_").replace(" ", "_")
            if normalized in cls.__members__:
                return cls[normalized]
        raise ValueError(
            f"match_type must be one of EXACT, IN_ORDER, ANY_ORDER (or 0, 1, 2; "
            f"'in-order' and 'any order' spellings work too), got {value!r}"
        )


class _CamelModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, protected_namespaces=())


class JudgeModelOptions(_CamelModel):
    """ADK's ``JudgeModelOptions``.

    ``judge_model`` defaults to ``None`` (ADK: ``gemini-2.5-flash``): unless the config
    names a model, the judge comes from ``model_config`` / the environment.
    """

    model_config = ConfigDict(extra="forbid")

    judge_model: Optional[str] = None
    judge_model_config: Optional[Dict[str, Any]] = None
    num_samples: int = Field(default=5, ge=1)
    parallelism_limit: int = Field(default=1, ge=1)


class Criterion(_CamelModel):
    """The union of ADK's criterion classes; each metric reads the fields it uses.

    ``threshold`` is ``None`` only transiently (see :func:`parse_criterion`).
    """

    model_config = ConfigDict(extra="allow")

    threshold: Optional[float] = None
    include_intermediate_responses_in_final: bool = False
    # LLM-as-a-judge, rubric and hallucination criteria
    judge_model_options: JudgeModelOptions = Field(default_factory=JudgeModelOptions)
    rubrics: List[Rubric] = Field(default_factory=list)
    evaluate_intermediate_nl_responses: bool = False
    # trajectory
    match_type: MatchType = MatchType.EXACT
    ignore_args: bool = False

    @field_validator("threshold", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("threshold must be a number, not a boolean")
        return value

    @field_validator("match_type", mode="before")
    @classmethod
    def _match_type(cls, value: Any) -> MatchType:
        return MatchType.parse(value)

    def to_json_dict(self) -> Dict[str, Any]:
        """ADK's snake_case spelling, options left at their defaults omitted."""
        return self.model_dump(mode="json", exclude_unset=True)


class UserSimulatorConfig(_CamelModel):
    """ADK's ``LlmBackedUserSimulatorConfig``: the model that plays the user and how many
    invocations a simulated conversation may take (ADK's default 20; ``-1``: no limit of its
    own, see :data:`agent_evaluators.agents.simulation.NO_LIMIT_CAP`). Other keys (e.g.
    ``model_configuration``, ``custom_instructions``) are kept as given."""

    model_config = ConfigDict(extra="allow")

    model: Optional[str] = None
    max_allowed_invocations: int = Field(default=20, ge=-1)

    @field_validator("max_allowed_invocations")
    @classmethod
    def _limit(cls, value: int) -> int:
        if value == 0:
            raise ValueError("must be a positive number of invocations, or -1 for no limit")
        return value


class EvalConfig(_CamelModel):
    """The parsed ``test_config.json``. ``source`` is the file it came from (``None`` = defaults)."""

    model_config = ConfigDict(extra="ignore")

    criteria: Dict[str, Criterion] = Field(default_factory=dict)
    custom_metrics: Optional[Dict[str, Any]] = None
    user_simulator_config: Optional[UserSimulatorConfig] = None
    live_model_config: Optional[Dict[str, Any]] = None
    source: Optional[str] = Field(default=None, exclude=True)

    def __repr__(self) -> str:
        crit = {name: c.to_json_dict() for name, c in self.criteria.items()}
        return f"EvalConfig(criteria={crit})"

    __str__ = __repr__


def parse_criterion(
    metric_name: str, value: Any, *, source: str = "criterion", default_threshold: Optional[float] = None
) -> Criterion:
    """A number or a criterion object → :class:`Criterion` with a threshold.

    A missing threshold takes ``default_threshold``, else the metric's ADK default for the
    deterministic metrics; for every other metric it is a :class:`ConfigError` (judge
    metrics have no default).
    """
    if isinstance(value, Criterion):
        crit = value.model_copy(deep=True)
    elif isinstance(value, bool):
        raise ConfigError(f"{source}: {metric_name} must be a number or an object, got {value!r}")
    elif isinstance(value, (int, float)):
        crit = Criterion(threshold=float(value))
    elif isinstance(value, Mapping):
        try:
            crit = Criterion.model_validate(dict(value))
        except ValidationError as exc:
            raise ConfigError(
                f"{source}: invalid criterion for {metric_name}:\n{validation_message(exc, prefix=('criteria', metric_name))}"
            ) from None
    elif value is None:
        crit = Criterion()
    else:
        raise ConfigError(
            f"{source}: {metric_name} must be a number (the threshold) or an object, got {type(value).__name__}"
        )
    if crit.threshold is None:
        default = default_threshold if default_threshold is not None else DETERMINISTIC_DEFAULT_THRESHOLDS.get(metric_name)
        if default is None:
            raise ConfigError(
                f"{source}: {metric_name} needs a threshold, e.g. "
                f'{{"{metric_name}": {{"threshold": 0.8}}}} (judge metrics have no default threshold)'
            )
        crit.threshold = default
    return crit


def default_eval_config() -> EvalConfig:
    """ADK's defaults: ``tool_trajectory_avg_score`` 1.0 (EXACT) and ``response_match_score`` 0.8."""
    return EvalConfig(criteria={k: Criterion(threshold=v) for k, v in DEFAULT_CRITERIA.items()})


def load_eval_config(path: Optional[Union[str, Path]] = None) -> EvalConfig:
    """Parse ``test_config.json``; ``None`` gives ADK's default criteria.

    Raises :class:`ConfigError` naming the file and JSON path on invalid content, and
    when ``path`` is given but does not exist.
    """
    if path is None:
        return default_eval_config()
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"criteria config not found: {p} (leave it out to use the default criteria)")
    try:
        data = read_json_file(p, what="criteria config")
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    return parse_eval_config(data, source=str(p))


def parse_eval_config(data: Any, *, source: str = "<config>") -> EvalConfig:
    """Like :func:`load_eval_config` for an already-parsed dict."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: a criteria config must be a JSON object with 'criteria', got {type(data).__name__}")
    raw = dict(data)
    criteria_raw = raw.pop("criteria", {})
    if criteria_raw is None:
        criteria_raw = {}
    if not isinstance(criteria_raw, Mapping):
        raise ConfigError(f"{source}: $.criteria must be an object mapping metric names to thresholds or criteria")
    try:
        config = EvalConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(f"{source}: invalid criteria config:\n{validation_message(exc)}") from None
    for name in criteria_raw:  # ADK: "does not support a threshold"; they are reported on every run anyway
        if name in EFFICIENCY_METRICS:
            reject_threshold(name, criteria_raw[name] if criteria_raw[name] is not None else "set", where=source)
    config.criteria = {name: parse_criterion(name, value, source=source) for name, value in criteria_raw.items()}
    config.source = source
    return config


def find_config_for(evalset_path: Union[str, Path]) -> Optional[Path]:
    """The ``test_config.json`` beside an eval-set file, as ADK looks for it; ``None`` if absent."""
    candidate = Path(evalset_path).parent / CONFIG_FILE_NAME
    return candidate if candidate.is_file() else None
