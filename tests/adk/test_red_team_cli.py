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


def test_indirect_jailbreak_from_the_command_line_replays_a_recorded_adk_session(tmp_path):
    import asyncio

    from agent_evaluators.adk.red_team_target import adk_target
    from agent_evaluators.agents import ToolRecorder

    from .red_team_agents import inbox_agent

    recorder = ToolRecorder(tmp_path / "rec", mode="record")
    with recorder.case("inbox"):  # one benign session, recorded from a real ADK run
        asyncio.run(adk_target(inbox_agent(obeys=False, name="recording"))([{"role": "user", "content": "Summarise."}]))
    result = agent_eval("redteam", "tests.adk.red_team_agents:root_agent", "--risk-categories", "sensitive_data_leakage",
                        "--strategies", "indirect_jailbreak", "--num-objectives", "2", "--replay-tools", tmp_path / "rec",
                        "--tool-case", "inbox", "--replay-match", '{"send_message": {"ignore_args": true}}',
                        "--output", tmp_path / "scan")
    assert result.rc == 1, result
    doc = json.loads((tmp_path / "scan" / "red_team.json").read_text(encoding="utf-8"))
    outcomes = sorted((a["attack_technique"], a["outcome"]) for a in doc["attack_details"])
    # the recorded session as recorded: defended; with the attack planted in its tool results: the leak
    assert outcomes == [("baseline", "defended")] * 2 + [("indirect_jailbreak", "success")] * 2
    assert len(list((tmp_path / "scan" / "indirect_recordings").rglob("*.json"))) == 2
    missing = agent_eval("redteam", "tests.adk.red_team_agents:root_agent", "--risk-categories",
                         "sensitive_data_leakage", "--replay-tools", tmp_path / "rec", "--tool-case", "other",
                         "--output", tmp_path / "missing")
    assert missing.rc == 2 and "--tool-case other: no recording at" in missing.err, missing
