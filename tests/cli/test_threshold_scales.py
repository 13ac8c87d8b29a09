"""A run threshold that every value on its metric's scale passes, or that none can pass, checks nothing:
``agent-eval run`` refuses it before the run, naming the scale (issue: ``--azure-compat`` once turned
``tool_calls.tool_call_accuracy >= 0.7``, written for our 0-1 scale, into a PASS with every row failing,
because 1.18 scores it 1-5)."""

import pytest

from agent_evaluators.config.thresholds import check_threshold_scales, parse_threshold
from agent_evaluators.errors import ConfigError

from .helpers import AGENTS, SAMPLES, agent_eval

SCALES = {"tool_calls": ("tool_call_accuracy", (1.0, 5.0), True), "harm": ("violence", (0.0, 7.0), False),
          "intent": ("intent_resolution", (1.0, 5.0), True)}


@pytest.mark.parametrize("text,which", [
    ("tool_calls.tool_call_accuracy >= 0.7", "every value passes"),
    ("tool_calls.tool_call_accuracy > 5", "no value can pass"),
    ("tool_calls.tool_call_accuracy_score <= 5", "every value passes"),
    ("harm.violence <= 7", "every value passes"),
    ("harm.violence < 0", "no value can pass"),
    ("intent.pass_rate >= 0", "every value passes"),
    ("intent.pass_rate > 1", "no value can pass"),
    ("intent.intent_resolution == 6", "no value can pass"),
])
def test_a_threshold_that_checks_nothing_is_refused_naming_the_scale(text, which):
    with pytest.raises(ConfigError) as info:
        check_threshold_scales([parse_threshold(text)], SCALES)
    assert which in str(info.value) and "pass_rate" in str(info.value)


@pytest.mark.parametrize("text", ["tool_calls.tool_call_accuracy >= 3.5", "harm.violence <= 2", "intent.pass_rate >= 0.7",
                                  "intent.n >= 1", "intent.intent_resolution_std <= 0.5", "other.score >= 0"])
def test_a_threshold_on_the_metrics_scale_is_kept(text):
    check_threshold_scales([parse_threshold(text)], SCALES)


def test_azure_compat_refuses_a_threshold_written_for_our_scale(tmp_path, fake_judge_process):
    judge = ["--judge-base-url", f"{fake_judge_process}/v1", "--judge-model", "fake"]
    r = agent_eval("run", "--data", AGENTS, "-e", "tool_call_accuracy=tool_calls", "--azure-compat", *judge,
                   "-t", "tool_calls.tool_call_accuracy >= 0.7", "-o", tmp_path / "azure")
    assert r.rc == 2, r
    assert "scored from 1 to 5" in r.err and "tool_calls.pass_rate" in r.err, r
    assert not (tmp_path / "azure").exists()  # refused before any judge call
    ours = agent_eval("run", "--data", AGENTS, "-e", "tool_call_accuracy=tool_calls", *judge,
                      "-t", "tool_calls.tool_call_accuracy >= 0.7", "-o", tmp_path / "ours")
    assert ours.rc == 0 and "PASS  tool_calls.tool_call_accuracy >= 0.7" in ours.out, ours  # on our 0-1 scale it checks


def test_the_sample_config_keeps_its_meaning_in_both_modes(tmp_path):
    for extra in ([], ["--azure-compat"]):
        r = agent_eval("run", "--config", SAMPLES / "eval.yaml", *extra, "-o", tmp_path / f"out{len(extra)}")
        assert r.rc == 0, r
