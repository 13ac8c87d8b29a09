"""The one list of the package's evaluators: name, class, judge or not, ADK metric, calibration set.

Everything that names evaluators reads this list: the lazy exports of
``agent_evaluators``, the ``agent-eval run`` / YAML config (``type: NAME``),
``agent-eval list``, the calibration kit, and the ADK criteria (``adk_metric``).
Adding a metric is its class, its ``.prompty`` (for a judge), one :class:`EvaluatorEntry`
below and its tests (CONTRIBUTING.md, "Adding an evaluator"). A package of your own adds evaluators
without touching this list: it names each class under the ``agent_evaluators.evaluators``
entry-point group, and its entry is read from the class itself (:func:`entry_for`) the first time
its name is used, importing that package alone (or when the whole list is asked for: ``agent-eval
list``). A package that cannot be imported is a warning naming it, and an error only where it is named.

A plain-data module: cheap to import (``import agent_evaluators`` reads it) and it
imports no evaluator module; classes are loaded from their ``"module:Class"``
string on first use (:meth:`EvaluatorEntry.load`).
"""

import importlib
import logging
from types import MappingProxyType
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Tuple

from .errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = [
    "CalibrationSet",
    "EvaluatorEntry",
    "ENTRIES",
    "entries",
    "names",
    "get",
    "find",
    "by_adk_metric",
    "by_class_name",
    "judge_entries",
    "calibrated_entries",
    "normalize",
    "entry_for",
    "plugin_entries",
    "ENTRY_POINT_GROUP",
    "compat_class",
    "compat_entry",
    "compat_entries",
    "closest",
]


# NamedTuples, not dataclasses: ``import agent_evaluators`` reads this module, and
# ``dataclasses`` would pull in ``inspect`` (tens of milliseconds) for nothing.
_NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})


class CalibrationSet(NamedTuple):
    """The labelled set an evaluator is calibrated on (``calibration/data/<file>``).

    ``options``: fixed constructor arguments the set was written for (e.g. the rubrics);
    ``quick_options``: overrides for a quick run (one sample instead of five);
    ``score_range``: the scores a valid verdict can produce.
    """

    file: str
    score_range: Tuple[float, float]
    options: Mapping[str, Any] = _NO_OPTIONS
    quick_options: Mapping[str, Any] = _NO_OPTIONS

    @property
    def stem(self) -> str:
        return self.file.rsplit(".", 1)[0]


class EvaluatorEntry(NamedTuple):
    """One public evaluator.

    ``name``: the registry name (``agent-eval run --evaluator NAME``, YAML ``type: NAME``);
    ``target``: ``"module:Class"``; ``judge``: whether it asks a judge model;
    ``result_key``: its default result key; ``adk_metric``: the ADK metric it implements
    (``test_config.json`` criterion name), if any; ``aliases``: other spellings the CLI
    accepts; ``calibration``: its labelled set, for judge evaluators; ``lower_is_better``: a
    lower score is the better one (harm severities), so reports colour its changes that way
    (the class says the same by ``higher_is_better = False``).
    """

    name: str
    target: str
    judge: bool
    result_key: str
    adk_metric: Optional[str] = None
    aliases: Tuple[str, ...] = ()
    calibration: Optional[CalibrationSet] = None
    lower_is_better: bool = False

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    @property
    def class_name(self) -> str:
        return self.target.partition(":")[2]

    def load(self) -> type:
        """The evaluator class (its module is imported now)."""
        cls: type = getattr(importlib.import_module(self.module), self.class_name)
        return cls

    def spellings(self) -> Tuple[str, ...]:
        """Every name this entry answers to, normalized."""
        extra = (self.adk_metric,) if self.adk_metric else ()
        return tuple(normalize(n) for n in (self.name, *self.aliases, *extra))


_AGENT = "agent_evaluators.evaluators.agent"
_ADK = "agent_evaluators.adk.judges"
_EVALUATORS = "agent_evaluators.evaluators"
_TOOL_USE = "agent_evaluators.evaluators.tool_use"
_COMPOSITE = "agent_evaluators.evaluators.composite"
_HARM = "agent_evaluators.evaluators.content_safety"
_LABELS = "agent_evaluators.evaluators.safety_labels"
_QUALITY = "agent_evaluators.evaluators.quality"
_NLP = "agent_evaluators.evaluators.nlp"
_EFFICIENCY = "agent_evaluators.adk.efficiency.evaluators"

FINAL_RESPONSE_RUBRICS = (
    "The final response directly answers the user's question.",
    "Every fact in the final response agrees with the tool results shown.",
)
TOOL_USE_RUBRICS = (
    "The agent calls the tool whose purpose fits the user's request.",
    "The tool call's argument values are the ones the user gave in the request.",
)
RESPONSE_RUBRICS = (
    "The response answers the question the user asked.",
    "The response gives concrete information rather than general remarks.",
)
MULTI_TURN_RUBRICS = (
    "The agent answers what the user asked in every turn, keeping what earlier turns established.",
    "The agent calls the tool whose purpose fits each request, with the values the user gave.",
)
_ONE_SAMPLE = {"num_samples": 1}


def _cal(file: str, low: float, high: float, options: Optional[Mapping[str, Any]] = None,
         quick: Optional[Mapping[str, Any]] = None) -> CalibrationSet:
    return CalibrationSet(file, (low, high), MappingProxyType(dict(options or {})), MappingProxyType(dict(quick or {})))


#: Every public evaluator, in the order ``agent-eval list`` shows them.
ENTRIES: Tuple[EvaluatorEntry, ...] = (
    EvaluatorEntry("intent_resolution", f"{_AGENT}:IntentResolutionEvaluator", True, "intent_resolution",
                   aliases=("intent",), calibration=_cal("intent_resolution.jsonl", 1, 5)),
    EvaluatorEntry("response_completeness", f"{_AGENT}:ResponseCompletenessEvaluator", True, "response_completeness",
                   calibration=_cal("response_completeness.jsonl", 1, 5)),
    EvaluatorEntry("task_adherence", f"{_AGENT}:TaskAdherenceEvaluator", True, "task_adherence",
                   calibration=_cal("task_adherence.jsonl", 1, 5)),
    EvaluatorEntry("tool_call_accuracy", f"{_AGENT}:ToolCallAccuracyEvaluator", True, "tool_call_accuracy",
                   calibration=_cal("tool_call_accuracy.jsonl", 0, 1)),
    EvaluatorEntry("tool_trajectory", "agent_evaluators.evaluators.trajectory:ToolTrajectoryEvaluator", False,
                   "tool_trajectory_avg_score", adk_metric="tool_trajectory_avg_score", aliases=("trajectory",)),
    EvaluatorEntry("task_navigation_efficiency",
                   "agent_evaluators.evaluators.task_navigation:TaskNavigationEfficiencyEvaluator", False,
                   "task_navigation_efficiency", aliases=("task_navigation",)),
    EvaluatorEntry("response_match", "agent_evaluators.evaluators.response_match:ResponseMatchEvaluator", False,
                   "response_match_score", adk_metric="response_match_score"),
    EvaluatorEntry("final_response_match", f"{_ADK}.final_response_match:FinalResponseMatchEvaluator", True,
                   "final_response_match_v2", adk_metric="final_response_match_v2",
                   calibration=_cal("final_response_match_v2.jsonl", 0, 1, quick=_ONE_SAMPLE)),
    EvaluatorEntry("rubric_final_response_quality", f"{_ADK}.rubrics:RubricBasedFinalResponseQualityEvaluator", True,
                   "rubric_based_final_response_quality_v1", adk_metric="rubric_based_final_response_quality_v1",
                   calibration=_cal("rubric_based_final_response_quality_v1.jsonl", 0, 1,
                                    {"rubrics": FINAL_RESPONSE_RUBRICS}, _ONE_SAMPLE)),
    EvaluatorEntry("rubric_tool_use_quality", f"{_ADK}.rubrics:RubricBasedToolUseQualityEvaluator", True,
                   "rubric_based_tool_use_quality_v1", adk_metric="rubric_based_tool_use_quality_v1",
                   calibration=_cal("rubric_based_tool_use_quality_v1.jsonl", 0, 1,
                                    {"rubrics": TOOL_USE_RUBRICS}, _ONE_SAMPLE)),
    EvaluatorEntry("rubric_multi_turn_trajectory_quality",
                   f"{_ADK}.multi_turn:RubricBasedMultiTurnTrajectoryQualityEvaluator", True,
                   "rubric_based_multi_turn_trajectory_quality_v1",
                   adk_metric="rubric_based_multi_turn_trajectory_quality_v1",
                   calibration=_cal("rubric_based_multi_turn_trajectory_quality_v1.jsonl", 0, 1,
                                    {"rubrics": MULTI_TURN_RUBRICS}, _ONE_SAMPLE)),
    EvaluatorEntry("multi_turn_task_success", f"{_ADK}.multi_turn:MultiTurnTaskSuccessEvaluator", True,
                   "multi_turn_task_success_v1", adk_metric="multi_turn_task_success_v1",
                   calibration=_cal("multi_turn_task_success_v1.jsonl", 0, 1)),
    EvaluatorEntry("multi_turn_trajectory_quality", f"{_ADK}.multi_turn:MultiTurnTrajectoryQualityEvaluator", True,
                   "multi_turn_trajectory_quality_v1", adk_metric="multi_turn_trajectory_quality_v1",
                   calibration=_cal("multi_turn_trajectory_quality_v1.jsonl", 0, 1)),
    EvaluatorEntry("multi_turn_tool_use_quality", f"{_ADK}.multi_turn:MultiTurnToolUseQualityEvaluator", True,
                   "multi_turn_tool_use_quality_v1", adk_metric="multi_turn_tool_use_quality_v1",
                   calibration=_cal("multi_turn_tool_use_quality_v1.jsonl", 0, 1)),
    EvaluatorEntry("hallucinations", f"{_ADK}.hallucinations:HallucinationEvaluator", True, "hallucinations_v1",
                   adk_metric="hallucinations_v1", calibration=_cal("hallucinations_v1.jsonl", 0, 1)),
    EvaluatorEntry("safety", f"{_ADK}.safety:SafetyEvaluator", True, "safety_v1", adk_metric="safety_v1",
                   calibration=_cal("safety_v1.jsonl", 0, 1)),
    EvaluatorEntry("trajectory_judge", "agent_evaluators.evaluators.trajectory_judge:TrajectoryJudgeEvaluator", True,
                   "trajectory_accuracy", aliases=("trajectory_accuracy",),
                   calibration=_cal("trajectory_accuracy.jsonl", 0, 1)),
    EvaluatorEntry("answer_similarity", "agent_evaluators.evaluators.answer_similarity:AnswerSimilarityEvaluator",
                   True, "answer_similarity", calibration=_cal("answer_similarity.jsonl", 0, 1)),
    EvaluatorEntry("rubric", "agent_evaluators.evaluators.rubric:RubricEvaluator", True, "rubric_score",
                   calibration=_cal("rubric_score.jsonl", 0, 1, {"rubrics": RESPONSE_RUBRICS})),
    EvaluatorEntry("response_evaluation", "agent_evaluators.adk.judges.response_evaluation:ResponseEvaluationEvaluator",
                   True, "response_evaluation_score", adk_metric="response_evaluation_score",
                   calibration=_cal("response_evaluation_score.jsonl", 1, 5)),
    EvaluatorEntry("user_simulator_quality",
                   "agent_evaluators.adk.judges.user_simulator_quality:PerTurnUserSimulatorQualityEvaluator", True,
                   "per_turn_user_simulator_quality_v1", adk_metric="per_turn_user_simulator_quality_v1",
                   calibration=_cal("per_turn_user_simulator_quality_v1.jsonl", 0, 1, quick=_ONE_SAMPLE)),
    # ADK's informational efficiency metrics (what the agent spent; never pass or fail). Their ADK names are
    # aliases, not adk_metric: no test_config.json criterion may name them (ADK appends them to every run)
    EvaluatorEntry("tool_call_count", f"{_EFFICIENCY}:ToolCallCountEvaluator", False, "tool_call_count_v1",
                   aliases=("tool_call_count_v1",)),
    EvaluatorEntry("inference_call_count", f"{_EFFICIENCY}:InferenceCallCountEvaluator", False,
                   "inference_call_count_v1", aliases=("inference_call_count_v1",)),
    EvaluatorEntry("token_usage", f"{_EFFICIENCY}:TokenUsageEvaluator", False, "token_usage_v1",
                   aliases=("token_usage_v1",)),
    EvaluatorEntry("invocation_duration", f"{_EFFICIENCY}:InvocationDurationEvaluator", False,
                   "invocation_duration_v1", aliases=("invocation_duration_v1",)),
    # the end state an agent leaves behind (ADK's final_session_state), deterministic
    EvaluatorEntry("final_state_match", "agent_evaluators.evaluators.final_state:FinalStateMatchEvaluator", False,
                   "final_state_match", aliases=("end_state",)),
    # azure-ai-evaluation 1.18's newer agent metrics (0/1 verdicts)
    EvaluatorEntry("task_completion", f"{_EVALUATORS}.task_completion:TaskCompletionEvaluator", True, "task_completion",
                   calibration=_cal("task_completion.jsonl", 0, 1)),
    EvaluatorEntry("tool_selection", f"{_TOOL_USE}:ToolSelectionEvaluator", True, "tool_selection",
                   calibration=_cal("tool_selection.jsonl", 0, 1)),
    EvaluatorEntry("tool_input_accuracy", f"{_TOOL_USE}:ToolInputAccuracyEvaluator", True, "tool_input_accuracy",
                   calibration=_cal("tool_input_accuracy.jsonl", 0, 1)),
    EvaluatorEntry("tool_output_utilization", f"{_TOOL_USE}:ToolOutputUtilizationEvaluator", True,
                   "tool_output_utilization", calibration=_cal("tool_output_utilization.jsonl", 0, 1)),
    EvaluatorEntry("tool_call_success", f"{_TOOL_USE}:ToolCallSuccessEvaluator", True, "tool_call_success",
                   calibration=_cal("tool_call_success.jsonl", 0, 1)),
    # composites (azure's catalog names): their members in one call, each under its own keys
    EvaluatorEntry("tool_use_quality", f"{_COMPOSITE}:ToolUseQualityEvaluator", True, "tool_use_quality",
                   calibration=_cal("tool_use_quality.jsonl", 0, 1)),
    EvaluatorEntry("output_quality", f"{_COMPOSITE}:OutputQualityEvaluator", True, "output_quality",
                   calibration=_cal("output_quality.jsonl", 0, 1)),
    # content safety on any judge (azure's cloud-only safety evaluators, as judge rubrics)
    EvaluatorEntry("violence", f"{_HARM}:ViolenceEvaluator", True, "violence",
                   calibration=_cal("violence.jsonl", 0, 7), lower_is_better=True),
    EvaluatorEntry("sexual", f"{_HARM}:SexualEvaluator", True, "sexual",
                   calibration=_cal("sexual.jsonl", 0, 7), lower_is_better=True),
    EvaluatorEntry("self_harm", f"{_HARM}:SelfHarmEvaluator", True, "self_harm",
                   calibration=_cal("self_harm.jsonl", 0, 7), lower_is_better=True),
    EvaluatorEntry("hate_unfairness", f"{_HARM}:HateUnfairnessEvaluator", True, "hate_unfairness",
                   calibration=_cal("hate_unfairness.jsonl", 0, 7), lower_is_better=True),
    EvaluatorEntry("protected_material", f"{_LABELS}:ProtectedMaterialEvaluator", True, "protected_material",
                   calibration=_cal("protected_material.jsonl", 0, 1), lower_is_better=True),
    EvaluatorEntry("indirect_attack", f"{_LABELS}:IndirectAttackEvaluator", True, "indirect_attack",
                   aliases=("xpia",), calibration=_cal("indirect_attack.jsonl", 0, 1), lower_is_better=True),
    EvaluatorEntry("code_vulnerability", f"{_LABELS}:CodeVulnerabilityEvaluator", True, "code_vulnerability",
                   calibration=_cal("code_vulnerability.jsonl", 0, 1), lower_is_better=True),
    EvaluatorEntry("ungrounded_attributes", f"{_LABELS}:UngroundedAttributesEvaluator", True,
                   "ungrounded_attributes", calibration=_cal("ungrounded_attributes.jsonl", 0, 1),
                   lower_is_better=True),
    EvaluatorEntry("content_safety", f"{_HARM}:ContentSafetyEvaluator", True, "content_safety",
                   calibration=_cal("content_safety.jsonl", 0, 1)),
    EvaluatorEntry("groundedness_pro", f"{_LABELS}:GroundednessProEvaluator", True, "groundedness_pro",
                   calibration=_cal("groundedness_pro.jsonl", 0, 1)),
    # azure-ai-evaluation's response-quality judges (1-5)
    EvaluatorEntry("groundedness", "agent_evaluators.evaluators.groundedness:GroundednessEvaluator", True,
                   "groundedness", calibration=_cal("groundedness.jsonl", 1, 5)),
    EvaluatorEntry("relevance", f"{_QUALITY}:RelevanceEvaluator", True, "relevance",
                   calibration=_cal("relevance.jsonl", 1, 5)),
    EvaluatorEntry("coherence", f"{_QUALITY}:CoherenceEvaluator", True, "coherence",
                   calibration=_cal("coherence.jsonl", 1, 5)),
    EvaluatorEntry("fluency", f"{_QUALITY}:FluencyEvaluator", True, "fluency",
                   calibration=_cal("fluency.jsonl", 1, 5)),
    EvaluatorEntry("similarity", f"{_QUALITY}:SimilarityEvaluator", True, "similarity",
                   calibration=_cal("similarity.jsonl", 1, 5)),
    EvaluatorEntry("retrieval", f"{_QUALITY}:RetrievalEvaluator", True, "retrieval",
                   calibration=_cal("retrieval.jsonl", 1, 5)),
    EvaluatorEntry("qa", "agent_evaluators.evaluators.qa:QAEvaluator", True, "qa",
                   calibration=_cal("qa.jsonl", 0, 1)),
    # the NLP scores, with azure-ai-evaluation 1.18's numbers (names = azure's result keys)
    EvaluatorEntry("f1_score", f"{_NLP}.f1:F1ScoreEvaluator", False, "f1_score", aliases=("f1",)),
    EvaluatorEntry("bleu_score", f"{_NLP}.ngram:BleuScoreEvaluator", False, "bleu_score", aliases=("bleu",)),
    EvaluatorEntry("gleu_score", f"{_NLP}.ngram:GleuScoreEvaluator", False, "gleu_score", aliases=("gleu",)),
    EvaluatorEntry("meteor_score", f"{_NLP}.meteor:MeteorScoreEvaluator", False, "meteor_score", aliases=("meteor",)),
    EvaluatorEntry("rouge", f"{_NLP}.rouge:RougeScoreEvaluator", False, "rouge", aliases=("rouge_score",)),
    EvaluatorEntry("document_retrieval", f"{_NLP}.document_retrieval:DocumentRetrievalEvaluator", False,
                   "document_retrieval"),
)


def compat_entry(name: Any) -> EvaluatorEntry:
    """The entry registry name ``name`` means in an ``azure_compat`` run: the class and labelled set the
    compatibility wing declares for it (:data:`agent_evaluators.plugins.COMPAT_MEANINGS`); a name it
    does not declare is its own entry."""
    entry = get(name)
    declared = _compat_meanings().get(entry.name)
    if declared is None:
        return entry
    target, calibration = declared
    return entry._replace(target=target, calibration=calibration or entry.calibration)


def compat_entries() -> List[EvaluatorEntry]:
    """The entries whose meaning an ``azure_compat`` run changes."""
    return [compat_entry(name) for name in _compat_meanings()]


def compat_class(name: Any) -> type:
    """The class registry name ``name`` means in an ``azure_compat`` run (see :func:`compat_entry`)."""
    return compat_entry(name).load()


def _compat_meanings() -> Mapping[str, Tuple[str, Optional[CalibrationSet]]]:
    from .plugins import COMPAT_MEANINGS, load

    meanings: Mapping[str, Tuple[str, Optional[CalibrationSet]]] = load(COMPAT_MEANINGS)
    return meanings


def normalize(name: Any) -> str:
    """How names are compared: case-insensitive, ``-`` and ``_`` alike, surrounding blanks ignored."""
    return str(name).strip().lower().replace("-", "_")


def _index() -> Dict[str, EvaluatorEntry]:
    out: Dict[str, EvaluatorEntry] = {}
    for entry in ENTRIES:
        for spelling in entry.spellings():
            other = out.setdefault(spelling, entry)
            if other is not entry:  # a programming error in the table above; a test runs this
                raise AssertionError(f"registry: {spelling!r} names both {other.name} and {entry.name}")
    return out


_BY_NAME = _index()


#: the entry-point group under which a package names its evaluator classes (``name = "module:Class"``)
ENTRY_POINT_GROUP = "agent_evaluators.evaluators"

#: the installed packages' entry points, read once without importing them
_points: Optional[Tuple[Any, ...]] = None
#: a plugin's entry by entry-point name once imported; ``None``: it could not be (said once)
_loaded_plugins: Dict[str, Optional[EvaluatorEntry]] = {}
#: why a plugin could not be imported, by entry-point name
_broken: Dict[str, str] = {}


def entry_for(cls: Any, name: Optional[str] = None, aliases: Tuple[str, ...] = ()) -> EvaluatorEntry:
    """An evaluator's entry read from its class: its ``result_key`` (the name, unless one is
    given), whether it ``uses_judge``, and for a judge metric a calibration set on its
    ``score_scale`` (the cases come from the class's declaration or data file)."""
    key = str(getattr(cls, "result_key", "") or "")
    if not key:
        raise ConfigError(f"{cls.__module__}:{cls.__qualname__} declares no result_key; an evaluator needs one")
    judge = bool(getattr(cls, "uses_judge", False))
    calibration = None
    if judge:
        low, high = getattr(cls, "score_scale", None) or (0.0, 1.0)
        calibration = CalibrationSet(f"{key}.jsonl", (float(low), float(high)))
    return EvaluatorEntry(name or key, f"{cls.__module__}:{cls.__qualname__}", judge, key, aliases=aliases,
                          calibration=calibration, lower_is_better=not getattr(cls, "higher_is_better", True))


def _plugin_points() -> Tuple[Any, ...]:
    """The entry points under :data:`ENTRY_POINT_GROUP` whose name this list does not already have,
    read from the installed packages' metadata (nothing is imported)."""
    global _points
    if _points is None:
        from importlib.metadata import entry_points

        _points = tuple(p for p in entry_points(group=ENTRY_POINT_GROUP) if normalize(p.name) not in _BY_NAME)
    return _points


def _package(point: Any) -> str:
    dist = getattr(point, "dist", None)
    return str(getattr(dist, "name", None) or point.value.partition(":")[0].split(".")[0])


def _load_plugin(point: Any, strict: bool) -> Optional[EvaluatorEntry]:
    """The entry of one plugin, its module imported now (once). One that cannot be imported is a
    :class:`ConfigError` naming its package where it is used (``strict``), else a warning, once, and
    ``None``: one broken package leaves the others, and the commands that do not use it, working."""
    if point.name not in _loaded_plugins:
        try:
            _loaded_plugins[point.name] = entry_for(point.load(), name=point.name)
        except Exception as exc:
            _loaded_plugins[point.name] = None
            _broken[point.name] = (f"evaluator plugin {point.name!r} of package {_package(point)!r} ({point.value}) "
                                   f"cannot be imported: {type(exc).__name__}: {exc}")
            if not strict:
                logger.warning("%s; its evaluators are left out (reinstall or uninstall %s)", _broken[point.name],
                               _package(point))
    entry = _loaded_plugins[point.name]
    if entry is None and strict:
        raise ConfigError(_broken[point.name])
    return entry


def plugin_entries() -> Tuple[EvaluatorEntry, ...]:
    """The evaluators installed packages name under :data:`ENTRY_POINT_GROUP`, every one imported now
    (what ``agent-eval list`` and calibration show). A name this list already has stays this list's; a
    plugin that cannot be imported is a warning naming its package, and left out."""
    loaded = (_load_plugin(point, strict=False) for point in _plugin_points())
    return tuple(entry for entry in loaded if entry is not None)


def _plugin_named(name: Any, strict: bool = True) -> Optional[EvaluatorEntry]:
    """The plugin evaluator registered as ``name``, only its package imported (``None``: none is)."""
    wanted = normalize(name)
    point = next((p for p in _plugin_points() if normalize(p.name) == wanted), None)
    return None if point is None else _load_plugin(point, strict)


def entries() -> List[EvaluatorEntry]:
    """Every entry, in a stable order: this package's, then those of installed plugins."""
    return list(ENTRIES) + list(plugin_entries())


def names() -> List[str]:
    """The registry names (what ``agent-eval list`` shows); installed plugins' are read without importing them."""
    return [e.name for e in ENTRIES] + [p.name for p in _plugin_points()]


def find(name: Any) -> Optional[EvaluatorEntry]:
    """The entry a name, alias or ADK metric name refers to, or ``None``. A plugin's name imports that
    plugin alone, and one that cannot be imported is a :class:`ConfigError` naming its package."""
    entry = _BY_NAME.get(normalize(name))
    return entry if entry is not None else _plugin_named(name)


def closest(name: Any, choices: Optional[List[str]] = None) -> Optional[str]:
    """The registry name (or one of ``choices``) a misspelt ``name`` most likely meant, or ``None``:
    ``intent_resolutoin`` -> ``intent_resolution``; aliases and ADK metric names count too."""
    import difflib

    pool: Dict[str, str] = {}
    for entry in ENTRIES:
        if choices is None or entry.name in choices:
            pool.update({spelling: entry.name for spelling in entry.spellings()})
    pool.update({normalize(p.name): p.name for p in _plugin_points() if choices is None or p.name in choices})
    found = difflib.get_close_matches(normalize(name), list(pool), n=1, cutoff=0.75)
    return pool[found[0]] if found else None


def get(name: Any) -> EvaluatorEntry:
    """Like :func:`find`, but an unknown name is a :class:`ConfigError` saying the closest one and listing them all."""
    entry = find(name)
    if entry is None:
        near = closest(name)
        hint = f"; did you mean {near!r}?" if near else ""
        raise ConfigError(f"unknown evaluator {name!r}{hint} Known evaluators: {', '.join(names())} "
                          "(run `agent-eval list`)")
    return entry


def by_adk_metric(metric: str) -> Optional[EvaluatorEntry]:
    """The entry implementing an ADK metric (``final_response_match_v2`` ...), or ``None``."""
    return next((e for e in ENTRIES if e.adk_metric == metric), None)


def by_class_name(class_name: str) -> Optional[EvaluatorEntry]:
    """The entry of a class by its name (``"SafetyEvaluator"``), or ``None``."""
    builtin = next((e for e in ENTRIES if e.class_name == class_name), None)
    if builtin is not None:
        return builtin
    points = (p for p in _plugin_points() if p.value.rpartition(":")[2].rpartition(".")[2] == class_name)
    return next((e for e in (_load_plugin(p, strict=False) for p in points) if e is not None), None)


def lower_is_better(result_key: str) -> bool:
    """Whether a lower score of the metric with ``result_key`` is the better one; an installed plugin is
    imported only when its name is that key."""
    if any(e.result_key == result_key and e.lower_is_better for e in ENTRIES):
        return True
    if normalize(result_key) in _BY_NAME:
        return False
    entry = _plugin_named(result_key, strict=False)
    return entry is not None and entry.result_key == result_key and entry.lower_is_better


def judge_entries() -> List[EvaluatorEntry]:
    """The judge-backed evaluators."""
    return [e for e in entries() if e.judge]


def calibrated_entries() -> List[EvaluatorEntry]:
    """The evaluators with a labelled calibration set."""
    return [e for e in entries() if e.calibration is not None]


def __getattr__(name: str) -> Any:
    """The names of ``azure_compat``'s table before it moved to its wing, for one more release."""
    old = {"azure_entry": "compat_entry", "azure_entries": "compat_entries", "azure_class": "compat_class"}
    if name in old or name == "AZURE_TARGETS":
        import warnings

        warnings.warn(f"agent_evaluators.registry.{name} is now "
                      f"{'compat_entries()' if name == 'AZURE_TARGETS' else old[name]}", DeprecationWarning, stacklevel=2)
        if name == "AZURE_TARGETS":
            return MappingProxyType({k: target for k, (target, _) in _compat_meanings().items()})
        return globals()[old[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
