"""Tool definitions from the shapes users have, and synthetic definitions for built-in tools.

Hosted agent services (Azure AI Agents, OpenAI Responses) run some tools themselves and never
show their schema; judges still need to know what such a tool does, so
:func:`builtin_tool_definition` supplies a short description and parameter schema for them
(the same tools azure-ai-evaluation covers; descriptions written here).
"""

from typing import Any, Dict, List, Optional

from ..errors import InputError
from ._values import input_error
from .models import ToolDefinition


def _obj(properties: Dict[str, Any]) -> Dict[str, Any]:
    return {"type": "object", "properties": properties}


def _text(description: str) -> Dict[str, Any]:
    return {"type": "string", "description": description}


#: name -> (description, JSON-schema parameters) for tools the agent service runs itself.
BUILTIN_TOOLS: Dict[str, tuple] = {
    "code_interpreter": (
        "Runs generated Python code in a sandbox to analyse uploaded data files, compute results and draw charts.",
        _obj({"input": _text("The code to execute.")}),
    ),
    "file_search": (
        "Searches the files uploaded to the agent; one call may return several matching passages or files.",
        _obj(
            {
                "ranking_options": {
                    "type": "object",
                    "description": "How results are ranked.",
                    "properties": {
                        "ranker": _text("Ranking algorithm."),
                        "score_threshold": {"type": "number", "description": "Minimum relevance score."},
                    },
                }
            }
        ),
    ),
    "bing_grounding": (
        "Searches the public web with Bing to ground the answer in current web data.",
        _obj({"requesturl": _text("The Bing Search API request URL, including the query.")}),
    ),
    "bing_custom_search": (
        "Searches a curated set of web sites with Bing Custom Search.",
        _obj({"requesturl": _text("The search request, with the configured site restrictions.")}),
    ),
    "azure_ai_search": (
        "Queries an Azure AI Search index for documents relevant to the request.",
        _obj({"input": _text("The search query.")}),
    ),
    "sharepoint_grounding": (
        "Retrieves relevant content from Microsoft SharePoint document libraries.",
        _obj({"input": _text("A natural-language query for SharePoint content.")}),
    ),
    "fabric_dataagent": (
        "Asks a Microsoft Fabric data agent for data from the connected data sources.",
        _obj({"input": _text("The question for the data agent.")}),
    ),
    "web_search": (
        "Searches the web for current information (OpenAI built-in web search).",
        _obj({"query": _text("The search query."), "action": {"type": "object", "description": "The search action."}}),
    ),
    "web_search_preview": (
        "Searches the web for current information (OpenAI built-in web search, preview).",
        _obj({"query": _text("The search query."), "action": {"type": "object", "description": "The search action."}}),
    ),
}


def builtin_tool_definition(name: str) -> Optional[ToolDefinition]:
    """A synthetic definition for a known built-in tool (``code_interpreter``, ``file_search``,
    ``bing_grounding``, ``azure_ai_search``, ...), or ``None`` for any other name."""
    entry = BUILTIN_TOOLS.get(name)
    if entry is None:
        return None
    description, parameters = entry
    return ToolDefinition.model_construct(name=name, description=description, parameters=parameters, type=name)


_EXPECTED = (
    "expected a tool definition: OpenAI {'type': 'function', 'function': {'name', 'description', 'parameters'}}, "
    "flat {'name', 'description', 'parameters'}, or an Azure built-in tool {'type': 'code_interpreter'|'file_search'|...}"
)


def _definition(name: Any, description: Any, parameters: Any, typ: str, *, input_name: str, where: str) -> ToolDefinition:
    if not isinstance(name, str) or not name:
        raise input_error(input_name, where, f"tool definition has no 'name'; {_EXPECTED}")
    if parameters is not None and not isinstance(parameters, dict):
        raise input_error(input_name, where, f"'parameters' of tool {name!r} must be a JSON-schema object (dict)")
    if description is not None and not isinstance(description, str):
        description = str(description)
    return ToolDefinition.model_construct(name=name, description=description, parameters=parameters, type=typ)


def _definitions(raw: Any, *, input_name: str, where: str) -> List[ToolDefinition]:
    if isinstance(raw, ToolDefinition):
        return [raw]
    d = raw if isinstance(raw, dict) else None
    if d is None and callable(getattr(raw, "model_dump", None)):
        d = raw.model_dump(exclude_none=True)
    if d is None:
        raise input_error(input_name, where, f"{_EXPECTED}; got {type(raw).__name__}")
    typ = d.get("type")
    fn = d.get("function")
    if isinstance(fn, dict):  # OpenAI Chat Completions tools
        return [_definition(fn.get("name"), fn.get("description"), fn.get("parameters"), "function",
                            input_name=input_name, where=where)]
    if typ == "openapi":
        nested = d.get("openapi")
        spec: Dict[str, Any] = nested if isinstance(nested, dict) else d
        functions = spec.get("functions")
        if functions:  # an OpenAPI tool is a set of functions; calls name the functions
            out: List[ToolDefinition] = []
            for j, f in enumerate(functions):
                out.extend(_definitions(f, input_name=input_name, where=f"{where}.functions[{j}]"))
            return out
        return [_definition(spec.get("name") or "openapi", spec.get("description"), None, "openapi",
                            input_name=input_name, where=where)]
    if isinstance(typ, str) and typ in BUILTIN_TOOLS and "parameters" not in d:
        builtin = builtin_tool_definition(typ)
        assert builtin is not None
        return [builtin]
    declarations = d.get("function_declarations", d.get("functionDeclarations"))
    if isinstance(declarations, list):  # google-genai Tool
        out = []
        for j, f in enumerate(declarations):
            out.extend(_definitions(f, input_name=input_name, where=f"{where}.function_declarations[{j}]"))
        return out
    if "name" in d:
        parameters = d.get("parameters")
        if parameters is None:  # MCP tools and genai declarations spell the schema differently
            parameters = d.get("inputSchema", d.get("input_schema", d.get("parameters_json_schema")))
        return [_definition(d.get("name"), d.get("description"), parameters,
                            typ if isinstance(typ, str) else "function", input_name=input_name, where=where)]
    raise input_error(input_name, where, f"{_EXPECTED}; got keys {sorted(d)[:8]}")


def to_tool_definitions(value: Any, *, input_name: str = "tool_definitions") -> List[ToolDefinition]:
    """Normalize one tool definition or a list of them (any supported shape) into :class:`ToolDefinition`.

    Azure built-in tools given only by ``type`` get synthetic definitions; an ``openapi`` tool
    with ``functions`` expands into one definition per function.
    """
    if value is None:
        raise InputError(f"{input_name} is None; {_EXPECTED}, or a list of them", input_name=input_name)
    if isinstance(value, (list, tuple)):
        out: List[ToolDefinition] = []
        for i, item in enumerate(value):
            out.extend(_definitions(item, input_name=input_name, where=f"{input_name}[{i}]"))
        return out
    return _definitions(value, input_name=input_name, where=input_name)
