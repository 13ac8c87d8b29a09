"""Differential test: azure-ai-evaluation 1.18.10 and ``agent_evaluators.azure`` on the same rows.

Each case of :mod:`.azure_cases` goes through azure's real class and through ours, against one
local judge server (over HTTP) that answers each side in the format that side's prompt asks for
(azure: ``json_object`` ``{"reason", "score", "status", "properties"}``; ours: our verdict schema)
with the SAME scripted verdict, found by the ``[case:<id>]`` marker in the rendered prompt.

Asserted equal: the row's key set, the score (``<k>``, ``<k>_score``, ``gpt_<k>``), ``_result``,
``_passed``, ``_threshold``, ``_status``, the not-applicable reason, and for a conversation the
``evaluation_per_turn`` keys and values of those columns. ``_properties``: the judge's properties
are equal; the rest is a marked difference (:data:`PROPERTIES_DIFFERENCE`).

Deliberate differences are marked where they apply (``DIFFERENCES``) and listed in
``test_differences_are_listed``; cases that show azure's own quirk are marked ``azure_behaviour``.

Compared cases per evaluator (``test_the_counts_table_is_current`` recounts the judge rows from
:mod:`.azure_cases`; TaskNavigationEfficiency's are in ``test_azure_1_18_navigation.py``, no judge):

==============================  =========  ======================  ===========  ======================
evaluator                       identical  azure quirk reproduced  both refuse  deliberate difference
==============================  =========  ======================  ===========  ======================
IntentResolutionEvaluator       11         0                       6            0
ResponseCompletenessEvaluator   11         0                       0            1
TaskAdherenceEvaluator          6          3                       2            0
ToolCallAccuracyEvaluator       13         0                       7            1
TaskCompletionEvaluator         1          8                       1            0
ToolSelectionEvaluator          11         1                       2            0
ToolInputAccuracyEvaluator      9          0                       0            2
ToolOutputUtilizationEvaluator  6          0                       0            3
ToolCallSuccessEvaluator        8          0                       0            3
TaskNavigationEfficiency        483        0                       58           16
==============================  =========  ======================  ===========  ======================

TaskNavigationEfficiency: 160 generated action lists x 3 matching modes plus 3 empty runs identical;
50 invalid inputs, 7 matching modes and ``threshold=`` refused by both; 16 deliberate differences.
"""

import re
from collections import Counter
from typing import Any, Dict

import pytest

from ..conftest import optional_import
from . import judge_harness
from .azure_cases import (
    ACCEPTED_INVALID,
    BOTH_REFUSE,
    CASES,
    OUT_OF_SCALE,
    REFUSED,
    SKIPPED_BY_JUDGE,
    UNSUPPORTED_TOOL,
    Case,
)
from .judge_harness import AZURE_CLASS, COMPARED_SUFFIXES, assert_same_columns, scripted_judge

azure_evaluation = optional_import("azure.ai.evaluation")


#: our verdicts' own fields, reported in ``_properties`` (azure's judge returns its own, or none)
OUR_PROPERTIES = {
    "IntentResolutionEvaluator": {"user_intent"},
    "ResponseCompletenessEvaluator": {"missing_information"},
    "TaskAdherenceEvaluator": set(),
    "TaskCompletionEvaluator": {"task_requirements", "delivered_outcome", "completion_gaps"},
    # 1.18's names (test_azure_1_18_properties.py compares the values): here azure's scripted judge gives none
    "ToolSelectionEvaluator": {"correct_tool_selections", "wrong_tool_selections", "excessive_tools_used",
                               "excessive_tools_list", "missing_tools", "missing_tools_list", "tool_selection_accuracy"},
    "ToolInputAccuracyEvaluator": {"total_parameters_passed", "correct_parameters_passed", "incorrect_parameters",
                                   "parameter_extraction_accuracy"},
    "ToolOutputUtilizationEvaluator": {"faulty_details"},
    "ToolCallSuccessEvaluator": {"failed_tools"},
}
#: the metric whose judge properties have azure's names on both sides (its verdict is 1.18's)
SAME_PROPERTIES = {"ToolCallAccuracyEvaluator"}
TOKEN_PROPERTIES = {"prompt_tokens", "completion_tokens", "total_tokens", "finish_reason", "model"}

PROPERTIES_DIFFERENCE = (
    "_properties: no sample_input/sample_output (the whole prompt and reply copied into every row; our "
    "usage record keeps the template hash instead), and our verdicts' own fields (user_intent, "
    "missing_information) are kept; token counts differ because the prompts differ")

DIFFERENCES = {
    "properties": PROPERTIES_DIFFERENCE,
    "judge_skip": ("the judge cannot answer status 'skipped': our verdict schema has no such field, so a row is "
                   "not applicable only by 1.18's input rules, never by the judge's say-so (a safer parse)"),
    "score_validation": ("a score off the metric's scale (ResponseCompleteness 9, ToolCallSuccess 4) is a JudgeError "
                         "after one repair request; azure 1.18 reports the number (and passes it)"),
    "decided_without_judge": ("ToolOutputUtilization (no tool output) and ToolCallSuccess (no tool call): not "
                              "applicable without a judge call, where azure asks its judge, which answers skipped"),
    "unsupported_tools": ("ToolOutputUtilization/ToolCallSuccess judge rows with bing_grounding, code interpreter, "
                          "computer or openapi calls; azure 1.18 refuses them (its formatter cannot render them)"),
    "fixed_threshold": ("threshold= on ToolInputAccuracy/ToolOutputUtilization/ToolCallSuccess is a ConfigError "
                        "saying why; azure raises a bare TypeError"),
    "definition_without_parameters": ("a tool definition without 'parameters' is judged (a tool that takes no "
                                      "arguments needs none in OpenAI's format); azure 1.18 refuses the row"),
    "conversation_history": ("conversation=: each turn's query is the whole history up to that turn (azure sends "
                             "the turn's user text alone); the per-turn rows and their aggregation are azure's"),
}

_VERDICTS: Dict[str, Dict[str, Any]] = {
    c_id: verdict for case in CASES + SKIPPED_BY_JUDGE + OUT_OF_SCALE + UNSUPPORTED_TOOL
    + [c for c, _ in ACCEPTED_INVALID]
    for c_id, verdict in case.verdicts.items()}
COMPARED: Counter = Counter()


judge = scripted_judge(_VERDICTS, verdict_properties=True)
# the fixtures: the local judge server answering with ``judge``, azure's tracing off
server, no_tracing = judge_harness.server, judge_harness.no_tracing


def _azure(case: Case, config: Dict[str, Any]) -> Dict[str, Any]:
    import importlib

    module, name = AZURE_CLASS[case.evaluator]
    cls = getattr(importlib.import_module(module), name)
    return cls({**config, "type": "openai"}, **case.ctor)(**case.call)


def _ours(case: Case, config: Dict[str, Any]) -> Dict[str, Any]:
    """The same model config as azure's (``type`` included: azure 1.18 needs it for an OpenAI config)."""
    import agent_evaluators.azure as ours

    return getattr(ours, case.evaluator)({**config, "type": "openai"}, **case.ctor)(**case.call)


def _result_key(row: Dict[str, Any]) -> str:
    return next(k[: -len("_status")] for k in row if k.endswith("_status"))


def assert_same_row(case: Case, theirs: Dict[str, Any], ours: Dict[str, Any]) -> None:
    key = _result_key(theirs)
    assert set(ours) == set(theirs), (case.id, sorted(set(ours) ^ set(theirs)))
    assert list(ours) == list(theirs), (case.id, list(theirs), list(ours))  # 1.18's key order (issue 35 item 5)
    columns = [key + s for s in COMPARED_SUFFIXES] + [k for k in theirs if k.startswith("gpt_")]
    assert_same_columns(case.id, key, theirs, ours, columns)
    if "evaluation_per_turn" in theirs:
        return
    _assert_same_properties(case, theirs.get(f"{key}_properties"), ours.get(f"{key}_properties"))


def _assert_same_properties(case: Case, theirs: Any, ours: Any) -> None:
    """The judge's properties equal; ours without sample_input/sample_output (PROPERTIES_DIFFERENCE)."""
    if theirs is None:
        assert ours is None
        return
    assert TOKEN_PROPERTIES <= set(theirs), case.id
    scripted = next(iter(case.verdicts.values()))["properties"] or {}
    if case.evaluator in SAME_PROPERTIES:
        assert set(ours) == set(theirs) - {"sample_input", "sample_output"}, case.id
        for name, value in scripted.items():
            assert ours[name] == theirs[name] == value, (case.id, name)
    else:
        assert set(ours) == TOKEN_PROPERTIES | OUR_PROPERTIES[case.evaluator], case.id
    assert ours["model"] == theirs["model"] and ours["finish_reason"] == theirs["finish_reason"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_row_as_azure(case: Case, server) -> None:
    config = server.openai_config()
    before = server.stats()["requests"]
    theirs = _azure(case, config)
    asked_azure = server.stats()["requests"] - before
    ours = _ours(case, config)
    asked_ours = server.stats()["requests"] - before - asked_azure
    assert asked_ours == asked_azure == len(case.verdicts), (case.id, asked_azure, asked_ours)
    assert_same_row(case, theirs, ours)
    if case.azure_behaviour:  # azure's quirk, kept on purpose: the reported threshold is azure's, not the user's
        key = _result_key(theirs)
        turns = ours.get("evaluation_per_turn", {k: [v] for k, v in ours.items()})
        assert turns[f"{key}_passed"] == [score >= 1 for score in turns[key]]
    COMPARED[case.evaluator] += 1


def test_every_judge_evaluator_is_compared() -> None:
    counts = Counter(c.evaluator for c in CASES)
    assert set(counts) == set(AZURE_CLASS)
    assert all(n >= 4 for n in counts.values()), counts


@pytest.mark.parametrize("case", REFUSED, ids=[c.id for c in REFUSED])
def test_refused_like_azure(case: Case, server) -> None:
    from azure.ai.evaluation._exceptions import EvaluationException

    from agent_evaluators.errors import InputError

    config = server.openai_config()
    with pytest.raises(EvaluationException) as theirs:
        _azure(case, config)
    with pytest.raises(InputError) as ours:
        _ours(case, config)
    assert "Tool definitions input is required but not provided" in str(theirs.value)
    assert "Tool definitions input is required but not provided" in str(ours.value)
    assert ours.value.input_name == "tool_definitions"
    COMPARED[case.evaluator] += 1


@pytest.mark.parametrize("case", SKIPPED_BY_JUDGE, ids=[c.id for c in SKIPPED_BY_JUDGE])
def test_not_applicable_without_asking_the_judge(case: Case, server) -> None:
    """DIFFERENCES["decided_without_judge"]: the same not-applicable row; ours makes no judge call."""
    config = server.openai_config()
    theirs = _azure(case, config)
    before = server.stats()["requests"]
    ours = _ours(case, config)
    assert server.stats()["requests"] == before
    key = _result_key(theirs)
    assert set(ours) == set(theirs)
    for column in [key + s for s in COMPARED_SUFFIXES] + [f"{key}_properties"]:
        assert ours[column] == theirs[column], (case.id, column)
    assert theirs[f"{key}_status"] == "skipped" and ours[f"{key}_reason"].startswith("Not applicable: ")
    COMPARED[case.evaluator] += 1


@pytest.mark.parametrize("case", OUT_OF_SCALE, ids=[c.id for c in OUT_OF_SCALE])
def test_a_score_off_the_scale_is_an_error(case: Case, server) -> None:
    """DIFFERENCES["score_validation"]: azure reports the number; ours refuses it (JudgeError)."""
    from agent_evaluators.errors import JudgeError

    config = server.openai_config()
    theirs = _azure(case, config)
    score = next(iter(case.verdicts.values()))["score"]
    assert theirs[_result_key(theirs)] == score and theirs[f"{_result_key(theirs)}_result"] == "pass"
    with pytest.raises(JudgeError) as ours:
        _ours(case, config)
    assert ours.value.raw_text and str(score) in ours.value.raw_text
    COMPARED[case.evaluator] += 1


@pytest.mark.parametrize("case", UNSUPPORTED_TOOL, ids=[c.id for c in UNSUPPORTED_TOOL])
def test_a_tool_azure_refuses_is_judged(case: Case, server) -> None:
    """DIFFERENCES["unsupported_tools"]: azure raises; ours judges the row."""
    from azure.ai.evaluation._exceptions import EvaluationException

    config = server.openai_config()
    with pytest.raises(EvaluationException, match="not supported"):
        _azure(case, config)
    ours = _ours(case, config)
    assert ours[f"{_result_key(ours)}_result"] == "pass"
    COMPARED[case.evaluator] += 1


@pytest.mark.parametrize("case,azure_says", BOTH_REFUSE, ids=[c.id for c, _ in BOTH_REFUSE])
def test_invalid_input_refused_like_azure(case: Case, azure_says: str, server) -> None:
    """1.18's input validation: where azure raises a UserError, ours raises an InputError naming the
    evaluator, before any judge call."""
    from azure.ai.evaluation._exceptions import ErrorBlame, EvaluationException

    from agent_evaluators.errors import InputError

    config = server.openai_config()
    before = server.stats()["requests"]
    with pytest.raises(EvaluationException) as theirs:
        _azure(case, config)
    assert azure_says in str(theirs.value) and theirs.value.blame == ErrorBlame.USER_ERROR, str(theirs.value)
    with pytest.raises(InputError) as ours:
        _ours(case, config)
    assert ours.value.evaluator == case.evaluator and str(ours.value).startswith(case.evaluator), str(ours.value)
    assert ours.value.input_name and ours.value.input_name in str(ours.value), (ours.value.input_name, case.id)
    assert server.stats()["requests"] == before
    COMPARED[case.evaluator] += 1


@pytest.mark.parametrize("case,azure_says", ACCEPTED_INVALID, ids=[c.id for c, _ in ACCEPTED_INVALID])
def test_invalid_for_azure_judged_here(case: Case, azure_says: str, server) -> None:
    """DIFFERENCES["definition_without_parameters"]: azure refuses the row; ours judges it."""
    from azure.ai.evaluation._exceptions import EvaluationException

    config = server.openai_config()
    with pytest.raises(EvaluationException, match=re.escape(azure_says)):
        _azure(case, config)
    ours = _ours(case, config)
    verdict = next(iter(case.verdicts.values()))
    assert ours[_result_key(ours)] == verdict["score"] and ours[f"{_result_key(ours)}_result"] == "pass"
    COMPARED[case.evaluator] += 1


@pytest.mark.parametrize("name", ["ToolInputAccuracyEvaluator", "ToolOutputUtilizationEvaluator",
                                  "ToolCallSuccessEvaluator"])
def test_threshold_is_refused_where_azure_takes_none(name: str, server) -> None:
    """DIFFERENCES["fixed_threshold"]: azure raises TypeError; ours a ConfigError saying why."""
    import importlib

    import agent_evaluators.azure as ours
    from agent_evaluators.errors import ConfigError

    module, cls_name = AZURE_CLASS[name]
    config = {**server.openai_config(), "type": "openai"}
    with pytest.raises(TypeError, match="threshold"):
        getattr(importlib.import_module(module), cls_name)(config, threshold=0)
    with pytest.raises(ConfigError, match="takes no threshold"):
        getattr(ours, name)(config, threshold=0)
    assert getattr(ours, name)(config).threshold == 1


def test_differences_are_listed() -> None:
    """Every deliberate difference has its reason here (the closing note's table reads this)."""
    assert all(len(reason) > 40 for reason in DIFFERENCES.values())


def _counts_from_cases() -> Dict[str, Counter]:
    """Each judge evaluator's compared cases by kind, from the case lists (the docstring's table)."""
    table: Dict[str, Counter] = {name: Counter() for name in AZURE_CLASS}
    for case in CASES:
        table[case.evaluator]["quirk" if case.azure_behaviour else "identical"] += 1
    for case in REFUSED + [c for c, _ in BOTH_REFUSE]:
        table[case.evaluator]["refuse"] += 1
    for case in SKIPPED_BY_JUDGE + OUT_OF_SCALE + UNSUPPORTED_TOOL + [c for c, _ in ACCEPTED_INVALID]:
        table[case.evaluator]["difference"] += 1
    for name in ("ToolInputAccuracyEvaluator", "ToolOutputUtilizationEvaluator", "ToolCallSuccessEvaluator"):
        table[name]["difference"] += 1  # test_threshold_is_refused_where_azure_takes_none
    return table


def test_the_counts_table_is_current() -> None:
    """The module docstring's table (the lead copies it into README) matches the case lists."""
    rows = {}
    for line in (__doc__ or "").splitlines():
        cells = line.split()
        if len(cells) == 5 and cells[0] in AZURE_CLASS:
            rows[cells[0]] = tuple(int(c) for c in cells[1:])
    assert set(rows) == set(AZURE_CLASS)
    for name, counts in _counts_from_cases().items():
        assert rows[name] == (counts["identical"], counts["quirk"], counts["refuse"], counts["difference"]), name
