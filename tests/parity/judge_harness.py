"""What the differential tests of azure's judge evaluators share: one scripted judge, one row check.

:func:`scripted_judge` answers each side in the format its prompt asks for (azure's prompts a
``json_object`` ``{"reason", "score", "status", "properties"}``, ours our verdict schema) with the
SAME scripted verdict, found by the ``[case:<id>]`` marker in the rendered prompt, so a difference
in a row is a difference in the evaluators, never in what the judge said.
The module's ``server`` and ``no_tracing`` fixtures come from here too (imported by name).
:func:`assert_same_columns` compares the score, verdict, threshold and status columns of a row
(and of each turn of a conversation's row).
"""

import re
from typing import Any, Callable, Dict, Iterable, Iterator

import pytest

from agent_evaluators.testing import ChatRequest, JudgeServer, Reply, schema_reply

__all__ = ["AZURE_CLASS", "AZURE_QUALITY_CLASS", "COMPARED_SUFFIXES", "scripted_judge", "server", "no_tracing",
           "assert_same_columns"]

#: where azure 1.18.10 defines each agent evaluator class (the private ones are not exported)
AZURE_CLASS = {
    "IntentResolutionEvaluator": ("azure.ai.evaluation", "IntentResolutionEvaluator"),
    "ResponseCompletenessEvaluator": ("azure.ai.evaluation", "ResponseCompletenessEvaluator"),
    "TaskAdherenceEvaluator": ("azure.ai.evaluation", "TaskAdherenceEvaluator"),
    "ToolCallAccuracyEvaluator": ("azure.ai.evaluation", "ToolCallAccuracyEvaluator"),
    "TaskCompletionEvaluator": ("azure.ai.evaluation._evaluators._task_completion", "_TaskCompletionEvaluator"),
    "ToolSelectionEvaluator": ("azure.ai.evaluation._evaluators._tool_selection", "_ToolSelectionEvaluator"),
    "ToolInputAccuracyEvaluator": ("azure.ai.evaluation._evaluators._tool_input_accuracy",
                                   "_ToolInputAccuracyEvaluator"),
    "ToolOutputUtilizationEvaluator": ("azure.ai.evaluation", "_ToolOutputUtilizationEvaluator"),
    "ToolCallSuccessEvaluator": ("azure.ai.evaluation", "_ToolCallSuccessEvaluator"),
}

#: the same for azure's prompty-based quality judges
AZURE_QUALITY_CLASS = {name: ("azure.ai.evaluation", name) for name in (
    "CoherenceEvaluator", "FluencyEvaluator", "RelevanceEvaluator", "GroundednessEvaluator", "SimilarityEvaluator",
    "RetrievalEvaluator")}

MARKER = re.compile(r"\[case:(\w+)\]")
#: the columns compared after the result key ``<k>`` itself
COMPARED_SUFFIXES = ("", "_score", "_result", "_passed", "_threshold", "_status")


def scripted_judge(verdicts: Dict[str, Dict[str, Any]], *, verdict_properties: bool) -> Callable[[ChatRequest], Any]:
    """A judge answering from ``verdicts`` (case id -> ``{"score", "reason", "properties"[, "status"]}``,
    read at each request, so cases may be added later). ``verdict_properties``: our side's verdict
    carries the scripted properties too (the agent evaluators' verdict fields); a prompt without a
    known marker gets a 400, which fails the row at once (a 5xx would be retried for minutes)."""

    def judge(req: ChatRequest) -> Any:
        found = MARKER.findall(req.text)
        if not found or found[-1] not in verdicts:
            return Reply(content=f"no scripted verdict for this prompt (markers {found})", status=400)
        verdict = verdicts[found[-1]]
        if req.json_schema is None:  # azure's prompts ask for a json_object in their own format
            if verdict.get("status") == "skipped":
                return {"reason": verdict["reason"], "score": None, "status": "skipped", "properties": None}
            return {"reason": verdict["reason"], "score": verdict["score"], "status": "completed",
                    "properties": verdict["properties"]}
        extra = (verdict["properties"] or {}) if verdict_properties else {}
        return {**schema_reply(req), **extra, "reason": verdict["reason"], "score": verdict["score"]}

    return judge


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[JudgeServer]:
    """The local judge server, answering with the test module's ``judge`` (a module imports this fixture)."""
    with JudgeServer(request.module.judge) as judge_server:
        yield judge_server


@pytest.fixture(autouse=True)
def no_tracing(monkeypatch: pytest.MonkeyPatch) -> None:
    """azure's evaluators trace through promptflow unless told not to (imported, it applies to the whole module)."""
    monkeypatch.setenv("PF_DISABLE_TRACING", "true")


def assert_same_columns(case_id: str, key: str, theirs: Dict[str, Any], ours: Dict[str, Any],
                        columns: Iterable[str]) -> None:
    """``columns`` equal in both rows; a skipped row's reason equal and no properties on either side;
    a conversation's per-turn rows: the same keys, and ``columns`` equal."""
    columns = list(columns)
    for column in columns:
        assert ours[column] == theirs[column], (case_id, column, ours[column], theirs[column])
        assert type(ours[column]) is type(theirs[column]), (case_id, column, ours[column], theirs[column])  # 3 vs 3.0
    if theirs[f"{key}_status"] == "skipped":
        assert ours[f"{key}_reason"] == theirs[f"{key}_reason"], case_id
        assert ours[f"{key}_properties"] is None and theirs[f"{key}_properties"] is None
    if "evaluation_per_turn" in theirs:
        ours_turns, their_turns = ours["evaluation_per_turn"], theirs["evaluation_per_turn"]
        assert set(ours_turns) == set(their_turns), case_id
        for column in columns:
            assert ours_turns[column] == their_turns[column], (case_id, column)
