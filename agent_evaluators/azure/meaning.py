"""What ``azure_compat`` means (``agent-eval run --azure-compat``, YAML ``azure_compat: true``): the
registry names whose azure-ai-evaluation 1.18 meaning is a class of this wing, and the metric names
1.18's rows add. The core reads :data:`MEANINGS` through :data:`agent_evaluators.plugins.COMPAT_MEANINGS`
(:func:`agent_evaluators.registry.compat_entry`); it names no class of this wing itself.
"""

from types import MappingProxyType
from typing import Mapping, Optional, Tuple

from ..registry import CalibrationSet
from ._run_metrics import metric_names

__all__ = ["TARGETS", "OWN_SETS", "MEANINGS", "metric_names"]


def _cal(file: str, low: float, high: float) -> CalibrationSet:
    return CalibrationSet(file, (low, high))


#: the registry names whose azure-ai-evaluation 1.18 meaning is a class of this wing (other scales,
#: thresholds and row keys); loaded on first use. A name not here keeps its own class in such a run.
TARGETS: Mapping[str, str] = MappingProxyType({
    "intent_resolution": "agent_evaluators.azure:IntentResolutionEvaluator",
    "response_completeness": "agent_evaluators.azure:ResponseCompletenessEvaluator",
    "task_adherence": "agent_evaluators.azure:TaskAdherenceEvaluator",
    "tool_call_accuracy": "agent_evaluators.azure:ToolCallAccuracyEvaluator",
    "task_navigation_efficiency": "agent_evaluators.azure:TaskNavigationEfficiencyEvaluator",
    "task_completion": "agent_evaluators.azure:TaskCompletionEvaluator",
    "tool_selection": "agent_evaluators.azure:ToolSelectionEvaluator",
    "tool_input_accuracy": "agent_evaluators.azure:ToolInputAccuracyEvaluator",
    "tool_output_utilization": "agent_evaluators.azure:ToolOutputUtilizationEvaluator",
    "tool_call_success": "agent_evaluators.azure:ToolCallSuccessEvaluator",
    "tool_use_quality": "agent_evaluators.azure:ToolUseQualityEvaluator",
    "output_quality": "agent_evaluators.azure:OutputQualityEvaluator",
    # content safety: 1.18's RAI service row (severity labels, <k>_label), on any judge
    "violence": "agent_evaluators.azure:ViolenceEvaluator",
    "sexual": "agent_evaluators.azure:SexualEvaluator",
    "self_harm": "agent_evaluators.azure:SelfHarmEvaluator",
    "hate_unfairness": "agent_evaluators.azure:HateUnfairnessEvaluator",
    "content_safety": "agent_evaluators.azure:ContentSafetyEvaluator",
    "protected_material": "agent_evaluators.azure:ProtectedMaterialEvaluator",
    "indirect_attack": "agent_evaluators.azure:IndirectAttackEvaluator",
    "code_vulnerability": "agent_evaluators.azure:CodeVulnerabilityEvaluator",
    "ungrounded_attributes": "agent_evaluators.azure:UngroundedAttributesEvaluator",
    "groundedness_pro": "agent_evaluators.azure:GroundednessProEvaluator",
    # issue 24: the quality judges and QA
    "groundedness": "agent_evaluators.azure:GroundednessEvaluator",
    "relevance": "agent_evaluators.azure:RelevanceEvaluator",
    "coherence": "agent_evaluators.azure:CoherenceEvaluator",
    "fluency": "agent_evaluators.azure:FluencyEvaluator",
    "similarity": "agent_evaluators.azure:SimilarityEvaluator",
    "retrieval": "agent_evaluators.azure:RetrievalEvaluator",
    "qa": "agent_evaluators.azure:QAEvaluator",
    # issue 24: the NLP scores
    "f1_score": "agent_evaluators.azure:F1ScoreEvaluator",
    "bleu_score": "agent_evaluators.azure:BleuScoreEvaluator",
    "gleu_score": "agent_evaluators.azure:GleuScoreEvaluator",
    "meteor_score": "agent_evaluators.azure:MeteorScoreEvaluator",
    "rouge": "agent_evaluators.azure:RougeScoreEvaluator",
    "document_retrieval": "agent_evaluators.azure:DocumentRetrievalEvaluator",
})


#: the labelled sets of the ``azure_compat`` names whose 1.18 meaning asks another question than
#: ours (their own declaration and template: 0/1 material failure, 1–5 over all calls); the other
#: names keep their registry entry's set (same template, same scale)
OWN_SETS: Mapping[str, CalibrationSet] = MappingProxyType({
    "task_adherence": _cal("azure_task_adherence.jsonl", 0, 1),
    "tool_call_accuracy": _cal("azure_tool_call_accuracy.jsonl", 1, 5),
})


#: registry name -> (its 1.18 class, the labelled set of that class where it is not the registry entry's own)
MEANINGS: Mapping[str, Tuple[str, Optional[CalibrationSet]]] = MappingProxyType(
    {name: (target, OWN_SETS.get(name)) for name, target in TARGETS.items()})
