"""Simulated users: who writes the user's side of a conversation with an agent.

Two kinds follow one small protocol (:class:`SimulatedUser`): ``await user.next_turn(history)``
returns a :class:`UserTurn` that either carries the next user message or says why there is
none: ``"stop_signal"`` (the simulator wrote its stop signal), ``"turn_limit"`` (a turn cap was
reached) or ``"script_exhausted"`` (a scripted user said all its turns).

* :class:`ScriptedUser`: a fixed list of turns; deterministic, for tests and replay.
* :class:`LlmSimulatedUser`: ADK's LLM-backed user simulator on any judge model. Its first
  turn is the scenario's ``starting_prompt`` verbatim (no model call); every later turn is
  written by the judge from ``prompty/user_simulator.prompty`` (the conversation plan, the
  history so far and the stop signal). The stop signal (``</finished>``, case-insensitive,
  anywhere in the reply) ends the conversation; ``max_invocations`` counts the starting
  prompt too, as ADK's ``max_allowed_invocations`` does. ``-1`` sets no limit of its own, but a
  conversation still ends at :data:`NO_LIMIT_CAP` invocations: a simulator that never writes
  its stop signal would otherwise send judge requests until the case's deadline.

A simulator turn that fails (the judge failed after its retries, or wrote an empty message)
raises :class:`~agent_evaluators.errors.JudgeError` naming the turn: a conversation is never
silently shorter than the simulator meant it to be. Every judge call goes through the shared
judge client (budget, retries, usage, cache) and is recorded in :attr:`LlmSimulatedUser.records`.
"""

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Protocol, Sequence, runtime_checkable

from pydantic import BaseModel, ConfigDict

from ..errors import ConfigError, JudgeError

#: :attr:`UserTurn.status` values (ADK's ``Status``: SUCCESS, STOP_SIGNAL_DETECTED, TURN_LIMIT_REACHED),
#: plus ours for a scripted user with no turns left. A conversation's ``stop_reason`` is one of the
#: three that are not ``MESSAGE``: every turn cap (``max_turns``, ``max_invocations``) is ``TURN_LIMIT``.
MESSAGE = "message"
STOP_SIGNAL = "stop_signal"
TURN_LIMIT = "turn_limit"
SCRIPT_EXHAUSTED = "script_exhausted"

#: the most invocations a conversation with ``max_invocations=-1`` ("no limit") takes
NO_LIMIT_CAP = 100

DEFAULT_STOP_SIGNAL = "</finished>"

#: ADK's pre-built persona ids (a scenario's ``user_persona`` may name one), described in our words.
PERSONAS = {
    "EXPERT": ("An expert who knows exactly what they want and uses the agent as a tool: gives precise details, "
               "answers only what is relevant, corrects the agent, tries again once after an error and then gives "
               "up, and keeps a brisk, professional tone with no chit-chat."),
    "NOVICE": ("A novice who does not fully understand their problem and leans on the agent for guidance: "
               "works toward the goal step by step, answers every question patiently, does not notice or correct "
               "the agent's mistakes, gives up instead of troubleshooting, and talks casually."),
    "EVALUATOR": ("Someone assessing whether the agent can reach the goals of the plan: gives precise details, "
                  "answers only what is relevant, does not correct the agent or troubleshoot, and talks casually."),
}


def describe_persona(persona: Any) -> str:
    """The persona as text for a prompt: a pre-built id (``"NOVICE"``) is expanded, any other string is
    used as given, a dict shows its ``description`` and ``behaviors``; ``None`` gives ``""``."""
    if persona is None:
        return ""
    if isinstance(persona, str):
        return PERSONAS.get(persona.strip().upper(), persona)
    if isinstance(persona, Mapping):
        lines = [str(persona.get("description") or PERSONAS.get(str(persona.get("id", "")).upper(), ""))]
        for b in persona.get("behaviors") or []:
            lines.append(f"- {b.get('description', b) if isinstance(b, Mapping) else b}")
        return "\n".join(line for line in lines if line)
    return str(persona)
DEFAULT_MAX_INVOCATIONS = 20  # ADK's LlmBackedUserSimulatorConfig default
TEMPLATE = "user_simulator.prompty"


@dataclass
class UserTurn:
    """The simulator's answer for one turn: a message (``status == "message"``) or why there is none."""

    status: str
    text: Optional[str] = None
    usage: Optional[Dict[str, Any]] = None

    @property
    def is_message(self) -> bool:
        return self.status == MESSAGE


@runtime_checkable
class SimulatedUser(Protocol):
    """What drives the user's side. One instance per conversation: simulators count turns.

    ``history`` is the conversation so far as OpenAI-style message dicts (``role`` user /
    assistant / tool, ``content``, optional ``tool_calls``).
    """

    async def next_turn(self, history: Sequence[Mapping[str, Any]]) -> UserTurn: ...


class ScriptedUser:
    """A user who says the given turns in order, then stops (status ``"script_exhausted"``).

    Deterministic: for tests, and for replaying a recorded conversation against a new agent.
    """

    def __init__(self, turns: Sequence[str]) -> None:
        if isinstance(turns, str) or not all(isinstance(t, str) and t.strip() for t in turns):
            raise ConfigError("ScriptedUser: turns must be a list of non-empty strings")
        self.turns = list(turns)
        self._next = 0

    async def next_turn(self, history: Sequence[Mapping[str, Any]]) -> UserTurn:
        if self._next >= len(self.turns):
            return UserTurn(SCRIPT_EXHAUSTED)
        text = self.turns[self._next]
        self._next += 1
        return UserTurn(MESSAGE, text)


class SimulatedUserTurn(BaseModel):
    """The judge's structured reply for one simulated user turn.

    Its schema name (``SimulatedUserTurn``) is how the bundled fake judge recognises these requests.
    """

    model_config = ConfigDict(extra="forbid")
    message: str


def history_for_prompt(history: Sequence[Mapping[str, Any]], include_function_calls: bool = False) -> List[Dict[str, Any]]:
    """The history as the simulator sees it: who said what, oldest first.

    As ADK's ``_summarize_conversation``: text turns only, tool calls and results only
    when ``include_function_calls``; system messages are the agent's business and are left out.
    """
    out: List[Dict[str, Any]] = []
    for m in history:
        role = m.get("role")
        if role == "user":
            text = _text(m.get("content"))
            if text:
                out.append({"speaker": "user", "text": text})
        elif role == "assistant":
            text = _text(m.get("content"))
            if text:
                out.append({"speaker": "agent", "text": text})
            if include_function_calls:
                for call in m.get("tool_calls") or []:
                    fn = call.get("function", call) if isinstance(call, Mapping) else {}
                    out.append({"speaker": "agent", "tool_call": fn.get("name"), "arguments": fn.get("arguments")})
        elif role == "tool" and include_function_calls:
            out.append({"speaker": "tool", "tool_call_id": m.get("tool_call_id"), "result": m.get("content")})
    return out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content]
        return "\n".join(p for p in parts if p).strip()
    return ""


class LlmSimulatedUser:
    """ADK's LLM-backed user simulator on any judge model.

    Args:
        starting_prompt: the first user message, sent verbatim.
        conversation_plan: what the user wants to get done, in order.
        persona: optional description of how the user behaves (a string, or a dict whose
            ``description`` and ``behaviors`` are shown to the simulator).
        model_config: the judge endpoint that writes the turns (``None``: the environment).
        model: replaces the model name of ``model_config`` (``user_simulator_config.model``).
        max_invocations: turn limit, the starting prompt included (ADK's
            ``max_allowed_invocations``, default 20); ``-1`` for no limit of its own (the
            conversation still ends at :data:`NO_LIMIT_CAP` invocations).
        stop_signal: the text that ends the conversation (ADK: ``</finished>``).
        include_function_calls: show tool calls and results to the simulator.
        temperature: sampling temperature of the simulator (default: the template's 0.7).
        cache: optional sqlite path of the judge reply cache.
    """

    def __init__(
        self,
        starting_prompt: str,
        conversation_plan: str,
        *,
        persona: Any = None,
        model_config: Any = None,
        model: Optional[str] = None,
        max_invocations: int = DEFAULT_MAX_INVOCATIONS,
        stop_signal: str = DEFAULT_STOP_SIGNAL,
        include_function_calls: bool = False,
        temperature: Optional[float] = None,
        is_reasoning_model: bool = False,
        cache: Optional[str] = None,
    ) -> None:
        for name, value in (("starting_prompt", starting_prompt), ("conversation_plan", conversation_plan),
                            ("stop_signal", stop_signal)):
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"LlmSimulatedUser: {name} must be a non-empty string, got {value!r}")
        if isinstance(max_invocations, bool) or not isinstance(max_invocations, int) or max_invocations == 0 \
                or max_invocations < -1:
            raise ConfigError(f"LlmSimulatedUser: max_invocations must be a positive integer or -1, got {max_invocations!r}")
        self.starting_prompt = starting_prompt
        self.conversation_plan = conversation_plan
        self.persona = persona
        self.max_invocations = max_invocations
        self.stop_signal = stop_signal
        self.include_function_calls = include_function_calls
        self.temperature = temperature
        self._model_config = _with_model(model_config, model)
        self._is_reasoning_model = is_reasoning_model
        self._cache = cache
        self._invocations = 0
        #: one record per turn: ``turn`` (1-based), ``status``, ``text``, ``source``, ``usage``.
        self.records: List[Dict[str, Any]] = []

    @classmethod
    def from_scenario(cls, scenario: Any, *, model_config: Any = None,
                      user_simulator_config: Optional[Mapping[str, Any]] = None,
                      stop_signal: str = DEFAULT_STOP_SIGNAL) -> "LlmSimulatedUser":
        """A simulator for an ADK ``conversation_scenario`` with ADK's ``user_simulator_config``.

        Read from the config: ``model`` (replaces the judge's model name), ``max_allowed_invocations``,
        ``include_function_calls`` and ``model_configuration.temperature``. The judge config serves
        the simulator unless ``model`` names another model.
        """
        config = dict(user_simulator_config or {})
        kind = config.get("type", "llm_backed")
        if kind not in (None, "llm_backed"):
            raise ConfigError(f"user_simulator_config: type {kind!r} is not supported (only 'llm_backed')")
        if config.get("custom_instructions"):
            raise ConfigError("user_simulator_config: custom_instructions are not supported; "
                              "the simulator uses prompty/user_simulator.prompty")
        get = lambda snake, camel: config.get(snake, config.get(camel))  # noqa: E731
        generation = get("model_configuration", "modelConfiguration") or {}
        temperature = generation.get("temperature") if isinstance(generation, Mapping) else None
        limit = get("max_allowed_invocations", "maxAllowedInvocations")
        data = scenario.model_dump() if hasattr(scenario, "model_dump") else dict(scenario)
        return cls(
            str(data.get("starting_prompt") or data.get("startingPrompt") or ""),
            str(data.get("conversation_plan") or data.get("conversationPlan") or ""),
            persona=data.get("user_persona", data.get("userPersona")),
            model_config=model_config,
            model=config.get("model"),
            max_invocations=DEFAULT_MAX_INVOCATIONS if limit is None else limit,
            stop_signal=stop_signal,
            include_function_calls=bool(get("include_function_calls", "includeFunctionCalls")),
            temperature=temperature,
        )

    @property
    def invocations(self) -> int:
        """How many user turns were produced or asked for so far (the starting prompt included)."""
        return self._invocations

    def persona_text(self) -> str:
        """The persona for the prompt (ADK's pre-built ids such as ``"NOVICE"`` are expanded)."""
        return describe_persona(self.persona)

    async def next_turn(self, history: Sequence[Mapping[str, Any]]) -> UserTurn:
        limit = self.max_invocations if self.max_invocations >= 0 else NO_LIMIT_CAP
        if limit <= self._invocations:
            self.records.append({"turn": self._invocations + 1, "status": TURN_LIMIT, "text": None,
                                 "source": "limit" if self.max_invocations >= 0 else "no_limit_cap", "usage": None})
            return UserTurn(TURN_LIMIT)
        turn = self._invocations + 1
        if self._invocations == 0:
            self._invocations = 1
            self.records.append({"turn": 1, "status": MESSAGE, "text": self.starting_prompt,
                                 "source": "starting_prompt", "usage": None})
            return UserTurn(MESSAGE, self.starting_prompt)
        text, usage = await self._ask(turn, history)
        self._invocations += 1
        if self.stop_signal.lower() in text.lower():
            self.records.append({"turn": turn, "status": STOP_SIGNAL, "text": text, "source": "judge", "usage": usage})
            return UserTurn(STOP_SIGNAL, None, usage)
        self.records.append({"turn": turn, "status": MESSAGE, "text": text, "source": "judge", "usage": usage})
        return UserTurn(MESSAGE, text, usage)

    async def _ask(self, turn: int, history: Sequence[Mapping[str, Any]]) -> Any:
        from ..judge import get_judge_client

        prompty = _template()
        messages = prompty.render(
            conversation_plan=self.conversation_plan,
            conversation_history=history_for_prompt(history, self.include_function_calls),
            stop_signal=self.stop_signal,
            persona=self.persona_text(),
        )
        params = {k: v for k, v in prompty.parameters.items() if k != "response_format"}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        client = get_judge_client(self._model_config, is_reasoning_model=self._is_reasoning_model, cache=self._cache)
        try:
            reply = await client.complete(messages, output_model=SimulatedUserTurn, params=params,
                                          sample_index=turn, template_hash=prompty.template_hash)
        except JudgeError as exc:
            self.records.append({"turn": turn, "status": "error", "text": None, "source": "judge",
                                 "usage": exc.usage, "error": str(exc)})
            raise JudgeError(f"user simulator, turn {turn}: {exc}", raw_text=exc.raw_text, status_code=exc.status_code,
                             attempts=exc.attempts, usage=exc.usage) from exc
        text = reply.data.message.strip()
        if not text:
            self.records.append({"turn": turn, "status": "error", "text": "", "source": "judge", "usage": reply.usage,
                                 "error": "empty message"})
            raise JudgeError(f"user simulator, turn {turn}: the judge wrote an empty user message "
                             "(ADK treats this as a failed simulation, not the end of the conversation)",
                             raw_text=reply.text, usage=reply.usage)
        return text, reply.usage


_TEMPLATE: List[Any] = []


def _template() -> Any:
    """The simulator's template, loaded once per process (every turn of every conversation renders it)."""
    if not _TEMPLATE:
        from ..templates import find_template, load_prompty

        _TEMPLATE.append(load_prompty(find_template(TEMPLATE)))
    return _TEMPLATE[0]


def _with_model(model_config: Any, model: Optional[str]) -> Any:
    """``model_config`` with its model name replaced by ``model`` (an endpoint serving several models)."""
    if not model:
        return model_config
    from ..judge.endpoint import resolve_config

    return dataclasses.replace(resolve_config(model_config), model=model)
