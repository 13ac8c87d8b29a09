"""Item 21.4: judge reply bodies are read within a size limit, compressed and inflated.

The old transport read whatever came: a 1 MB gzip reply inflated to 2.1 GB and was scored,
a 200 MB ``reason`` was accepted whole, an endless chunked body grew without bound until the
attempt's timeout. Each case here is a real HTTP server on 127.0.0.1 writing those bytes;
the call now fails at once with a ``JudgeError`` naming the limit, and the limit is a
model-config key (and an ``agent-eval`` flag).
"""

import asyncio
import gzip
import json
import socket
import threading
import time
import zlib
from typing import Callable, Iterator

import pytest
from pydantic import BaseModel

from agent_evaluators.errors import ConfigError, JudgeError
from agent_evaluators.judge import get_judge_client

MESSAGES = [{"role": "user", "content": "Grade: 2+2=4"}]


class Verdict(BaseModel):
    reason: str
    score: int


def _completion(reason: str) -> bytes:
    content = json.dumps({"reason": reason, "score": 4})
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}], "model": "m"}).encode()


class RawServer:
    """One-shot HTTP replies written byte for byte by ``write(sock)`` (what JudgeServer cannot send)."""

    def __init__(self, write: Callable[[socket.socket], None]) -> None:
        self.write = write
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.requests = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
            while len(body) < length:
                body += conn.recv(65536)
            self.requests += 1
            try:
                self.write(conn)
            except OSError:  # the client hung up: what the limit is for
                pass

    def config(self, **extra) -> dict:
        return {"model": "m", "base_url": f"http://127.0.0.1:{self.port}/v1", "api_key": "k", "max_attempts": 2,
                **extra}

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw_server() -> Iterator[Callable[[Callable[[socket.socket], None]], RawServer]]:
    servers = []

    def start(write):
        servers.append(RawServer(write))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def _reply(sock: socket.socket, body: bytes, encoding: str = "") -> None:
    enc = f"Content-Encoding: {encoding}\r\n" if encoding else ""
    sock.sendall(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{enc}Content-Length: {len(body)}\r\n"
                 "Connection: close\r\n\r\n".encode() + body)


def _ask(config: dict):
    return asyncio.run(get_judge_client(config).complete(MESSAGES, output_model=Verdict))


def test_a_gzip_bomb_is_refused_without_being_inflated(raw_server):
    bomb = gzip.compress(_completion("x" * (64 << 20)), compresslevel=6)  # 64 MiB inflated, ~64 KB sent
    assert len(bomb) < (1 << 20)
    server = raw_server(lambda sock: _reply(sock, bomb, "gzip"))
    start = time.perf_counter()
    with pytest.raises(JudgeError) as info:
        _ask(server.config())
    assert time.perf_counter() - start < 5  # the old transport inflated all 64 MiB, then parsed and scored it
    message = str(info.value)
    assert "4 MiB reply limit" in message and "max_reply_bytes" in message and "--judge-max-reply-bytes" in message
    assert server.requests == 1  # not retried: the same request gets the same reply


def test_a_huge_plain_reason_is_refused(raw_server):
    server = raw_server(lambda sock: _reply(sock, _completion("y" * (8 << 20))))
    with pytest.raises(JudgeError) as info:
        _ask(server.config())
    assert "4 MiB reply limit" in str(info.value)


def test_an_endless_chunked_body_is_cut_off_at_the_limit(raw_server):
    def endless(sock: socket.socket) -> None:
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        piece = b"f" * 65536
        chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the old transport: read until the attempt's timeout
            sock.sendall(chunk)

    server = raw_server(endless)
    start = time.perf_counter()
    with pytest.raises(JudgeError) as info:
        _ask(server.config(max_reply_bytes=1 << 20))
    assert time.perf_counter() - start < 10, "the read must stop at the limit, not at the 60 s timeout"
    assert "1 MiB reply limit" in str(info.value)


@pytest.mark.parametrize("encoding", ["gzip", "deflate", ""])
def test_a_normal_reply_compressed_or_not_is_read_and_a_raised_limit_admits_a_long_one(raw_server, encoding):
    compress = {"gzip": gzip.compress, "deflate": zlib.compress, "": lambda b: b}[encoding]
    sent = compress(_completion("z" * (6 << 20)))  # 6 MiB: over the default, under a raised limit
    server = raw_server(lambda sock: _reply(sock, sent, encoding))
    reply = _ask(server.config(max_reply_bytes=8 << 20))
    assert reply.data.score == 4 and len(reply.data.reason) == 6 << 20
    small = raw_server(lambda sock: _reply(sock, compress(_completion("short")), encoding))
    assert _ask(small.config()).data.reason == "short"


def test_the_limit_is_checked_as_a_setting():
    with pytest.raises(ConfigError) as info:
        get_judge_client({"model": "m", "base_url": "http://127.0.0.1:9/v1", "max_reply_bytes": "4MB"})
    assert "max_reply_bytes" in str(info.value)


def test_the_cli_flag_sets_the_limit(tmp_path):
    from agent_evaluators.testing import JudgeServer, schema_reply
    from tests.cli.helpers import agent_eval, write_jsonl

    data = write_jsonl(tmp_path / "rows.jsonl", [{"query": "Cancel my 3pm meeting", "response": "Done."}])
    with JudgeServer(lambda req: {**schema_reply(req), "reason": "r" * 5000}) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-base-url", server.url + "/v1",
                       "--judge-model", "m", "--judge-max-reply-bytes", "4096", "-o", tmp_path / "out")
    assert r.rc == 2, r
    assert "4 KiB reply limit" in r.out and "--judge-max-reply-bytes" in r.out, r
