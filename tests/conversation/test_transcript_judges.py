"""The judges outside the declared base render their rows through the one compact transcript.

The rubric, trajectory and answer-similarity judges and the ADK judges build their own template
inputs; over real HTTP to the fake judge, each prompt must hold every fact its rubric asks about
(the users' messages, the final reply, the tool calls with their arguments, tool results where
read, the rubrics, the reference where read) and no JSON document escaped inside a JSON string,
no Python repr, no message JSON.
"""

import re
from typing import Any, Callable, Dict, List

import pytest

from agent_evaluators import AnswerSimilarityEvaluator, RubricEvaluator, TrajectoryJudgeEvaluator
from agent_evaluators.adk.judges import (
    FinalResponseMatchEvaluator,
    MultiTurnTaskSuccessEvaluator,
    MultiTurnToolUseQualityEvaluator,
    MultiTurnTrajectoryQualityEvaluator,
    RubricBasedFinalResponseQualityEvaluator,
    RubricBasedMultiTurnTrajectoryQualityEvaluator,
    RubricBasedToolUseQualityEvaluator,
    SafetyEvaluator,
)
from agent_evaluators.adk.judges.response_evaluation import ResponseEvaluationEvaluator
from agent_evaluators.conversation.transcript import data_value
from agent_evaluators.testing import JudgeServer, read_transcript, schema_reply

from .test_transcript_all_judges import FINAL, GROUND_TRUTH, QUERY, RESPONSE, RESPONSE_CALL, USERS

RUBRICS = ["States how long the refund takes.", 'Quotes the amount as {"amount": 120}.']
TOOLS = [{"name": "file_search", "description": "search the handbook",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}]
REFERENCE = [{"name": "search_flights", "args": {"to": "BOS"}}, {"name": "file_search", "args": {"query": "refund days"}}]
POLICY_LINE = "Never rebook basic economy."
EARLIER_CALL = 'get_reservation(reservation_id="8JX2WO")'


def _blocks(text: str) -> Dict[str, str]:
    return dict(re.findall(r"<([a-z_]+)>\n(.*?)\n</\1>", text, re.S))


#: judge -> (make it, call it, what its prompt must hold: users "all"/"last"/None, the reply,
#: the reply's call, tool results, the earlier call, the rubrics, the reference, the policy)
Case = Dict[str, Any]
CASES: Dict[str, Case] = {
    "rubric": dict(make=lambda c: RubricEvaluator(RUBRICS, c), row=dict(query=QUERY, response=RESPONSE),
                   users="all", calls=True, results=True, earlier=True, rubrics=True, policy=True),
    "trajectory": dict(make=lambda c: TrajectoryJudgeEvaluator(c), users="all", calls=True, results=True, earlier=True,
                       row=dict(response=QUERY + RESPONSE, ground_truth=REFERENCE, query=USERS[-1],
                                tool_definitions=TOOLS), reference='search_flights(to="BOS")', policy=True, tools=True,
                       block="trajectory"),
    "answer_similarity": dict(make=lambda c: AnswerSimilarityEvaluator(c), row=dict(response=RESPONSE,
                                                                                    ground_truth=GROUND_TRUTH),
                              users=None, reference=data_value(GROUND_TRUTH)),
    "adk_rubric_final_response": dict(
        make=lambda c: RubricBasedFinalResponseQualityEvaluator(RUBRICS, c, num_samples=1),
        row=dict(query=QUERY, response=RESPONSE, tool_definitions=TOOLS, instructions=POLICY_LINE),
        users="all", calls=True, results=True, earlier=True, rubrics=True, policy=True, tools=True),
    "adk_rubric_tool_use": dict(make=lambda c: RubricBasedToolUseQualityEvaluator(RUBRICS, c, num_samples=1),
                                row=dict(query=QUERY, response=RESPONSE, tool_definitions=TOOLS), answer=False,
                                users="all", calls=True, results=True, earlier=True, rubrics=True, tools=True),
    "adk_final_response_match": dict(make=lambda c: FinalResponseMatchEvaluator(c, num_samples=1),
                                     row=dict(query=QUERY, response=RESPONSE, ground_truth=GROUND_TRUTH),
                                     users="last", reference=data_value(GROUND_TRUTH)),
    "adk_safety": dict(make=lambda c: SafetyEvaluator(c), row=dict(query=QUERY, response=RESPONSE), users="all",
                       calls=True),
    "adk_response_evaluation": dict(make=lambda c: ResponseEvaluationEvaluator(c), row=dict(query=QUERY, response=RESPONSE),
                                    users="last"),
}
for _key, _cls in [("adk_multi_turn_rubric", None), ("adk_multi_turn_task_success", MultiTurnTaskSuccessEvaluator),
                   ("adk_multi_turn_trajectory", MultiTurnTrajectoryQualityEvaluator),
                   ("adk_multi_turn_tool_use", MultiTurnToolUseQualityEvaluator)]:
    _make: Callable[[Any], Any] = ((lambda c: RubricBasedMultiTurnTrajectoryQualityEvaluator(RUBRICS, c, num_samples=1))
                                   if _cls is None else (lambda c, k=_cls: k(c)))
    CASES[_key] = dict(make=_make, row=dict(conversation=QUERY + RESPONSE, tool_definitions=TOOLS), users="all",
                       calls=True, results=True, earlier=True, rubrics=_cls is None, policy=True, tools=True)


@pytest.fixture(scope="module")
def server():
    with JudgeServer(lambda req: schema_reply(req)) as s:
        yield s


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_holds_every_fact_the_rubric_asks_about(server, name):
    case = CASES[name]
    before = len(server.requests)
    case["make"](server.openai_config())(**case["row"])
    req = server.requests[before]
    text = req.messages[-1]["content"]
    users = case["users"]
    if users == "all":
        blocks = _blocks(text)
        conversation = blocks[case["block"]] if "block" in case else next(
            body for body in blocks.values() if body.startswith(("User turn 1: ", "System")))
        assert [m["content"] for m in read_transcript(conversation) if m.get("role") == "user"] == USERS
    elif users == "last":
        assert data_value(USERS[-1]) in text and data_value(USERS[0]) not in text
    else:
        assert not any(data_value(u) in text for u in USERS)
    assert (data_value(FINAL) in text) == case.get("answer", True)
    assert (RESPONSE_CALL in text) == bool(case.get("calls"))
    assert ('{"results":[{"file_name":"refunds.md"' in text) == bool(case.get("results"))  # minified once
    assert (EARLIER_CALL in text) == bool(case.get("earlier"))
    assert (POLICY_LINE in text) == bool(case.get("policy"))
    assert ("file_search: search the handbook" in text) == bool(case.get("tools"))
    for rubric in RUBRICS:
        assert (data_value(rubric) in text) == bool(case.get("rubrics"))
    if case.get("reference"):
        assert case["reference"] in text
    # no JSON document escaped inside a JSON string, no Python repr, no message JSON
    assert '\\"' not in text and "{'" not in text and '"role"' not in text


def test_every_case_names_a_distinct_judge():
    """The table above covers each judge once: a judge added to it twice would hide a missing one."""
    made: List[str] = [type(c["make"]({"model": "m", "base_url": "http://127.0.0.1:9"})).__name__ for c in CASES.values()]
    assert len(made) == len(set(made)) == len(CASES)


def test_user_simulator_quality_reads_the_plan_history_and_the_new_message_as_text(server):
    """ADK's per-turn user-simulator judge: the plan, every earlier turn's words (as numbered turns)
    and the simulated user's next message, each as text."""
    from agent_evaluators.adk.judges.user_simulator_quality import PerTurnUserSimulatorQualityEvaluator

    replies = ['Found it: {"cabin": "economy"}.', "Noted.", "Two options."]
    messages = [m for u, a in zip(USERS, replies + [None], strict=True)
                for m in ([{"role": "user", "content": u}] + ([{"role": "assistant", "content": a}] if a else []))]
    plan = 'Rebook to {"to": "BOS"}; then ask about the refund.'
    before = len(server.requests)
    PerTurnUserSimulatorQualityEvaluator(server.openai_config())(messages=messages, starting_prompt=USERS[0],
                                                                 conversation_plan=plan)
    asked = [r.messages[-1]["content"] for r in server.requests[before:]]
    text = next(t for t in asked if _blocks(t)["generated_user_response"] == data_value(USERS[-1]))  # the last user turn
    history = read_transcript(_blocks(text)["conversation_history"])
    assert [m["content"] for m in history if m["role"] == "user"] == USERS[:-1]
    assert [m["content"] for m in history if m["role"] == "assistant"] == replies
    assert data_value(plan) in text
    assert '\\"' not in text and "{'" not in text and '"role"' not in text and '"speaker"' not in text


def test_hallucinations_validator_reads_the_steps_before_the_answer_as_a_transcript(server):
    """ADK's hallucinations_v1: the validator sees the request, the tools, the context and the
    steps before the checked text (the call with its arguments and the result it returned) as
    text, and each sentence one a line."""
    from agent_evaluators.adk.judges import HallucinationEvaluator

    context = 'Refund policy: {"days": 5, "fee": 0}.'
    before = len(server.requests)
    HallucinationEvaluator(server.openai_config())(query=QUERY, response=RESPONSE, context=context,
                                                   tool_definitions=TOOLS, instructions=POLICY_LINE)
    [text] = [r.messages[-1]["content"] for r in server.requests[before:] if "<sentences>" in r.text]
    blocks = _blocks(text)
    assert [m["content"] for m in read_transcript(blocks["user_request"]) if m["role"] == "user"] == USERS
    assert RESPONSE_CALL in blocks["prior_steps"] and '{"results":[{"file_name":"refunds.md"' in blocks["prior_steps"]
    assert data_value(context) in text and POLICY_LINE in text and "file_search: search the handbook" in text
    sentences = read_transcript(blocks["sentences"])  # "index: sentence" lines
    assert [d["name"] for d in sentences] == [str(i) for i in range(len(sentences))] and FINAL in [
        d["description"] for d in sentences]
    assert '\\"' not in text and "{'" not in text and '"role"' not in text
