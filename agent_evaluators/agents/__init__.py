"""Agents in the loop: simulated users, conversations with any agent callable, and the recording
and replay of an agent's tool calls. ADK agents run with ADK's own ``Runner`` in the ADK wing
(:mod:`agent_evaluators.adk`).

::

    from agent_evaluators.agents import LlmSimulatedUser, ScriptedUser, simulate_conversation
    from agent_evaluators.agents import simulated_conversation_target
    from agent_evaluators.agents import ToolRecorder   # record / replay a run's tool calls

Names are imported lazily so that ``import agent_evaluators.agents`` stays cheap.
"""


from .._util.lazy import lazy_exports

_LAZY = {
    "UserTurn": "simulation", "SimulatedUser": "simulation", "ScriptedUser": "simulation",
    "LlmSimulatedUser": "simulation", "DEFAULT_STOP_SIGNAL": "simulation",
    "SimulatedConversation": "dialogue", "simulate_conversation": "dialogue",
    "asimulate_conversation": "dialogue", "simulated_conversation_target": "dialogue",
    "SimulatedConversationTarget": "dialogue",
    "ToolRecorder": "tool_replay", "MatchRules": "recordings",
}
#: names this face had that now live in the ADK wing: importable for one more release, with a warning
_MOVED = {name: "agent_evaluators.adk.agent_runner" for name in
          ("load_agent", "run_case", "run_invocations", "agent_producer", "CaseRun")}
_MOVED["AgentEvaluator"] = "agent_evaluators.adk.agent_evaluator"

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals(), moved=_MOVED)
