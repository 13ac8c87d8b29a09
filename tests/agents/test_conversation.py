"""Any agent callable against a simulated user, directly and as an ``evaluate(target=...)``."""

import json

import pytest

from agent_evaluators import IntentResolutionEvaluator, JudgeError, evaluate
from agent_evaluators.agents.dialogue import simulate_conversation, simulated_conversation_target
from agent_evaluators.agents.simulation import LlmSimulatedUser, ScriptedUser
from agent_evaluators.testing import Faults, schema_reply

from .conftest import aio, block


def weather_agent(messages):
    """A sync agent that calls a tool, then answers; it sees the whole conversation."""
    asked = messages[-1]["content"]
    n = sum(1 for m in messages if m["role"] == "user")
    return [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{n}", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": f"c{n}", "content": "sunny"},
        {"role": "assistant", "content": f"reply {n} to: {asked}"},
    ]


async def async_agent(messages):
    return f"echo {messages[-1]['content']}"


def test_scripted_conversation_with_a_sync_agent():
    result = simulate_conversation(weather_agent, ScriptedUser(["weather?", "and tomorrow?"]))
    assert result.stop_reason == "script_exhausted"  # issue 20.18: it was "stop_signal"
    assert [m["role"] for m in result.messages] == ["user", "assistant", "tool", "assistant"] * 2
    assert result.messages[-1]["content"] == "reply 2 to: and tomorrow?"
    out = result.to_output()
    assert out["query"] == "weather?"
    assert [m["role"] for m in out["response"]] == ["assistant", "tool", "assistant"] * 2
    assert out["simulation"]["num_turns"] == 2 and out["simulation"]["turns"][1]["user"] == "and tomorrow?"


def test_max_turns_stops_an_async_agent():
    result = simulate_conversation(async_agent, ScriptedUser(["a", "b", "c"]), max_turns=2,
                                   system_message="be brief")
    assert result.stop_reason == "turn_limit"  # issue 20.18: one name for every turn cap (was "max_turns")
    assert [m.get("content") for m in result.messages] == ["be brief", "a", "echo a", "b", "echo b"]


def test_a_bad_reply_or_a_failing_agent_names_the_turn():
    with pytest.raises(Exception, match="turn 2, message 0"):
        simulate_conversation(lambda ms: "ok" if len(ms) < 3 else [{"role": "user", "content": "x"}],
                              ScriptedUser(["a", "b"]))

    def broken(messages):
        raise ValueError("backend down")

    with pytest.raises(RuntimeError, match="the agent failed on simulated turn 1: ValueError: backend down"):
        simulate_conversation(broken, ScriptedUser(["a"]))


@aio
async def test_llm_user_drives_the_agent_until_the_stop_signal(judge_server):
    def simulator(req):
        seen = block(req, "conversation_history")
        agent_said = [h["text"] for h in seen if h["speaker"] == "agent"]
        return {"message": "</finished>" if len(agent_said) >= 2 else f"follow-up after {agent_said[-1]}"}

    server = judge_server(simulator)
    from agent_evaluators.agents.dialogue import asimulate_conversation

    user = LlmSimulatedUser("weather?", "Ask the weather, then ask again.", model_config=server.openai_config())
    result = await asimulate_conversation(weather_agent, user)
    users = [m["content"] for m in result.messages if m["role"] == "user"]
    assert users == ["weather?", "follow-up after reply 1 to: weather?"]
    assert result.stop_reason == "stop_signal" and server.stats()["requests"] == 2
    sim = result.to_output()["simulation"]
    assert [r["status"] for r in sim["simulator_turns"]] == ["message", "message", "stop_signal"]
    assert sim["usage"]["judge_calls"] == 2


@aio
async def test_a_failing_simulator_turn_is_an_error_not_a_shorter_conversation(judge_server):
    server = judge_server(schema_reply, faults=Faults(rate_500=1.0))
    from agent_evaluators.agents.dialogue import asimulate_conversation

    user = LlmSimulatedUser("hi", "plan", model_config={**server.openai_config(), "max_attempts": 1})
    with pytest.raises(JudgeError, match="user simulator, turn 2"):
        await asimulate_conversation(weather_agent, user)


def test_evaluate_over_scenario_rows_with_the_fake_judge(judge_server, tmp_path):
    """The bundled fake judge plays the user (two turns, then the stop signal) and grades every turn."""
    server = judge_server(schema_reply)
    judge = server.openai_config()
    target = simulated_conversation_target(weather_agent, model_config=judge)
    rows = [
        {"starting_prompt": "Weather in Paris?", "conversation_plan": "Ask the weather in Paris, then for tomorrow."},
        {"user_turns": ["hello", "bye"]},
        {"starting_prompt": "Long chat", "conversation_plan": "Keep asking.", "max_turns": 1},
    ]
    result = evaluate(
        data=rows, target=target, output_path=tmp_path,
        evaluators={"intent": IntentResolutionEvaluator(model_config=judge)},
        evaluator_config={"intent": {"column_mapping": {"conversation": "${target.conversation}"}}},
    )
    assert not result.errors
    first, scripted, limited = result.rows
    sim = first["outputs.simulation"]
    assert sim["stop_reason"] == "stop_signal" and sim["num_turns"] == 3
    assert first["outputs.query"] == "Weather in Paris?"
    assert first["outputs.conversation"][3]["content"].startswith("reply 1 to: Weather in Paris?")
    # IntentResolution scored every user turn of the simulated conversation
    assert len(first["outputs.intent.intent_resolution_details"]["per_turn"]) == 3
    assert first["outputs.intent.intent_resolution"] == 4
    assert scripted["outputs.simulation"]["num_turns"] == 2 and scripted["outputs.simulation"]["usage"] is None
    assert limited["outputs.simulation"]["stop_reason"] == "turn_limit"  # issue 20.18 (was "max_turns")
    assert result.metrics["intent.n"] == 3
    # the whole simulated conversation is in the row record on disk (what the HTML report reads)
    record = json.loads((tmp_path / "rows.jsonl").read_text().splitlines()[0])
    assert "outputs.simulation" in json.dumps(record)


def test_a_user_factory_builds_the_user_from_the_row():
    seen = []

    def factory(**row):
        seen.append(row)
        return ScriptedUser([row["starting_prompt"], "thanks"])

    target = simulated_conversation_target(async_agent, user_factory=factory)
    out = target_output(target, starting_prompt="hello there", conversation_plan="greet")
    assert [m["content"] for m in out["conversation"]] == ["hello there", "echo hello there", "thanks", "echo thanks"]
    assert seen == [{"starting_prompt": "hello there", "conversation_plan": "greet", "persona": None,
                     "user_turns": None}]
    with pytest.raises(Exception, match="needs starting_prompt and conversation_plan"):
        target_output(simulated_conversation_target(async_agent), starting_prompt="only a prompt")


def target_output(target, **row):
    import asyncio

    return asyncio.run(target(**row))


def test_simulated_turns_share_the_run_judge_budget(judge_server):
    server = judge_server(schema_reply, delay_s=0.05)
    target = simulated_conversation_target(async_agent, model_config=server.openai_config())
    rows = [{"starting_prompt": f"question {i}", "conversation_plan": "ask, then stop"} for i in range(4)]

    def turns(conversation):
        return {"turns": sum(1 for m in conversation if m["role"] == "user")}

    result = evaluate(data=rows, target=target, evaluators={"turns": turns}, max_concurrency=1,
                      evaluator_config={"turns": {"column_mapping": {"conversation": "${target.conversation}"}}})
    assert [r["outputs.turns.turns"] for r in result.rows] == [3, 3, 3, 3]
    assert server.stats()["requests"] == 12 and server.stats()["max_in_flight"] == 1
