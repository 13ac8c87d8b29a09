"""The common judge options are declared once (JudgeOptions) yet every evaluator's signature lists them."""

import inspect
import warnings

import pytest

from agent_evaluators import registry
from agent_evaluators.errors import ConfigError
from agent_evaluators.evaluators.judge_base import JudgeOptions

JUDGE = {"model": "m", "base_url": "http://127.0.0.1:9/v1"}
RUBRIC_OPTIONS = {"rubrics": ["The response answers the question."]}


def build(entry, **kwargs):
    options = dict(entry.calibration.options) if entry.calibration else {}
    return entry.load()(model_config=JUDGE, **{k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
                        **kwargs)


@pytest.mark.parametrize("entry", registry.judge_entries(), ids=lambda e: e.name)
def test_signature_names_every_judge_option_and_no_catch_all(entry):
    params = inspect.signature(entry.load()).parameters
    assert "model_config" in params
    for name in JudgeOptions.__annotations__:
        assert name in params and params[name].kind is inspect.Parameter.KEYWORD_ONLY, (entry.name, name)
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()), entry.name


@pytest.mark.parametrize("entry", registry.judge_entries(), ids=lambda e: e.name)
def test_a_misspelled_option_is_an_error_naming_it(entry):
    with pytest.raises(TypeError, match="treshold"):
        build(entry, treshold=0.5)
    ev = build(entry, threshold=0.25, cache=None, is_reasoning_model=True)
    assert ev.threshold == 0.25 and ev._is_reasoning_model is True


def test_judge_config_is_one_generic_implementation():
    from agent_evaluators.evaluators.judge_base import JudgeEvaluator

    owners = {e.name for e in registry.judge_entries() if "judge_config" in vars(e.load())}
    assert owners == set() and "judge_config" in vars(JudgeEvaluator)
    ev = registry.get("final_response_match").load()(model_config=JUDGE, num_samples=3, temperature=0.5)
    config = ev.judge_config
    assert config["num_samples"] == 3 and config["temperature"] == 0.5 and config["class"] == "FinalResponseMatchEvaluator"


@pytest.mark.parametrize("name", ["rubric", "rubric_final_response_quality", "final_response_match"])
def test_temperature_has_one_name_and_one_range(name):
    entry = registry.get(name)
    assert build(entry, temperature=2.0).temperature == 2.0
    for bad in (-0.1, 2.5, float("nan"), True):
        with pytest.raises(ConfigError, match="temperature"):
            build(entry, temperature=bad)


def test_rubric_sample_temperature_is_a_deprecated_alias():
    entry = registry.get("rubric")
    with pytest.warns(DeprecationWarning, match="temperature="):
        ev = build(entry, sample_temperature=0.3)
    assert ev.temperature == 0.3 and ev.sample_temperature == 0.3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert build(entry, temperature=0.4).temperature == 0.4
