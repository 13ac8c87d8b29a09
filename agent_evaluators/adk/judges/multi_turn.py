"""ADK's four multi-turn judges, on any judge model.

Each one reads a whole conversation (every user turn, the agent's texts, its tool calls
and their results, in order) and gives one verdict for it:

| class | ADK metric (result key) | what the judge checks |
|---|---|---|
| :class:`RubricBasedMultiTurnTrajectoryQualityEvaluator` | ``rubric_based_multi_turn_trajectory_quality_v1`` | your rubrics |
| :class:`MultiTurnTaskSuccessEvaluator` | ``multi_turn_task_success_v1`` | were the user's goals achieved |
| :class:`MultiTurnTrajectoryQualityEvaluator` | ``multi_turn_trajectory_quality_v1`` | the path the agent took |
| :class:`MultiTurnToolUseQualityEvaluator` | ``multi_turn_tool_use_quality_v1`` | the tool calls it made |

The rubric metric is ADK's local judge: yes/no per rubric, ``num_samples`` samples, each
rubric's majority (ties → no), score = mean of the scored rubrics (the machinery of
:mod:`.rubrics`). ADK sends the other three to Google's cloud evaluation service, where an
adaptive-rubric judge writes checks from the metric's definition and scores the share
met; here each has its own template and a fixed set of criteria written from the
published definition (the ``criteria`` of each class), scored the same way, one sample by
default (the service judges once). As in ADK, an ADK case is judged once, on its last
invocation, with all of them as context: the earlier invocations are ``NOT_EVALUATED``.

Called directly or from ``evaluate()``, the input is ``conversation``: messages in any
supported format (OpenAI, Azure agent, LangChain, ``{"messages": [...]}``, ADK invocation
dicts, a simulated conversation's ``conversation`` output), with optional
``tool_definitions`` and ``instructions``.
"""

from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Union

from ...conversation import Message, to_messages
from ...conversation.transcript import Reads
from ...evaluators.base import Outcome
from ...evaluators.declared import CalibrationCases
from ...evaluators.inputs import messages_json, require_messages, tool_definitions_json
from ...evaluators.judge_base import JudgeOptions, Unpack
from ._shared import AdkJudgeEvaluator, JudgedInvocation, adk_tool_declarations, criterion_temperature
from .rubrics import RubricSpec, _instructions, _RubricJudge

Conversation = Union[List[Any], Dict[str, Any]]
ToolDefinitions = Union[List[Any], Dict[str, Any]]


# ---------------------------------------------------------------------------- the dialogue
def dialogue_turns(messages: Sequence[Message]) -> Tuple[List[Dict[str, Any]], List[str]]:
    """The conversation as the judge reads it: one entry per user turn (``turn``, 1-based, and
    its ``messages``: the user's message, then the agent's texts, tool calls and tool results
    in order, as JSON messages), and the system/developer texts apart (the agent's instructions).

    Messages before the first user message other than instructions open a turn of their own.
    """
    turns: List[Dict[str, Any]] = []
    system: List[str] = []
    for message, rendered in zip(messages, messages_json(list(messages)), strict=True):
        if message.role in ("system", "developer"):
            if message.content:
                system.append(message.content)
            continue
        if message.role == "user" or not turns:
            turns.append({"turn": len(turns) + 1, "messages": []})
        turns[-1]["messages"].append(rendered)
    return turns, system


def _dialogue(messages: Sequence[Message]) -> List[Dict[str, Any]]:
    """The conversation the judge reads (rendered as numbered turns): every message but the
    system/developer texts, which reach the judge apart, as the agent's instructions. Where more
    than one agent speaks, the transcript names the agent of each call and reply (its ``name``),
    as ADK's prompt names the author of each agent line."""
    return messages_json([m for m in messages if m.role not in ("system", "developer")])


def _without_thoughts(value: Any) -> Any:
    """A copy of an invocation dict without ``thought`` parts (a model's reasoning never reaches a judge)."""
    if isinstance(value, dict):
        if value.get("thought") is True:
            return None
        return {k: _without_thoughts(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v for v in (_without_thoughts(v) for v in value) if v is not None]
    return value


def _adk_messages(invocation: Any) -> List[Message]:
    """One invocation's messages, its final response attributed as ADK's prompt attributes it
    (to the author of the invocation's first event, where it has events)."""
    from ..models import InvocationEvents

    messages = to_messages([_without_thoughts(invocation.to_json_dict())], input_name="actual", default_role="user")
    data = invocation.intermediate_data
    last = messages[-1] if messages else None
    if (isinstance(data, InvocationEvents) and data.invocation_events and invocation.final_response is not None
            and last is not None and last.role == "assistant" and last.name is None and not last.tool_calls):
        messages[-1] = last.model_copy(update={"name": data.invocation_events[0].author})
    return messages


def _adk_agents(invocations: Sequence[Any]) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """Every agent's instructions and tools over the conversation, each agent once (ADK reads
    them off every invocation's ``app_details`` and drops repeats)."""
    instructions: Dict[str, Dict[str, Any]] = {}
    tools: Dict[str, Dict[str, Any]] = {}
    for invocation in invocations:
        details = invocation.app_details
        for name, agent in (details.agent_details.items() if details is not None else ()):
            instructions.setdefault(name, {"agent": name, "instructions": agent.instructions})
        for entry in adk_tool_declarations(invocation):
            tools.setdefault(entry["agent"], entry)
    return list(instructions.values()), list(tools.values())


# ---------------------------------------------------------------------------- the shared judge
class _MultiTurnJudge(_RubricJudge, AdkJudgeEvaluator):
    """A rubric judge over a whole conversation: the class surface and ADK's case shape."""

    reads = Reads("ADK's multi-turn metrics judge the whole conversation: every turn's words, each tool call with its "
                  "arguments and result, and the agents' instructions and tools (given apart)", earlier="all",
                  tool_results=2000, tool_definitions="all")

    whole_conversation = True
    _case_rule = "the whole conversation, judged on its last invocation"

    async def _evaluate(
        self,
        *,
        conversation: Conversation,
        tool_definitions: Optional[ToolDefinitions] = None,
        instructions: Optional[str] = None,
    ) -> Outcome:
        messages = require_messages(self, conversation, "conversation", "user")
        system = [m.content for m in messages if m.role in ("system", "developer") and m.content]
        given = _instructions(self, instructions)
        inputs = {
            "conversation": _dialogue(messages),
            "instructions": [{"agent": "agent", "instructions": text} for text in (*system, given) if text],
            "tool_definitions": tool_definitions_json(tool_definitions),
        }
        return self._outcome(await self._score(inputs, self.rubrics))

    async def _score_adk_conversation(self, actual: Sequence[Any]) -> JudgedInvocation:
        instructions, tools = _adk_agents(actual)
        return await self._score(
            {"conversation": _dialogue([m for inv in actual for m in _adk_messages(inv)]), "instructions": instructions,
             "tool_definitions": tools},
            self._effective_rubrics(actual[-1]),
        )


class RubricBasedMultiTurnTrajectoryQualityEvaluator(_MultiTurnJudge):
    """A whole multi-turn conversation against your rubrics (ADK
    ``rubric_based_multi_turn_trajectory_quality_v1``).

    Key ``rubric_based_multi_turn_trajectory_quality_v1``. Construct with ``rubrics=[...]``
    (strings, or ADK rubrics ``{"rubric_id", "rubric_content": {"text_property"}}``). Input
    ``conversation`` (messages, tool calls and results included), optional
    ``tool_definitions`` and ``instructions``. The judge says yes or no per rubric for the
    agent's performance over all its turns, ``num_samples`` times (default 5) at
    ``temperature``; each rubric takes the majority (ties → no); score = mean over the
    scored rubrics, 0–1; default threshold 0.8. In an ADK case, rubrics of type
    ``TRAJECTORY_QUALITY`` on the last invocation join the criterion's.
    """

    result_key = "rubric_based_multi_turn_trajectory_quality_v1"
    template_name = "rubric_multi_turn_trajectory.prompty"
    rubric_type = "TRAJECTORY_QUALITY"
    _show_rubric_type = True
    calibration_cases = CalibrationCases(  # with the registry's MULTI_TURN_RUBRICS
        good={"conversation": "dialogue:answer", "tool_definitions": "tools"},
        bad={"conversation": "dialogue_wrong_args:answer", "tool_definitions": "tools"},
        why_bad="the agent calls the tool with values the user never gave, breaking the second rubric")


# ---------------------------------------------------------------------------- the three fixed-criteria judges
class _CriteriaJudge(_MultiTurnJudge):
    """A multi-turn judge whose criteria are its own (``criteria``), not the user's."""

    criteria: ClassVar[Tuple[Tuple[str, str], ...]] = ()

    def __init__(
        self,
        model_config: Any = None,
        *,
        num_samples: int = 1,
        temperature: float = 1.0,
        **judge: Unpack[JudgeOptions],
    ) -> None:
        super().__init__([RubricSpec(rid, text) for rid, text in self.criteria], model_config,
                         num_samples=num_samples, temperature=temperature, **judge)

    @classmethod
    def _from_criterion(cls, criterion: Any, model_config: Any) -> "_CriteriaJudge":
        options = criterion.judge_model_options
        samples = options.num_samples if "num_samples" in options.model_fields_set else 1
        return cls(model_config, num_samples=samples, temperature=criterion_temperature(criterion, 1.0),
                   threshold=criterion.threshold)

    def _effective_rubrics(self, actual: Any) -> List[RubricSpec]:
        return self.rubrics  # the metric's own criteria; rubrics in the data are for the rubric metrics


class MultiTurnTaskSuccessEvaluator(_CriteriaJudge):
    """Did the agent achieve the user's goals over the whole conversation (ADK ``multi_turn_task_success_v1``).

    Key ``multi_turn_task_success_v1``; input ``conversation`` (optional ``tool_definitions``,
    ``instructions``). Only the outcome counts, not the path. The judge answers yes or no for
    each of the metric's criteria (``criteria``); score = share met, 0–1; default threshold
    0.8; one sample unless ``num_samples`` says more.
    """

    result_key = "multi_turn_task_success_v1"
    template_name = "multi_turn_task_success.prompty"
    criteria = (
        ("goals_achieved", "Every goal the user set during the conversation, including goals added or changed in "
                           "later turns, was achieved by the end of the conversation."),
        ("actions_completed", "Each action a goal needed (a booking, a change, a lookup) was actually carried out, "
                              "as a tool result or the agent's reply shows, not only promised or described."),
        ("no_false_success", "The agent never told the user that something was done or true when the conversation "
                             "shows it was not."),
        ("user_has_result", "At the end, the user has what they asked for: the information requested, or a clear "
                            "statement of what was done and what could not be done and why."),
    )
    calibration_cases = CalibrationCases(
        good={"conversation": "dialogue:answer", "tool_definitions": "tools"},
        bad={"conversation": "dialogue:off_topic", "tool_definitions": "tools"},
        why_bad="the agent looks the answer up but never gives the user what they asked for")


class MultiTurnTrajectoryQualityEvaluator(_CriteriaJudge):
    """How well the agent got there over the whole conversation (ADK ``multi_turn_trajectory_quality_v1``).

    Key ``multi_turn_trajectory_quality_v1``; input ``conversation`` (optional
    ``tool_definitions``, ``instructions``). Unlike task success, the path counts: the order
    of steps, context kept across turns, detours. Score = share of the criteria met, 0–1;
    default threshold 0.8.
    """

    result_key = "multi_turn_trajectory_quality_v1"
    template_name = "multi_turn_trajectory_quality.prompty"
    criteria = (
        ("keeps_context", "Every agent turn follows from the user's latest message and from what earlier turns "
                          "established: the agent does not ask again for what it was told or contradict itself."),
        ("sensible_order", "The agent's steps come in a sensible order: it gathers what it needs before acting and "
                           "confirms with the user before an action the user must approve."),
        ("no_detours", "The agent reaches the goal without detours: no repeated or pointless steps, questions or "
                       "tool calls that do not serve the user's goals."),
        ("recovers", "When something went wrong (a failed tool, a misunderstanding, a correction from the user), the "
                     "agent noticed and adjusted its course instead of carrying on as before."),
    )
    calibration_cases = CalibrationCases(
        good={"conversation": "dialogue:answer", "tool_definitions": "tools"},
        bad={"conversation": "dialogue_repeated:answer", "tool_definitions": "tools"},
        why_bad="the agent makes the same tool call three times over before answering")


class MultiTurnToolUseQualityEvaluator(_CriteriaJudge):
    """The tool calls the agent made over the whole conversation (ADK ``multi_turn_tool_use_quality_v1``).

    Key ``multi_turn_tool_use_quality_v1``; input ``conversation`` with its tool calls and
    results (optional ``tool_definitions``, ``instructions``). A conversation without tool
    calls is still judged (a tool the user's goals needed may have been left uncalled).
    Score = share of the criteria met, 0–1; default threshold 0.8.
    """

    result_key = "multi_turn_tool_use_quality_v1"
    template_name = "multi_turn_tool_use_quality.prompty"
    criteria = (
        ("right_tools", "Each tool call uses a tool whose purpose fits what the user needed at that point, and no "
                        "tool the user's goals needed was left uncalled."),
        ("grounded_arguments", "Each tool call's argument values are valid for the tool and come from the "
                               "conversation (the user's messages in any turn, or earlier tool results); none is "
                               "invented."),
        ("results_used", "The agent used what the tools returned correctly in its later steps and replies, without "
                         "ignoring or misreporting a result."),
        ("no_needless_calls", "The agent made no repeated, redundant or irrelevant tool calls."),
    )
    calibration_cases = CalibrationCases(
        good={"conversation": "dialogue:answer", "tool_definitions": "tools"},
        bad={"conversation": "dialogue_wrong_args:answer", "tool_definitions": "tools"},
        why_bad="the agent calls the tool with argument values the user never gave")
