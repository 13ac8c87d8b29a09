"""to_tool_definitions and the synthetic built-in definitions."""

import pytest

from agent_evaluators import InputError
from agent_evaluators.conversation import ToolDefinition, builtin_tool_definition, to_tool_definitions

ORDER_SCHEMA = {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}


def test_openai_and_flat_and_single_dict():
    openai = {"type": "function", "function": {"name": "get_order", "description": "Get order details.", "parameters": ORDER_SCHEMA}}
    flat = {"name": "get_order", "description": "Get order details.", "parameters": ORDER_SCHEMA}
    expected = [ToolDefinition(name="get_order", description="Get order details.", parameters=ORDER_SCHEMA)]
    assert to_tool_definitions([openai]) == expected
    assert to_tool_definitions([flat]) == expected
    assert to_tool_definitions(flat) == expected
    responses_style = {"type": "function", "name": "get_order", "description": "Get order details.", "parameters": ORDER_SCHEMA}
    assert to_tool_definitions(responses_style) == expected


def test_azure_builtins_by_type_get_synthetic_definitions():
    defs = to_tool_definitions([{"type": "code_interpreter"}, {"type": "bing_grounding", "bing_grounding": {"connections": []}},
                                {"type": "file_search"}, {"type": "azure_ai_search"}, {"type": "sharepoint_grounding"},
                                {"type": "fabric_dataagent"}, {"type": "bing_custom_search"}])
    assert [d.name for d in defs] == ["code_interpreter", "bing_grounding", "file_search", "azure_ai_search",
                                      "sharepoint_grounding", "fabric_dataagent", "bing_custom_search"]
    assert all(d.description and d.parameters["type"] == "object" for d in defs)


def test_openapi_functions_are_expanded():
    openapi = {"type": "openapi", "name": "weather_api", "description": "Weather service", "spec": {"openapi": "3.0.0"},
               "functions": [{"name": "GetCurrentWeather", "description": "Current weather", "parameters": {"type": "object"}},
                             {"type": "function", "function": {"name": "GetForecast", "parameters": {"type": "object"}}}]}
    assert [d.name for d in to_tool_definitions([openapi])] == ["GetCurrentWeather", "GetForecast"]


def test_builtin_tool_definition_known_and_unknown():
    d = builtin_tool_definition("code_interpreter")
    assert d is not None and d.name == "code_interpreter" and "input" in d.parameters["properties"]
    assert builtin_tool_definition("get_order") is None


def test_mcp_and_genai_declarations():
    mcp = {"name": "read_file", "description": "Read a file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}
    genai = {"function_declarations": [{"name": "roll_die", "description": "Roll a die", "parameters": {"type": "object"}}]}
    defs = to_tool_definitions([mcp, genai])
    assert [d.name for d in defs] == ["read_file", "roll_die"]
    assert defs[0].parameters["properties"]["path"] == {"type": "string"}


def test_unrecognised_definition_names_index():
    with pytest.raises(InputError) as err:
        to_tool_definitions([{"name": "ok"}, {"schema": {}}])
    assert "tool_definitions[1]" in str(err.value) and err.value.input_name == "tool_definitions"


def test_parameters_must_be_an_object():
    with pytest.raises(InputError, match="must be a JSON-schema object"):
        to_tool_definitions({"name": "f", "parameters": "order_id: str"})
