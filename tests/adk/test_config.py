"""test_config.json parsing: numbers and objects, every ADK spelling, defaults, lookup beside the eval set."""

import json

import pytest

from agent_evaluators.adk.eval_config import (
    MatchType,
    default_eval_config,
    find_config_for,
    load_eval_config,
    parse_criterion,
    parse_eval_config,
)
from agent_evaluators.errors import ConfigError


@pytest.mark.parametrize(
    "spelling, expected",
    [("EXACT", "EXACT"), ("in_order", "IN_ORDER"), ("IN_ORDER", "IN_ORDER"), ("in-order", "IN_ORDER"),
     (" In Order ", "IN_ORDER"), ("any order", "ANY_ORDER"), ("Any-Order", "ANY_ORDER"), (0, "EXACT"), (1, "IN_ORDER"),
     (2, "ANY_ORDER"), (MatchType.ANY_ORDER, "ANY_ORDER")],
)
@pytest.mark.parametrize("key", ["match_type", "matchType"])
def test_match_type_spellings(spelling, expected, key):
    crit = parse_criterion("tool_trajectory_avg_score", {"threshold": 1.0, key: spelling})
    assert crit.match_type.value == expected


@pytest.mark.parametrize("bad", ["fuzzy", 3, True, None])
def test_unknown_match_type_is_rejected(bad):
    with pytest.raises(ConfigError, match="match_type must be one of EXACT, IN_ORDER, ANY_ORDER"):
        parse_criterion("tool_trajectory_avg_score", {"threshold": 1.0, "match_type": bad})


def test_full_config_in_snake_and_camel_case():
    snake = {
        "criteria": {
            "tool_trajectory_avg_score": {"threshold": 0.9, "match_type": "ANY_ORDER", "ignore_args": True},
            "response_match_score": 1,
            "final_response_match_v2": {"threshold": 0.6, "include_intermediate_responses_in_final": True,
                                        "judge_model_options": {"judge_model": "gpt-4o-mini", "num_samples": 3}},
            "rubric_based_final_response_quality_v1": {
                "threshold": 0.7, "rubrics": [{"rubric_id": "r1", "rubric_content": {"text_property": "Is polite."}}]},
            "hallucinations_v1": {"threshold": 0.8, "evaluate_intermediate_nl_responses": True},
        },
        "user_simulator_config": {"model": "gemini-2.5-flash"},
        "something_new": 1,
    }
    camel = {
        "criteria": {
            "tool_trajectory_avg_score": {"threshold": 0.9, "matchType": "any-order", "ignoreArgs": True},
            "response_match_score": 1.0,
            "final_response_match_v2": {"threshold": 0.6, "includeIntermediateResponsesInFinal": True,
                                        "judgeModelOptions": {"judgeModel": "gpt-4o-mini", "numSamples": 3}},
            "rubric_based_final_response_quality_v1": {
                "threshold": 0.7, "rubrics": [{"rubricId": "r1", "rubricContent": {"textProperty": "Is polite."}}]},
            "hallucinations_v1": {"threshold": 0.8, "evaluateIntermediateNlResponses": True},
        },
        "userSimulatorConfig": {"model": "gemini-2.5-flash"},
    }
    for data in (snake, camel):
        cfg = parse_eval_config(data)
        c = cfg.criteria
        assert (c["tool_trajectory_avg_score"].threshold, c["tool_trajectory_avg_score"].match_type,
                c["tool_trajectory_avg_score"].ignore_args) == (0.9, MatchType.ANY_ORDER, True)
        assert c["response_match_score"].threshold == 1.0 and isinstance(c["response_match_score"].threshold, float)
        v2 = c["final_response_match_v2"]
        assert v2.include_intermediate_responses_in_final and v2.judge_model_options.num_samples == 3
        assert v2.judge_model_options.judge_model == "gpt-4o-mini"
        assert c["rubric_based_final_response_quality_v1"].rubrics[0].rubric_content.text_property == "Is polite."
        assert c["hallucinations_v1"].evaluate_intermediate_nl_responses is True
        assert cfg.user_simulator_config is not None and cfg.user_simulator_config.model == "gemini-2.5-flash"


def test_judge_defaults_and_unknown_criterion_keys_are_kept():
    crit = parse_criterion("final_response_match_v2", {"threshold": 0.5, "custom_knob": 7})
    assert crit.judge_model_options.num_samples == 5 and crit.judge_model_options.judge_model is None
    assert crit.model_extra == {"custom_knob": 7}
    assert parse_criterion("safety_v1", 0.5).judge_model_options.num_samples == 5  # a bare number works for judges


@pytest.mark.parametrize(
    "value, needle",
    [
        ({"judge_model_options": {"num_samples": 0}}, "num_samples"),
        ({"threshold": 0.5, "judge_model_options": {"samples": 3}}, "samples"),
        ({"threshold": "high"}, "threshold"),
        (True, "must be a number or an object"),
        ("0.5", "must be a number (the threshold) or an object"),
    ],
)
def test_invalid_criteria_are_config_errors_naming_the_metric(value, needle):
    with pytest.raises(ConfigError) as info:
        parse_eval_config({"criteria": {"final_response_match_v2": value}}, source="cfg.json")
    assert needle in str(info.value) and "final_response_match_v2" in str(info.value)


def test_threshold_is_required_for_judge_metrics_only():
    with pytest.raises(ConfigError, match="final_response_match_v2 needs a threshold"):
        parse_eval_config({"criteria": {"final_response_match_v2": {"judge_model_options": {"num_samples": 1}}}})
    cfg = parse_eval_config({"criteria": {"tool_trajectory_avg_score": {"match_type": "IN_ORDER"},
                                          "response_match_score": {}}})
    assert cfg.criteria["tool_trajectory_avg_score"].threshold == 1.0
    assert cfg.criteria["response_match_score"].threshold == 0.8


def test_defaults_without_a_config():
    for cfg in (default_eval_config(), load_eval_config(None)):
        assert {k: v.threshold for k, v in cfg.criteria.items()} == {
            "tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}
        assert cfg.criteria["tool_trajectory_avg_score"].match_type == MatchType.EXACT


def test_missing_explicit_config_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="criteria config not found"):
        load_eval_config(tmp_path / "test_config.json")


def test_invalid_json_config_names_the_file(tmp_path):
    path = tmp_path / "test_config.json"
    path.write_text('{"criteria": {')
    with pytest.raises(ConfigError, match=r"test_config.json: not valid JSON \(line 1"):
        load_eval_config(path)


def test_every_fixture_config_loads(adk_root):
    found = {str(p.relative_to(adk_root)): load_eval_config(p) for p in adk_root.rglob("test_config.json")}
    assert {k: {m: c.threshold for m, c in v.criteria.items()} for k, v in found.items()} == {
        "conversation_scenario/test_config.json": {"hallucinations_v1": 0.8},
        "ecommerce_customer_service_agent/test_config.json": {"tool_trajectory_avg_score": 0.7, "response_match_score": 0.5},
        "hello_world_agent/test_config.json": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.5},
        "home_automation_agent/test_config.json": {"tool_trajectory_avg_score": 1.0},
        "home_automation_agent/test_files/test_config.json": {"tool_trajectory_avg_score": 1.0},
        "trip_planner_agent/test_config.json": {"response_match_score": 0.5},
    }


def test_find_config_for_looks_beside_the_eval_set(tmp_path, adk_root):
    evalset = tmp_path / "a.evalset.json"
    assert find_config_for(evalset) is None
    (tmp_path / "test_config.json").write_text(json.dumps({"criteria": {"response_match_score": 0.3}}))
    assert find_config_for(evalset) == tmp_path / "test_config.json"
    trip = adk_root / "trip_planner_agent"
    assert find_config_for(trip / "trip_inquiry.test.json") == trip / "test_config.json"
