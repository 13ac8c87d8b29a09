"""``agent_evaluators.azure.evaluate`` against azure-ai-evaluation 1.18.10's own ``evaluate()``.

The same data and the same evaluator *instances* (azure's ``F1ScoreEvaluator``, its judge
evaluators against one local ``JudgeServer`` answering their json_object prompts, a plain
function, a bare scalar, a class with ``__aggregate__``) go through both; so this compares
the evaluate() layer alone: each row's keys and values, the metric names and values, the
file ``output_path`` writes.

Deliberate differences, each marked where it is asserted:

* ``NAN_IS_NONE``: where 1.18 leaves NaN (a value a row lacks, an errored row), we write
  ``None``: NaN is not JSON, and a strict parser rejects 1.18's file;
* ``ERROR_KEY``: an evaluator that raised on a row adds ``outputs.<alias>.error`` with the
  message (1.18 leaves only NaN; the error is in its log);
* ``BOOL_GAPS``: 1.18 drops a boolean column from the metrics as soon as one row lacks it
  (pandas makes the column ``object``), so ``<key>_passed`` vanishes after one failed or
  not-applicable row; we average the rows that have it.
"""

import json
import logging
import math
from typing import Any, Dict, Iterable, List, Set

import pytest

from agent_evaluators.azure import evaluate as our_evaluate
from agent_evaluators.testing import ChatRequest

from ..conftest import optional_import

azure_evaluation = optional_import("azure.ai.evaluation")

NAN_IS_NONE = "1.18 writes NaN where a row has no value; we write None (NaN is not JSON)"
ERROR_KEY = "an errored cell names its error in outputs.<alias>.error; 1.18 leaves NaN only"
BOOL_GAPS = "1.18 drops a boolean column with a gap from the metrics (a pandas dtype accident); we average the rest"


@pytest.fixture(autouse=True)
def _no_tracing(monkeypatch):
    monkeypatch.setenv("PF_DISABLE_TRACING", "true")


# ---------------------------------------------------------------------------- comparison
def _same_value(theirs: Any, ours: Any) -> bool:
    if isinstance(theirs, float) and math.isnan(theirs):
        return ours is None  # NAN_IS_NONE
    if isinstance(theirs, float) and isinstance(ours, (int, float)):
        return math.isclose(theirs, ours, rel_tol=1e-12)
    return bool(theirs == ours)


def assert_same_rows(theirs: List[Dict[str, Any]], ours: List[Dict[str, Any]], *, error_keys: Iterable[str] = ()):
    """Every row: the same keys (ours adds ``error_keys`` on errored rows: ERROR_KEY) and values."""
    assert len(theirs) == len(ours)
    allowed = set(error_keys)
    for i, (a, o) in enumerate(zip(theirs, ours)):
        extra = set(o) - set(a)
        assert extra <= allowed, (i, extra)
        assert set(a) <= set(o), (i, set(a) - set(o))
        for key in extra:
            assert isinstance(o[key], str) and o[key], (i, key)  # ERROR_KEY: a message, never a number
            prefix = key[: -len("error")]
            assert all(_same_value(a[k], None) for k in a if k.startswith(prefix)), (i, key)  # NaN there
        for key, value in a.items():
            assert _same_value(value, o[key]), (i, key, value, o[key])


def assert_same_metrics(theirs: Dict[str, Any], ours: Dict[str, Any], *, ours_only: Set[str] = frozenset()):
    """The same metric names and values; ``ours_only``: names 1.18 drops (BOOL_GAPS)."""
    assert set(ours) - set(theirs) == set(ours_only), set(ours) ^ set(theirs)
    assert set(theirs) <= set(ours), set(theirs) - set(ours)
    for name, value in theirs.items():
        assert _same_value(value, ours[name]), (name, value, ours[name])


def write_jsonl(path, rows: List[Dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------- evaluators
def length(response: str, ground_truth: str) -> Dict[str, Any]:
    """A plain function returning a dict; it raises on one row (the failing row)."""
    if response == "boom":
        raise ValueError("boom on purpose")
    return {"length": len(response), "exact": response == ground_truth, "label": "text",
            "length_result": "pass" if len(response) > 3 else "fail", "length_threshold": 3}


def words(response: str) -> int:
    """A bare scalar: 1.18 keeps it as ``outputs.<alias>.output``."""
    return len(response.split())


class Overlap:
    """A class with 1.18's ``__aggregate__`` hook: its dict is merged into the metrics."""

    def __call__(self, *, response: str, ground_truth: str) -> Dict[str, Any]:
        return {"overlap": len(set(response.split()) & set(ground_truth.split()))}

    def __aggregate__(self, outputs: List[Any]) -> Dict[str, Any]:
        return {"overlap_max": max(o["overlap"] for o in outputs if o["overlap"] is not None)}


PLAIN_ROWS = [
    {"response": "the cat sat", "ground_truth": "the cat sat down"},
    {"response": "boom", "ground_truth": "x"},
    {"response": "a b", "ground_truth": "a c", "note": {"k": 1}},
    {"response": "same", "ground_truth": "same"},
]


def _plain_evaluators() -> Dict[str, Any]:
    return {"f1": azure_evaluation.F1ScoreEvaluator(), "len": length, "words": words, "overlap": Overlap()}


@pytest.fixture(scope="module")
def plain_runs(tmp_path_factory):
    import os

    os.environ["PF_DISABLE_TRACING"] = "true"
    tmp = tmp_path_factory.mktemp("plain")
    data = write_jsonl(tmp / "data.jsonl", PLAIN_ROWS)
    (tmp / "theirs").mkdir()
    (tmp / "ours").mkdir()
    theirs = azure_evaluation.evaluate(data=data, evaluators=_plain_evaluators(), output_path=str(tmp / "theirs"))
    ours = our_evaluate(data=data, evaluators=_plain_evaluators(), output_path=str(tmp / "ours"), show_progress=False)
    return theirs, ours, tmp


def test_rows_have_1_18s_keys_and_values_with_a_failing_row(plain_runs):
    theirs, ours, _ = plain_runs
    assert_same_rows(theirs["rows"], ours["rows"], error_keys={"outputs.len.error"})  # ERROR_KEY
    assert "boom on purpose" in ours["rows"][1]["outputs.len.error"]
    assert ours["rows"][1]["outputs.len.length"] is None  # NAN_IS_NONE: never a score
    assert ours["rows"][2]["inputs.note"] == {"k": 1} and ours["rows"][0]["inputs.note"] is None
    assert_same_order_and_types(theirs["rows"], ours["rows"])  # issue 35 item 5: "length" 11 -> 11.0 as in 1.18


def test_metrics_have_1_18s_names_and_values(plain_runs):
    theirs, ours, _ = plain_runs
    # BOOL_GAPS: "exact" is a bool column with a gap where "len" raised
    assert_same_metrics(theirs["metrics"], ours["metrics"], ours_only={"len.exact"})
    assert ours["metrics"]["len.exact"] == pytest.approx(1 / 3)
    for name in ("f1.binary_aggregate", "len.binary_aggregate", "words.output", "overlap.overlap_max",
                 "f1.f1_score_passed"):
        assert name in ours["metrics"], name
    assert ours["metrics"]["len.binary_aggregate"] == 0.5  # 2 passes over all 4 rows, the errored one included


def test_the_result_is_a_plain_dict_that_is_strict_json(plain_runs):
    theirs, ours, _ = plain_runs
    assert type(ours) is dict and ours["studio_url"] is None and theirs["studio_url"] is None
    text = json.dumps(ours, allow_nan=False)  # NAN_IS_NONE: 1.18's rows hold NaN and fail this
    with pytest.raises(ValueError):
        json.dumps(theirs, allow_nan=False)
    back = json.loads(text)
    assert back["rows"] == ours["rows"] and back["metrics"] == ours["metrics"]
    assert set(ours) == {"rows", "metrics", "studio_url", "agent_evaluators"}
    errors = ours["agent_evaluators"]["errors"]
    assert [(e["line_number"], e["alias"]) for e in errors] == [(1, "len")]


def test_output_path_folder_gets_1_18s_file_and_our_run_folder_beside_it(plain_runs):
    theirs, ours, tmp = plain_runs
    mine = json.loads((tmp / "ours" / "evaluation_results.json").read_text(encoding="utf-8"))
    raw = (tmp / "theirs" / "evaluation_results.json").read_text(encoding="utf-8")
    azure_file = json.loads(raw)  # 1.18 writes NaN tokens; Python's json reads them
    assert set(mine) == set(azure_file) == {"rows", "metrics", "studio_url"}
    assert_same_rows(azure_file["rows"], mine["rows"], error_keys={"outputs.len.error"})
    assert_same_metrics(azure_file["metrics"], mine["metrics"], ours_only={"len.exact"})
    run_folder = tmp / "ours" / "evaluation_results"
    assert (run_folder / "rows.jsonl").is_file() and (run_folder / "summary.json").is_file()
    assert ours["agent_evaluators"]["run_folder"] == str(run_folder)


def test_output_path_file_in_a_missing_folder_is_refused_before_anything_runs(tmp_path):
    from agent_evaluators.errors import ConfigError

    data = write_jsonl(tmp_path / "d.jsonl", PLAIN_ROWS[:1])
    with pytest.raises(ConfigError, match="does not exist; create it first"):
        our_evaluate(data=data, evaluators={"words": words}, output_path=str(tmp_path / "nope" / "r.json"))
    with pytest.raises(azure_evaluation._exceptions.EvaluationException, match="does not exist"):
        azure_evaluation.evaluate(data=data, evaluators={"words": words}, output_path=str(tmp_path / "nope" / "r.json"))
    assert not (tmp_path / "nope").exists()


# ---------------------------------------------------------------------------- judge evaluators
def azure_judge(req: ChatRequest) -> Dict[str, Any]:
    """Answers 1.18's json_object prompts: the verdict is scripted by words in the conversation."""
    text = req.text
    if "TOOL CALLS TO BE EVALUATED" in text:
        wrong = "wrong_city" in text
        return {"reason": "Let's think step by step: checked the calls", "score": 2 if wrong else 5,
                "status": "completed",
                "properties": {"tool_calls_made_by_agent": 1, "correct_tool_calls_made_by_agent": 0 if wrong else 1,
                               "per_tool_call_details": [{"tool_name": "get_weather", "total_calls_required": 1,
                                                          "correct_calls_made_by_agent": 0 if wrong else 1,
                                                          "correct_tool_percentage": 0.0 if wrong else 1.0,
                                                          "tool_call_errors": 0, "tool_success_result": "success"}],
                               "excess_tool_calls": {"total": 0, "details": []},
                               "missing_tool_calls": {"total": 0, "details": []}}}
    if "nothing to judge here" in text:
        return {"reason": "no user intent to resolve", "status": "skipped"}
    return {"reason": "intent judged", "score": 5 if "Paris" in text else 2, "status": "completed",
            "properties": {"agent_perceived_intent": "weather", "actual_user_intent": "weather",
                           "correct_intent_detected": True, "intent_resolved": "Paris" in text}}


WEATHER_TOOL = {"name": "get_weather", "description": "Weather for a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}


def _call(city: str, call_id: str = "call_1") -> List[Dict[str, Any]]:
    return [
        {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": call_id, "name": "get_weather",
                                           "arguments": {"city": city}}]},
        {"role": "tool", "tool_call_id": call_id, "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
        {"role": "assistant", "content": [{"type": "text", "text": f"It is 21 degrees in {city}."}]},
    ]


AGENT_ROWS = [
    {"query": "Weather in Paris?", "response": _call("Paris"), "tool_definitions": [WEATHER_TOOL]},
    {"query": "Weather in Rome?", "response": _call("wrong_city"), "tool_definitions": [WEATHER_TOOL]},
    {"query": "Weather in Oslo?", "response": [{"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]}],
     "tool_definitions": [WEATHER_TOOL]},  # no tool calls
    {"query": "nothing to judge here", "response": _call("Paris"),
     "tool_definitions": [{**WEATHER_TOOL, "name": "get_time"}]},  # the called tool has no definition
    {"query": "Weather in Paris?", "response": _call("Paris"), "tool_definitions": []},  # 1.18's tca raises
]


@pytest.fixture(scope="module")
def judge_runs(tmp_path_factory):
    import os

    from agent_evaluators.testing import JudgeServer

    os.environ["PF_DISABLE_TRACING"] = "true"
    tmp = tmp_path_factory.mktemp("judge")
    data = write_jsonl(tmp / "agent.jsonl", AGENT_ROWS)
    with JudgeServer(azure_judge) as server:
        config = {**server.openai_config(), "type": "openai"}  # 1.18 needs "type" (its bug; we do not)

        def evaluators() -> Dict[str, Any]:
            return {"intent": azure_evaluation.IntentResolutionEvaluator(config),
                    "tca": azure_evaluation.ToolCallAccuracyEvaluator(config)}

        theirs = azure_evaluation.evaluate(data=data, evaluators=evaluators())
        ours = our_evaluate(data=data, evaluators=evaluators(), show_progress=False)
    return theirs, ours


def test_judge_evaluators_rows_and_metrics_match(judge_runs):
    theirs, ours = judge_runs
    assert_same_rows(theirs["rows"], ours["rows"], error_keys={"outputs.tca.error"})  # ERROR_KEY: the last row
    assert [r["outputs.tca.tool_call_accuracy_status"] for r in ours["rows"]] == [
        "completed", "completed", "skipped", "skipped", None]
    assert "Tool definitions" in ours["rows"][4]["outputs.tca.error"]
    assert_same_order_and_types(theirs["rows"], ours["rows"])
    assert [r["outputs.intent.intent_resolution_result"] for r in ours["rows"]] == [
        "pass", "fail", "fail", "not_applicable", "pass"]
    # BOOL_GAPS: the not-applicable rows leave None in "_passed"; 1.18 then drops both pass rates
    assert_same_metrics(theirs["metrics"], ours["metrics"],
                        ours_only={"tca.tool_call_accuracy_passed", "intent.intent_resolution_passed"})
    assert ours["metrics"]["tca.binary_aggregate"] == 0.2 and ours["metrics"]["tca.tool_call_accuracy"] == 3.5
    assert ours["metrics"]["intent.binary_aggregate"] == 0.4
    json.dumps(ours, allow_nan=False)


CONVERSATION_ROWS = [
    {"conversation": {"messages": [
        {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "Sunny in Paris."},
        {"role": "user", "content": "And in Rome?"}, {"role": "assistant", "content": "I do not know."}]}},
    {"conversation": {"messages": [
        {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "Paris: 21 degrees."}]}},
]


def test_a_conversation_column_spreads_per_turn_results_as_1_18_does(tmp_path):
    from agent_evaluators.testing import JudgeServer

    data = write_jsonl(tmp_path / "conv.jsonl", CONVERSATION_ROWS)
    with JudgeServer(azure_judge) as server:
        config = {**server.openai_config(), "type": "openai"}
        theirs = azure_evaluation.evaluate(
            data=data, evaluators={"coh": azure_evaluation.CoherenceEvaluator(config)})
        ours = our_evaluate(data=data, evaluators={"coh": azure_evaluation.CoherenceEvaluator(config)},
                            show_progress=False)
    per_turn = [k for k in ours["rows"][0] if ".evaluation_per_turn." in k]
    assert "outputs.coh.evaluation_per_turn.coherence" in per_turn
    assert_same_rows(theirs["rows"], ours["rows"])
    assert_same_metrics(theirs["metrics"], ours["metrics"])
    assert_same_order_and_types(theirs["rows"], ours["rows"])


# ---------------------------------------------------------------------------- ours only
def test_azure_ai_project_is_accepted_results_stay_local_and_a_warning_says_so(tmp_path, caplog):
    data = write_jsonl(tmp_path / "d.jsonl", PLAIN_ROWS[:2])
    project = azure_evaluation.AzureAIProject(subscription_id="s", resource_group_name="g", project_name="p")
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            result = our_evaluate(data=data, evaluators={"words": words}, azure_ai_project=project,
                                  show_progress=False)
            assert result["studio_url"] is None
            assert "results stay local" in result["agent_evaluators"]["note"]
    assert sum("results stay local" in r.getMessage() for r in caplog.records) == 2  # once per call
    plain = our_evaluate(data=data, evaluators={"words": words}, show_progress=False)
    assert plain["agent_evaluators"]["note"] is None


def test_our_run_options_are_keywords_and_a_misspelt_one_is_an_error(tmp_path):
    from agent_evaluators.errors import ConfigError

    data = write_jsonl(tmp_path / "d.jsonl", PLAIN_ROWS)
    out = tmp_path / "r.json"
    first = our_evaluate(data=data, evaluators={"words": words}, output_path=str(out), max_rows=2,
                         max_concurrency=2, show_progress=False, user_agent="my-app", _use_pf_client=False)
    assert len(first["rows"]) == 2
    more = our_evaluate(data=data, evaluators={"words": words}, output_path=str(out), resume=True,
                        show_progress=False)
    assert len(more["rows"]) == 4 and json.loads(out.read_text())["metrics"]["words.output"] == 1.75
    with pytest.raises(ConfigError, match="unknown keyword 'max_concurency'"):
        our_evaluate(data=data, evaluators={"words": words}, max_concurency=2)


def echo_agent(query: str) -> Dict[str, Any]:
    return {"response": query * 2}


def response_length(response: str) -> Dict[str, Any]:
    return {"n": len(response)}


def test_a_target_adds_its_outputs_and_line_numbers_as_1_18_does(tmp_path):
    data = write_jsonl(tmp_path / "t.jsonl", [{"query": "a"}, {"query": "bb"}, {"query": "ccc"}])
    theirs = azure_evaluation.evaluate(data=data, evaluators={"e": response_length}, target=echo_agent)
    ours = our_evaluate(data=data, evaluators={"e": response_length}, target=echo_agent, show_progress=False)
    assert_same_rows(theirs["rows"], ours["rows"])
    assert [r["inputs.line_number"] for r in ours["rows"]] == [0, 1, 2]
    assert [r["outputs.response"] for r in ours["rows"]] == ["aa", "bbbb", "cccccc"]
    assert_same_metrics(theirs["metrics"], ours["metrics"])


# ---------------------------------------------------------------------------- issue 35: ours against 1.18, class for class
#: deliberate: our verdicts' own fields stay in ``_properties`` (test_azure_1_18.PROPERTIES_DIFFERENCE)
PROPERTIES_COLUMNS = "our _properties keep our verdict's own fields and no sample_input/sample_output"


def both_judge(req: ChatRequest) -> Dict[str, Any]:
    """The same verdict for both sides, in the format each asks for: 5 when the prompt says Zanzibar, else 2."""
    from agent_evaluators.testing import schema_reply

    score = 5 if "Zanzibar" in req.text else 2
    if req.json_schema is None:
        return {"reason": "judged", "score": score, "status": "completed"}
    return {**schema_reply(req), "reason": "judged", "score": score}


def _without_properties(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return [{k: v for k, v in row.items() if not k.endswith("_properties")} for row in rows]


def assert_same_order_and_types(theirs: List[Dict[str, Any]], ours: List[Dict[str, Any]]) -> None:
    """Each row's columns in 1.18's order, and each value of 1.18's type (a float ``_threshold`` where 1.18's
    frame turned the column into floats); 1.18's NaN is our None (NAN_IS_NONE)."""
    for i, (a, o) in enumerate(zip(theirs, ours)):
        assert [k for k in o if k in a] == list(a), (i, list(a), list(o))
        for key, value in a.items():
            if isinstance(value, float) and math.isnan(value):
                continue
            assert type(o[key]) is type(value), (i, key, value, o[key])


ROWS_WITH_A_GAP = [
    {"query": "Capital of Zanzibar?", "response": "Zanzibar City.", "ground_truth": "Zanzibar City"},
    {"query": "Capital of Italy?", "response": "Rome."},  # no ground_truth: 1.18 judges the text "nan"
    {"query": "Capital?", "response": "Lyon.", "ground_truth": "Zanzibar City"},
    {"query": "Capital?", "response": "Lyon.", "ground_truth": ""},
    {"query": "Capital?", "response": "Zanzibar City.", "ground_truth": 7},
]


def _both_runs(tmp_path, rows, make, **options):
    """(1.18's evaluate() with 1.18's classes, ours with ours), on the same data and judge."""
    import agent_evaluators.azure as ours_module
    from agent_evaluators.testing import JudgeServer

    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    with JudgeServer(both_judge) as server:
        config = {**server.openai_config(), "type": "openai"}
        theirs = azure_evaluation.evaluate(data=data, evaluators=make(azure_evaluation, config), **options)
        ours = our_evaluate(data=data, evaluators=make(ours_module, config), show_progress=False, **options)
    return theirs, ours


def test_a_row_missing_a_mapped_column_is_judged_as_1_18_judges_it(tmp_path):
    """Issue 35 item 1: the absent ground truth is the text "nan" to the judge, "" is judged too."""
    theirs, ours = _both_runs(
        tmp_path, ROWS_WITH_A_GAP,
        lambda m, c: {"complete": m.ResponseCompletenessEvaluator(c), "similar": m.SimilarityEvaluator(c)},
        evaluator_config={"default": {"column_mapping": {"ground_truth": "${data.ground_truth}"}}})
    assert_same_rows(_without_properties(theirs["rows"]), _without_properties(ours["rows"]))  # PROPERTIES_COLUMNS
    assert_same_metrics(theirs["metrics"], ours["metrics"])
    assert [r["outputs.complete.response_completeness_result"] for r in ours["rows"]] == [
        "pass", "fail", "pass", "fail", "pass"]
    assert ours["metrics"]["complete.binary_aggregate"] == 0.6 and ours["agent_evaluators"]["errors"] == []


def test_a_shared_default_mapping_and_an_entry_for_no_evaluator_work_as_in_1_18(tmp_path):
    """Issue 35 items 2 and 3: "default" names inputs only some evaluators take; an entry for an alias
    that is not in ``evaluators`` (a config shared by several runs) is ignored."""
    rows = [{"q": "Weather in Zanzibar?", "a": "Sunny in Zanzibar.", "truth": "Zanzibar: sunny",
             "tools": [WEATHER_TOOL]},
            {"q": "Weather in Rome?", "a": "No idea.", "truth": "Rome: rain", "tools": [WEATHER_TOOL]}]
    mapping = {"query": "${data.q}", "response": "${data.a}", "ground_truth": "${data.truth}",
               "tool_definitions": "${data.tools}"}
    theirs, ours = _both_runs(
        tmp_path, rows,
        lambda m, c: {"fluent": m.FluencyEvaluator(c), "complete": m.ResponseCompletenessEvaluator(c),
                      "relevant": m.RelevanceEvaluator(c)},
        evaluator_config={"default": {"column_mapping": mapping},
                          "not_in_this_run": {"column_mapping": {"response": "${data.nothing}"}}})
    assert_same_rows(_without_properties(theirs["rows"]), _without_properties(ours["rows"]))  # PROPERTIES_COLUMNS
    assert_same_metrics(theirs["metrics"], ours["metrics"])
    assert ours["metrics"]["fluent.binary_aggregate"] == 0.5 and ours["agent_evaluators"]["errors"] == []


def test_column_order_and_threshold_types_are_1_18s(tmp_path):
    """Issue 35 item 5: a row's columns in 1.18's order; ``_threshold`` a float where 1.18's frame has
    floats (an errored row turns the column into floats), an int where it does not."""
    rows = [dict(r) for r in AGENT_ROWS]
    theirs, ours = _both_runs(
        tmp_path, rows,
        lambda m, c: {"intent": m.IntentResolutionEvaluator(c), "tca": m.ToolCallAccuracyEvaluator(c)})
    assert_same_order_and_types(theirs["rows"], ours["rows"])
    assert type(ours["rows"][0]["outputs.tca.tool_call_accuracy_threshold"]) is float  # the last row errored
    assert type(ours["rows"][0]["outputs.intent.intent_resolution_threshold"]) is int


def test_a_conversation_row_with_no_reply_is_an_empty_result_not_an_error(tmp_path):
    """Issue 35 item 2 in evaluate(): 1.18's evaluator returns {} (no columns for that row, no error)."""
    rows = [{"conversation": {"messages": [{"role": "user", "content": "Zanzibar?"},
                                           {"role": "assistant", "content": "Zanzibar City."}]}},
            {"conversation": {"messages": [{"role": "user", "content": "Anyone there?"}]}}]
    theirs, ours = _both_runs(tmp_path, rows, lambda m, c: {"fluent": m.FluencyEvaluator(c)})
    assert_same_rows(_without_properties(theirs["rows"]), _without_properties(ours["rows"]))  # no error key either
    assert_same_order_and_types(theirs["rows"], ours["rows"])
    # BOOL_GAPS: the empty row leaves a gap in "_passed"
    assert_same_metrics(theirs["metrics"], ours["metrics"], ours_only={"fluent.fluency_passed"})
    assert ours["metrics"]["fluent.binary_aggregate"] == 0.5 and ours["agent_evaluators"]["errors"] == []
