"""Item 21.12: the judge transport honours ``HTTP_PROXY`` / ``HTTPS_PROXY`` / ``NO_PROXY``, over real HTTP.

The old transport ignored them (the user's own ``openai`` client honours them), so behind a
proxy every request failed with "is the server running?" and fed the circuit breaker. A tiny
forwarding proxy on 127.0.0.1 counts what it forwards.
"""

import http.client
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator, List
from urllib.parse import urlsplit

import pytest

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.errors import JudgeError
from agent_evaluators.judge.circuit import reset_circuits
from agent_evaluators.testing import JudgeServer

_HOP = {"connection", "proxy-connection", "keep-alive", "proxy-authorization", "transfer-encoding"}


class _Forward(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    forwarded: List[str] = []
    auth: List[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        target = urlsplit(self.path)  # a proxy gets the absolute URL
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.forwarded.append(self.path)
        self.auth.append(self.headers.get("Proxy-Authorization", ""))
        upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
        upstream.request("POST", target.path + (f"?{target.query}" if target.query else ""), body, headers)
        reply = upstream.getresponse()
        data = reply.read()
        self.send_response(reply.status)
        for k, v in reply.getheaders():
            if k.lower() not in _HOP | {"content-length"}:
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[ThreadingHTTPServer]:
    handler = type("Forward", (_Forward,), {"forwarded": [], "auth": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _no_proxy_settings(monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy",
                 "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    reset_circuits()
    yield
    reset_circuits()


def _grade(server: JudgeServer) -> dict:
    return IntentResolutionEvaluator(model_config=dict(server.openai_config(), max_attempts=1))(
        query="Cancel my 3pm meeting", response="Done.")


def test_requests_go_through_http_proxy(proxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", f"http://me:pw@127.0.0.1:{proxy.server_address[1]}")
    with JudgeServer() as judge:
        result = _grade(judge)
        assert judge.stats()["requests"] == 1
    assert result["intent_resolution"] == 4.0
    assert proxy.RequestHandlerClass.forwarded == [judge.url + "/v1/chat/completions"]  # the old transport: []
    assert proxy.RequestHandlerClass.auth == ["Basic bWU6cHc="]  # me:pw, from the proxy URL


def test_a_proxy_set_after_an_earlier_client_is_used(proxy, monkeypatch):
    """Transports are pooled per endpoint; the proxy variables are part of the key, so an endpoint met
    before they were set (or a new server on a reused port) does not keep its proxy-less session."""
    with JudgeServer() as judge:
        assert _grade(judge)["intent_resolution"] == 4.0  # no proxy yet: pooled without one
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.server_address[1]}")
        assert _grade(judge)["intent_resolution"] == 4.0
    assert proxy.RequestHandlerClass.forwarded == [judge.url + "/v1/chat/completions"]


def test_no_proxy_bypasses_it(proxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.server_address[1]}")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with JudgeServer() as judge:
        assert _grade(judge)["intent_resolution"] == 4.0
        assert judge.stats()["requests"] == 1
    assert proxy.RequestHandlerClass.forwarded == []


def test_a_dead_proxy_is_named_in_the_error(monkeypatch):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there
    monkeypatch.setenv("http_proxy", f"http://user:secret@127.0.0.1:{port}")
    with JudgeServer() as judge:
        with pytest.raises(JudgeError) as info:
            _grade(judge)
        assert judge.stats()["requests"] == 0
    message = str(info.value)
    assert f"proxy http://127.0.0.1:{port}" in message and "HTTP_PROXY" in message and "NO_PROXY" in message
    assert "secret" not in message
