"""Run configuration for ``agent-eval run`` and the pytest helper: the config file
(YAML or JSON), the judge settings, the evaluators of a run and run-level thresholds.

Evaluator names are looked up in :mod:`agent_evaluators.registry` (the one list).

A config file::

    data: data/agents.jsonl              # relative to the config file
    output_path: ../out/sample-run       # optional (default: agent-eval-results/<data stem>)
    max_concurrency: 10                  # any keyword of evaluate() by its own name (see run_call.py);
    num_runs: 3                          #   'output' and 'concurrency' are older spellings
    judge:                               # optional; flags and environment override it
      model: gpt-4o-mini                 # also: base_url, api_key_env, azure_endpoint,
                                         #       azure_deployment, api_version, is_reasoning_model
    column_mapping:                      # "default" mapping for every evaluator
      query: ${data.query}
    evaluators:
      trajectory:                        # the alias: metrics are trajectory.<key>
        type: tool_trajectory            # a registry name (agent-eval list)
        options: {match_type: in_order}  # keyword arguments of the class
        threshold: 1.0                   # per-row pass mark
        column_mapping: {response: ${data.response}, ground_truth: ${data.expected_tool_calls}}
    thresholds:                          # run-level: "<alias>.<metric> <op> <number>"
      - trajectory.pass_rate >= 0.7
    # or a mapping {"trajectory.pass_rate": 0.7} meaning ">="

Everything that is wrong is a :class:`~agent_evaluators.errors.ConfigError` naming
the key and what to write instead.
"""

import inspect
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from .. import registry
from .._util.import_path import import_object
from ..errors import ConfigError
from .judge_panels import panel_model_config, read_judge_section
from .judge_settings import _JUDGE_KEYS, JUDGE_HOWTO, JudgeSettings, dry_run_model_config, judge_model_config  # noqa: F401 - re-exported
from .run_call import RUN_OPTION_KEYS, read_run_options
from .thresholds import Threshold, closest_hint, parse_threshold

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------------------- evaluator names
def evaluator_names() -> List[str]:
    """The registry names, in ``agent-eval list`` order."""
    return registry.names()


def evaluator_class(name: str) -> Type[Any]:
    """The class registered under ``name`` (or one of its other spellings)."""
    return registry.get(name).load()


def canonical_name(name: str) -> str:
    """The registry name that ``name`` (an alias or ADK metric name) refers to."""
    return registry.get(name).name


# ---------------------------------------------------------------------------- thresholds
def _thresholds(value: Any, where: str) -> List[Threshold]:
    if value is None:
        return []
    if isinstance(value, str):
        return [parse_threshold(value)]
    if isinstance(value, Mapping):
        return [parse_threshold(k, v) for k, v in value.items()]
    if isinstance(value, Sequence):
        return [parse_threshold(v) for v in value]
    raise ConfigError(f"{where}: 'thresholds' must be a list of 'alias.metric >= number' strings or a mapping")


# ---------------------------------------------------------------------------- evaluator specs
PROMPTY_PREFIX = "prompty:"


def _is_class_path(name: str) -> bool:
    """``mypkg.evals:MyEval``: a class of the user's own (not a registry name, not a prompty)."""
    return ":" in name and not name.startswith(PROMPTY_PREFIX)


@dataclass
class EvaluatorSpec:
    """One evaluator of a run: its type, options, threshold and column mapping.

    ``name`` (the type) is a registry name (``agent-eval list``), ``prompty:PATH`` (a
    :class:`~agent_evaluators.evaluators.judge_base.PromptyEvaluator` on the user's
    template; ``options`` carries ``result_key`` / ``scale``) or ``module:Class`` (the
    user's own evaluator class, built with ``options`` as keyword arguments).
    """

    alias: str
    name: str
    options: Dict[str, Any] = field(default_factory=dict)
    threshold: Optional[float] = None
    column_mapping: Optional[Dict[str, str]] = None
    search_path: Tuple[Path, ...] = ()
    #: the run's ``azure_compat``: a registry name means its :mod:`agent_evaluators.azure` class
    azure_compat: bool = False

    @property
    def is_prompty(self) -> bool:
        return self.name.startswith(PROMPTY_PREFIX)

    @property
    def prompty_path(self) -> Optional[Path]:
        return Path(self.name[len(PROMPTY_PREFIX):]) if self.is_prompty else None

    @property
    def cls(self) -> Type[Any]:
        if self.is_prompty:
            from ..evaluators.judge_base import PromptyEvaluator

            return PromptyEvaluator
        if _is_class_path(self.name):
            return import_object(self.name, self.search_path)
        if self.azure_compat:
            return registry.compat_class(self.name)
        return evaluator_class(self.name)

    @property
    def uses_judge(self) -> bool:
        if self.is_prompty:
            return True
        if _is_class_path(self.name):
            return bool(getattr(self.cls, "uses_judge", False))
        return registry.get(self.name).judge

    def build(self, model_config: Optional[Mapping[str, Any]], *, is_reasoning_model: bool = False) -> Any:
        """Construct the evaluator; options that the class does not take are a ConfigError."""
        cls = self.cls
        kwargs = dict(self.options)
        if self.threshold is not None:
            kwargs["threshold"] = self.threshold
        if self.is_prompty:
            path = self.prompty_path
            assert path is not None
            if not path.is_file():
                raise ConfigError(f"evaluator {self.alias!r}: prompty file not found: {path}")
            kwargs["prompty"] = str(path)
            if isinstance(kwargs.get("scale"), list):
                kwargs["scale"] = tuple(kwargs["scale"])
        try:
            params = inspect.signature(cls.__init__ if inspect.isclass(cls) else cls).parameters
        except (TypeError, ValueError):
            params = {}  # type: ignore[assignment]
        if not inspect.isclass(cls):  # a plain function is the evaluator itself
            from ..adk.custom_metrics import AdkCustomMetric, is_adk_metric_function

            if is_adk_metric_function(cls):  # an ADK custom metric (its custom_metrics function), called as ADK does
                threshold = kwargs.pop("threshold", None)
                if kwargs:
                    raise ConfigError(f"evaluator {self.alias!r} ({self.name}) is an ADK custom metric: it takes "
                                      "only a threshold (on its criterion)")
                return AdkCustomMetric(cls, self.alias, None if threshold is None else {"threshold": threshold})
            if kwargs:
                raise ConfigError(f"evaluator {self.alias!r} ({self.name}) is a function: it takes no options")
            return cls
        if self.uses_judge:
            kwargs.setdefault("model_config", _copy(model_config) if model_config else None)
            if is_reasoning_model and "is_reasoning_model" in params:
                kwargs.setdefault("is_reasoning_model", True)
        takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        unknown = [k for k in kwargs if k not in params and not takes_any]
        if unknown:
            accepted = ", ".join(n for n in params if n not in ("self", "model_config", "credential"))
            raise ConfigError(
                f"evaluator {self.alias!r} ({self.name}): unknown option {unknown[0]!r}; {cls.__name__} accepts: {accepted}"
            )
        try:
            evaluator = cls(**kwargs)
        except TypeError as exc:
            raise ConfigError(f"evaluator {self.alias!r} ({self.name}): {exc}") from exc
        if not callable(evaluator):
            raise ConfigError(
                f"evaluator {self.alias!r} ({self.name}): {cls.__name__} objects are not callable; an evaluator "
                f"class needs a method __call__(self, **inputs) that returns a dict or a number")
        return evaluator


def _copy(model_config: Any) -> Any:
    """A model config (a dict, or a judge panel's list of dicts) of the evaluator's own."""
    return [dict(c) for c in model_config] if isinstance(model_config, list) else dict(model_config)


def _resolve_type(name: str, base: Optional[Path] = None) -> str:
    """The canonical type string: a registry name, ``prompty:<path>`` (resolved against ``base``) or ``module:Class``."""
    if name.startswith(PROMPTY_PREFIX):
        path = Path(name[len(PROMPTY_PREFIX):])
        if base is not None and not path.is_absolute():
            path = base / path
        return PROMPTY_PREFIX + str(path)
    if _is_class_path(name):
        return name
    evaluator_class(name)  # fail early on a misspelling
    return canonical_name(name)


def parse_evaluator_arg(text: str) -> EvaluatorSpec:
    """``--evaluator NAME[=ALIAS]``: NAME is a registry name, ``prompty:PATH`` or ``module:Class``.

    The alias defaults to the registry name, the prompty file's stem or the class name.
    """
    name, _, alias = str(text).partition("=")
    name, alias = name.strip(), alias.strip()
    if not name or name == PROMPTY_PREFIX:
        raise ConfigError(f"--evaluator {text!r}: give a registry name, prompty:PATH or module:Class, "
                          "e.g. --evaluator tool_trajectory=trajectory")
    resolved = _resolve_type(name)
    if not alias:
        if resolved.startswith(PROMPTY_PREFIX):
            alias = Path(resolved[len(PROMPTY_PREFIX):]).name.split(".")[0]
        elif _is_class_path(resolved):
            alias = resolved.rpartition(":")[2].rpartition(".")[2]
        else:
            alias = name
    spec = EvaluatorSpec(alias=alias, name=resolved)
    if _is_class_path(resolved):
        _ = spec.cls  # import now: a typo is a ConfigError before anything runs
    return spec


# ---------------------------------------------------------------------------- the file
@dataclass
class RunConfig:
    """Everything a run needs, resolved relative to the config file."""

    data: Optional[Path] = None
    evaluators: List[EvaluatorSpec] = field(default_factory=list)
    column_mapping: Optional[Dict[str, str]] = None
    thresholds: List[Threshold] = field(default_factory=list)
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    #: a judge panel (``judge:`` as a list): (name, settings) per judge; ``judge`` then holds the flags only
    judge_panel: List[Tuple[str, JudgeSettings]] = field(default_factory=list)
    #: ``evaluate()`` keywords set by the file (and then by flags): the run option table's names
    run_options: Dict[str, Any] = field(default_factory=dict)
    source: Optional[Path] = None

    def evaluator_config(self) -> Dict[str, Any]:
        """``evaluate(evaluator_config=...)`` from the default and per-alias mappings."""
        out: Dict[str, Any] = {}
        if self.column_mapping:
            out["default"] = {"column_mapping": dict(self.column_mapping)}
        for spec in self.evaluators:
            if spec.column_mapping:
                merged = dict(self.column_mapping or {})
                merged.update(spec.column_mapping)  # an alias's mapping replaces "default": keep the shared part
                out[spec.alias] = {"column_mapping": merged}
        return out

    def check(self) -> None:
        if self.data is None:
            raise ConfigError("no data: pass --data FILE or set 'data:' in the config file")
        if not self.evaluators:
            raise ConfigError("no evaluators: pass --evaluator NAME (see `agent-eval list`) or list them under 'evaluators:'")
        seen = set()
        for spec in self.evaluators:
            if spec.alias in seen:
                raise ConfigError(f"evaluator alias {spec.alias!r} is used twice; give one of them another alias (NAME=ALIAS)")
            seen.add(spec.alias)
        for t in self.thresholds:
            if t.alias not in seen:
                raise ConfigError(
                    f"threshold '{t}' names evaluator alias {t.alias!r}, which is not in this run"
                    f"{closest_hint(t.alias, sorted(seen))} (aliases: {', '.join(sorted(seen))})"
                )


_TOP_KEYS = {"data", "evaluators", "column_mapping", "thresholds", "judge", *RUN_OPTION_KEYS}
_EVALUATOR_KEYS = {"type", "options", "threshold", "column_mapping", "prompty", "result_key", "scale"}


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except ValueError as exc:
            raise ConfigError(f"{path}: not valid JSON: {exc}") from None
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None


def _mapping(value: Any, where: str) -> Optional[Dict[str, str]]:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigError(f"{where}: column_mapping must map input names to '${{data.column}}' strings")
    return dict(value)


def load_config(path: Any) -> RunConfig:
    """Read a YAML or JSON run config; paths in it are relative to the file."""
    path = Path(path)
    raw = _read(path)
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{path}: the config must be a mapping with 'data', 'evaluators', ...")
    unknown = sorted(set(raw) - _TOP_KEYS)
    if unknown:
        # the file's own words (plain text: no reference, so every reader sees the keys as the file spells them)
        raise ConfigError(f"{path}: unknown key {unknown[0]!r}; known keys: {', '.join(map(repr, sorted(_TOP_KEYS)))}")
    base = path.parent
    cfg = RunConfig(source=path)
    if raw.get("data") is not None:
        cfg.data = base / str(raw["data"])
    cfg.column_mapping = _mapping(raw.get("column_mapping"), f"{path}")
    cfg.thresholds = _thresholds(raw.get("thresholds"), str(path))
    cfg.run_options = read_run_options(raw, path)
    cfg.judge, cfg.judge_panel = read_judge_section(raw.get("judge"), f"{path}: judge")
    evaluators = raw.get("evaluators") or {}
    if isinstance(evaluators, Sequence) and not isinstance(evaluators, str):
        # a plain list of registry names
        evaluators = {str(n): {"type": str(n)} for n in evaluators}
    if not isinstance(evaluators, Mapping):
        raise ConfigError(f"{path}: 'evaluators' must map aliases to {{type: NAME, options: ..., threshold: ...}}")
    for alias, spec in evaluators.items():
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, Mapping):
            raise ConfigError(f"{path}: evaluators.{alias} must be a mapping with 'type'")
        bad = sorted(set(spec) - _EVALUATOR_KEYS)
        if bad:
            raise ConfigError(f"{path}: evaluators.{alias}: unknown key {bad[0]!r}; known: {', '.join(sorted(_EVALUATOR_KEYS))}")
        name = str(spec.get("type") or alias)
        options = spec.get("options") or {}
        if not isinstance(options, Mapping):
            raise ConfigError(f"{path}: evaluators.{alias}.options must be a mapping of constructor arguments")
        options = dict(options)
        if name == "prompty" or spec.get("prompty") is not None:
            if not spec.get("prompty"):
                raise ConfigError(f"{path}: evaluators.{alias}: type: prompty needs 'prompty: PATH' (relative to {path.name})")
            name = PROMPTY_PREFIX + str(spec["prompty"])
        elif any(spec.get(k) is not None for k in ("result_key", "scale")):
            raise ConfigError(f"{path}: evaluators.{alias}: result_key / scale go with type: prompty")
        for key in ("result_key", "scale"):
            if spec.get(key) is not None:
                options[key] = spec[key]
        try:
            resolved = _resolve_type(name, base)
        except ConfigError as exc:
            raise ConfigError(f"{path}: evaluators.{alias}: {exc}") from None
        threshold = spec.get("threshold")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))):
            raise ConfigError(f"{path}: evaluators.{alias}.threshold must be a number, got {threshold!r}")
        cfg.evaluators.append(
            EvaluatorSpec(
                alias=str(alias),
                name=resolved,
                options=options,
                threshold=threshold,
                column_mapping=_mapping(spec.get("column_mapping"), f"{path}: evaluators.{alias}"),
                search_path=(base.resolve(),),
            )
        )
    return cfg


def build_evaluators(cfg: RunConfig) -> Tuple[Dict[str, Any], Dict[str, str], Optional[Dict[str, Any]]]:
    """(evaluators by alias, skipped aliases with why, judge model_config) for a checked config.

    Judge-backed evaluators are skipped, not failed, when no judge is configured;
    a run where nothing is left is a :class:`ConfigError` (a green run that
    evaluated nothing would hide a missing secret in CI).
    """
    model_config: Any = None
    if any(spec.uses_judge for spec in cfg.evaluators):  # a judge in the environment is no concern of a run without one
        model_config = panel_model_config(cfg.judge_panel, cfg.judge) if cfg.judge_panel else judge_model_config(cfg.judge)
    if model_config is None and cfg.run_options.get("dry_run"):
        model_config = dry_run_model_config(cfg.judge)  # a dry run calls no judge: it needs none configured
    evaluators: Dict[str, Any] = {}
    skipped: Dict[str, str] = {}
    for spec in cfg.evaluators:
        spec.azure_compat = bool(cfg.run_options.get("azure_compat"))
        if spec.uses_judge and model_config is None:
            skipped[spec.alias] = "no judge configured"
            continue
        evaluators[spec.alias] = spec.build(model_config, is_reasoning_model=cfg.judge.is_reasoning_model)
    if not evaluators:
        raise ConfigError(
            f"nothing to evaluate: every evaluator ({', '.join(skipped)}) needs a judge and none is configured; "
            + JUDGE_HOWTO
        )
    return evaluators, skipped, model_config
