"""The optional sqlite reply cache: hits skip HTTP, failures are never stored, no secrets on disk."""

import asyncio
import sqlite3

import pytest

from agent_evaluators.errors import JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import JudgeServer, Reply

from .conftest import MESSAGES, Verdict, scripted

SECRET = "sk-cache-secret-98765"


def config(server):
    return dict(server.openai_config(), api_key=SECRET)


def test_second_identical_call_is_served_from_cache(tmp_path):
    path = tmp_path / "judge.sqlite"
    with JudgeServer(lambda req: {"score": 3, "reason": req.last_user_text[:10]}) as server:
        judge = get_judge_client(config(server), cache=path)
        first = asyncio.run(judge.complete(MESSAGES, output_model=Verdict, params={"temperature": 0}))
        # a separately built client on another loop reads the same file
        second = asyncio.run(get_judge_client(config(server), cache=path).complete(
            MESSAGES, output_model=Verdict, params={"temperature": 0}))
        assert server.stats()["requests"] == 1
        # anything in the key changes -> a miss
        asyncio.run(judge.complete(MESSAGES, output_model=Verdict, params={"temperature": 0}, sample_index=1))
        asyncio.run(judge.complete(MESSAGES, output_model=Verdict, params={"temperature": 0.5}))
        asyncio.run(judge.complete(MESSAGES[:1], output_model=Verdict, params={"temperature": 0}))
        assert server.stats()["requests"] == 4
    assert not first.cached and second.cached
    assert second.data == first.data and second.text == first.text
    assert second.usage["attempts"] == 0 and second.usage["prompt_tokens"] == 0
    assert second.usage["response_format"] == "json_schema"


def test_errors_are_not_cached(tmp_path):
    path = tmp_path / "judge.sqlite"
    responder = scripted(Reply(content="nope", status=400), "prose", "more prose",
                         then=lambda req: {"score": 5, "reason": "fine"})
    with JudgeServer(responder) as server:
        judge = get_judge_client(config(server), cache=path)
        with pytest.raises(JudgeError):
            asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
        with pytest.raises(JudgeError):
            asyncio.run(judge.complete(MESSAGES, output_model=Verdict))  # unparseable twice
        good = asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
        again = asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 4
    assert not good.cached and again.cached and again.data.score == 5


def test_cache_file_holds_no_api_key(tmp_path):
    path = tmp_path / "judge.sqlite"
    with JudgeServer(lambda req: {"score": 2, "reason": "r"}) as server:
        judge = get_judge_client(config(server), cache=path)
        asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
    blobs = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert SECRET.encode() not in blobs
    rows = sqlite3.connect(path).execute("SELECT key, value FROM replies").fetchall()
    assert len(rows) == 1 and SECRET not in rows[0][0] + rows[0][1]


def test_unusable_cache_path_never_errors(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with JudgeServer(lambda req: {"score": 2, "reason": "r"}) as server:
        judge = get_judge_client(config(server), cache=blocker / "sub" / "cache.sqlite")
        reply = asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
    assert reply.data.score == 2
