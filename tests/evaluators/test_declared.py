"""DeclaredJudgeEvaluator: a judge metric of class attributes, driven over real HTTP against JudgeServer."""

import inspect
from pathlib import Path
from typing import List

import pytest

from agent_evaluators.errors import InputError, JudgeError
from agent_evaluators.evaluators.declared import DeclaredJudgeEvaluator, Messages, Text, ToolDefinitionsInput
from agent_evaluators.testing import JudgeServer

TEMPLATE = """---
name: Declared test
model:
  api: chat
inputs:
  query:
    type: list
  policy:
    type: string
  tool_definitions:
    type: list
---
system:
Decide whether the reply follows the policy. DECLARED-TEST
user:
{{query}} {{policy}}
"""


def _metric(tmp_path: Path, **attrs) -> type:
    template = tmp_path / "declared_test.prompty"
    template.write_text(TEMPLATE, encoding="utf-8")
    body = {"template_name": str(template), "result_key": "follows_policy",
            "inputs": (Messages("query", "user"), Text("policy"), ToolDefinitionsInput()), **attrs}
    return type("FollowsPolicyEvaluator", (DeclaredJudgeEvaluator,), {"__doc__": "Follows the policy?", **body})


def test_a_label_metric_scores_the_label_it_was_given(tmp_path):
    cls = _metric(tmp_path, labels={"follows": 1.0, "breaks": 0.0}, default_threshold=0.5)
    with JudgeServer(lambda req: {"reason": "it does", "label": "breaks" if "refund" in req.text else "follows"}) as s:
        ev = cls(model_config=s.openai_config())
        ok = ev(query="Where is my parcel?", policy="Be brief.")
        bad = ev(query="I want a refund", policy="Be brief.")
        schema = s.requests[-1].json_schema
    assert (ok["follows_policy"], ok["follows_policy_result"], ok["follows_policy_details"]) == (1.0, "pass",
                                                                                                 {"label": "follows"})
    assert (bad["follows_policy"], bad["follows_policy_result"]) == (0.0, "fail")
    assert schema["properties"]["label"]["enum"] == ["follows", "breaks"]
    assert list(schema["properties"]) == ["reason", "label"]


def test_a_label_not_offered_is_an_error_never_a_score(tmp_path):
    cls = _metric(tmp_path, labels={"follows": 1.0, "breaks": 0.0})
    with JudgeServer(lambda req: {"reason": "unsure", "label": "maybe"}) as s:
        with pytest.raises(JudgeError):
            cls(model_config=s.openai_config())(query="Hi", policy="Be brief.")


def test_verdict_fields_come_first_and_land_in_details(tmp_path):
    cls = _metric(tmp_path, score_scale=(1.0, 5.0), default_threshold=3,
                  verdict_fields={"breaches": (List[str], "Where the reply breaks the policy")})
    with JudgeServer(lambda req: {"breaches": ["too long"], "reason": "mostly", "score": 4}) as s:
        out = cls(model_config=s.openai_config())(query=[{"role": "user", "content": "Hi"}], policy="Be brief.")
        request = s.requests[-1]
    assert out["follows_policy"] == 4.0 and out["follows_policy_details"] == {"breaches": ["too long"]}
    assert list(request.json_schema["properties"]) == ["breaches", "reason", "score"]
    assert request.json_schema["properties"]["score"]["type"] == "integer"  # 1-5: integer verdicts
    assert "DECLARED-TEST" in request.text and "Be brief." in request.text
    assert request.response_format["json_schema"]["name"] == "FollowsPolicyVerdict"


def test_the_signature_is_the_declared_inputs_and_bad_inputs_name_themselves(tmp_path):
    cls = _metric(tmp_path)
    params = inspect.signature(cls.__call__).parameters
    assert list(params) == ["self", "query", "policy", "tool_definitions"]
    assert params["tool_definitions"].default is None and params["policy"].default is inspect.Parameter.empty
    ev = cls(model_config={"model": "m", "base_url": "http://127.0.0.1:9/v1"})
    with pytest.raises(InputError, match="unknown input 'polcy'"):
        ev(query="Hi", polcy="x")
    with pytest.raises(InputError, match="input 'policy' must be non-empty text"):
        ev(query="Hi", policy="  ")
