"""Judge panels (``model_config=[...]``) from Python, over real HTTP against several JudgeServers."""

import pickle

import pytest

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.errors import ConfigError, JudgeError
from agent_evaluators.testing import JudgeServer, schema_reply

from .test_declared import _metric

QUERY = "Cancel my 3pm meeting"
RESPONSE = "I cancelled your 3pm meeting."


def _scoring(score):
    return lambda req: schema_reply(req, score=score, reason=f"judge says {score}")


def _judge(server, name):
    return {**server.openai_config(), "name": name}


def test_a_panel_asks_every_judge_once_and_reports_the_mean():
    with JudgeServer(_scoring(5)) as a, JudgeServer(_scoring(4)) as b, JudgeServer(_scoring(3)) as c:
        ev = IntentResolutionEvaluator(model_config=[_judge(a, "a"), _judge(b, "b"), _judge(c, "c")])
        out = ev(query=QUERY, response=RESPONSE)
        asked = [len(s.requests) for s in (a, b, c)]
    assert asked == [1, 1, 1]
    assert out["intent_resolution"] == 4.0 and out["intent_resolution_result"] == "pass"
    panel = out["intent_resolution_details"]["panel"]
    assert panel["vote"] == "mean" and panel["level"] == "interval"
    assert [(j["judge"], j["score"], j["result"]) for j in panel["judges"]] == [("a", 5, "pass"), ("b", 4, "pass"),
                                                                             ("c", 3, "pass")]
    assert [j["reason"] for j in panel["judges"]] == ["judge says 5", "judge says 4", "judge says 3"]
    assert panel["disagreement"] is False and panel["spread"] == 2
    assert out["intent_resolution_usage"]["judge_calls"] == 3
    assert out["intent_resolution_reason"].startswith("Panel of 3 judges, mean 4 (a 5, b 4, c 3)")


def test_a_split_on_pass_or_fail_is_flagged_as_disagreement():
    with JudgeServer(_scoring(5)) as a, JudgeServer(_scoring(1)) as b:
        out = IntentResolutionEvaluator(model_config=[_judge(a, "strict"), _judge(b, "lenient")])(
            query=QUERY, response=RESPONSE)
    assert out["intent_resolution"] == 3.0 and out["intent_resolution_result"] == "pass"
    assert out["intent_resolution_details"]["panel"]["disagreement"] is True
    assert "the judges disagree" in out["intent_resolution_reason"]


def _labelling(label):
    return lambda req: {"reason": f"{label} it is", "label": label}


def test_a_label_metric_takes_the_majority_label(tmp_path):
    cls = _metric(tmp_path, labels={"follows": 1.0, "breaks": 0.0}, default_threshold=0.5)
    with JudgeServer(_labelling("follows")) as a, JudgeServer(_labelling("follows")) as b, \
            JudgeServer(_labelling("breaks")) as c:
        out = cls(model_config=[a.openai_config(), b.openai_config(), c.openai_config()])(query="Hi", policy="Be brief.")
    assert out["follows_policy"] == 1.0 and out["follows_policy_result"] == "pass"
    panel = out["follows_policy_details"]["panel"]
    assert panel["vote"] == "majority" and panel["level"] == "nominal" and panel["disagreement"] is True
    # unnamed judges are named by their model, repeats numbered
    assert [j["judge"] for j in panel["judges"]] == ["judge-model", "judge-model#2", "judge-model#3"]
    assert [j["details"] for j in panel["judges"]] == [{"label": "follows"}, {"label": "follows"}, {"label": "breaks"}]


def test_a_tied_majority_goes_to_the_lower_score(tmp_path):
    cls = _metric(tmp_path, labels={"follows": 1.0, "breaks": 0.0}, default_threshold=0.5)
    with JudgeServer(_labelling("follows")) as a, JudgeServer(_labelling("breaks")) as b:
        out = cls(model_config=[a.openai_config(), b.openai_config()])(query="Hi", policy="Be brief.")
    assert out["follows_policy"] == 0.0 and out["follows_policy_result"] == "fail"


def test_one_failing_judge_fails_the_row_and_names_the_judge(tmp_path):
    cls = _metric(tmp_path, labels={"follows": 1.0, "breaks": 0.0})
    with JudgeServer(_labelling("follows")) as a, JudgeServer(_labelling("maybe")) as b:
        ev = cls(model_config=[_judge(a, "good"), _judge(b, "broken")])
        with pytest.raises(JudgeError, match="judge 'broken' of the panel failed"):
            ev(query="Hi", policy="Be brief.")


def test_a_conversation_is_judged_turn_by_turn_by_every_judge():
    conversation = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
                    {"role": "user", "content": QUERY}, {"role": "assistant", "content": RESPONSE}]
    with JudgeServer(_scoring(5)) as a, JudgeServer(_scoring(3)) as b:
        out = IntentResolutionEvaluator(model_config=[_judge(a, "a"), _judge(b, "b")])(conversation=conversation)
        asked = (len(a.requests), len(b.requests))
    assert asked == (2, 2)
    assert out["intent_resolution"] == 4.0
    judges = out["intent_resolution_details"]["panel"]["judges"]
    assert [len(j["details"]["per_turn"]) for j in judges] == [2, 2]


def test_the_cache_keeps_two_judges_of_one_model_apart(tmp_path):
    cache = str(tmp_path / "cache.sqlite")
    with JudgeServer(_scoring(5)) as a, JudgeServer(_scoring(2)) as b:
        judges = [a.openai_config(), b.openai_config()]  # the same model name on both
        first = IntentResolutionEvaluator(model_config=judges, cache=cache)(query=QUERY, response=RESPONSE)
        again = IntentResolutionEvaluator(model_config=judges, cache=cache)(query=QUERY, response=RESPONSE)
        asked = (len(a.requests), len(b.requests))
    assert asked == (1, 1)
    scores = [[j["score"] for j in r["intent_resolution_details"]["panel"]["judges"]] for r in (first, again)]
    assert scores == [[5, 2], [5, 2]]


def test_a_panel_survives_pickling_and_shows_its_judges():
    with JudgeServer(_scoring(4)) as a, JudgeServer(_scoring(2)) as b:
        ev = IntentResolutionEvaluator(model_config=[_judge(a, "a"), _judge(b, "b")])
        ev(query=QUERY, response=RESPONSE)
        copy = pickle.loads(pickle.dumps(ev))
        out = copy(query=QUERY, response=RESPONSE)
    assert "judges=['a', 'b']" in repr(ev)
    assert out["intent_resolution"] == 3.0


def test_one_judge_in_a_list_is_a_single_judge_and_an_empty_list_is_refused():
    with JudgeServer(_scoring(4)) as a:
        out = IntentResolutionEvaluator(model_config=[_judge(a, "only")])(query=QUERY, response=RESPONSE)
    assert out["intent_resolution"] == 4.0 and "panel" not in (out["intent_resolution_details"] or {})
    with pytest.raises(ConfigError, match="empty list"):
        IntentResolutionEvaluator(model_config=[])
