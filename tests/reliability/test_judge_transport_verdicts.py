"""Judge replies that must never become scores (item 14.6): strict verdict types, refusals,
non-JSON 200 bodies. Over real HTTP against :class:`JudgeServer`; each fails on the old client
(lax pydantic coerced ``"4"`` to 4, a refusal's text was parsed as a verdict, an HTML 200
escaped as a raw ``json.JSONDecodeError``)."""

import asyncio

import pytest
from pydantic import BaseModel, ConfigDict, Field

from agent_evaluators.errors import JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import JudgeServer, Reply

MESSAGES = [{"role": "user", "content": "Grade: 2+2=4"}]


class Verdict(BaseModel):
    reason: str
    score: int = Field(ge=1, le=5)


class Flags(BaseModel):
    model_config = ConfigDict(extra="forbid")
    relevant: bool
    reason: str


class Graded(BaseModel):
    reason: str
    score: float = Field(ge=0, le=1)


def run(coro):
    return asyncio.run(coro)


@pytest.mark.parametrize("score", ["4", " 4 ", "4.0"])
def test_a_score_given_as_a_string_is_not_a_score(score):
    # 14.6: numbers must be JSON numbers; lax validation turned "4" into 4
    with JudgeServer(lambda req: {"reason": "fine", "score": score}) as server:
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 2  # one repair request, then fail closed
    assert "score" in str(info.value)


@pytest.mark.parametrize("flag", [1, "true", "yes"])
def test_a_flag_must_be_a_json_boolean(flag):
    # 14.6: booleans must be JSON booleans
    with JudgeServer(lambda req: {"relevant": flag, "reason": "x"}) as server:
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Flags))
    assert "relevant" in str(info.value)


def test_strict_still_accepts_the_json_forms_of_numbers_and_booleans():
    # 14.6: strictness must not reject valid verdicts: a float field takes a JSON integer
    with JudgeServer(lambda req: {"reason": "ok", "score": 1} if req.json_schema and "score" in
                     req.json_schema["properties"] else {"relevant": False, "reason": "x"}) as server:
        judge = get_judge_client(server.openai_config())
        graded = run(judge.complete(MESSAGES, output_model=Graded))
        flags = run(judge.complete(MESSAGES, output_model=Flags))
    assert graded.data.score == 1.0 and flags.data.relevant is False


def test_a_refusal_is_an_error_never_a_score():
    # 14.6: message.refusal with content null is a refusal, even when the refusal text looks like a verdict
    refusal = '{"reason": "I cannot grade this", "score": 5}'
    with JudgeServer(lambda req: Reply(refusal=refusal)) as server:
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 1  # no repair request: the model said no
    assert "refused" in str(info.value) and info.value.raw_text == refusal


@pytest.mark.parametrize("shape", ["openai", "client"])
def test_a_200_reply_that_is_not_json_is_a_judge_error_with_the_raw_text(shape):
    # 14.6: an HTML page labelled application/json is a JudgeError with raw text, never a JSONDecodeError
    import openai

    page = "<html><body>Sign in to continue</body></html>"
    with JudgeServer(lambda req: Reply(body=page)) as server:
        cfg = server.openai_config()
        if shape == "client":
            cfg = {"model": "judge-model", "client": openai.AsyncOpenAI(base_url=cfg["base_url"],
                                                                         api_key=cfg["api_key"])}
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(cfg).complete(MESSAGES, output_model=Verdict))
    assert "not JSON" in str(info.value) and info.value.raw_text == page
