"""An ADK agent as a red-team target: ``RedTeam.scan(my_adk_agent, ...)``.

The red-team core drives agent callables (``messages -> reply``) and cannot import this wing; it finds
:func:`adk_target` through :data:`agent_evaluators.plugins.TARGET_ADAPTERS` when the target's class
comes from ``google.adk``. :class:`AdkRedTeamTarget` runs the agent with ADK's own ``Runner`` (the
eval runner's :func:`~.agent_runner.run_invocations`: same session service, plugins, tool thread
pool) and returns what it did as OpenAI-style messages -- assistant ``tool_calls`` and ``role: tool``
results included, so the scan judges the whole trajectory -- and the session state it left
(``{"messages": [...], "state": {...}}``; ``initial_state`` is the state the session started with),
which ``RedTeam(protected_state=...)`` checks.

Each call runs a fresh session with every user message of the conversation, in order, so a
multi-turn attack's earlier turns are sent again (ADK keeps no conversation between calls); the
reply is the last turn's. A tool session of the scan (IndirectJailbreak into a recorded session)
is passed to ADK's tool plugin, so recorded tool results are served, with the attack planted in them.
"""

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..agents.simulation import ScriptedUser
from ..agents.tool_replay import current_tool_session
from .agent_runner import load_agent, require_adk, run_invocations


def _user_turns(messages: Sequence[Mapping[str, Any]]) -> List[str]:
    """The user turns to send: each user message, with the tool results that follow it (an
    IndirectJailbreak's planted document) appended to the turn they belong to."""
    turns: List[str] = []
    for m in messages:
        content = m.get("content")
        text = content if isinstance(content, str) else json.dumps(content, default=str) if content else ""
        if m.get("role") == "user":
            turns.append(text)
        elif m.get("role") == "tool" and turns:
            turns[-1] += f"\n\n<document>\n{text}\n</document>"
    return turns


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def invocation_messages(invocation: Any) -> List[Dict[str, Any]]:
    """One ADK invocation as the messages an agent callable returns: each tool call as an assistant
    message with ``tool_calls``, each tool response as a ``role: tool`` message, texts on the way as
    assistant messages, and the final response last."""
    from .convert import final_response_text
    from .models import InvocationEvents

    out: List[Dict[str, Any]] = []
    data = invocation.intermediate_data
    events = data.invocation_events if isinstance(data, InvocationEvents) else []
    for n, event in enumerate(events):
        for k, part in enumerate((event.content.parts if event.content else None) or []):
            if part.function_call is not None:
                fc = part.function_call
                out.append({"role": "assistant", "content": None, "tool_calls": [{
                    "id": fc.id or f"call_{n}_{k}", "type": "function",
                    "function": {"name": fc.name, "arguments": json.dumps(_as_json(fc.args or {}))}}]})
            elif part.function_response is not None:
                fr = part.function_response
                out.append({"role": "tool", "tool_call_id": fr.id or f"call_{n}_{k}", "name": fr.name,
                            "content": json.dumps(_as_json(fr.response))})
            elif part.text and not getattr(part, "thought", False):
                out.append({"role": "assistant", "content": part.text})
    final = final_response_text(invocation)
    if final or not any(m["role"] == "assistant" and m.get("content") for m in out):
        out.append({"role": "assistant", "content": final})
    return out


class AdkRedTeamTarget:
    """``messages -> {"messages": [...], "state": {...}}`` over an ADK agent (see the module docstring).

    ``agent``: an ADK agent object, or anything :func:`~.agent_runner.load_agent` takes (an agent
    package folder, a dotted module name); ``session_state``: the state each session starts with."""

    def __init__(self, agent: Any, *, session_state: Optional[Mapping[str, Any]] = None) -> None:
        require_adk()
        self.root_agent, self.app = load_agent(agent)
        self.initial_state: Dict[str, Any] = dict(session_state or {})
        self.__qualname__ = f"adk:{getattr(self.root_agent, 'name', type(self.root_agent).__name__)}"

    async def __call__(self, messages: List[Dict[str, Any]]) -> Dict[str, Any]:
        turns = _user_turns(messages)
        if not turns:
            raise ValueError("the conversation sent to the ADK agent has no user message")
        run = await run_invocations(self.root_agent, ScriptedUser(turns), session_input={"state": self.initial_state},
                                    app=self.app, tools=current_tool_session())
        return {"messages": invocation_messages(run[-1]), "state": run.final_state}


def adk_target(agent: Any) -> AdkRedTeamTarget:
    """The plug point's entry (:data:`agent_evaluators.plugins.TARGET_ADAPTERS`): wrap an ADK agent."""
    return AdkRedTeamTarget(agent)
