"""A judge evaluator without a usable judge fails the run before the first row, naming the alias."""

import pytest

from agent_evaluators import ConfigError, IntentResolutionEvaluator, evaluate


def test_missing_judge_is_one_clear_error(monkeypatch, tmp_path):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY",
                "AZURE_OPENAI_DEPLOYMENT", "AGENT_EVAL_JUDGE_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ConfigError) as info:
        evaluate(data=[{"query": "q", "response": "a"}], evaluators={"intent": IntentResolutionEvaluator()},
                 output_path=tmp_path / "out")
    assert "evaluator 'intent'" in str(info.value)
    assert not (tmp_path / "out" / "rows.jsonl").exists()
