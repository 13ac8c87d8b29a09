"""A small ADK agent that needs no LLM service: an ``LlmAgent`` with real tools, driven by a
scripted model (``ScriptedWeatherModel``, a ``BaseLlm`` subclass) that picks tools by keywords.

Run it through ADK's own ``Runner`` (``agent-eval adk samples/adk_agent samples/adk_agent/weather.evalset.json``
or ``AgentEvaluator.evaluate("samples.adk_agent", ...)``): the tool calls and answers are real
ADK events, only the model's choices are scripted.
"""

import re
from typing import AsyncGenerator, Dict

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.tool_context import ToolContext
from google.genai import types

_WEATHER = {"paris": ("sunny", 22), "tokyo": ("rainy", 18), "london": ("cloudy", 15)}
_RATES = {("USD", "EUR"): 0.9, ("USD", "JPY"): 150.0, ("EUR", "USD"): 1.1}


def get_weather(city: str, tool_context: ToolContext) -> Dict[str, object]:
    """Current weather of a city; remembers the last city asked about in the session state."""
    found = _WEATHER.get(city.lower())
    if found is None:
        return {"status": "error", "error": f"no weather data for {city}"}
    tool_context.state["last_city"] = city  # the end state an eval case can check (final_session_state)
    return {"status": "ok", "city": city, "condition": found[0], "temperature_c": found[1]}


def convert_currency(amount: float, from_currency: str, to_currency: str) -> Dict[str, object]:
    """Convert an amount between currencies."""
    rate = _RATES.get((from_currency.upper(), to_currency.upper()))
    if rate is None:
        return {"status": "error", "error": f"no rate for {from_currency} to {to_currency}"}
    return {"status": "ok", "amount": round(amount * rate, 2), "currency": to_currency.upper()}


def _text(content: types.Content) -> str:
    return " ".join(p.text for p in content.parts or [] if p.text)


def _reply(part: types.Part) -> LlmResponse:
    # zero token counts: a scripted model spends none, and ADK's telemetry logs a warning without them
    usage = types.GenerateContentResponseUsageMetadata(prompt_token_count=0, candidates_token_count=0,
                                                       total_token_count=0)
    return LlmResponse(content=types.Content(role="model", parts=[part]), usage_metadata=usage)


class ScriptedWeatherModel(BaseLlm):
    """Chooses a tool from keywords in the user's last message, then phrases the tool's result."""

    model: str = "scripted-weather-model"

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False
                                     ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        response = next((p.function_response for p in last.parts or [] if p.function_response), None)
        if response is not None:
            yield _reply(types.Part(text=self._phrase(response)))
            return
        asked = _text(last)
        city = next((c for c in _WEATHER if c in asked.lower()), None)
        money = re.search(r"(\d+(?:\.\d+)?)\s*([A-Za-z]{3})\s+(?:to|in)\s+([A-Za-z]{3})", asked)
        if money:
            call = types.FunctionCall(name="convert_currency", args={
                "amount": float(money.group(1)), "from_currency": money.group(2).upper(),
                "to_currency": money.group(3).upper()})
        elif city and "weather" in asked.lower():
            call = types.FunctionCall(name="get_weather", args={"city": city.capitalize()})
        else:
            yield _reply(types.Part(
                text="I can tell you the weather in Paris, Tokyo or London, or convert USD, EUR and JPY."))
            return
        yield _reply(types.Part(function_call=call))

    @staticmethod
    def _phrase(response: types.FunctionResponse) -> str:
        data = response.response or {}
        if data.get("status") != "ok":
            return f"Sorry, {data.get('error', 'that did not work')}."
        if response.name == "get_weather":
            return f"It is {data['condition']} and {data['temperature_c']} degrees in {data['city']}."
        return f"That is {data['amount']} {data['currency']}."


root_agent = LlmAgent(
    name="weather_agent",
    model=ScriptedWeatherModel(),
    instruction="You answer questions about the weather and convert currencies, using your tools.",
    tools=[get_weather, convert_currency],
)
