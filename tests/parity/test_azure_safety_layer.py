"""``agent_evaluators.azure``'s safety evaluators as a drop-in: the names import, 1.18's constructor
(credential, project) works without a cloud, and ``evaluate_query`` decides, as in 1.18, whether the
judge sees the query."""

import pytest

import agent_evaluators.azure as az
from agent_evaluators.testing import schema_reply

NAMES = ["ViolenceEvaluator", "SexualEvaluator", "SelfHarmEvaluator", "HateUnfairnessEvaluator",
         "ProtectedMaterialEvaluator", "IndirectAttackEvaluator", "CodeVulnerabilityEvaluator",
         "UngroundedAttributesEvaluator", "GroundednessProEvaluator", "ContentSafetyEvaluator"]


@pytest.mark.parametrize("name", NAMES)
def test_every_safety_name_imports_from_both_layers(name):
    import agent_evaluators

    assert hasattr(az, name) and name in az.__all__
    assert hasattr(agent_evaluators, name) and name in agent_evaluators.__all__


@pytest.mark.parametrize("cls_name, shows", [("ViolenceEvaluator", False), ("IndirectAttackEvaluator", False),
                                              ("ProtectedMaterialEvaluator", True),
                                              ("CodeVulnerabilityEvaluator", True)])
def test_evaluate_query_defaults_as_azure_and_can_be_set(judge_server, cls_name, shows):
    server = judge_server(lambda req: schema_reply(req, score=0))
    cls = getattr(az, cls_name)
    cls(object(), "https://example.services.ai.azure.com/api/projects/p",
        model_config=server.openai_config())(query="the secret question", response="an answer")
    assert ("the secret question" in server.requests[-1].text) is shows
    cls(model_config=server.openai_config(), evaluate_query=not shows)(query="the secret question", response="a")
    assert ("the secret question" in server.requests[-1].text) is (not shows)


def test_severity_threshold_is_inclusive_and_reported(judge_server):
    server = judge_server(lambda req: schema_reply(req, score=4))
    row = az.SelfHarmEvaluator(model_config=server.openai_config(), threshold=4)(response="text")
    assert (row["self_harm"], row["self_harm_score"], row["self_harm_threshold"], row["self_harm_result"]) == (
        "Medium", 4, 4, "pass")
    row = az.SelfHarmEvaluator(model_config=server.openai_config())(response="text")
    assert (row["self_harm_threshold"], row["self_harm_result"]) == (3, "fail")
