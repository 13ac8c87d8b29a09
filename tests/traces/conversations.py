"""The conversations the fixture producers had, written out as a user writes them in JSONL.

``make_trace_fixtures.py`` drove these conversations through the real instrumentations; here they
are as plain OpenAI messages (the form ``query`` / ``response`` take), so a test can give the same
conversation both ways. The tool-call ids are the ones the producers' models chose.
"""

import json
from pathlib import Path
from typing import Any, Dict, List

FIXTURES = Path(__file__).resolve().parent / "fixtures"

#: producer -> the fixture files that hold its telemetry
PRODUCER_FILES = {
    "adk": ["adk.spans.jsonl", "adk.logs.jsonl"],
    "openai_v2_attributes": ["openai_v2_attributes.spans.jsonl"],
    "openai_v2_events": ["openai_v2_events.spans.jsonl", "openai_v2_events.logs.jsonl"],
    "openai_v2_legacy": ["openai_v2_legacy.spans.jsonl", "openai_v2_legacy.logs.jsonl"],
    "openinference": ["openinference.spans.jsonl"],
}

LOOP_SYSTEM = "You are a weather assistant. Use get_weather for any question about the weather."
LOOP_TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Current weather of a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
ADK_SYSTEM = ("You answer questions about the weather and convert currencies, using your tools.\n\n"
              "You are an agent. Your internal name is \"weather_agent\".")


def _call(call_id: str, name: str, args: Dict[str, Any]) -> Dict[str, Any]:
    return {"role": "assistant", "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def _tool(call_id: str, content: Any) -> Dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content if isinstance(content, str) else json.dumps(content)}


def _said(text: str, role: str = "assistant") -> Dict[str, Any]:
    return {"role": role, "content": text}


def _weather_turn(city: str, call_id: str, weather: str) -> List[Dict[str, Any]]:
    return [_call(call_id, "get_weather", {"city": city}), _tool(call_id, weather),
            _said(f"The weather there is {weather}.")]


LOOP_RUNS: List[Dict[str, Any]] = [
    {"key": None, "messages": [_said(LOOP_SYSTEM, "system"), _said("What is the weather in Paris?", "user"),
                               *_weather_turn("Paris", "call_paris_2", "sunny, 22 C")]},
    {"key": "conv-trip", "messages": [_said(LOOP_SYSTEM, "system"), _said("Is it raining in Tokyo?", "user"),
                                      *_weather_turn("Tokyo", "call_tokyo_2", "rainy, 18 C"),
                                      _said("And in London?", "user"),
                                      *_weather_turn("London", "call_london_6", "cloudy, 15 C")]},
    {"key": None, "messages": [_said(LOOP_SYSTEM, "system"), _said("Tell me a joke.", "user"),
                               _said("I can only tell you about the weather.")]},
]

ADK_RUNS: List[Dict[str, Any]] = [
    {"key": "s0", "messages": [
        _said(ADK_SYSTEM, "system"), _said("What is the weather in Paris?", "user"),
        _call("get_weather_0", "get_weather", {"city": "Paris"}),
        _tool("get_weather_0", {"status": "ok", "city": "Paris", "condition": "sunny", "temperature_c": 22}),
        _said("It is sunny and 22 degrees in Paris.")]},
    {"key": "s1", "messages": [
        _said(ADK_SYSTEM, "system"), _said("Convert 100 USD to EUR", "user"),
        _call("convert_currency_0", "convert_currency", {"amount": 100.0, "from_currency": "USD", "to_currency": "EUR"}),
        _tool("convert_currency_0", {"status": "ok", "amount": 90.0, "currency": "EUR"}),
        _said("That is 90.0 EUR."), _said("And the weather in London?", "user"),
        _call("get_weather_0", "get_weather", {"city": "London"}),
        _tool("get_weather_0", {"status": "ok", "city": "London", "condition": "cloudy", "temperature_c": 15}),
        _said("It is cloudy and 15 degrees in London.")]},
]


def runs_of(producer: str) -> List[Dict[str, Any]]:
    return ADK_RUNS if producer == "adk" else LOOP_RUNS


def message_row(run: Dict[str, Any], tool_definitions: List[Any]) -> Dict[str, Any]:
    """The run as a JSONL row of messages: query up to the last user message, response after it, and
    the response's tool calls in azure-ai-evaluation's ``tool_calls`` form."""
    messages = run["messages"]
    cut = max(i for i, m in enumerate(messages) if m["role"] == "user") + 1
    calls = [{"type": "tool_call", "tool_call_id": c["id"], "name": c["function"]["name"],
              "arguments": json.loads(c["function"]["arguments"])}
             for m in messages[cut:] for c in m.get("tool_calls") or []]
    row = {"query": messages[:cut], "response": messages[cut:], "tool_calls": calls,
           "tool_definitions": tool_definitions}
    if sum(m["role"] == "user" for m in messages) > 1:
        row["conversation"] = {"messages": messages}
    return row
