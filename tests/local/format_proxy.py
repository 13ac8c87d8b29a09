"""A forwarding proxy in front of a real OpenAI-compatible server that refuses some response formats.

Servers differ: some reject ``json_schema`` (older vLLM/Ollama builds, many gateways),
some reject ``response_format`` altogether. The proxy plays such a server with
llama.cpp's real replies behind it: a refused format gets the 400 an
OpenAI-compatible server sends (``param: "response_format"``), everything else is
forwarded unchanged. ``seen`` records the format of every request it received.
"""

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterable, List


class FormatProxy:
    def __init__(self, upstream: str, refuse: Iterable[str]) -> None:
        self.upstream = upstream.rstrip("/")
        self.refuse = set(refuse)
        self.seen: List[str] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                body = json.loads(raw)
                kind = (body.get("response_format") or {}).get("type", "text")
                with proxy._lock:
                    proxy.seen.append(kind)
                if kind in proxy.refuse:
                    err = {"error": {"message": f"response_format type '{kind}' is not supported by this server",
                                     "type": "invalid_request_error", "param": "response_format", "code": None}}
                    self._send(400, json.dumps(err).encode())
                    return
                req = urllib.request.Request(proxy.upstream + self.path, data=raw,
                                             headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(req, timeout=600) as resp:
                        self._send(resp.status, resp.read())
                except urllib.error.HTTPError as e:
                    self._send(e.code, e.read())

            def _send(self, status: int, payload: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FormatProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
