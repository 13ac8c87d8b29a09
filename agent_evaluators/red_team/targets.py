"""What a scan attacks, whatever the user passed: one way to send a conversation and get back what
the target added (its reply, and for an agent its tool calls and tool results).

* a plain callable ``(query: str) -> str`` (sync or async; a parameter annotated ``str`` or named
  ``query`` / ``prompt`` / ``text`` / ``question``): it gets the last user message;
* azure's callback ``(messages, stream=False, session_state=None, context=None)`` returning
  ``{"messages": [...]}``: it gets the conversation as azure sends it;
* an agent callable ``messages -> reply`` that our runner drives (:mod:`agent_evaluators.agents.dialogue`):
  a string, a message dict, a list of messages (assistant ``tool_calls``, ``role: tool`` results) or
  ``{"messages": [...]}``;
* a model configuration (a dict with ``model`` / ``azure_deployment``, or a config object): called as
  a chat model through our judge client (so the run's retries and dry run apply to it);
* another library's agent object, wrapped by its wing into an agent callable
  (:data:`agent_evaluators.plugins.TARGET_ADAPTERS`): an ADK ``Agent`` runs under ADK's ``Runner``
  (:mod:`agent_evaluators.adk.red_team_target`), its tool calls and session state reported.
"""

import asyncio
import inspect
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..agents.dialogue import reply_messages
from ..errors import ConfigError

TEXT, CALLBACK, MESSAGES, MODEL = "text", "callback", "messages", "model"
_TEXT_NAMES = ("query", "prompt", "text", "question")


def _kind(target: Any) -> str:
    if isinstance(target, Mapping) or (not callable(target) and hasattr(target, "model_dump")):
        return MODEL
    if not callable(target):
        raise ConfigError(f"scan: the target must be a callable or a model configuration, got {type(target).__name__}",
                          option="target")
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return MESSAGES
    names = [p.name for p in params]
    if "messages" in names and ("stream" in names or "session_state" in names or "context" in names):
        return CALLBACK
    if params and (params[0].annotation is str or params[0].annotation == "str" or params[0].name in _TEXT_NAMES):
        return TEXT
    return MESSAGES


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) if isinstance(p, Mapping) else str(p) for p in content)
    return "" if content is None else str(content)


def _is_async(fn: Any) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(type(fn), "__call__", None)  # noqa: B004 - an instance whose __call__ is async
    return not inspect.isfunction(fn) and call is not None and inspect.iscoroutinefunction(call)


async def maybe_async(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    if _is_async(fn):
        return await fn(*args, **kwargs)
    result = await asyncio.to_thread(fn, *args, **kwargs)  # copies the context: a tool session follows
    if inspect.isawaitable(result):
        result = await result
    return result


def adapted(target: Any) -> Any:
    """Another library's agent object (an ADK ``Agent``) wrapped by its wing into an agent callable
    (:data:`agent_evaluators.plugins.TARGET_ADAPTERS`); any other target as it is."""
    from .. import plugins

    module = type(target).__module__ or ""
    for prefix, (entry, extra) in plugins.TARGET_ADAPTERS.items():
        if module == prefix or module.startswith(prefix + "."):
            try:
                wrap = plugins.load(entry)
            except ImportError as exc:
                raise ConfigError(f"scan: the target is a {type(target).__name__} from {module}; attacking it needs "
                                  f"the {extra} extra: pip install 'agent-evaluators[{extra}]' ({exc})",
                                  option="target") from None
            return wrap(target)
    return target


class TargetDriver:
    """Sends a conversation to the target; :meth:`send` returns the messages it added."""

    def __init__(self, target: Any) -> None:
        self.target = adapted(target)
        self.kind = _kind(self.target)

    def describe(self) -> str:
        name = getattr(self.target, "__qualname__", None) or type(self.target).__name__
        if self.kind == MODEL:
            t = self.target
            name = (t.get("model") or t.get("azure_deployment")) if isinstance(t, Mapping) else type(t).__name__
        return f"{self.kind}:{name}"

    async def send(self, history: List[Dict[str, Any]], turn: int) -> List[Dict[str, Any]]:
        """The messages the target added to ``history``."""
        return (await self.exchange(history, turn))[0]

    async def exchange(self, history: List[Dict[str, Any]],
                       turn: int) -> Tuple[List[Dict[str, Any]], Optional[Dict[str, Any]]]:
        """The messages the target added, and the state it reported (an agent's ``{"messages", "state"}``,
        a callback's ``session_state``; ``None``: none)."""
        if self.kind == TEXT:
            last = next((m for m in reversed(history) if m.get("role") == "user"), {"content": ""})
            reply = await maybe_async(self.target, _text_of(last.get("content")))
            reply = reply if isinstance(reply, (str, Mapping, list)) else str(reply)
            return reply_messages(reply, turn=turn), _state_of(reply, "state")
        if self.kind == CALLBACK:
            sent = [dict(m) for m in history]
            out = await maybe_async(self.target, messages=sent, stream=False, session_state=None, context=None)
            msgs = out.get("messages") if isinstance(out, Mapping) else out
            msgs = list(msgs or [])
            if len(msgs) > len(history) and all(a == b for a, b in zip(msgs, history)):
                msgs = msgs[len(history):]
            added = reply_messages(msgs[-1:] if msgs and msgs[-1].get("role") == "assistant" else msgs, turn=turn)
            return added, _state_of(out, "session_state")
        if self.kind == MODEL:
            from ..judge import get_judge_client

            chat = [{"role": m["role"], "content": _text_of(m.get("content"))}
                    for m in history if m.get("role") in ("system", "user", "assistant")]
            reply = await get_judge_client(self.target).complete(chat, sample_index=turn)
            return [{"role": "assistant", "content": reply.text}], None
        reply = await maybe_async(self.target, [dict(m) for m in history])
        return reply_messages(reply, turn=turn), _state_of(reply, "state")


def _state_of(reply: Any, key: str) -> Optional[Dict[str, Any]]:
    """The state a reply reports under ``key`` (``None``: none, or not a dict)."""
    if isinstance(reply, Mapping) and "role" not in reply and isinstance(reply.get(key), Mapping):
        return dict(reply[key])
    return None


def assistant_text(messages: List[Dict[str, Any]]) -> str:
    """The text of the assistant messages, joined (what a reply-only scorer sees)."""
    return "\n".join(_text_of(m.get("content")) for m in messages if m.get("role") == "assistant" and m.get("content"))


def tool_events(messages: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Every tool call (name, arguments) and tool result in ``messages``, in order."""
    out: List[Dict[str, Any]] = []
    for m in messages:
        for call in m.get("tool_calls") or []:
            fn = call.get("function", call) if isinstance(call, Mapping) else {}
            out.append({"kind": "call", "name": fn.get("name"), "arguments": fn.get("arguments")})
        if m.get("role") == "tool":
            out.append({"kind": "result", "name": m.get("name"), "content": m.get("content")})
    return out


