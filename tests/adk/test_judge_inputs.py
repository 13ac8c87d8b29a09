"""What ADK's judge criteria read off invocations, checked over real HTTP against the local judge.

Three places where we differed from google-adk 2.13 (found by running ADK's unit tests on ours):
per-invocation rubrics counted twice, grounding metadata missing from the rubric judge, and
``thought`` parts reaching the judges as the user's or agent's words.
"""

import json
import re

import pytest

from agent_evaluators.adk import evaluate_invocations
from agent_evaluators.adk.evalsets.runner import run_eval_sets
from agent_evaluators.adk.results import EvalStatus
from agent_evaluators.testing import read_transcript

RUBRIC = {"rubric_id": "r1", "rubric_content": {"text_property": "The answer names Paris."},
          "type": "FINAL_RESPONSE_QUALITY"}
TOOL_RUBRIC = {"rubric_id": "t1", "rubric_content": {"text_property": "Calls lookup once."}, "type": "TOOL_USE_QUALITY"}
JUDGE_ONCE = {"threshold": 0.5, "judge_model_options": {"num_samples": 1}}


def block(req, tag):
    """A block of the judge prompt read back (JSON as itself, a transcript as messages, calls or lines)."""
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", req.text, re.DOTALL)
    assert m, f"no <{tag}> block in the judge prompt"
    return read_transcript(m.group(1))


def rubrics(req):
    """The rubrics block: one ``rubric_id: property`` line each."""
    return [{"rubric_id": d["name"], "property": d["description"]} for d in block(req, "rubrics")]


def rubric_yes(req):
    """yes to every rubric the judge is sent."""
    return {"rubrics": [{"rubric_id": r["rubric_id"], "property": r["property"], "evidence": "e",
                         "rationale": "ok", "verdict": "yes"} for r in rubrics(req)]}


def invocation(user="What is the capital of France?", final="Paris.", **extra):
    out = {"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": user}]},
           "final_response": {"role": "model", "parts": [{"text": final}]}}
    out.update(extra)
    return out


def _evalset(tmp_path, expected):
    path = tmp_path / "rubrics.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "set1", "eval_cases": [{"eval_id": "c1", "conversation": [expected]}]}))
    return path


def test_rubrics_on_an_expected_invocation_are_scored_once_through_the_runner(tmp_path, judge):
    # ADK's LocalEvalService copies the expected invocation's rubrics onto the actual one, and the
    # metric reads the actual invocation's rubrics; reading both counted r1 twice -> NOT_EVALUATED
    path = _evalset(tmp_path, invocation(rubrics=[RUBRIC]))
    server = judge(rubric_yes)
    config = {"criteria": {"rubric_based_final_response_quality_v1": JUDGE_ONCE}}
    (result,) = run_eval_sets(path, actual={"c1": [invocation()]}, config=config,
                              model_config=server.openai_config(), output_dir=tmp_path / "out")
    (metric,) = result.overall_eval_metric_results
    assert (metric.eval_status, metric.score) == (EvalStatus.PASSED, 1.0), result.notes
    assert [[r["rubric_id"] for r in rubrics(req)] for req in server.requests] == [["r1"]]
    # the result file's actual invocation carries the copied rubric, as ADK's does
    (written,) = (tmp_path / "out").glob("*.evalset_result.json")
    case = json.loads(written.read_text())["eval_case_results"][0]
    assert case["eval_metric_result_per_invocation"][0]["actual_invocation"]["rubrics"][0]["rubric_id"] == "r1"

    # and the same case again, with the actual invocations read back from that result file
    (again,) = run_eval_sets(path, actual=written, config=config, model_config=server.openai_config())
    assert again.overall_eval_metric_results[0].eval_status == EvalStatus.PASSED, again.notes


def test_rubrics_on_both_invocations_through_evaluate_invocations(judge):
    # actual invocations from an ADK result file hold the copied rubric; the expected ones hold it too
    server = judge(rubric_yes)
    result = evaluate_invocations("rubric_based_final_response_quality_v1", [invocation(rubrics=[RUBRIC])],
                                  [invocation(rubrics=[RUBRIC])], JUDGE_ONCE, server.openai_config())
    assert (result.status, result.score) == ("PASSED", 1.0), result.details
    # an expected invocation's rubric alone still applies (copied as ADK's LocalEvalService does)
    alone = evaluate_invocations("rubric_based_final_response_quality_v1", [invocation()],
                                 [invocation(rubrics=[RUBRIC])], JUDGE_ONCE, server.openai_config())
    assert (alone.status, alone.score) == ("PASSED", 1.0)
    # the same id with other content is ADK's ValueError: not evaluated, no judge call
    other = dict(RUBRIC, rubric_content={"text_property": "Something else."})
    before = server.stats()["requests"]
    clash = evaluate_invocations("rubric_based_final_response_quality_v1", [invocation(rubrics=[RUBRIC])],
                                 [invocation(rubrics=[other])], JUDGE_ONCE, server.openai_config())
    assert clash.status == "NOT_EVALUATED" and "already exists" in clash.details["reason"]
    assert server.stats()["requests"] == before


def test_grounding_metadata_reaches_the_final_response_rubric_judge(judge):
    grounding = {"grounding_chunks": [{"web": {"uri": "https://example.org/paris", "title": "Paris facts"}}],
                 "web_search_queries": ["capital of France"]}
    events = {"invocation_events": [
        {"author": "agent", "content": {"role": "model", "parts": [{"text": "Searching."}]},
         "grounding_metadata": grounding},
    ]}
    server = judge(rubric_yes)
    result = evaluate_invocations("rubric_based_final_response_quality_v1",
                                  [invocation(intermediate_data=events)], None,
                                  dict(JUDGE_ONCE, rubrics=[RUBRIC]), server.openai_config())
    assert result.status == "PASSED"
    (req,) = server.requests
    assert "https://example.org/paris" in json.dumps(req.body)  # in the HTTP request body itself
    assert block(req, "grounding_metadata") == [{"step": 0, "author": "agent", "grounding_metadata": grounding}]
    # without grounding the slot is there and empty
    evaluate_invocations("rubric_based_final_response_quality_v1", [invocation()], None,
                         dict(JUDGE_ONCE, rubrics=[RUBRIC]), server.openai_config())
    assert block(server.requests[1], "grounding_metadata") == []


def test_thought_parts_never_reach_the_judges(judge):
    thought = {"text": "PRIVATE: the user seems impatient", "thought": True}
    user = {"role": "user", "parts": [thought, {"text": "Look up Paris."}]}
    events = {"invocation_events": [
        {"author": "agent", "content": {"role": "model", "parts": [
            {"text": "PRIVATE: I should call lookup", "thought": True},
            {"function_call": {"id": "c1", "name": "lookup", "args": {"city": "Paris"}}}]}},
        {"author": "agent", "content": {"role": "user", "parts": [
            {"function_response": {"id": "c1", "name": "lookup", "response": {"country": "France"}}}]}},
    ]}
    final = {"role": "model", "parts": [{"text": "PRIVATE: done", "thought": True}, {"text": "Paris is in France."}]}
    actual = [invocation(user_content=user, final_response=final, intermediate_data=events)]
    server = judge(rubric_yes)
    tool_use = evaluate_invocations("rubric_based_tool_use_quality_v1", actual, None,
                                    dict(JUDGE_ONCE, rubrics=[TOOL_RUBRIC]), server.openai_config())
    quality = evaluate_invocations("rubric_based_final_response_quality_v1", actual, None,
                                   dict(JUDGE_ONCE, rubrics=[RUBRIC], include_intermediate_responses_in_final=True),
                                   server.openai_config())
    assert tool_use.status == quality.status == "PASSED"
    tool_req, quality_req = server.requests
    assert block(tool_req, "conversation") == [{"role": "user", "content": "Look up Paris."}]
    assert block(tool_req, "tool_steps")[0]["name"] == "lookup"
    assert block(quality_req, "final_response") == "Paris is in France."
    assert not any("PRIVATE" in req.text for req in server.requests)


def test_response_match_still_reads_every_text_part_as_adk(judge):
    # ROUGE is no judge input: ADK's text (thoughts included) is kept there
    final = {"role": "model", "parts": [{"text": "alpha", "thought": True}, {"text": "beta"}]}
    result = evaluate_invocations("response_match_score", [invocation(final_response=final)],
                                  [invocation(final="alpha beta")], 0.8)
    assert result.score == pytest.approx(1.0)


@pytest.fixture
def judge(judge_server):
    return judge_server  # the project-wide factory (tests/conftest.py)
