"""Users' own judge templates through PromptyEvaluator, against the local judge server."""

import inspect
import pickle
import textwrap

import pytest

from agent_evaluators import InputError, JudgeError, PromptyEvaluator

from .conftest import block

TEMPLATE = textwrap.dedent(
    """\
    ---
    name: politeness
    description: How polite is the answer?
    model:
      api: chat
      parameters:
        temperature: 0.2
        max_tokens: 300
    inputs:
      question:
        type: string
      answer:
        type: string
      style_guide:
        type: string
        optional: true
        default: "be kind"
    ---
    system:
    Rate the politeness of the answer from 1 to 10. Reply as JSON {"reason": str, "score": int}.
    user:
    <question>
    {{question}}
    </question>
    <answer>
    {{answer}}
    </answer>
    <style>
    {{style_guide}}
    </style>
    """
)


def politeness_judge(req):
    answer = block(req, "answer")
    score = 9 if "please" in answer.lower() else 2
    return {"reason": f"style={block(req, 'style')}", "score": score}


@pytest.fixture
def template(tmp_path):
    path = tmp_path / "politeness.prompty"
    path.write_text(TEMPLATE)
    return path


def test_user_template_scores_with_its_own_inputs(judge_server, template):
    server = judge_server(politeness_judge)
    ev = PromptyEvaluator(prompty=template, model_config=server.openai_config(), result_key="politeness",
                          threshold=7, scale=(1, 10))
    assert list(inspect.signature(ev).parameters) == ["question", "answer", "style_guide"]
    polite = ev(question="Where is my order?", answer="Please allow two more days.")
    assert polite["politeness"] == 9.0 and polite["politeness_result"] == "pass"
    assert polite["politeness_reason"] == "style=be kind"
    rude = ev(question="Where is my order?", answer="Wait.", style_guide="formal")
    assert rude["politeness"] == 2.0 and rude["politeness_result"] == "fail"
    assert rude["politeness_reason"] == "style=formal"
    assert server.requests[0].body["temperature"] == 0.2
    schema = server.requests[0].json_schema
    assert schema["properties"]["score"]["type"] == "integer" and set(schema["required"]) == {"reason", "score"}


def test_user_template_input_errors_and_scale(judge_server, template):
    server = judge_server(lambda req: {"reason": "r", "score": 11})
    ev = PromptyEvaluator(prompty=template, model_config=server.openai_config(), result_key="politeness", scale=(1, 10))
    with pytest.raises(InputError) as info:
        ev(question="q")
    assert info.value.input_name == "answer"
    with pytest.raises(InputError):
        ev(question="q", answer="a", tone="x")
    with pytest.raises(JudgeError):  # 11 is outside the declared scale
        ev(question="q", answer="a")


def test_user_template_evaluator_pickles(template):
    ev = PromptyEvaluator(prompty=template, model_config={"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"},
                          result_key="politeness", threshold=6, scale=(1, 10))
    clone = pickle.loads(pickle.dumps(ev))
    assert clone.result_key == "politeness" and clone.threshold == 6
    assert list(inspect.signature(clone).parameters) == ["question", "answer", "style_guide"]
