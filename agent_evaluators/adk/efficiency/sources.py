"""Per-turn measurements (:class:`~.metrics.TurnUsage`) from the data agents leave behind.

* ADK invocations (:func:`from_invocations`): tool calls as ADK's ``get_all_tool_calls``
  reads them; a model call is an ``invocation_events`` entry carrying ``usage_metadata`` or
  ``model_version`` (ADK's ``_is_model_call_event``; the legacy ``tool_uses`` form cannot say,
  so its count is ``None``); the timing fields the run measured.
* chat messages (:func:`from_messages`): a turn starts at each user message (agent messages
  before the first one, as in a ``response`` column whose query is elsewhere, are one turn); an assistant
  message is a model call when it carries ``usage`` (OpenAI chat completions or Responses
  counts), ``usage_metadata`` (genai) or ``model``; its ``tool_calls`` (or tool-call content
  items) are the turn's tool calls. When no message of the conversation carries any of
  those, the inference count is ``None`` (unknown), not 0. A turn's duration is the time
  from its user message to its last agent message when the messages carry timestamps
  (``timestamp``, ``createdAt``/``created_at``: epoch seconds or ISO 8601); the model/tool
  split is unknown there.
"""

from datetime import datetime
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ...errors import InputError
from .metrics import TurnUsage

_MODEL_KEYS = ("usage", "usage_metadata", "usageMetadata", "model")
_TIME_KEYS = ("timestamp", "createdAt", "created_at")
_TOOL_ITEM_TYPES = ("tool_call", "function_call")


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=True)
    return value


def from_invocations(invocations: Sequence[Any]) -> List[TurnUsage]:
    """One :class:`TurnUsage` per ADK invocation (our models or ADK-shaped dicts)."""
    from ..convert import as_invocation, function_calls
    from ..models import InvocationEvents

    turns = []
    for i, value in enumerate(invocations):
        inv = as_invocation(value, where=f"invocations[{i}]")
        data = inv.intermediate_data
        model_calls: Optional[int] = None
        usages: List[Mapping[str, Any]] = []
        if isinstance(data, InvocationEvents):
            events = data.invocation_events
            model_calls = sum(e.usage_metadata is not None or e.model_version is not None for e in events)
            usages = [_plain(e.usage_metadata) for e in events if e.usage_metadata is not None]
        turns.append(TurnUsage(tool_calls=len(function_calls(inv)), model_calls=model_calls, usages=usages,
                               duration=inv.duration, model_duration=inv.model_duration,
                               tool_duration=inv.tool_duration))
    return turns


def openai_usage_as_genai(usage: Mapping[str, Any]) -> Dict[str, Optional[int]]:
    """OpenAI ``usage`` (chat completions ``prompt_tokens``/``completion_tokens`` or Responses
    ``input_tokens``/``output_tokens``, with their ``*_details``) in genai's terms. OpenAI's
    completion count includes reasoning tokens; genai's ``candidates_token_count`` does not,
    so reasoning is moved out of it."""
    prompt = usage.get("prompt_tokens", usage.get("input_tokens"))
    completion = usage.get("completion_tokens", usage.get("output_tokens"))
    in_details = usage.get("prompt_tokens_details") or usage.get("input_tokens_details") or {}
    out_details = usage.get("completion_tokens_details") or usage.get("output_tokens_details") or {}
    reasoning = out_details.get("reasoning_tokens") if isinstance(out_details, Mapping) else None
    cached = in_details.get("cached_tokens") if isinstance(in_details, Mapping) else None
    candidates = None if completion is None else int(completion) - int(reasoning or 0)
    return {"prompt_token_count": prompt, "cached_content_token_count": cached,
            "candidates_token_count": candidates, "thoughts_token_count": reasoning}


def _usage(message: Mapping[str, Any]) -> Optional[Mapping[str, Any]]:
    genai = message.get("usage_metadata", message.get("usageMetadata"))
    if isinstance(genai, Mapping) or hasattr(genai, "model_dump"):
        return dict(_plain(genai))
    usage = message.get("usage")
    if isinstance(usage, Mapping):
        return openai_usage_as_genai(usage)
    return None


def _time(message: Mapping[str, Any]) -> Optional[float]:
    for key in _TIME_KEYS:
        value = message.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
            except ValueError:
                return None
    return None


def _tool_call_count(message: Mapping[str, Any]) -> int:
    calls = message.get("tool_calls")
    n = len(calls) if isinstance(calls, list) else 0
    content = message.get("content")
    if isinstance(content, list):
        n += sum(isinstance(c, Mapping) and c.get("type") in _TOOL_ITEM_TYPES for c in content)
    return n


def from_messages(messages: Any, *, input_name: str = "response") -> List[TurnUsage]:
    """One :class:`TurnUsage` per user turn of a chat conversation (see the module docstring)."""
    raw = messages.get("messages") if isinstance(messages, Mapping) else messages
    if not isinstance(raw, (list, tuple)) or not all(isinstance(m, Mapping) for m in raw):
        raise InputError(f"{input_name}: expected a list of message dicts (or ADK invocations), got "
                         f"{type(raw).__name__}", input_name=input_name)
    knows_models = any(any(k in m for k in _MODEL_KEYS) for m in raw)
    turns: List[TurnUsage] = []
    starts: List[Optional[float]] = []
    ends: List[Optional[float]] = []
    for message in raw:
        role = message.get("role")
        if role == "user":
            turns.append(TurnUsage(model_calls=0 if knows_models else None))
            starts.append(_time(message))
            ends.append(None)
            continue
        if role not in ("assistant", "tool"):
            continue
        if not turns:  # a reply whose user message is elsewhere (a ``query`` column, a trace's row): one turn
            turns.append(TurnUsage(model_calls=0 if knows_models else None))
            starts.append(None)
            ends.append(None)
        turn = turns[-1]
        when = _time(message)
        if when is not None:
            ends[-1] = when
        if role != "assistant":
            continue
        turn.tool_calls += _tool_call_count(message)
        usage = _usage(message)
        if usage is not None:
            turn.usages.append(usage)
        if knows_models and any(k in message for k in _MODEL_KEYS):
            turn.model_calls = (turn.model_calls or 0) + 1
    for turn, start, end in zip(turns, starts, ends):
        if start is not None and end is not None:
            turn.duration = round(max(end - start, 0.0), 3)
    return turns


def _looks_like_invocations(value: Any) -> bool:
    return (isinstance(value, (list, tuple)) and bool(value)
            and all(isinstance(v, Mapping) and ("user_content" in v or "userContent" in v) or hasattr(v, "user_content")
                    for v in value))


def from_any(value: Any, *, input_name: str = "response") -> List[TurnUsage]:
    """ADK invocations or chat messages, whichever ``value`` holds."""
    if _looks_like_invocations(value):
        return from_invocations(value)
    return from_messages(value, input_name=input_name)
