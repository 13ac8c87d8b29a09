"""A judge metric as a declaration: class attributes, no scoring code.

openevals' ``create_llm_as_judge`` is the model: a metric is a prompt and a few words
about it. Here it is a ``.prompty`` template and a class::

    class RelevanceEvaluator(DeclaredJudgeEvaluator):
        \"\"\"How relevant the response is to the query (1-5).\"\"\"

        template_name = "relevance.prompty"          # in prompty/ (built-in) or beside your module
        result_key = "relevance"
        inputs = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput())
        score_scale = (1.0, 5.0)                      # integer 1-5 verdicts; or labels = {...}
        default_threshold = 3
        verdict_fields = {"off_topic": (List[str], "What in the response does not serve the query")}
        calibration_cases = CalibrationCases(
            good={"query": "query+system", "response": "run:answer"},
            bad={"query": "query+system", "response": "run:off_topic"},
            why_bad="the response ignores what the user asked")

The base writes ``_evaluate`` from ``inputs`` (so ``__call__``/``acall``, ``agent-eval
list`` and ``evaluate()``'s column checks see each input by name and type), builds the
verdict model once (the extra fields, then ``reason``, then ``score`` on the scale or a
``label``), renders, asks, and puts the extra fields in ``details``. Inputs are read by the
public helpers of :mod:`.inputs`, so errors read the same for every metric.

Where a metric needs code, it overrides a hook, never the pipeline:
:meth:`~DeclaredJudgeEvaluator.judge_inputs` (what the template gets, or not applicable),
:meth:`~DeclaredJudgeEvaluator.verdict_for` (a verdict model that depends on the row, e.g.
one verdict per tool call) and :meth:`~DeclaredJudgeEvaluator.outcome` (the score from the
verdict). Per-turn conversations are the base's: ``conversation_turn_inputs``.
"""

import inspect
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from typing import Any, ClassVar, Dict, List, Literal, NamedTuple, Optional, Sequence, Tuple, Type, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..conversation.transcript import (
    DEFAULT_MAX_PROMPT_TOKENS,
    ELIDED_KEY,
    DataText,
    Reads,
    called_names,
    ends_in_terminal_call,
    render_calls_text,
    render_context,
    render_definitions_text,
    render_exchange,
    render_value,
)
from ..errors import ConfigError, InputError
from ..run_context import current
from .base import Outcome
from .inputs import (
    MessagesOrText,
    ToolDefinitions,
    ends_in_tool_call,
    judge_messages,
    require_messages,
    text_input,
    tool_definitions_json,
)
from .judge_base import JudgeEvaluator, JudgeOptions, Unpack

__all__ = [
    "DeclaredJudgeEvaluator",
    "CalibrationCases",
    "InputSpec",
    "Messages",
    "FinalText",
    "SaidText",
    "Text",
    "ToolDefinitionsInput",
    "ToolCallsInput",
    "ContextInput",
    "NotApplicable",
]

_EMPTY = inspect.Parameter.empty


def terminal_tools_of(evaluator: Any) -> Tuple[str, ...]:
    """The tool names besides the built-in rule whose call ends a conversation: the evaluator's
    ``terminal_tools`` option and the run's ``terminal_tools``."""
    from ..run_context import current

    return tuple(getattr(evaluator, "terminal_tools", None) or ()) + current().terminal_tools


class NotApplicable(Exception):
    """Raised by an input (or a hook) when the row has nothing to judge; its text is the reason."""


class InputSpec:
    """One declared input: its name, type and default (for the signature), and how the template gets it.

    Subclass it for an input kind of your own: set ``annotation`` and override :meth:`prepare`.
    """

    annotation: Any = Any

    def __init__(self, name: str, *, optional: bool = False) -> None:
        self.name = name
        self.optional = optional

    @property
    def default(self) -> Any:
        return None if self.optional else _EMPTY

    def parameter(self) -> inspect.Parameter:
        annotation = Optional[self.annotation] if self.optional else self.annotation
        return inspect.Parameter(self.name, inspect.Parameter.KEYWORD_ONLY, default=self.default, annotation=annotation)

    def prepare(self, evaluator: Any, value: Any) -> Any:
        """The value the template renders for this input (raise ``InputError`` or :class:`NotApplicable`)."""
        return value


class Messages(InputSpec):
    """Text or messages in any supported format, rendered as the transcript (JSON messages for a
    metric without :attr:`~DeclaredJudgeEvaluator.reads`); plain text is one
    message of ``role``. ``answered=True``: a response whose agent has not answered yet (it ends
    in a tool call or a tool result) is not applicable. An optional input left out renders ``[]``."""

    annotation = MessagesOrText

    def __init__(self, name: str, role: str, *, optional: bool = False, answered: bool = False) -> None:
        super().__init__(name, optional=optional)
        self.role = role
        self.answered = answered

    def prepare(self, evaluator: Any, value: Any) -> Any:
        if value is None and self.optional:
            return []
        rendered, messages = judge_messages(evaluator, value, self.name, self.role)
        if (self.answered and messages is not None and ends_in_tool_call(messages)
                and not ends_in_terminal_call(messages, terminal_tools_of(evaluator))):
            raise NotApplicable(f"Not applicable: the {self.name} ends in a tool call, so the agent has not answered yet")
        return rendered


class FinalText(InputSpec):
    """Text or messages, rendered as the agent's final text (what a reference answer is compared with)."""

    annotation = MessagesOrText

    def __init__(self, name: str, role: str = "assistant") -> None:
        super().__init__(name)
        self.role = role

    def prepare(self, evaluator: Any, value: Any) -> Any:
        from ..conversation import final_text

        messages = require_messages(evaluator, value, self.name, self.role)
        text = value if isinstance(value, str) else final_text(messages)
        if not (text or "").strip():
            raise InputError(f"{evaluator.name}: the {self.name} has no final text to compare",
                             evaluator=evaluator.name, input_name=self.name)
        return text


class SaidText(InputSpec):
    """Text or messages, rendered as plain text: the user's last words (``role="user"``) or the
    agent's final answer (``role="assistant"``); no text is an ``InputError``."""

    annotation = MessagesOrText

    def __init__(self, name: str, role: str) -> None:
        super().__init__(name)
        self.role = role

    def prepare(self, evaluator: Any, value: Any) -> Any:
        return text_input(evaluator, value, self.name, self.role)


class Text(InputSpec):
    """Plain, non-empty text (a reference answer, a policy), rendered as given."""

    annotation = str

    def prepare(self, evaluator: Any, value: Any) -> Any:
        if value is None and self.optional:
            return ""
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{evaluator.name}: input {self.name!r} must be non-empty text",
                             evaluator=evaluator.name, input_name=self.name)
        return value


class ToolDefinitionsInput(InputSpec):
    """Tool definitions in any supported format (optional by default), rendered as lines of names,
    descriptions and parameters (a list of dicts for a metric without ``reads``)."""

    annotation = ToolDefinitions

    def __init__(self, name: str = "tool_definitions", *, optional: bool = True) -> None:
        super().__init__(name, optional=optional)

    def prepare(self, evaluator: Any, value: Any) -> Any:
        return tool_definitions_json(value)


class ToolCallsInput(InputSpec):
    """Tool calls in any supported format (a list, or one call), passed on as given: a metric that
    reads them declares a :meth:`DeclaredJudgeEvaluator.judge_inputs` hook."""

    annotation = Union[List[Any], Dict[str, Any]]


class ContextInput(InputSpec):
    """Grounding material (documents, search results, what a tool returned): text, or any JSON
    value (a list of passages, a result object), rendered as text or passages one a line
    (:func:`~agent_evaluators.conversation.transcript.render_context`). Blank text or an empty list
    is no context: ``None`` for an optional input (a hook decides what that means), else the row
    is not applicable (a missing required input is an ``InputError`` before this is asked; a
    conversation turn that carries no context reaches here as ``None``)."""

    annotation = Union[str, List[Any], Dict[str, Any]]

    def prepare(self, evaluator: Any, value: Any) -> Any:
        empty = value is None or (isinstance(value, str) and not value.strip()) or (
            isinstance(value, (list, dict)) and not value)
        if not empty:
            return value
        if self.optional:
            return None
        raise NotApplicable(f"Not applicable: the {self.name} is empty, so there is nothing to judge it by; "
                            f"pass the {self.name} (text, or a list of passages)")


class EndsInHandOff:
    """The ``terminal_tools`` option of a metric that judges only answered conversations: a conversation
    whose agent's last action is a hand-off (a tool whose name holds ``transfer``, ``handoff``/``hand_off``
    or ``escalat``, or one named in ``terminal_tools``) is over, and is judged on what the agent did."""

    terminal_tools: Optional[Tuple[str, ...]] = None

    def __init__(self, model_config: Any = None, *, terminal_tools: Optional[Sequence[str]] = None,
                 **judge: Unpack[JudgeOptions]) -> None:
        names = [terminal_tools] if isinstance(terminal_tools, str) else list(terminal_tools or ())
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise ConfigError(f"{type(self).__name__}: terminal_tools must be tool names, got {terminal_tools!r}",
                              evaluator=type(self).__name__)
        if names:  # an instance attribute only when given: the evaluator's repr and config show what was set
            self.terminal_tools = tuple(n.strip() for n in names)
        super().__init__(model_config, **judge)  # type: ignore[call-arg, misc]


class CalibrationCases(NamedTuple):
    """How a metric's labelled calibration set is made from the shared scenarios
    (:mod:`agent_evaluators.calibration.scenarios`): per input, the scenario field a good case
    and a bad case take. A field is a scenario key (``"answer"``, ``"ground_truth"``,
    ``"tools"``), ``"query+system"`` (the system message and the user's query as messages),
    ``"run:<key>"`` (the right tool call and its result, then the answer ``<key>``),
    ``"tool_calls:<key>"`` (the call ``<key>`` as a one-item tool-call list) or, for metrics
    that judge a whole conversation, ``"dialogue:<key>"`` (a greeting turn, then the request
    and that run), ``"dialogue_wrong_args:<key>"`` and ``"dialogue_repeated:<key>"``."""

    good: Mapping[str, str]
    bad: Mapping[str, str]
    why_bad: str
    why_good: str = "a correct, complete, rule-abiding run"


class DeclaredJudgeEvaluator(JudgeEvaluator):
    """Base of judge metrics declared by class attributes (see the module docstring).

    Declare ``template_name``, ``result_key``, ``inputs``, ``score_scale`` (or ``labels``),
    ``default_threshold``, optionally ``verdict_fields`` / ``verdict_name`` and the calibration
    set (``calibration_cases``, or ``calibration_file``: a JSONL file of labelled cases beside
    the module). The constructor is :class:`JudgeEvaluator`'s.
    """

    #: the inputs, in the order the signature lists them (required ones first)
    inputs: ClassVar[Tuple[InputSpec, ...]] = ()
    #: verdict fields asked for before ``reason`` and ``score``: name -> (type, description); they go to details
    verdict_fields: ClassVar[Mapping[str, Tuple[Any, str]]] = {}
    #: the verdict model's name, as the judge sees it in the schema (default: the class name + ``Verdict``)
    verdict_name: ClassVar[str] = ""
    #: or a ready verdict model (a shared one, such as ``LikertVerdict``) instead of the fields above
    verdict_model: ClassVar[Optional[Type[BaseModel]]] = None
    #: a label metric: the labels the judge chooses from and the score each gives (instead of a scale)
    labels: ClassVar[Optional[Mapping[str, float]]] = None
    #: how the calibration set is made from the shared scenarios
    calibration_cases: ClassVar[Optional[CalibrationCases]] = None
    #: or a JSONL file of labelled cases (``{"id", "label": "good"|"bad", "why", "inputs"}``), beside the module
    calibration_file: ClassVar[Optional[str]] = None
    #: the parts of a conversation the judge reads (:class:`~agent_evaluators.conversation.transcript.Reads`):
    #: ``query``, ``response``, ``tool_calls`` and ``tool_definitions`` are then rendered as one compact
    #: transcript holding only those parts, and every other input as encoded text; ``None``: every input is
    #: written as JSON (every registered metric but the ADK judges declares it: tests/conversation/test_transcript_all_judges.py)
    reads: ClassVar[Optional[Reads]] = None

    _verdict_model: ClassVar[Type[BaseModel]]
    _input_specs: ClassVar[Tuple[InputSpec, ...]]
    #: of ``query`` and ``response``, those rendered as the transcript; the inputs rendered as grounding material
    _conversation_inputs: ClassVar[Tuple[str, ...]] = ("query", "response")
    _context_inputs: ClassVar[Tuple[str, ...]] = ("context",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.inputs and "_evaluate" not in cls.__dict__:
            cls._input_specs = tuple(cls.inputs)
            specs = {spec.name: spec for spec in cls._input_specs}
            # query/response declared as messages (or given by a hook undeclared) are the transcript; text inputs plain text
            cls._conversation_inputs = tuple(n for n in ("query", "response")
                                             if n not in specs or isinstance(specs[n], Messages))
            cls._context_inputs = ("context",) + tuple(n for n, s in specs.items() if isinstance(s, ContextInput))
            cls._evaluate = _declared_evaluate(cls)  # type: ignore[attr-defined]
            cls._verdict_model = cls.verdict_model or _verdict_model(cls)
        super().__init_subclass__(**kwargs)

    # ------------------------------------------------------------------ hooks
    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        """What the template renders, from the call's inputs (each read by its :class:`InputSpec`).
        Raise :class:`NotApplicable` when the row has nothing to judge."""
        return {spec.name: spec.prepare(self, given.get(spec.name)) for spec in self._input_specs}

    def verdict_for(self, values: Mapping[str, Any]) -> Type[BaseModel]:
        """The verdict model for this row (the declared one; override when it depends on the row)."""
        return self._verdict_model

    def outcome(self, verdict: Any, usage: Optional[Dict[str, Any]], values: Mapping[str, Any]) -> Outcome:
        """The score, reason and details from the verdict: the score (or the label's score), and
        the declared ``verdict_fields`` as details."""
        labels = self.labels
        if labels is not None:
            score = labels[verdict.label]
            details: Optional[Dict[str, Any]] = {"label": verdict.label}
        else:
            score = float(verdict.score)
            details = None
        fields = self.verdict_fields
        if fields:
            details = {} if details is None else details  # a dict made just above: no copy needed
            for name in fields:
                details[name] = getattr(verdict, name)
        return Outcome(score, verdict.reason, details, usage)

    def prompt_values(self, values: Mapping[str, Any]) -> Tuple[Dict[str, Any], Optional[str]]:
        """What the template is rendered with: ``values``, or, for a metric that declares what it
        :attr:`reads`, every input the template declares as data text (never a JSON string): the
        conversation (``query``/``response`` messages) as one compact transcript of those parts,
        tool calls and definitions as lines, context as text or passages one a line, any other
        input (a reference answer, a policy, the text of a text input) as encoded text shortened at
        the text limit; and a note naming the turns left out to fit the prompt budget, or ``None``."""
        reads = self.reads
        if reads is None:
            return dict(values), None
        # the transcript shortens long values: max_input_chars still guards the row's raw input size
        size = 0
        for v in values.values():  # a loop, not sum() over a generator: this runs on every judge call
            size += len(v) if type(v) is str else _text_size(v)
        self._refuse_over_limit(size, values)
        out: Dict[str, Any] = {}
        declared = self.prompty.inputs
        conversation = self._conversation_inputs
        for name, value in values.items():
            if name not in declared or name in conversation:
                continue
            if isinstance(value, DataText):
                out[name] = value
            elif name == "tool_calls" and isinstance(value, (list, str)):
                out[name] = render_calls_text(value, reads)
            elif name == "tool_definitions":
                called = (called_names(values.get("response"), values.get("tool_calls"))
                          if value and reads.tool_definitions != "none" else set())  # else unread
                out[name] = render_definitions_text(value, reads, called)
            elif name in self._context_inputs:
                out[name] = render_context(value, reads.context)
            elif value is None:
                out[name] = DataText("")
            else:
                out[name] = render_value(value, reads.text_limit)
        if not conversation:
            return out, None
        fixed = 0
        for v in out.values():
            fixed += len(v)
        query, response, note = render_exchange(values.get("query") if "query" in conversation else None,
                                                values.get("response") if "response" in conversation else None,
                                                reads, budget_chars=self._prompt_budget_chars() - fixed)
        if query is not None and "query" in declared:
            out["query"] = query
        if response is not None and "response" in declared:
            out["response"] = response
        return out, note

    def _prompt_budget_chars(self) -> int:
        """The conversation's share of ``max_prompt_tokens`` in characters: the budget less the
        template's own text, at 3 characters a token (the safe side of English and JSON text).
        (``current`` is imported with the module: an import statement here cost a judge call ~0.5 µs.)"""
        tokens = current().prompt_budget or DEFAULT_MAX_PROMPT_TOKENS
        return max(tokens * 3 - len(self.prompty.body), 1000)

    async def _judge(self, given: Mapping[str, Any]) -> Outcome:
        try:
            values = self.judge_inputs(given)
        except NotApplicable as na:
            return Outcome(None, str(na), not_applicable=True)
        prompt, elided = self.prompt_values(values)
        verdict, usage = await self._ask(self.verdict_for(values), prompt)
        outcome = self.outcome(verdict, usage, values)
        if elided is not None:
            outcome.details = {**(outcome.details or {}), ELIDED_KEY: elided}
        return outcome


def _text_size(value: Any) -> int:
    """The characters of text in a JSON-like value (its strings, and the rest as written)."""
    kind = type(value)  # exact types first: isinstance against typing's Mapping is an ABC check per value
    if kind is str:
        return len(value)
    if kind is dict or (kind is not list and isinstance(value, Mapping)):
        items: Any = value.values()
    elif kind is list or isinstance(value, tuple):
        items = value
    elif isinstance(value, str):
        return len(value)
    else:
        return 0 if value is None else len(str(value))
    size = 0
    for v in items:  # a loop, not sum() over a generator: this runs on every judge call
        t = type(v)
        if t is str:
            size += len(v)
        elif t is dict:  # a message: its values here, not a call per message
            for w in v.values():
                size += len(w) if type(w) is str else _text_size(w)
        else:
            size += _text_size(v)
    return size


def _declared_evaluate(cls: type) -> Any:
    """``_evaluate`` with the declared inputs as its keyword-only signature (what the base reads)."""

    async def _evaluate(self: DeclaredJudgeEvaluator, **given: Any) -> Outcome:
        return await self._judge(given)

    _evaluate.__direct__ = "_judge"  # type: ignore[attr-defined]  # the base calls _judge(bound) itself

    params = [spec.parameter() for spec in cls.inputs]  # type: ignore[attr-defined]
    params.sort(key=lambda p: p.default is not _EMPTY)
    _evaluate.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params, return_annotation=Outcome
    )
    _evaluate.__qualname__ = f"{cls.__qualname__}._evaluate"
    return _evaluate


def _verdict_model(cls: Any) -> Type[BaseModel]:
    """The verdict: declared fields, then ``reason``, then ``score`` on the scale (integer when
    both ends are; one of the two values of a 0/1 scale) or a ``label`` from ``labels``; no other
    key is accepted."""
    fields: Dict[str, Any] = {name: (kind, Field(description=text) if text else ...)
                              for name, (kind, text) in cls.verdict_fields.items()}
    fields["reason"] = (str, ...)
    if cls.labels is not None:
        fields["label"] = (Literal[tuple(cls.labels)], ...)  # a label not offered is a JudgeError, never a score
    else:
        low, high = cls.score_scale or (1.0, 5.0)
        integer = float(low).is_integer() and float(high).is_integer()
        if integer and high - low == 1:  # a pass/fail verdict: an enum, which strict structured output enforces
            fields["score"] = (Literal[int(low), int(high)], ...)
        else:
            fields["score"] = (int if integer else float, Field(ge=int(low) if integer else low,
                                                                 le=int(high) if integer else high))
    name = cls.verdict_name or f"{cls.__name__.removesuffix('Evaluator')}Verdict"
    return create_model(name, __config__=ConfigDict(extra="forbid"), **fields)

