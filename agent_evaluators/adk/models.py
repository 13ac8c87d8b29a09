"""Pydantic models of Google ADK's evaluation files (EvalSet, EvalCase, Invocation, ...).

They mirror ``google.adk.evaluation`` (2.13) closely enough that every file ADK writes
or reads loads here without ADK installed:

* snake_case and camelCase keys are both accepted (ADK's ``alias_generator=to_camel,
  populate_by_name=True``); we also accept camelCase on :class:`EvalSet` itself, which
  ADK rejects, because it costs nothing and a hand-written file may use it;
* unknown keys are rejected where ADK rejects them (so a typo such as
  ``"final_respons"`` is an error, not a silently empty field) and kept where ADK keeps
  them (:class:`EvalCase`, :class:`SessionInput`, events). The google-genai shapes
  (:class:`Content`, :class:`Part`, :class:`FunctionCall`, ...) keep unknown keys too:
  genai adds Part fields from release to release, and a newer file must still load;
* every genai Part field may be spelled out as ``null`` (ADK 1.x dumps do that).

Dumps (:meth:`AdkModel.to_json_dict`) are snake_case without ``None``/unset values,
the way ``LocalEvalSetsManager`` writes them.
"""

from typing import Any, Dict, List, Optional, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel


class AdkModel(BaseModel):
    """ADK's ``EvalBaseModel``: camelCase aliases, populate by name, unknown keys rejected."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        protected_namespaces=(),
    )

    def to_json_dict(self) -> Dict[str, Any]:
        """JSON-ready dict in ADK's on-disk spelling (snake_case, no ``None``, no unset defaults)."""
        return self.model_dump(mode="json", exclude_none=True, exclude_unset=True)


class _GenaiModel(AdkModel):
    """google-genai shapes: tolerant of fields a newer genai release may add."""

    model_config = ConfigDict(extra="allow")


class FunctionCall(_GenaiModel):
    """A tool call. ``args=None`` (no arguments given) is not the same as ``args={}``: ADK compares them with ``==``."""

    id: Optional[str] = None
    args: Optional[Dict[str, Any]] = None
    name: Optional[str] = None
    partial_args: Optional[List[Any]] = None
    will_continue: Optional[bool] = None


class FunctionResponse(_GenaiModel):
    """What a tool returned, tied to its call by ``id``."""

    id: Optional[str] = None
    name: Optional[str] = None
    response: Optional[Dict[str, Any]] = None
    will_continue: Optional[bool] = None
    scheduling: Optional[str] = None
    parts: Optional[List[Any]] = None


class Part(_GenaiModel):
    """One genai Part. Only ``text``, ``function_call`` and ``function_response`` are read;
    the other media fields are carried through unchanged."""

    text: Optional[str] = None
    function_call: Optional[FunctionCall] = None
    function_response: Optional[FunctionResponse] = None
    thought: Optional[bool] = None
    thought_signature: Optional[Any] = None
    inline_data: Optional[Any] = None
    file_data: Optional[Any] = None
    executable_code: Optional[Any] = None
    code_execution_result: Optional[Any] = None
    video_metadata: Optional[Any] = None


class Content(_GenaiModel):
    """A genai Content: a role and its parts (either may be missing)."""

    parts: Optional[List[Part]] = None
    role: Optional[str] = None


class IntermediateData(AdkModel):
    """The static (legacy) form of an invocation's intermediate steps.

    ``intermediate_responses`` holds ``(author, parts)`` pairs, in JSON
    ``[["sub_agent", [{"text": "..."}]], ...]``.
    """

    tool_uses: List[FunctionCall] = Field(default_factory=list)
    tool_responses: List[FunctionResponse] = Field(default_factory=list)
    intermediate_responses: List[Tuple[str, List[Part]]] = Field(default_factory=list)


class InvocationEvent(AdkModel):
    """One event of a run (the newer form inference produces); unknown keys are ignored as in ADK."""

    model_config = ConfigDict(extra="ignore")

    author: str
    content: Optional[Content] = None
    grounding_metadata: Optional[Any] = None
    usage_metadata: Optional[Any] = None
    model_version: Optional[str] = None


class InvocationEvents(AdkModel):
    """The newer form of intermediate steps: the run's events in order."""

    invocation_events: List[InvocationEvent] = Field(default_factory=list)


class RubricContent(AdkModel):
    text_property: Optional[str] = None


class Rubric(AdkModel):
    """A rubric for the rubric-based judge metrics; ``type`` is e.g. ``FINAL_RESPONSE_QUALITY``."""

    rubric_id: str
    rubric_content: RubricContent
    description: Optional[str] = None
    type: Optional[str] = None


class AgentDetails(AdkModel):
    name: str
    instructions: str = ""
    tool_declarations: List[Any] = Field(default_factory=list)


class AppDetails(AdkModel):
    """Which agents ran and with which instructions and tools (used by the rubric/hallucination judges)."""

    agent_details: Dict[str, AgentDetails] = Field(default_factory=dict)


def _pick_intermediate_form(value: Any) -> Any:
    """ADK resolves ``Union[IntermediateData, InvocationEvents]`` by trying both under
    ``extra="forbid"``; a dict with ``invocation_events`` is the newer form, anything
    else (``{}`` included) the static one. Deciding explicitly gives errors that point
    at the right model instead of a two-branch union error."""
    if isinstance(value, dict) and ("invocation_events" in value or "invocationEvents" in value):
        return InvocationEvents.model_validate(value)
    if isinstance(value, dict):
        return IntermediateData.model_validate(value)
    return value


class Invocation(AdkModel):
    """One user turn and what the agent did for it."""

    invocation_id: str = ""
    user_content: Content
    final_response: Optional[Content] = None
    intermediate_data: Optional[Union[IntermediateData, InvocationEvents]] = None
    creation_timestamp: float = 0.0
    duration: Optional[float] = None
    model_duration: Optional[float] = None
    tool_duration: Optional[float] = None
    rubrics: Optional[List[Rubric]] = None
    app_details: Optional[AppDetails] = None

    @model_validator(mode="before")
    @classmethod
    def _intermediate_form(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in ("intermediate_data", "intermediateData"):
                if key in data and isinstance(data[key], dict):
                    data = dict(data)
                    data[key] = _pick_intermediate_form(data[key])
        return data


class SessionInput(AdkModel):
    """The session a case starts from; unknown keys are kept, as ADK keeps them."""

    model_config = ConfigDict(extra="allow")

    app_name: str
    user_id: str
    session_id: Optional[str] = None
    state: Dict[str, Any] = Field(default_factory=dict)


class ConversationScenario(AdkModel):
    """A user-simulator scenario (evaluated by ADK's simulator only; kept here so files load)."""

    model_config = ConfigDict(extra="allow")

    starting_prompt: str
    conversation_plan: str
    user_persona: Optional[Union[str, Dict[str, Any]]] = None


class EvalCase(AdkModel):
    """One eval case: a static ``conversation`` or a ``conversation_scenario`` (exactly one)."""

    model_config = ConfigDict(extra="allow")

    eval_id: str
    conversation: Optional[List[Invocation]] = None
    conversation_scenario: Optional[ConversationScenario] = None
    session_input: Optional[SessionInput] = None
    creation_timestamp: float = 0.0
    rubrics: Optional[List[Rubric]] = None
    final_session_state: Optional[Dict[str, Any]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _exactly_one_source(self) -> "EvalCase":
        if (self.conversation is None) == (self.conversation_scenario is None):
            raise ValueError(
                "an eval case needs exactly one of `conversation` and `conversation_scenario`"
            )
        return self


class EvalSet(AdkModel):
    """A set of eval cases, as in ``<id>.evalset.json``.

    ADK's own EvalSet is a plain pydantic model (snake_case keys only, unknown keys
    ignored); we accept camelCase too and keep ignoring unknown top-level keys.
    """

    model_config = ConfigDict(extra="ignore")

    eval_set_id: str
    name: Optional[str] = None
    description: Optional[str] = None
    eval_cases: List[EvalCase]
    creation_timestamp: float = 0.0
