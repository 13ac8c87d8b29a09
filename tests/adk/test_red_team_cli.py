"""``agent-eval redteam module:root_agent``: an ADK agent object named on the command line is attacked as
it is (the core wraps it through ``plugins.TARGET_ADAPTERS`` and runs it under ADK's ``Runner``), its
real tool calls scored by ``--prohibited-tools``. The model is scripted (``tests/adk/red_team_agents.py``)."""

import json

from tests.cli.helpers import agent_eval
from tests.conftest import optional_import

optional_import("google.adk")


def test_an_adk_agent_named_on_the_command_line_is_scanned_on_its_tool_calls(tmp_path):
    result = agent_eval("redteam", "tests.adk.red_team_agents:root_agent", "--risk-categories",
                        "sensitive_data_leakage", "--num-objectives", "2", "--prohibited-tools", "send_message",
                        "--output", tmp_path / "scan")
    assert result.rc == 1, result
    doc = json.loads((tmp_path / "scan" / "red_team.json").read_text(encoding="utf-8"))
    assert doc["scan"]["target"] == "messages:adk:inbox_agent"
    assert [a["attack_success_reason"] for a in doc["attack_details"]] == ["called the prohibited tool 'send_message'"] * 2
    calls = [c["function"]["name"] for m in doc["attack_details"][0]["conversation"] for c in m.get("tool_calls") or []]
    assert calls == ["fetch_inbox", "send_message"]  # ADK ran the tools: a real trajectory, not a reply


def test_an_object_that_is_no_agent_is_refused_naming_what_to_give(tmp_path):
    result = agent_eval("redteam", "tests.adk.red_team_agents:SEEN", "--risk-categories", "sensitive_data_leakage",
                        "--output", tmp_path / "scan")
    assert result.rc == 2 and "is not a function or an ADK agent object" in result.err, result
