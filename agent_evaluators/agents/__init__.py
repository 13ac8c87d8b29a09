"""Agents in the loop: simulated users, conversations with any agent callable, and ADK agents
run with ADK's own ``Runner`` (the ``adk`` extra).

::

    from agent_evaluators.agents import LlmSimulatedUser, ScriptedUser, simulate_conversation
    from agent_evaluators.agents import simulated_conversation_target, AgentEvaluator
    from agent_evaluators.agents import ToolRecorder   # record / replay a run's tool calls

Names are imported lazily so that ``import agent_evaluators.agents`` stays cheap and never
needs google-adk.
"""


from .._lazy import lazy_exports

_LAZY = {
    "UserTurn": "simulation", "SimulatedUser": "simulation", "ScriptedUser": "simulation",
    "LlmSimulatedUser": "simulation", "DEFAULT_STOP_SIGNAL": "simulation",
    "SimulatedConversation": "conversation", "simulate_conversation": "conversation",
    "asimulate_conversation": "conversation", "simulated_conversation_target": "conversation",
    "SimulatedConversationTarget": "conversation",
    "load_agent": "adk_runner", "run_case": "adk_runner", "run_invocations": "adk_runner",
    "agent_producer": "adk_runner", "CaseRun": "adk_runner",
    "AgentEvaluator": "agent_evaluator",
    "ToolRecorder": "tool_recorder", "MatchRules": "tool_recording",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
