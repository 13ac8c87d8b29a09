"""Issue 20.9 (ADK part): every message ``agent-eval adk`` prints names the flag, not the Python
keyword (``model_config=``, ``num_runs``, ``JudgeError.raw_text``, ``actual=`` ...). Run as a user
runs it: the command in a subprocess."""

import pytest

from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators.testing import Faults, JudgeServer  # noqa: E402

from .test_adk_cli import EVALSET, SAMPLE, cli  # noqa: E402

PYTHON_WORDS = ("model_config", "JudgeError", "raw_text", "error: num_runs", "from Python", "producer=",
                "timeout=", "credential=", "set judge.model in the config file")


def _no_python_words(text: str) -> None:
    found = [w for w in PYTHON_WORDS if w in text]
    assert not found, (found, text[-3000:])


@pytest.mark.parametrize("args, flag", [
    (["{sample}", "{evalset}"], "--judge-model M (with --judge-base-url URL"),  # judge criteria, no judge
    (["{sample}", "{evalset}", "--judge-base-url", "http://127.0.0.1:9/v1"], "pass --judge-model"),
    (["{sample}", "{evalset}", "--judge-model", "m", "--judge-azure-endpoint", "https://x.openai.azure.com"],
     "give --judge-api-key-env VAR or set AZURE_OPENAI_API_KEY"),
    (["{sample}", "{evalset}", "--judge-model", "m", "--judge-base-url", "http://127.0.0.1:9/v1", "--num_runs", "0"],
     "--num_runs must be"),
    (["{evalset}"], "pass --actual FILE"),  # an eval set alone: nothing to score
    (["{sample}", "{evalset}", "--max-concurrency", "0"], "--max-concurrency must be a positive integer, got 0"),
])
def test_configuration_errors_name_the_flags(args, flag, tmp_path):
    proc = cli(*[a.format(sample=SAMPLE, evalset=EVALSET) for a in args], "--output", str(tmp_path / "o"),
               cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("agent-eval adk: error: ") and flag in proc.stderr, proc.stderr
    _no_python_words(proc.stdout + proc.stderr)


def test_judge_failures_are_printed_in_flag_words(tmp_path):
    with JudgeServer(faults=Faults(rate_malformed=1.0)) as server:
        proc = cli(str(SAMPLE), f"{EVALSET}:weather_paris", "--judge-model", "m",
                   "--judge-base-url", server.openai_config()["base_url"], "--judge-max-attempts", "1",
                   "--output", str(tmp_path / "o"), "--print_detailed_results", cwd=tmp_path)
    assert proc.returncode == 2
    assert "The raw reply is kept in the run's rows.jsonl" in proc.stderr
    assert "agent-eval adk: warning: safety_v1: invocation 0 could not be judged" in proc.stderr
    _no_python_words(proc.stdout + proc.stderr)
