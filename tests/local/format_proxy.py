"""A forwarding proxy in front of a real OpenAI-compatible server that refuses some response formats.

Servers differ: some reject ``json_schema`` (older vLLM/Ollama builds, many gateways),
some reject ``response_format`` altogether. The proxy plays such a server with
llama.cpp's real replies behind it: a refused format gets the 400 an
OpenAI-compatible server sends (``param: "response_format"``), everything else is
forwarded unchanged. ``seen`` records the format of every request it received;
``replies`` what came back for each forwarded one: finish reason, whether the content
is one JSON object, and whether every bounded number in it lies within the bounds of
the JSON schema the request carried (``None`` without a schema).
"""

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterable, List, Optional


class FormatProxy:
    def __init__(self, upstream: str, refuse: Iterable[str]) -> None:
        self.upstream = upstream.rstrip("/")
        self.refuse = set(refuse)
        self.seen: List[str] = []
        self.replies: List[Dict[str, Any]] = []
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
                        payload = resp.read()
                        proxy._record(body, payload)
                        self._send(resp.status, payload)
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

    def _record(self, request: Dict[str, Any], payload: bytes) -> None:
        choice = json.loads(payload)["choices"][0]
        schema = ((request.get("response_format") or {}).get("json_schema") or {}).get("schema")
        try:
            content = json.loads(choice["message"]["content"])
        except (TypeError, ValueError):
            content = None
        is_object = isinstance(content, dict)
        entry = {"format": (request.get("response_format") or {}).get("type", "text"),
                 "finish_reason": choice.get("finish_reason"), "json_object": is_object,
                 "in_range": _in_range(content, schema) if is_object and schema else None}
        with self._lock:
            self.replies.append(entry)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FormatProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()


def _in_range(value: Any, schema: Optional[Dict[str, Any]]) -> bool:
    """Every number under a ``minimum``/``maximum`` in ``schema`` is within it (a small
    recursive check over properties and items; enough for verdict schemas)."""
    if not isinstance(schema, dict):
        return True
    if isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        lo, hi = schema.get("minimum"), schema.get("maximum")
        return (lo is None or value >= lo) and (hi is None or value <= hi)
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        return all(_in_range(v, props.get(k)) for k, v in value.items())
    if isinstance(value, list):
        return all(_in_range(v, schema.get("items")) for v in value)
    return True
