"""The core package and agents/ never need google-adk; running an ADK agent without it says how to install it."""

import subprocess
import sys

import pytest

from agent_evaluators import ConfigError


def test_missing_google_adk_is_a_config_error_with_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "google.adk.runners", None)  # as if google-adk were not installed
    from agent_evaluators.adk.agent_runner import load_agent

    with pytest.raises(ConfigError, match=r"pip install 'agent-evaluators\[adk\]'"):
        load_agent("samples/adk_agent")


def test_importing_agents_does_not_import_google_adk():
    code = ("import sys, agent_evaluators.agents as a; a.simulate_conversation; a.LlmSimulatedUser; "
            "import agent_evaluators.adk.agent_runner, agent_evaluators.adk.agent_evaluator; "
            "print(any(m.startswith('google.adk') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
