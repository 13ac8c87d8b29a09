"""``from agent_evaluators.azure import X`` works for every name a 1.18 user imports.

The list is read from the real azure-ai-evaluation 1.18.10 (the ``azure`` extra): every name
in its ``__all__`` that is an agent evaluator, a configuration/data TypedDict or ``evaluate``,
plus the agent evaluators 1.18 keeps private (imported from ``azure.ai.evaluation._evaluators``).
A name added to azure's ``__all__`` in those groups fails this test until we have it.
"""

import typing

import pytest

from ..conftest import optional_import

azure_evaluation = optional_import("azure.ai.evaluation")

#: azure's agent evaluators (public, underscore-exported, and private ones)
AGENT = {
    "IntentResolutionEvaluator", "ResponseCompletenessEvaluator", "TaskAdherenceEvaluator",
    "ToolCallAccuracyEvaluator", "_ToolOutputUtilizationEvaluator", "_ToolCallSuccessEvaluator",
    "_ToolInputAccuracyEvaluator", "_ToolSelectionEvaluator", "_TaskCompletionEvaluator",
    "_TaskNavigationEfficiencyEvaluator",
}


def _typed_dicts() -> set:
    return {n for n in azure_evaluation.__all__
            if typing.is_typeddict(getattr(azure_evaluation, n, None))}


def test_the_reference_is_the_pinned_release():
    from importlib.metadata import version

    assert version("azure-ai-evaluation") == "1.18.10"


def test_azure_all_names_we_mirror_are_as_expected():
    # the TypedDicts of 1.18.10 (a new one in a later release shows up here first)
    assert _typed_dicts() == {"AzureOpenAIModelConfiguration", "OpenAIModelConfiguration", "AzureAIProject",
                              "EvaluatorConfig", "Conversation", "Message", "EvaluationResult"}
    public_agent = {n for n in AGENT if n in azure_evaluation.__all__}
    assert public_agent == {"IntentResolutionEvaluator", "ResponseCompletenessEvaluator", "TaskAdherenceEvaluator",
                            "ToolCallAccuracyEvaluator", "_ToolOutputUtilizationEvaluator",
                            "_ToolCallSuccessEvaluator"}


@pytest.mark.parametrize("name", sorted(AGENT | {"evaluate"} | {
    "AzureOpenAIModelConfiguration", "OpenAIModelConfiguration", "AzureAIProject", "EvaluatorConfig",
    "Conversation", "Message", "EvaluationResult"}))
def test_every_name_imports_from_our_drop_in(name):
    import agent_evaluators.azure as ours

    value = getattr(ours, name)
    assert value is not None
    public = name.lstrip("_")
    assert getattr(ours, public) is value  # the underscore spelling is an alias of the public name
    if typing.is_typeddict(getattr(azure_evaluation, name, None)):
        theirs = getattr(azure_evaluation, name)
        assert typing.is_typeddict(value)
        ours_fields, their_fields = set(typing.get_type_hints(value)), set(typing.get_type_hints(theirs))
        # EvaluationResult carries one key of ours besides: the run folder, error cells and the local-only note
        assert ours_fields - their_fields == ({"agent_evaluators"} if name == "EvaluationResult" else set())
        assert their_fields <= ours_fields


def test_the_six_newer_agent_evaluators_are_public_here():
    import agent_evaluators.azure as ours

    for name in sorted(n for n in AGENT if n.startswith("_")):
        assert name.lstrip("_") in ours.__all__


#: the rest of 1.18's catalogue (issue 24): quality judges, NLP scores, the (cloud-only in azure) safety evaluators
CATALOGUE = (
    "GroundednessEvaluator", "RelevanceEvaluator", "CoherenceEvaluator", "FluencyEvaluator", "SimilarityEvaluator",
    "RetrievalEvaluator", "QAEvaluator", "F1ScoreEvaluator", "BleuScoreEvaluator", "GleuScoreEvaluator",
    "MeteorScoreEvaluator", "RougeScoreEvaluator", "RougeType", "DocumentRetrievalEvaluator", "ContentSafetyEvaluator",
    "ViolenceEvaluator", "SexualEvaluator", "SelfHarmEvaluator", "HateUnfairnessEvaluator",
    "ProtectedMaterialEvaluator", "IndirectAttackEvaluator", "CodeVulnerabilityEvaluator",
    "UngroundedAttributesEvaluator", "GroundednessProEvaluator",
)


@pytest.mark.parametrize("name", CATALOGUE)
def test_the_catalogue_imports_from_both_layers(name):
    import agent_evaluators
    import agent_evaluators.azure as ours

    assert hasattr(azure_evaluation, name)  # the name is azure 1.18.10's
    assert getattr(agent_evaluators, name) is not None and getattr(ours, name) is not None
