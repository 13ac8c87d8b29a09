"""An LLM judge of a whole agent trajectory (agentevals' ``trajectory_accuracy``).

The judge reads the agent's messages (its reasoning text, tool calls and tool
results) and decides whether the path it took is a sound one: the steps follow
logically, the run makes clear progress towards the goal, it is reasonably
efficient, and, when a reference trajectory is given, it is equivalent to it.

Three output modes, as agentevals / LangChain offer them:

* ``"boolean"`` (agentevals' default): the judge answers true/false → 1.0 / 0.0;
* ``"continuous"``: the judge answers a number in [0, 1], reported as given;
* ``"likert"`` (LangChain's ``TrajectoryEvalChain``): an integer 1–5, reported
  normalized as ``(s - 1) / 4`` (1 → 0.0, 3 → 0.5, 5 → 1.0).

The verdict is ``{"reasoning", "score"}`` with the reasoning first (openevals'
schema), so the judge explains before it commits. A score of the wrong type or
outside its range is a :class:`~agent_evaluators.errors.JudgeError`, never clamped.
"""

from typing import Any, Dict, List, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ..conversation import Message
from ..conversation.transcript import DataText, Reads, called_names, render_definitions_text, render_messages
from ..errors import ConfigError, InputError
from .base import Outcome
from .inputs import messages_json, require_messages, tool_definitions_json
from .judge_base import JudgeEvaluator, JudgeOptions, Unpack

MessagesOrText = Union[str, List[Any], Dict[str, Any]]
ToolDefinitions = Union[List[Any], Dict[str, Any]]

OUTPUT_MODES = ("boolean", "continuous", "likert")

_REASONING = (
    "A human-readable explanation of the score. End it with a sentence that says: "
    "Thus, the score should be: SCORE_YOU_ASSIGN."
)


class BooleanTrajectoryVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reasoning: str = Field(description=_REASONING)
    score: StrictBool = Field(description="true if the trajectory meets the criteria, false otherwise")


class ContinuousTrajectoryVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reasoning: str = Field(description=_REASONING)
    score: float = Field(ge=0.0, le=1.0, description="How well the criteria are met, from 0.0 (none) to 1.0 (all)")


class LikertTrajectoryVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reasoning: str = Field(description=_REASONING)
    score: int = Field(ge=1, le=5, description="An integer from 1 (very poor trajectory) to 5 (excellent trajectory)")


_VERDICTS = {
    "boolean": BooleanTrajectoryVerdict,
    "continuous": ContinuousTrajectoryVerdict,
    "likert": LikertTrajectoryVerdict,
}


def normalize_trajectory_score(output: str, raw: Union[bool, int, float]) -> float:
    """The judge's raw score on the 0–1 scale: boolean → 1.0/0.0, continuous as is,
    likert ``(s - 1) / 4`` (LangChain's TrajectoryEvalChain normalization)."""
    if output == "boolean":
        return 1.0 if raw else 0.0
    if output == "continuous":
        return float(raw)
    if output == "likert":
        return (float(raw) - 1.0) / 4.0
    raise ValueError(f"unknown output mode {output!r}")


def trajectory_messages(evaluator: JudgeEvaluator, value: Any, name: str) -> List[Message]:
    """A trajectory as messages: any supported message format, or a bare list of tool
    calls (a common way to write a reference trajectory), read as one assistant turn."""
    try:
        return require_messages(evaluator, value, name, "assistant")
    except InputError as first:
        from ..conversation import to_tool_calls

        try:
            calls = to_tool_calls(value, input_name=name)
        except InputError:
            raise first from None
        if not calls:
            raise first from None
        return [Message(role="assistant", tool_calls=calls)]


class TrajectoryJudgeEvaluator(JudgeEvaluator):
    """Whether an agent's trajectory is a sound path to its goal, judged by an LLM.

    Key ``trajectory_accuracy``; inputs ``response`` (the agent's trajectory as
    messages in any supported format: OpenAI, LangChain, Azure agent, Responses,
    ADK invocations, ``{"messages": [...]}``), optional ``ground_truth`` (a reference
    trajectory: messages or a list of tool calls), optional ``query`` (the task;
    without it the judge infers the goal from the first messages) and optional
    ``tool_definitions``.

    The judge checks that the steps make logical sense, progress clearly, are
    reasonably (not perfectly) efficient, and, with a reference, are equivalent to it.

    Args:
        output: ``"boolean"`` (score 1.0 / 0.0), ``"continuous"`` (0–1 as the judge
            gives it) or ``"likert"`` (1–5 normalized to ``(s - 1) / 4``).
        threshold: pass mark on the 0–1 score; default 0.5.

    Details: ``output`` (the mode), ``raw_score`` (the judge's own score: bool,
    number or 1–5 integer), ``reasoning`` and ``has_reference``.
    """

    result_key = "trajectory_accuracy"
    reads = Reads("a trajectory is every step: the agent's text, each tool call with its arguments, what each tool "
                  "returned, and the definitions of the tools it could call", system=True, earlier="all",
                  tool_results=2000, tool_definitions="all")
    score_scale = (0.0, 1.0)
    default_threshold = 0.5
    template_name = "trajectory_accuracy.prompty"

    def __init__(
        self,
        model_config: Any = None,
        *,
        output: str = "boolean",
        **judge: Unpack[JudgeOptions],
    ) -> None:
        mode = str(output).strip().lower() if isinstance(output, str) else output
        if mode not in OUTPUT_MODES:
            raise ConfigError(
                f"TrajectoryJudgeEvaluator: output must be one of {', '.join(OUTPUT_MODES)}; got {output!r}"
            )
        super().__init__(model_config, **judge)
        self.output = mode

    async def _evaluate(
        self,
        *,
        response: MessagesOrText,
        ground_truth: Optional[MessagesOrText] = None,
        query: Optional[MessagesOrText] = None,
        tool_definitions: Optional[ToolDefinitions] = None,
    ) -> Outcome:
        trajectory = trajectory_messages(self, response, "response")
        reference = trajectory_messages(self, ground_truth, "ground_truth") if ground_truth is not None else None
        task = messages_json(require_messages(self, query, "query", "user")) if query is not None else None
        steps = messages_json(trajectory)
        reference_steps = messages_json(reference) if reference is not None else None
        definitions = tool_definitions_json(tool_definitions)
        empty = DataText("")
        verdict: Any  # a verdict model built at run time: its fields are not known statically
        verdict, usage = await self._ask(
            _VERDICTS[self.output],
            {
                "score_format": self.output,
                "query": render_messages(task, self.reads)[0] if task is not None else empty,
                "trajectory": render_messages(steps, self.reads)[0],
                "reference_trajectory": render_messages(reference_steps, self.reads)[0] if reference_steps else empty,
                "tool_definitions": render_definitions_text(definitions, self.reads,
                                                            called_names(steps, reference_steps or [])),
            },
        )
        score = normalize_trajectory_score(self.output, verdict.score)
        details = {
            "output": self.output,
            "raw_score": verdict.score,
            "reasoning": verdict.reasoning,
            "has_reference": reference is not None,
        }
        return Outcome(score, verdict.reasoning, details, usage)
