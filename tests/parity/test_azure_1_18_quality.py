"""Differential test of the quality judges: azure-ai-evaluation 1.18.10 and ``agent_evaluators.azure``
on the same rows (Groundedness, Relevance, Coherence, Fluency, Similarity, Retrieval, QA).

The harness is :mod:`.test_azure_1_18`'s: one local judge over HTTP answers each side in the format
that side asks for (azure: ``json_object``; ours: our verdict schema) with the SAME scripted verdict,
found by the ``[case:<id>]`` marker in the rendered prompt; the cases use :mod:`.azure_cases`'
message builders. Asserted equal: the key set, the score columns, ``_result``, ``_passed``,
``_threshold``, ``_status``, the not-applicable reason, the per-turn columns of a conversation,
and the judge's calls (how many). Deliberate differences are listed in :data:`QUALITY_DIFFERENCES`
(and :data:`.test_azure_1_18.DIFFERENCES`); cases that show azure's own behaviour, reproduced on
purpose, are marked ``azure_behaviour``. ``test_compared_counts`` prints the cases compared per
evaluator.
"""

from collections import Counter
from typing import Any, Dict, List, Optional

import pytest

from ..conftest import optional_import
from . import judge_harness
from .azure_cases import WEATHER_RUN, Case, call, pending, query, result, said, user, v
from .judge_harness import COMPARED_SUFFIXES, assert_same_columns, scripted_judge
from .test_azure_1_18 import DIFFERENCES

azure_evaluation = optional_import("azure.ai.evaluation")

#: our verdicts' own fields, reported in ``_properties`` (azure's prompts do not ask for them)
OUR_PROPERTIES = {
    "GroundednessEvaluator": {"unsupported_claims"},
    "RelevanceEvaluator": {"unaddressed"},
    "CoherenceEvaluator": {"breaks"},
    "FluencyEvaluator": {"errors"},
    "SimilarityEvaluator": {"differences"},
    "RetrievalEvaluator": {"missing_information"},
}

QUALITY_DIFFERENCES = {
    **DIFFERENCES,
    "retrieval_thought_chain": ("Retrieval: azure's prompt has the judge write a thought_chain into _properties; "
                                "ours asks for missing_information instead (our verdict fields)"),
    "turn_context_text": ("conversation=: a turn's context reaches our judge as the texts themselves, azure's as "
                          "str() of a dict of them; the scores, per-turn rows and aggregation are azure's"),
}

FILE_SEARCH_RUN = [
    call("fs1", "file_search", queries=["leave policy"]),
    result("fs1", [{"file_name": "handbook.pdf", "content": [{"type": "text", "text": "Employees get 25 days."}]}]),
    said("You get 25 days of leave."),
]


def _single(cid: str, evaluator: str, call_args: Dict[str, Any], verdict: Optional[Dict[str, Any]],
            **extra: Any) -> Case:
    return Case(cid, evaluator, call_args, {cid: verdict} if verdict is not None else {}, **extra)


def _conversation(case_ids: List[str], marker_in: str = "user", context: bool = False) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    for i, cid in enumerate(case_ids):
        mark = f" [case:{cid}]"
        messages.append({"role": "user", "content": f"Question {i} about leave" + (mark if marker_in == "user" else ""),
                         **({"context": f"Handbook page {i}: 25 days of leave."} if context else {})})
        messages.append({"role": "assistant", "content": f"Answer {i}: 25 days." + (mark if marker_in != "user" else "")})
    return {"messages": messages}


THEIR_BEHAVIOUR_TEXT = "azure 1.18 judges a text response with no context against the response itself; kept"
THEIR_BEHAVIOUR_MARKER = ("azure 1.18 judges messages whose file_search found nothing against the marker '<>' unless "
                          "query and response are one item each; kept")

CASES: List[Case] = [
    # ------------------------------------------------------------------ Groundedness
    _single("g_text_pass", "GroundednessEvaluator",
            {"response": "You get 25 days.", "context": "Employees get 25 days. [case:g_text_pass]"}, v(5)),
    _single("g_query_fail", "GroundednessEvaluator",
            {"query": "How many days? [case:g_query_fail]", "response": "You get 40 days.",
             "context": "Employees get 25 days."}, v(2)),
    _single("g_threshold", "GroundednessEvaluator",
            {"response": "25 days.", "context": "25 days [case:g_threshold]"}, v(4), ctor={"threshold": 5}),
    _single("g_file_search", "GroundednessEvaluator",
            {"query": query("g_file_search", "How many days of leave do I get?"), "response": FILE_SEARCH_RUN}, v(5)),
    _single("g_file_search_fail", "GroundednessEvaluator",
            {"query": query("g_file_search_fail", "How many days of leave?"), "response": FILE_SEARCH_RUN[:2] + [
                said("You get 40 days.")], "tool_definitions": []}, v(1)),
    _single("g_no_context_single", "GroundednessEvaluator",
            {"query": "How many days? [case:g_no_context_single]", "response": [said("25 days.")]}, None),
    _single("g_no_context_multi", "GroundednessEvaluator",
            {"query": query("g_no_context_multi"), "response": WEATHER_RUN}, v(3),
            azure_behaviour=THEIR_BEHAVIOUR_MARKER),
    _single("g_text_no_context", "GroundednessEvaluator",
            {"query": "How many days? [case:g_text_no_context]", "response": "25 days."}, v(5),
            azure_behaviour=THEIR_BEHAVIOUR_TEXT),
    _single("g_intermediate", "GroundednessEvaluator",
            {"query": query("g_intermediate"), "response": [pending("p1", "file_search")],
             "context": "Employees get 25 days."}, None),
    Case("g_conversation", "GroundednessEvaluator",
         {"conversation": _conversation(["g_c1", "g_c2"], "assistant", context=True)}, {"g_c1": v(5), "g_c2": v(2)}),
    # ------------------------------------------------------------------ Relevance
    _single("rel_text_pass", "RelevanceEvaluator", {"query": "Leave days? [case:rel_text_pass]", "response": "25."},
            v(5)),
    _single("rel_text_fail", "RelevanceEvaluator",
            {"query": "Leave days? [case:rel_text_fail]", "response": "I like trains."}, v(1)),
    _single("rel_messages", "RelevanceEvaluator", {"query": query("rel_messages"), "response": WEATHER_RUN}, v(4)),
    _single("rel_threshold", "RelevanceEvaluator", {"query": "Q [case:rel_threshold]", "response": "A"}, v(3),
            ctor={"threshold": 4}),
    _single("rel_intermediate", "RelevanceEvaluator",
            {"query": query("rel_intermediate"), "response": [pending("p1", "get_weather")]}, None),
    Case("rel_conversation", "RelevanceEvaluator", {"conversation": _conversation(["rel_c1", "rel_c2"])},
         {"rel_c1": v(4), "rel_c2": v(2)}),
    # ------------------------------------------------------------------ Coherence
    _single("coh_pass", "CoherenceEvaluator", {"query": "Why? [case:coh_pass]", "response": "Because it rained."},
            v(5)),
    _single("coh_fail", "CoherenceEvaluator", {"query": "Why? [case:coh_fail]", "response": "rained because why"},
            v(2)),
    _single("coh_messages", "CoherenceEvaluator", {"query": query("coh_messages"), "response": WEATHER_RUN}, v(4)),
    _single("coh_threshold", "CoherenceEvaluator", {"query": "Q [case:coh_threshold]", "response": "A"}, v(2),
            ctor={"threshold": 2}),
    Case("coh_conversation", "CoherenceEvaluator", {"conversation": _conversation(["coh_c1", "coh_c2", "coh_c3"])},
         {"coh_c1": v(5), "coh_c2": v(3), "coh_c3": v(1)}),
    # ------------------------------------------------------------------ Fluency
    _single("flu_pass", "FluencyEvaluator", {"response": "The order is in transit. [case:flu_pass]"}, v(5)),
    _single("flu_fail", "FluencyEvaluator", {"response": "order it are transit [case:flu_fail]"}, v(1)),
    _single("flu_messages", "FluencyEvaluator", {"response": [user("x"), said("It is fine. [case:flu_messages]")]},
            v(4)),
    _single("flu_threshold", "FluencyEvaluator", {"response": "Fine. [case:flu_threshold]"}, v(4),
            ctor={"threshold": 5}),
    Case("flu_conversation", "FluencyEvaluator", {"conversation": _conversation(["flu_c1", "flu_c2"], "assistant")},
         {"flu_c1": v(5), "flu_c2": v(2)}),
    # ------------------------------------------------------------------ Similarity
    _single("sim_pass", "SimilarityEvaluator",
            {"query": "Capital of France? [case:sim_pass]", "response": "Paris.", "ground_truth": "Paris"}, v(5)),
    _single("sim_fail", "SimilarityEvaluator",
            {"query": "Capital of France? [case:sim_fail]", "response": "Lyon.", "ground_truth": "Paris"}, v(1)),
    _single("sim_threshold", "SimilarityEvaluator",
            {"query": "Q [case:sim_threshold]", "response": "A", "ground_truth": "B"}, v(3), ctor={"threshold": 3}),
    _single("sim_low_threshold", "SimilarityEvaluator",
            {"query": "Q [case:sim_low_threshold]", "response": "A", "ground_truth": "B"}, v(2),
            ctor={"threshold": 1}),
    # issue 35: ground truth as 1.18 renders it ("", a number, the NaN of an absent column: the text "nan")
    _single("sim_ground_truth_empty", "SimilarityEvaluator",
            {"query": "Capital of France? [case:sim_ground_truth_empty]", "response": "Paris.", "ground_truth": ""},
            v(1)),
    _single("sim_ground_truth_number", "SimilarityEvaluator",
            {"query": "Days of leave? [case:sim_ground_truth_number]", "response": "25.", "ground_truth": 25}, v(5)),
    _single("sim_ground_truth_nan", "SimilarityEvaluator",
            {"query": "Capital? [case:sim_ground_truth_nan]", "response": "Paris.", "ground_truth": float("nan")},
            v(1)),
    _single("sim_response_empty", "SimilarityEvaluator",
            {"query": "Capital? [case:sim_response_empty]", "response": "", "ground_truth": "Paris"}, v(1)),
    _single("sim_response_nan", "SimilarityEvaluator",
            {"query": "Capital? [case:sim_response_nan]", "response": float("nan"), "ground_truth": "Paris"}, v(1)),
    # conversation=: 1.18 pairs user and assistant messages, each assistant message carrying its ground_truth
    # (one without is judged against "")
    Case("sim_conversation", "SimilarityEvaluator", {"conversation": {"messages": [
        {"role": "user", "content": "Capital of France? [case:sim_c1]"},
        {"role": "assistant", "content": "Paris.", "ground_truth": "Paris"},
        {"role": "user", "content": "And of Italy? [case:sim_c2]"},
        {"role": "assistant", "content": "Milan."}]}},
         {"sim_c1": v(5), "sim_c2": v(2)}),
    Case("sim_conversation_one_turn", "SimilarityEvaluator", {"conversation": {"messages": [
        {"role": "user", "content": "Capital of France? [case:sim_one]"},
        {"role": "assistant", "content": "Paris.", "ground_truth": "Paris"}]}}, {"sim_one": v(4)}),
    # ------------------------------------------------------------------ Retrieval
    _single("ret_pass", "RetrievalEvaluator",
            {"query": "Leave days? [case:ret_pass]", "context": "Employees get 25 days of leave."},
            v(5, properties={"thought_chain": "Let's think step by step: relevant."})),
    _single("ret_fail", "RetrievalEvaluator",
            {"query": "Leave days? [case:ret_fail]", "context": "The cafeteria serves pasta."},
            v(1, properties={"thought_chain": "Let's think step by step: irrelevant."})),
    _single("ret_threshold", "RetrievalEvaluator",
            {"query": "Q [case:ret_threshold]", "context": "C"}, v(4, properties={"thought_chain": "t"}),
            ctor={"threshold": 5}),
    Case("ret_conversation", "RetrievalEvaluator", {"conversation": _conversation(["ret_c1", "ret_c2"], context=True)},
         {"ret_c1": v(4, properties={"thought_chain": "t"}), "ret_c2": v(2, properties={"thought_chain": "t"})}),
]

_VERDICTS: Dict[str, Dict[str, Any]] = {c_id: verdict for case in CASES for c_id, verdict in case.verdicts.items()}
COMPARED: Counter = Counter()


judge = scripted_judge(_VERDICTS, verdict_properties=False)
# the fixtures: the local judge server answering with ``judge``, azure's tracing off
server, no_tracing = judge_harness.server, judge_harness.no_tracing


def _azure(evaluator: str, ctor: Dict[str, Any], call_args: Dict[str, Any], config: Dict[str, Any]) -> Dict[str, Any]:
    return getattr(azure_evaluation, evaluator)({**config, "type": "openai"}, **ctor)(**call_args)


def _ours(evaluator: str, ctor: Dict[str, Any], call_args: Dict[str, Any], config: Dict[str, Any]) -> Dict[str, Any]:
    import agent_evaluators.azure as ours

    return getattr(ours, evaluator)(config, **ctor)(**call_args)  # type: ignore[no-any-return]


def assert_same_properties(case: Case, key: str, theirs: Any, ours: Any) -> None:
    """The judge's properties and the token/model columns are there on both sides; azure's
    sample_input/sample_output and retrieval's thought_chain are not ours (QUALITY_DIFFERENCES)."""
    if theirs is None:
        assert ours is None, case.id
        return
    dropped = {"sample_input", "sample_output", "thought_chain"}
    assert set(ours) == (set(theirs) - dropped) | OUR_PROPERTIES[case.evaluator], case.id
    assert ours["model"] == theirs["model"] and ours["finish_reason"] == theirs["finish_reason"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_row_as_azure(case: Case, server) -> None:
    config = server.openai_config()
    before = server.stats()["requests"]
    theirs = _azure(case.evaluator, case.ctor, case.call, config)
    asked_azure = server.stats()["requests"] - before
    ours = _ours(case.evaluator, case.ctor, case.call, config)
    asked_ours = server.stats()["requests"] - before - asked_azure
    assert asked_ours == asked_azure == len(case.verdicts), (case.id, asked_azure, asked_ours)
    key = next(k[: -len("_status")] for k in theirs if k.endswith("_status"))
    assert set(ours) == set(theirs), (case.id, sorted(set(ours) ^ set(theirs)))
    assert list(ours) == list(theirs), (case.id, list(theirs), list(ours))  # 1.18's key order (issue 35 item 5)
    assert_same_columns(case.id, key, theirs, ours, [key + s for s in COMPARED_SUFFIXES])
    if "evaluation_per_turn" not in theirs:
        assert_same_properties(case, key, theirs[f"{key}_properties"], ours[f"{key}_properties"])
    COMPARED[case.evaluator] += 1


def test_compared_counts() -> None:
    counts = Counter(c.evaluator for c in CASES)
    print("quality cases compared with azure 1.18.10:", dict(counts))
    assert set(counts) == set(OUR_PROPERTIES)
    assert all(n >= 4 for n in counts.values()), counts


# ---------------------------------------------------------------------------- QAEvaluator (six members in one call)
QA_MEMBERS = ("groundedness", "relevance", "coherence", "fluency", "similarity", "f1_score")
QA_CASES = [
    ("qa_pass", {}, v(5), "Employees get 25 days of paid leave.", "You get 25 days of paid leave."),
    ("qa_fail", {}, v(2), "Employees get 25 days of paid leave.", "The cafeteria opens at noon."),
    ("qa_thresholds", {"groundedness_threshold": 5, "f1_score_threshold": 0.9}, v(4),
     "Employees get 25 days.", "You get 25 days of leave."),
    ("qa_low_thresholds", {"relevance_threshold": 1, "coherence_threshold": 2, "fluency_threshold": 1,
                           "similarity_threshold": 2}, v(2), "25 days.", "25 days of leave, yes."),
]
_VERDICTS.update({cid: verdict for cid, _, verdict, _, _ in QA_CASES})


@pytest.mark.parametrize("cid, ctor, verdict, context, response", QA_CASES, ids=[c[0] for c in QA_CASES])
def test_qa_same_rows_as_azure(cid, ctor, verdict, context, response, server) -> None:
    config = server.openai_config()
    call_args = {"query": f"How many days of leave do I get? [case:{cid}]", "response": f"{response} [case:{cid}]",
                 "context": context, "ground_truth": "Employees get 25 days of paid leave a year."}
    before = server.stats()["requests"]
    theirs = _azure("QAEvaluator", ctor, call_args, config)
    asked_azure = server.stats()["requests"] - before
    ours = _ours("QAEvaluator", ctor, call_args, config)
    asked_ours = server.stats()["requests"] - before - asked_azure
    assert asked_ours == asked_azure == 5, (cid, asked_azure, asked_ours)  # five judges; F1 asks none
    assert set(ours) == set(theirs), (cid, sorted(set(ours) ^ set(theirs)))
    for key in QA_MEMBERS:
        assert_same_columns(cid, key, theirs, ours, [key + s for s in COMPARED_SUFFIXES])
    assert ours["f1_score"] == theirs["f1_score"] and ours["f1_score_properties"] == theirs["f1_score_properties"]
    COMPARED["QAEvaluator"] += 1


def test_qa_requires_all_four_inputs_as_azure_does(server) -> None:
    from azure.ai.evaluation._exceptions import EvaluationException

    from agent_evaluators.errors import InputError

    call_args = {"query": "q [case:qa_pass]", "response": "r", "context": "c"}
    with pytest.raises((EvaluationException, TypeError)):
        _azure("QAEvaluator", {}, call_args, server.openai_config())
    with pytest.raises(InputError, match="ground_truth"):
        _ours("QAEvaluator", {}, call_args, server.openai_config())
