"""Drive any agent callable against a simulated user, and use that as an ``evaluate()`` target.

An agent here is any callable ``messages -> reply`` (sync or async): it receives the whole
conversation so far as OpenAI-style message dicts and returns what it adds, i.e. a string,
one message dict, a list of message dicts (assistant messages, with ``tool_calls`` if it
used tools, and ``role: tool`` results), or ``{"messages": [...]}``.

:func:`simulate_conversation` alternates user and agent until the user stops (its stop
signal, a turn cap: its own or ``max_turns``, or a scripted user's last turn). :func:`simulated_conversation_target` wraps that
as a target for ``evaluate(target=...)``: each row holds a scenario (``starting_prompt``
and ``conversation_plan``, or a fixed list of ``user_turns``), and the target's output holds
``conversation`` (every message), ``query`` (the first user turn), ``response`` (the agent's
messages) and ``simulation`` (per-turn records, the stop reason and the simulator's judge
usage), so the existing evaluators map onto it and the report shows the whole conversation.

For the efficiency metrics (``token_usage`` ...) the output's messages carry a ``timestamp``
(epoch seconds: when the user turn was sent, when the agent's reply came back; the agent itself
never sees it) and each turn record its ``duration``; usage is whatever the agent's messages
carry (OpenAI ``usage``, genai ``usage_metadata``). An agent may return ``{"messages": [...],
"state": {...}}``: the last state it returned is the output's ``final_state`` (for
``final_state_match``).
"""

import asyncio
import inspect
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ..errors import ConfigError, InputError
from .simulation import MESSAGE, TURN_LIMIT, LlmSimulatedUser, ScriptedUser, SimulatedUser
from .tool_replay import ToolRecorder, current_tool_session

#: deprecated alias: a conversation stopped by ``max_turns`` has the one turn-cap stop reason,
#: :data:`~.simulation.TURN_LIMIT` (``"turn_limit"``); it used to be ``"max_turns"``
MAX_TURNS = TURN_LIMIT

_AGENT_ROLES = ("assistant", "tool")


@dataclass
class SimulatedConversation:
    """A finished simulated conversation.

    ``messages``: the whole transcript (user, assistant and tool messages, in order);
    ``turns``: per user turn, ``turn`` (1-based), ``user`` (text), ``agent`` (the messages
    the agent added) and ``user_usage`` (the simulator's judge usage, ``None`` when no judge
    wrote that turn); ``stop_reason``: ``"stop_signal"`` (the simulated user wrote its stop
    signal), ``"turn_limit"`` (a turn cap: ``max_turns`` or the simulator's own) or
    ``"script_exhausted"`` (a :class:`ScriptedUser` said all its turns).
    """

    messages: List[Dict[str, Any]]
    turns: List[Dict[str, Any]] = field(default_factory=list)
    stop_reason: str = ""
    simulator_records: List[Dict[str, Any]] = field(default_factory=list)
    #: when each message was sent or received (epoch seconds; ``None`` for the system message)
    times: List[Optional[float]] = field(default_factory=list)
    #: the last ``state`` the agent returned (``{"messages": [...], "state": {...}}``), if any
    final_state: Optional[Dict[str, Any]] = None

    def stamped(self) -> List[Dict[str, Any]]:
        """The messages with their ``timestamp`` (a message that has its own keeps it)."""
        return [dict(m) if t is None or "timestamp" in m else {**m, "timestamp": t}
                for m, t in zip(self.messages, self.times + [None] * (len(self.messages) - len(self.times)))]

    @property
    def query(self) -> Optional[str]:
        first = next((m for m in self.messages if m.get("role") == "user"), None)
        return first.get("content") if first else None

    @property
    def response(self) -> List[Dict[str, Any]]:
        return [m for m in self.messages if m.get("role") in _AGENT_ROLES]

    def to_output(self) -> Dict[str, Any]:
        """The target output: ``conversation``, ``query``, ``response`` and ``simulation``."""
        from ..judge.usage import merge_usage

        usages = [t["user_usage"] for t in self.turns if t.get("user_usage")]
        usages += [r["usage"] for r in self.simulator_records if r.get("usage") and r.get("status") != MESSAGE]
        messages = self.stamped()
        extra = {} if self.final_state is None else {"final_state": self.final_state}
        return {
            **extra,
            "conversation": messages,
            "query": self.query,
            "response": [m for m in messages if m.get("role") in _AGENT_ROLES],
            "simulation": {
                "stop_reason": self.stop_reason,
                "num_turns": len(self.turns),
                "turns": self.turns,
                "simulator_turns": self.simulator_records,
                "usage": merge_usage(usages) if usages else None,
            },
        }


def reply_messages(reply: Any, *, turn: int) -> List[Dict[str, Any]]:
    """What the agent returned → message dicts; a clear error naming the turn for anything else."""
    if isinstance(reply, str):
        messages: List[Any] = [{"role": "assistant", "content": reply}]
    elif isinstance(reply, Mapping) and "messages" in reply and "role" not in reply:
        messages = list(reply["messages"])
    elif isinstance(reply, Mapping):
        messages = [dict(reply)]
    elif isinstance(reply, Sequence):
        messages = list(reply)
    else:
        raise InputError(f"the agent's reply to turn {turn} is a {type(reply).__name__}; return a string, a "
                         "message dict, a list of message dicts or {'messages': [...]}")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, Mapping) or m.get("role") not in _AGENT_ROLES:
            raise InputError(f"the agent's reply to turn {turn}, message {i}: expected a dict with role "
                             f"'assistant' or 'tool', got {m!r:.200}")
        out.append(dict(m))
    if not any(m["role"] == "assistant" for m in out):
        raise InputError(f"the agent's reply to turn {turn} has no assistant message")
    return out


async def _call_agent(agent: Callable[..., Any], messages: List[Dict[str, Any]]) -> Any:
    if _is_async(agent):
        return await agent(messages)
    # A sync agent almost always waits on a model or a service: keep the event loop free.
    result = await asyncio.to_thread(agent, messages)
    if inspect.isawaitable(result):
        result = await result
    return result


def _is_async(fn: Any) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(type(fn), "__call__", None)  # noqa: B004  (an instance whose __call__ is async)
    return not inspect.isfunction(fn) and call is not None and inspect.iscoroutinefunction(call)


async def asimulate_conversation(
    agent: Callable[..., Any],
    user: SimulatedUser,
    *,
    max_turns: Optional[int] = None,
    system_message: Optional[str] = None,
) -> SimulatedConversation:
    """Alternate ``user`` and ``agent`` until the user stops or ``max_turns`` user turns were sent.

    ``system_message``: an optional system message put first (the agent sees it; the
    simulator does not). A failing simulator turn raises its ``JudgeError``; a failing agent
    raises ``RuntimeError`` naming the turn. Neither ever yields a shorter conversation.
    """
    if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1):
        raise ConfigError(f"max_turns must be a positive integer, got {max_turns!r}")
    messages: List[Dict[str, Any]] = [{"role": "system", "content": system_message}] if system_message else []
    times: List[Optional[float]] = [None] * len(messages)
    turns: List[Dict[str, Any]] = []
    state: Optional[Dict[str, Any]] = None
    stop_reason = ""
    while True:
        if max_turns is not None and len(turns) >= max_turns:
            stop_reason = TURN_LIMIT
            break
        user_turn = await user.next_turn([dict(m) for m in messages])
        if not user_turn.is_message:
            stop_reason = user_turn.status
            break
        number = len(turns) + 1
        tools = current_tool_session()
        if tools is not None:  # a recorded or replayed call keeps the turn it was made in
            tools.turn = number - 1
        messages.append({"role": "user", "content": user_turn.text})
        times.append(time.time())
        started = time.monotonic()
        try:
            reply = await _call_agent(agent, [dict(m) for m in messages])
        except Exception as exc:
            raise RuntimeError(f"the agent failed on simulated turn {number}: {type(exc).__name__}: {exc}") from exc
        duration = round(time.monotonic() - started, 3)
        added = reply_messages(reply, turn=number)
        if isinstance(reply, Mapping) and isinstance(reply.get("state"), Mapping):
            state = dict(reply["state"])
        messages.extend(added)
        times.extend([times[-1] + duration] * len(added))  # type: ignore[operator]
        turns.append({"turn": number, "user": user_turn.text, "agent": added, "user_usage": user_turn.usage,
                      "duration": duration})
    records = list(getattr(user, "records", []) or [])
    return SimulatedConversation(messages, turns, stop_reason, records, times, state)


def simulate_conversation(
    agent: Callable[..., Any],
    user: SimulatedUser,
    *,
    max_turns: Optional[int] = None,
    system_message: Optional[str] = None,
) -> SimulatedConversation:
    """Sync twin of :func:`asimulate_conversation` (works inside a running event loop too)."""
    from .._util.loop import run_sync

    return run_sync(asimulate_conversation(agent, user, max_turns=max_turns, system_message=system_message))


UserFactory = Callable[..., SimulatedUser]


class SimulatedConversationTarget:
    """An ``evaluate(target=...)`` target that runs one simulated conversation per row.

    Row inputs: ``starting_prompt`` + ``conversation_plan`` (+ optional ``persona``) for an
    LLM-simulated user, or ``user_turns`` (a list of strings) for a scripted one;
    ``max_turns`` optionally limits the row; ``case_id`` names the row's tool recording (with
    ``tool_recorder``). See :func:`simulated_conversation_target`.
    """

    def __init__(self, agent: Callable[..., Any], *, user_factory: Optional[UserFactory] = None,
                 model_config: Any = None, max_turns: Optional[int] = None,
                 system_message: Optional[str] = None, max_invocations: int = 20,
                 tool_recorder: Optional[ToolRecorder] = None) -> None:
        if not callable(agent):
            raise ConfigError(f"simulated_conversation_target: agent must be callable, got {type(agent).__name__}")
        self.agent = agent
        self.user_factory = user_factory
        self.model_config = model_config
        self.max_turns = max_turns
        self.system_message = system_message
        self.max_invocations = max_invocations
        if tool_recorder is not None and not isinstance(tool_recorder, ToolRecorder):
            raise ConfigError("simulated_conversation_target: tool_recorder must be a ToolRecorder, "
                              f"got {type(tool_recorder).__name__}")
        self.tool_recorder = tool_recorder

    def make_user(self, *, starting_prompt: Optional[str], conversation_plan: Optional[str], persona: Any,
                  user_turns: Optional[Sequence[str]]) -> SimulatedUser:
        if self.user_factory is not None:
            return self.user_factory(starting_prompt=starting_prompt, conversation_plan=conversation_plan,
                                     persona=persona, user_turns=user_turns)
        if user_turns is not None:
            return ScriptedUser(user_turns)
        if not starting_prompt or not conversation_plan:
            raise InputError("a simulated-conversation row needs starting_prompt and conversation_plan "
                             "(or user_turns for a scripted user)")
        return LlmSimulatedUser(starting_prompt, conversation_plan, persona=persona, model_config=self.model_config,
                                max_invocations=self.max_invocations)

    async def __call__(self, *, starting_prompt: Optional[str] = None, conversation_plan: Optional[str] = None,
                       persona: Any = None, user_turns: Optional[List[str]] = None,
                       max_turns: Optional[int] = None, case_id: Optional[str] = None) -> Dict[str, Any]:
        user = self.make_user(starting_prompt=starting_prompt, conversation_plan=conversation_plan,
                              persona=persona, user_turns=user_turns)
        max_turns = max_turns or self.max_turns
        if self.tool_recorder is None:
            return (await asimulate_conversation(self.agent, user, max_turns=max_turns,
                                                 system_message=self.system_message)).to_output()
        if not case_id:
            raise InputError(f"{self.tool_recorder!r}: a row needs a case_id column to name its tool recording",
                             input_name="case_id")
        with self.tool_recorder.case(str(case_id)):
            result = await asimulate_conversation(self.agent, user, max_turns=max_turns,
                                                  system_message=self.system_message)
        return result.to_output()


def simulated_conversation_target(agent: Callable[..., Any], *, user_factory: Optional[UserFactory] = None,
                                  model_config: Any = None, max_turns: Optional[int] = None,
                                  system_message: Optional[str] = None,
                                  max_invocations: int = 20,
                                  tool_recorder: Optional[ToolRecorder] = None) -> SimulatedConversationTarget:
    """A target for ``evaluate(target=...)`` that simulates a user talking to ``agent``.

    Args:
        agent: ``messages -> reply`` (sync or async), see the module docstring.
        user_factory: builds the simulated user for a row from its ``starting_prompt``,
            ``conversation_plan``, ``persona`` and ``user_turns``; by default an
            :class:`LlmSimulatedUser` on ``model_config`` (or a :class:`ScriptedUser`
            when the row has ``user_turns``).
        model_config: the judge that plays the user (``None``: the environment).
        max_turns: at most this many user turns per conversation (a row's ``max_turns`` wins).
        system_message: a system message the agent sees first.
        max_invocations: the LLM simulator's own turn limit (ADK's ``max_allowed_invocations``).
        tool_recorder: a :class:`~agent_evaluators.agents.ToolRecorder` whose wrapped tools the agent
            calls: each row runs inside ``tool_recorder.case(row["case_id"])``, recording its tool
            calls or serving them from the recording (a call not recorded fails the row).

    Example::

        target = simulated_conversation_target(my_agent, model_config=judge)
        evaluate(data=[{"starting_prompt": "Book a table", "conversation_plan": "..."}], target=target,
                 evaluators={"intent": IntentResolutionEvaluator(model_config=judge)},
                 evaluator_config={"intent": {"column_mapping": {"conversation": "${target.conversation}"}}})
    """
    return SimulatedConversationTarget(agent, user_factory=user_factory, model_config=model_config,
                                       max_turns=max_turns, system_message=system_message,
                                       max_invocations=max_invocations, tool_recorder=tool_recorder)
