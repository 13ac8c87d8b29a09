"""A drop-in for ``azure.ai.evaluation`` 1.18: change the import, keep the code, numbers and keys.

``from azure.ai.evaluation import X`` becomes ``from agent_evaluators.azure import X``.
The classes here have azure-ai-evaluation 1.18's names, constructor arguments, scales,
thresholds and row keys (``<k>``, ``<k>_score``, ``<k>_passed``, ``<k>_result``,
``<k>_reason``, ``<k>_status``, ``<k>_threshold``, ``<k>_properties``), and
:func:`evaluate` returns 1.18's plain dict with its metric names (``binary_aggregate``
included). The top-level classes of :mod:`agent_evaluators` keep the seed documents'
meaning (DESIGN.md §4); this package is the other meaning, as a thin layer over the same
templates, judge client and engine (DESIGN.md §9): declarations and a result-shape adapter
(:mod:`._shape`), never a second copy of a metric.

Names load lazily (``import agent_evaluators.azure`` stays cheap); azure's leading-underscore
names (``_ToolCallSuccessEvaluator``) are aliases of the public ones.
"""

import importlib
from typing import Any, Dict, List

#: public name -> the submodule that defines it
_WHERE: Dict[str, str] = {
    # the judge-backed agent evaluators (1.18 scales): answer metrics, tool metrics, the two catalog composites
    "IntentResolutionEvaluator": "_agent",
    "ResponseCompletenessEvaluator": "_agent",
    "TaskAdherenceEvaluator": "_agent",
    "ToolCallAccuracyEvaluator": "_tool_metrics",
    "TaskCompletionEvaluator": "_agent",
    "ToolSelectionEvaluator": "_tool_metrics",
    "ToolInputAccuracyEvaluator": "_tool_metrics",
    "ToolOutputUtilizationEvaluator": "_tool_metrics",
    "ToolCallSuccessEvaluator": "_tool_metrics",
    "ToolUseQualityEvaluator": "_composite",
    "OutputQualityEvaluator": "_composite",
    # the deterministic one
    "TaskNavigationEfficiencyEvaluator": "_navigation",
    "TaskNavigationEfficiencyMatchingMode": "_navigation",
    # evaluate() and the TypedDicts of 1.18's configuration and data
    "evaluate": "_evaluate",
    "AzureOpenAIModelConfiguration": "_types",
    "OpenAIModelConfiguration": "_types",
    "AzureAIProject": "_types",
    "EvaluatorConfig": "_types",
    "Conversation": "_types",
    "Message": "_types",
    "EvaluationResult": "_types",
    # issue 24, content safety: azure's cloud-only safety evaluators, on any judge (the RAI service's row)
    "ViolenceEvaluator": "_safety",
    "SexualEvaluator": "_safety",
    "SelfHarmEvaluator": "_safety",
    "HateUnfairnessEvaluator": "_safety",
    "ProtectedMaterialEvaluator": "_safety",
    "IndirectAttackEvaluator": "_safety",
    "CodeVulnerabilityEvaluator": "_safety",
    "UngroundedAttributesEvaluator": "_safety",
    "GroundednessProEvaluator": "_safety",
    "ContentSafetyEvaluator": "_safety",
    # issue 24, NLP scores: F1, BLEU, GLEU, METEOR, ROUGE, DocumentRetrieval (azure's numbers)
    "F1ScoreEvaluator": "_nlp",
    "BleuScoreEvaluator": "_nlp",
    "GleuScoreEvaluator": "_nlp",
    "MeteorScoreEvaluator": "_nlp",
    "RougeScoreEvaluator": "_nlp",
    "RougeType": "_nlp",
    "DocumentRetrievalEvaluator": "_nlp",
    # issue 24, quality judges: Groundedness, Relevance, Coherence, Fluency, Similarity, Retrieval, QA (1.18's rows)
    "GroundednessEvaluator": "_quality",
    "RelevanceEvaluator": "_quality",
    "CoherenceEvaluator": "_quality",
    "FluencyEvaluator": "_quality",
    "SimilarityEvaluator": "_quality",
    "RetrievalEvaluator": "_quality",
    "QAEvaluator": "_qa",
    # issue 35: 1.18's exception (``azure.ai.evaluation._exceptions``): every error raised through this layer is one
    "EvaluationException": "_exceptions",
    "ErrorCategory": "_exceptions",
    "ErrorBlame": "_exceptions",
    "ErrorTarget": "_exceptions",
}

#: azure's underscore spellings -> our public names
_ALIASES: Dict[str, str] = {
    "_TaskCompletionEvaluator": "TaskCompletionEvaluator",
    "_ToolSelectionEvaluator": "ToolSelectionEvaluator",
    "_ToolInputAccuracyEvaluator": "ToolInputAccuracyEvaluator",
    "_ToolOutputUtilizationEvaluator": "ToolOutputUtilizationEvaluator",
    "_ToolCallSuccessEvaluator": "ToolCallSuccessEvaluator",
    "_TaskNavigationEfficiencyEvaluator": "TaskNavigationEfficiencyEvaluator",
    "_TaskNavigationEfficiencyMatchingMode": "TaskNavigationEfficiencyMatchingMode",
}


def __getattr__(name: str) -> Any:
    target = _ALIASES.get(name, name)
    module = _WHERE.get(target)
    if module is None:
        raise AttributeError(f"module 'agent_evaluators.azure' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), target)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_WHERE) | set(_ALIASES))


__all__ = sorted(_WHERE)
