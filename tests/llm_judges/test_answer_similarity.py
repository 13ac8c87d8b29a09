"""AnswerSimilarityEvaluator end to end against a real local judge server.

The scripted judge builds its analysis from the two texts it finds in the prompt:
units are ``key: value`` pieces separated by ``;``; a ground-truth unit is exact when
the response has the same key and value, semantic when the value differs only in
case, partial when the response's value is a proper part of it, and otherwise
missing, with a contradiction when the response gives that key another value.
Response units whose key the ground truth lacks are extra. So every score below
depends on the texts that reached the judge.
"""

import re

import pytest

from agent_evaluators import AnswerSimilarityEvaluator, ConfigError, InputError, JudgeError
from agent_evaluators.conversation.transcript_reader import undo_value
from agent_evaluators.testing import Reply


def block(req, tag):
    """The plain text the template put inside ``<tag>...</tag>``, decoded (the answers are text, not a transcript)."""
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", req.text, re.DOTALL)
    assert m, f"no <{tag}> block in the judge prompt"
    return undo_value(m.group(1))

TRUTH = "capital: Paris; population: 2.1 million; river: Seine; mayor: Anne Hidalgo"


def _units(text):
    return [u.strip() for u in text.split(";") if u.strip()]


def _kv(unit):
    key, _, value = unit.partition(":")
    return key.strip(), value.strip()


def similarity_judge(req):
    out_units = _units(block(req, "agent_answer"))
    gt_units = _units(block(req, "expected_answer"))
    out_by_key = {_kv(u)[0]: i for i, u in enumerate(out_units)}
    matches, contradictions, used = [], [], set()
    for g, unit in enumerate(gt_units):
        key, value = _kv(unit)
        o = out_by_key.get(key)
        if o is None:
            matches.append({"ground_truth_unit": g, "output_unit": None, "match_type": "missing", "explanation": "absent"})
            continue
        used.add(o)
        ovalue = _kv(out_units[o])[1]
        if ovalue == value:
            kind = "exact"
        elif ovalue.lower() == value.lower():
            kind = "semantic"
        elif ovalue and ovalue in value:
            kind = "partial"
        else:
            kind = "missing"
            contradictions.append({"output_unit": o, "ground_truth_unit": g, "explanation": f"{ovalue} vs {value}"})
        matches.append({"ground_truth_unit": g, "output_unit": o, "match_type": kind, "explanation": kind})
    extra = [i for i in range(len(out_units)) if i not in used]
    return {"output_units": out_units, "ground_truth_units": gt_units, "matches": matches,
            "extra_in_output": extra, "contradictions": contradictions}


def test_identical_answer_scores_one(judge_server):
    server = judge_server(similarity_judge)
    out = AnswerSimilarityEvaluator(server.openai_config(model="judge-4o"))(response=TRUTH, ground_truth=TRUTH)
    # 4 exact: 4 × 1.2 / (4 × 1.2) = 1
    assert out["answer_similarity"] == 1.0
    assert out["answer_similarity_result"] == "pass"
    assert out["answer_similarity_threshold"] == pytest.approx(0.8)
    d = out["answer_similarity_details"]
    assert d["match_counts"] == {"exact": 4, "semantic": 0, "partial": 0, "missing": 0}
    assert d["ground_truth_units"] == _units(TRUTH)
    assert d["options"]["contradiction_penalty"] == 1.0
    assert out["answer_similarity_usage"]["judge_calls"] == 1
    req = server.requests[0]
    assert set(req.json_schema["properties"]) == {
        "output_units", "ground_truth_units", "matches", "extra_in_output", "contradictions"}


def test_missing_and_extra_units(judge_server):
    server = judge_server(similarity_judge)
    ev = AnswerSimilarityEvaluator(server.openai_config())
    response = "capital: Paris; population: 2.1 million; river: Seine; language: French"
    out = ev(response=response, ground_truth=TRUTH)
    # 3 exact + mayor missing: (3.6 − 0.15) / 4.8 = 0.71875; 1 extra (language): − 0.05 = 0.66875 → 0.67
    assert out["answer_similarity"] == 0.67
    assert out["answer_similarity_result"] == "fail"
    d = out["answer_similarity_details"]
    assert d["extra_in_output"] == ["language: French"]
    assert d["matches"][3] == {"ground_truth_unit": "mayor: Anne Hidalgo", "output_unit": None,
                               "match_type": "missing", "explanation": "absent"}
    assert "Missing: 'mayor: Anne Hidalgo'" in out["answer_similarity_reason"]
    assert out["answer_similarity_reason"].startswith("The score is 0.67/1")


def test_scale_and_its_threshold(judge_server):
    server = judge_server(similarity_judge)
    ev = AnswerSimilarityEvaluator(server.openai_config(), scale=10)
    assert ev.threshold == pytest.approx(8.0)
    out = ev(response="capital: Paris; population: 2.1 million; river: Seine; language: French", ground_truth=TRUTH)
    # 0.66875 × 10 = 6.6875 → 6.69
    assert out["answer_similarity"] == 6.69
    assert out["answer_similarity_result"] == "fail"
    assert AnswerSimilarityEvaluator(server.openai_config(), scale=10, threshold=6)(
        response=TRUTH, ground_truth=TRUTH)["answer_similarity"] == 10.0


def test_contradiction_penalty(judge_server):
    server = judge_server(similarity_judge)
    response = "capital: paris; population: 2.1; river: Loire; language: French"
    # capital semantic 0.8, population partial 0.4, river contradicted → missing −0.15, mayor missing −0.15:
    # raw 0.9 / 4.8 = 0.1875; default penalty 1.0 per contradiction → negative → 0
    default = AnswerSimilarityEvaluator(server.openai_config())(response=response, ground_truth=TRUTH)
    assert default["answer_similarity"] == 0.0
    d = default["answer_similarity_details"]
    assert d["match_counts"] == {"exact": 0, "semantic": 1, "partial": 1, "missing": 2}
    assert d["contradictions"] == [{"output_unit": "river: Loire", "ground_truth_unit": "river: Seine",
                                    "explanation": "Loire vs Seine"}]
    assert "1 contradiction(s)" in default["answer_similarity_reason"]
    # With contradiction_penalty 0.1: 0.1875 − 0.1 − 0.05 (one extra) = 0.0375 → 0.04
    mild = AnswerSimilarityEvaluator(server.openai_config(), contradiction_penalty=0.1)(response=response, ground_truth=TRUTH)
    assert mild["answer_similarity"] == 0.04


def test_response_messages_use_the_final_answer(judge_server):
    server = judge_server(similarity_judge)
    messages = [
        {"role": "user", "content": "Tell me about Paris"},
        {"role": "assistant", "content": "capital: Rome"},  # an earlier draft, not the answer
        {"role": "assistant", "content": TRUTH},
    ]
    assert AnswerSimilarityEvaluator(server.openai_config())(response=messages, ground_truth=TRUTH)[
        "answer_similarity"] == 1.0
    assert block(server.requests[0], "agent_answer") == TRUTH


def test_missing_ground_truth(judge_server):
    server = judge_server(similarity_judge)
    strict = AnswerSimilarityEvaluator(server.openai_config())
    for missing in (None, "", "   "):
        with pytest.raises(InputError) as exc:
            strict(response=TRUTH, ground_truth=missing)
        assert exc.value.input_name == "ground_truth"
    with pytest.raises(InputError):
        strict(response=TRUTH)
    lenient = AnswerSimilarityEvaluator(server.openai_config(), require_ground_truth=False)
    out = lenient(response=TRUTH)
    assert out["answer_similarity"] is None
    assert out["answer_similarity_result"] == "not_applicable"
    assert "no ground truth" in out["answer_similarity_reason"]
    assert server.stats()["requests"] == 0  # never a judge call, never an invented 0


def test_empty_response_is_an_input_error(judge_server):
    server = judge_server(similarity_judge)
    ev = AnswerSimilarityEvaluator(server.openai_config())
    for response in ("", [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]):
        with pytest.raises(InputError) as exc:
            ev(response=response, ground_truth=TRUTH)
        assert exc.value.input_name == "response"
    assert server.stats()["requests"] == 0


@pytest.mark.parametrize(
    "mutate, problem",
    [
        (lambda a: a["matches"].pop(), "no match entry for ground-truth unit(s) [3]"),
        (lambda a: a["matches"].append(dict(a["matches"][0])), "matched more than once"),
        (lambda a: a["matches"][0].update(output_unit=9), "refers to output unit 9"),
        (lambda a: a["matches"][0].update(output_unit=None), "without an output unit"),
        (lambda a: a.update(ground_truth_units=[], matches=[]), "no semantic units"),
        (lambda a: a.update(extra_in_output=[7]), "refers to output unit 7"),
    ],
)
def test_inconsistent_analysis_is_a_judge_error(judge_server, mutate, problem):
    def judge(req):
        a = similarity_judge(req)
        mutate(a)
        return a

    server = judge_server(judge)
    with pytest.raises(JudgeError) as exc:
        AnswerSimilarityEvaluator(server.openai_config())(response=TRUTH, ground_truth=TRUTH)
    assert problem in str(exc.value)
    assert exc.value.raw_text


def test_unknown_match_type_is_a_judge_error(judge_server):
    def judge(req):
        a = similarity_judge(req)
        a["matches"][0]["match_type"] = "contradiction"
        return Reply(a)

    server = judge_server(judge)
    with pytest.raises(JudgeError):
        AnswerSimilarityEvaluator(server.openai_config())(response=TRUTH, ground_truth=TRUTH)


def test_option_validation():
    cfg = {"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}
    for bad in ({"scale": 0}, {"missing_penalty": -0.1}, {"semantic_threshold": float("nan")}, {"extra_info_penalty": "x"}):
        with pytest.raises(ConfigError):
            AnswerSimilarityEvaluator(cfg, **bad)
