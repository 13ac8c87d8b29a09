"""Item 21.10: a strict integer scale accepts integral floats (``4.0``, ``4e0``), over real HTTP.

Judges without ``json_schema`` often write ``"score": 4.0``: valid JSON for the number 4.
The old strict validation rejected it (a repair request, then an error cell). Strings,
booleans and fractional numbers stay rejected: they are not integers.
"""

import asyncio
import json

import pytest
from pydantic import BaseModel, Field

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.errors import JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import JudgeServer, schema_reply

MESSAGES = [{"role": "user", "content": "Grade: 2+2=4"}]


class Verdict(BaseModel):
    reason: str
    score: int = Field(ge=1, le=5)
    ratio: float = 0.5


def _verdict(score_text: str) -> str:
    return '{"reason": "fine", "score": ' + score_text + ', "ratio": 1.0}'


@pytest.mark.parametrize("score_text", ["4.0", "4e0", "4E+0", "40e-1", "4"])
def test_integral_floats_are_integers_on_an_integer_scale(score_text):
    with JudgeServer(lambda req: _verdict(score_text)) as server:
        reply = asyncio.run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 1  # taken at once, no repair request
    assert reply.data.score == 4 and type(reply.data.score) is int and reply.data.ratio == 1.0


@pytest.mark.parametrize("score_text", ['"4"', "true", "4.5", "1e400"])
def test_strings_booleans_and_fractions_stay_rejected(score_text):
    with JudgeServer(lambda req: _verdict(score_text)) as server:
        with pytest.raises(JudgeError) as info:
            asyncio.run(get_judge_client(dict(server.openai_config(), max_attempts=1)).complete(
                MESSAGES, output_model=Verdict))
    assert "score" in str(info.value) and "repair" in str(info.value)


def test_an_evaluator_scores_a_judge_that_writes_4_point_0():
    def judge(req):  # the verdict as a judge without structured output writes it
        return json.dumps(schema_reply(req)).replace('"score": 4', '"score": 4.0')

    with JudgeServer(judge) as server:
        result = IntentResolutionEvaluator(model_config=server.openai_config())(query="hi", response="hello")
    assert result["intent_resolution"] == 4.0 and result["intent_resolution_result"] == "pass"
