"""Agent runs as evaluation rows: the columns the evaluators take, plus where the row came from.

``query`` is the transcript up to the last user message (with the system message), ``response``
everything after it (assistant messages with their tool calls, tool results, in order),
``tool_calls`` the response's calls in azure-ai-evaluation's form, ``tool_definitions`` what the
spans declared; a run with several user turns also gets ``conversation``. ``trace_id`` /
``span_id`` (the run's root span) stay on the row so results can be linked back to the trace;
``agent_usage`` and ``duration_s`` carry what the efficiency metrics read (each assistant message
also carries its model call's ``usage``).
"""

import json
from typing import Any, Dict, List

from .runs import AgentRun


def _arguments(text: Any) -> Any:
    if isinstance(text, str):
        try:
            return json.loads(text) if text.strip() else {}
        except ValueError:
            return text
    return text


def tool_definitions(raw: List[Any]) -> List[Dict[str, Any]]:
    """``{"name", "description", "parameters"}`` per tool, from the OpenAI, GenAI or ADK shapes."""
    out = []
    for tool in raw:
        if not isinstance(tool, dict):
            continue
        function = tool.get("function")
        inner: Dict[str, Any] = function if isinstance(function, dict) else tool
        if not inner.get("name"):
            continue
        definition: Dict[str, Any] = {"name": inner["name"], "description": inner.get("description") or ""}
        if isinstance(inner.get("parameters"), dict):
            definition["parameters"] = inner["parameters"]
        out.append(definition)
    return out


def _split(messages: List[Dict[str, Any]]) -> int:
    """Index just after the last user message."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return last + 1


def run_row(run: AgentRun) -> Dict[str, Any]:
    """The row of one readable run (``run.problem`` is ``None``)."""
    cut = _split(run.messages)
    response = run.messages[cut:]
    calls = [{"type": "tool_call", "tool_call_id": c["id"], "name": c["function"]["name"],
              "arguments": _arguments(c["function"]["arguments"])}
             for m in response for c in m.get("tool_calls") or []]
    row: Dict[str, Any] = {
        "id": run.key,
        "query": run.messages[:cut],
        "response": response,
        "tool_calls": calls,
        "tool_definitions": tool_definitions(run.tool_definitions),
        "trace_id": run.trace_ids[0],
        "span_id": run.root_span_id,
    }
    if len(run.trace_ids) > 1:
        row["trace_ids"] = list(run.trace_ids)
    if run.turns > 1:
        row["conversation"] = {"messages": list(run.messages)}
    usage = dict(run.usage)
    if "prompt_tokens" in usage or "completion_tokens" in usage:
        usage["total_tokens"] = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
    row["agent_usage"] = {**usage, "llm_calls": run.llm_calls, "tool_calls": run.tool_calls,
                          "llm_duration_s": run.llm_duration_s, "tool_duration_s": run.tool_duration_s}
    row["duration_s"] = run.duration_s
    row["trace_source"] = ", ".join(run.conventions)
    return row
