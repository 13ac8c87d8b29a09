"""Simulated users: the scripted one, and the LLM-backed one over a real local judge server."""

import pytest

from agent_evaluators import ConfigError, JudgeError
from agent_evaluators.agents.simulation import (
    MESSAGE,
    SCRIPT_EXHAUSTED,
    STOP_SIGNAL,
    TURN_LIMIT,
    LlmSimulatedUser,
    ScriptedUser,
    SimulatedUser,
)
from agent_evaluators.testing import Faults, schema_reply

from .conftest import aio, block

HISTORY = [
    {"role": "user", "content": "Book a table for two"},
    {"role": "assistant", "content": "For what time?", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
]


@aio
async def test_scripted_user_says_its_turns_then_stops():
    user = ScriptedUser(["hi", "bye"])
    assert isinstance(user, SimulatedUser)
    turns = [await user.next_turn([]) for _ in range(3)]
    # issue 20.18: a scripted user out of turns did not write a stop signal
    assert [(t.status, t.text) for t in turns] == [(MESSAGE, "hi"), (MESSAGE, "bye"), (SCRIPT_EXHAUSTED, None)]
    with pytest.raises(ConfigError):
        ScriptedUser(["ok", ""])


@aio
async def test_first_turn_is_the_starting_prompt_without_a_judge_call(judge_server):
    server = judge_server(lambda req: {"message": "should not be asked"})
    user = LlmSimulatedUser("Book a table", "Book a table for 2 at 7pm.", model_config=server.openai_config())
    turn = await user.next_turn([])
    assert (turn.status, turn.text) == (MESSAGE, "Book a table")
    assert server.stats()["requests"] == 0
    assert user.records[0]["source"] == "starting_prompt"


@aio
async def test_plan_and_history_reach_the_prompt(judge_server):
    server = judge_server(lambda req: {"message": "At 7pm please."})
    user = LlmSimulatedUser("Book a table for two", "Ask for a table for 2; say 7pm when asked.",
                            persona="an impatient regular", model_config=server.openai_config())
    await user.next_turn([])
    turn = await user.next_turn(HISTORY)
    assert (turn.status, turn.text) == (MESSAGE, "At 7pm please.")
    assert turn.usage["judge_calls"] == 1
    req = server.requests[0]
    assert block(req, "conversation_plan") == "Ask for a table for 2; say 7pm when asked."
    # tool calls and results are left out unless include_function_calls (ADK's default)
    assert block(req, "conversation_history") == [
        {"speaker": "user", "text": "Book a table for two"}, {"speaker": "agent", "text": "For what time?"}]
    assert "</finished>" in req.system_text and "an impatient regular" in req.system_text
    assert req.response_format["json_schema"]["name"] == "SimulatedUserTurn"


@aio
async def test_include_function_calls_shows_tools(judge_server):
    server = judge_server(lambda req: {"message": "thanks"})
    user = LlmSimulatedUser("a", "b", include_function_calls=True, model_config=server.openai_config())
    await user.next_turn([])
    await user.next_turn(HISTORY)
    history = block(server.requests[0], "conversation_history")
    assert {"speaker": "agent", "tool_call": "lookup", "arguments": "{}"} in history
    assert history[-1] == {"speaker": "tool", "tool_call_id": "c1", "result": "ok"}


@pytest.mark.parametrize("reply", ["</finished>", "All done, thanks! </FINISHED>"])
@aio
async def test_stop_signal_ends_the_conversation(judge_server, reply):
    server = judge_server(lambda req: {"message": reply})
    user = LlmSimulatedUser("a", "b", model_config=server.openai_config())
    await user.next_turn([])
    turn = await user.next_turn(HISTORY)
    assert turn.status == STOP_SIGNAL and turn.text is None
    assert user.records[-1]["status"] == STOP_SIGNAL


@aio
async def test_custom_stop_signal(judge_server):
    server = judge_server(lambda req: {"message": "[[done]]" if "[[done]]" in req.system_text else "go on"})
    user = LlmSimulatedUser("a", "b", stop_signal="[[done]]", model_config=server.openai_config())
    await user.next_turn([])
    assert (await user.next_turn(HISTORY)).status == STOP_SIGNAL


@aio
async def test_turn_limit_counts_the_starting_prompt(judge_server):
    server = judge_server(lambda req: {"message": "more"})
    user = LlmSimulatedUser("a", "b", max_invocations=3, model_config=server.openai_config())
    statuses = [(await user.next_turn(HISTORY)).status for _ in range(4)]
    assert statuses == [MESSAGE, MESSAGE, MESSAGE, TURN_LIMIT]
    assert server.stats()["requests"] == 2


@aio
async def test_a_failed_judge_turn_is_an_error_naming_the_turn(judge_server):
    server = judge_server(schema_reply, faults=Faults(rate_500=1.0))
    config = {**server.openai_config(), "max_attempts": 2}
    user = LlmSimulatedUser("a", "b", model_config=config)
    await user.next_turn([])
    with pytest.raises(JudgeError, match="user simulator, turn 2"):
        await user.next_turn(HISTORY)
    assert user.records[-1]["status"] == "error"


@aio
async def test_an_empty_message_is_an_error_not_the_end(judge_server):
    server = judge_server(lambda req: {"message": "   "})
    user = LlmSimulatedUser("a", "b", model_config=server.openai_config())
    await user.next_turn([])
    with pytest.raises(JudgeError, match="turn 2: the judge wrote an empty user message"):
        await user.next_turn(HISTORY)


@aio
async def test_from_scenario_reads_adk_user_simulator_config(judge_server):
    server = judge_server(lambda req: {"message": f"model={req.model}"})
    scenario = {"starting_prompt": "hi", "conversation_plan": "plan", "user_persona": "NOVICE"}
    user = LlmSimulatedUser.from_scenario(
        scenario, model_config=server.openai_config(),
        user_simulator_config={"model": "sim-model", "maxAllowedInvocations": 2,
                               "model_configuration": {"temperature": 0.3}})
    assert user.max_invocations == 2 and user.persona == "NOVICE"
    await user.next_turn([])
    turn = await user.next_turn(HISTORY)
    assert turn.text == "model=sim-model"
    assert server.requests[0].params["temperature"] == 0.3
    assert (await user.next_turn(HISTORY)).status == TURN_LIMIT
    with pytest.raises(ConfigError, match="custom_instructions"):
        LlmSimulatedUser.from_scenario(scenario, user_simulator_config={"custom_instructions": "x"})


def test_bad_configuration_is_a_config_error():
    with pytest.raises(ConfigError, match="max_invocations"):
        LlmSimulatedUser("a", "b", max_invocations=0)
    with pytest.raises(ConfigError, match="conversation_plan"):
        LlmSimulatedUser("a", "")


@aio
async def test_adk_prebuilt_persona_ids_are_described(judge_server):
    server = judge_server(lambda req: {"message": "ok"})
    user = LlmSimulatedUser("a", "b", persona="NOVICE", model_config=server.openai_config())
    await user.next_turn([])
    await user.next_turn(HISTORY)
    assert "novice who does not fully understand" in server.requests[0].system_text
