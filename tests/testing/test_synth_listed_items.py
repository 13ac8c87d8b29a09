"""The default responder gives complete per-item verdicts (keyed per call, or one per listed rubric id)."""

from agent_evaluators import RubricEvaluator, ToolCallAccuracyEvaluator
from agent_evaluators.testing import JudgeServer


def test_default_reply_has_one_verdict_per_listed_call_and_rubric():
    with JudgeServer() as server:
        calls = [{"name": "get_weather", "arguments": {"city": c}} for c in ("Paris", "Rome", "Oslo")]
        out = ToolCallAccuracyEvaluator(server.openai_config())(
            query="weather in Paris, Rome and Oslo", tool_calls=calls,
            tool_definitions=[{"name": "get_weather", "parameters": {"type": "object"}}],
        )
        assert [c["call_index"] for c in out["tool_call_accuracy_details"]["per_call"]] == [0, 1, 2]
        rubric = RubricEvaluator(["is polite", "answers the question", "is short"], server.openai_config())
        details = rubric(query="q", response="a")["rubric_score_details"]
        assert details["scored"] == 3 and details["unknown_rubric_ids"] == []
