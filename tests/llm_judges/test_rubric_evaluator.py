"""RubricEvaluator against a real local judge server.

The scripted judge reads the rubrics and the agent's response from the prompt: a
rubric ``Mentions X`` is met when the final assistant text contains X. Tests that
need a malformed reply start from that honest reply and damage one entry.
"""

import threading

import pytest

from agent_evaluators import ConfigError, InputError, JudgeError, RubricEvaluator
from agent_evaluators.testing import Reply

from .conftest import block

RUBRICS = ["Mentions the refund", "Mentions 14 days", "Mentions the receipt"]
QUERY = "How do I get my money back?"
FULL = "You can get a refund within 14 days if you keep the receipt."
PARTIAL = "You can get a refund within 14 days."


def _final(req):
    return [m["content"] for m in block(req, "agent_response") if m["role"] == "assistant" and m.get("content")][-1]


def rubrics_of(req):
    """The rubrics block read back: one ``rubric_id: rubric`` line each."""
    return [{"rubric_id": d["name"], "rubric": d["description"]} for d in block(req, "rubrics")]


def rubric_judge(req):
    text = _final(req)
    out = []
    for r in rubrics_of(req):
        needle = r["rubric"].removeprefix("Mentions ").removeprefix("the ")
        met = needle in text
        out.append({"rubric_id": r["rubric_id"], "rationale": f"{needle!r} {'found' if met else 'not found'}",
                    "verdict": "yes" if met else "no"})
    return {"rubrics": out}


def damaged(change):
    def judge(req):
        reply = rubric_judge(req)
        change(reply["rubrics"])
        return Reply(reply)

    return judge


def test_all_met(judge_server):
    server = judge_server(rubric_judge)
    out = RubricEvaluator(RUBRICS, server.openai_config(model="judge-4o"))(query=QUERY, response=FULL)
    assert out["rubric_score"] == 1.0
    assert out["rubric_score_result"] == "pass"
    assert out["rubric_score_threshold"] == 0.8
    d = out["rubric_score_details"]
    assert (d["met"], d["scored"], d["unscored"]) == (3, 3, 0)
    assert d["rubrics"][1] == {"rubric_id": "r2", "rubric": "Mentions 14 days", "met": True,
                               "verdict": "yes", "rationale": "'14 days' found"}
    req = server.requests[0]
    assert rubrics_of(req) == [{"rubric_id": f"r{i + 1}", "rubric": t} for i, t in enumerate(RUBRICS)]
    assert block(req, "conversation") == [{"role": "user", "content": QUERY}]
    verdict_schema = req.json_schema["properties"]["rubrics"]["items"]
    verdict_schema = req.json_schema.get("$defs", {}).get("RubricJudgement", verdict_schema)
    assert verdict_schema["properties"]["verdict"]["enum"] == ["yes", "no"]
    assert req.body["temperature"] == 0.0
    assert out["rubric_score_usage"]["judge_calls"] == 1


def test_some_met_with_custom_key_and_rubric_shapes(judge_server):
    server = judge_server(rubric_judge)
    rubrics = [
        "Mentions the refund",
        {"rubric_id": "deadline", "text": "Mentions 14 days"},
        {"rubric_id": "receipt", "rubric_content": {"text_property": "Mentions the receipt"}},  # ADK's shape
    ]
    ev = RubricEvaluator(rubrics, server.openai_config(), result_key="refund_policy", threshold=0.6)
    out = ev(query=QUERY, response=[{"role": "user", "content": QUERY}, {"role": "assistant", "content": PARTIAL}])
    assert out["refund_policy"] == pytest.approx(2 / 3)
    assert out["refund_policy_result"] == "pass"
    assert [e["met"] for e in out["refund_policy_details"]["rubrics"]] == [True, True, False]
    assert [e["rubric_id"] for e in out["refund_policy_details"]["rubrics"]] == ["r1", "deadline", "receipt"]
    assert "Not met: Mentions the receipt" in out["refund_policy_reason"]
    assert "rubric_score" not in out


def test_omitted_rubric_is_unscored_not_zero(judge_server):
    server = judge_server(damaged(lambda rs: rs.pop(0)))  # r1 (met) left out
    out = RubricEvaluator(RUBRICS, server.openai_config())(query=QUERY, response=PARTIAL)
    d = out["rubric_score_details"]
    # r2 yes, r3 no, r1 unscored → 1 of 2 scored, not 1 of 3 and not 2 of 3
    assert out["rubric_score"] == 0.5
    assert (d["met"], d["scored"], d["unscored"]) == (1, 2, 1)
    assert d["rubrics"][0]["met"] is None and "did not answer" in d["rubrics"][0]["problem"]
    assert "1 rubric(s) unscored" in out["rubric_score_reason"]


def test_unknown_rubric_id_is_ignored(judge_server):
    def rename(rs):
        rs[0]["rubric_id"] = "r9"  # the judge answers an id that was not asked, and so omits r1

    server = judge_server(damaged(rename))
    out = RubricEvaluator(RUBRICS, server.openai_config())(query=QUERY, response=FULL)
    d = out["rubric_score_details"]
    assert d["unknown_rubric_ids"] == ["r9"]
    assert d["rubrics"][0]["met"] is None
    assert out["rubric_score"] == 1.0 and d["scored"] == 2


def test_duplicate_answer_is_unscored(judge_server):
    def duplicate(rs):
        rs.append(dict(rs[2], verdict="yes"))  # r3 answered "no" and then "yes"

    server = judge_server(damaged(duplicate))
    out = RubricEvaluator(RUBRICS, server.openai_config())(query=QUERY, response=PARTIAL)
    r3 = out["rubric_score_details"]["rubrics"][2]
    assert r3["met"] is None and "2 times" in r3["problem"]
    assert out["rubric_score"] == 1.0


@pytest.mark.parametrize("label", ["maybe", "true", True, 1, None, "yes, mostly"])
def test_invalid_label_is_unscored(judge_server, label):
    def relabel(rs):
        rs[2]["verdict"] = label

    server = judge_server(damaged(relabel))
    out = RubricEvaluator(RUBRICS, server.openai_config())(query=QUERY, response=PARTIAL)
    r3 = out["rubric_score_details"]["rubrics"][2]
    assert r3["met"] is None and "neither 'yes' nor 'no'" in r3["problem"]
    assert out["rubric_score"] == 1.0  # r1, r2 met; r3 is not counted as a "no"


def test_labels_are_case_insensitive(judge_server):
    def shout(rs):
        for r in rs:
            r["verdict"] = f" {r['verdict'].upper()} "

    server = judge_server(damaged(shout))
    out = RubricEvaluator(RUBRICS, server.openai_config())(query=QUERY, response=PARTIAL)
    assert out["rubric_score"] == pytest.approx(2 / 3)


def test_nothing_scorable_is_a_judge_error(judge_server):
    def garble(rs):
        for r in rs:
            r["verdict"] = "n/a"

    server = judge_server(damaged(garble))
    with pytest.raises(JudgeError) as exc:
        RubricEvaluator(RUBRICS, server.openai_config())(query=QUERY, response=FULL)
    assert "no rubric could be scored" in str(exc.value)
    assert '"n/a"' in exc.value.raw_text


def test_sampled_majority_with_ties(judge_server):
    # Per request k (arrival order; the vote multisets below do not depend on which request is which):
    #   r1: yes, yes, no, no      → tie 2–2      → not met
    #   r2: yes, yes, yes, no     → 3–1          → met
    #   r3: yes, no, maybe, maybe → 1–1 (2 abstain) → tie → not met
    #   r4: maybe × 4             → no vote      → unscored
    plan = {
        "r1": ["yes", "yes", "no", "no"],
        "r2": ["yes", "yes", "yes", "no"],
        "r3": ["yes", "no", "maybe", "maybe"],
        "r4": ["maybe"] * 4,
    }
    lock, seen = threading.Lock(), []

    def judge(req):
        with lock:
            k = len(seen)
            seen.append(req.body.get("temperature"))
        return {"rubrics": [{"rubric_id": r["rubric_id"], "rationale": f"sample {k}", "verdict": plan[r["rubric_id"]][k]}
                            for r in rubrics_of(req)]}

    server = judge_server(judge)
    ev = RubricEvaluator(RUBRICS + ["Is polite"], server.openai_config(), num_samples=4)
    out = ev(query=QUERY, response=FULL)
    d = out["rubric_score_details"]
    assert [e["met"] for e in d["rubrics"]] == [False, True, False, None]
    assert sorted(d["rubrics"][0]["votes"], key=str) == [False, False, True, True]
    assert d["rubrics"][3]["votes"] == [None] * 4
    assert out["rubric_score"] == pytest.approx(1 / 3)  # 1 met of 3 scored
    assert server.stats()["requests"] == 4 and seen == [1.0] * 4
    assert out["rubric_score_usage"]["judge_calls"] == 4


def test_a_failed_sample_fails_the_row(judge_server):
    lock, count = threading.Lock(), []

    def judge(req):
        with lock:
            count.append(1)
            k = len(count)
        return Reply("not json at all") if k >= 3 else rubric_judge(req)  # the third sample and its retries

    server = judge_server(judge)
    with pytest.raises(JudgeError, match="sample"):
        RubricEvaluator(RUBRICS, server.openai_config(), num_samples=3)(query=QUERY, response=FULL)


def test_configuration_and_input_errors(judge_server):
    cfg = {"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}
    for bad in ([], "Mentions X", [""], [{"rubric_id": "a", "text": "x"}, {"rubric_id": "a", "text": "y"}], [42]):
        with pytest.raises(ConfigError):
            RubricEvaluator(bad, cfg)
    with pytest.raises(ConfigError):
        RubricEvaluator(RUBRICS, cfg, num_samples=0)
    with pytest.raises(ConfigError):
        RubricEvaluator(RUBRICS, cfg, result_key="")
    server = judge_server(rubric_judge)
    ev = RubricEvaluator(RUBRICS, server.openai_config())
    with pytest.raises(InputError) as exc:
        ev(query=QUERY)
    assert exc.value.input_name == "response"
    with pytest.raises(InputError) as exc:
        ev(query=QUERY, response=FULL, ground_truth="x")
    assert exc.value.input_name == "ground_truth"
    assert server.stats()["requests"] == 0
