"""The local server behind ``agent-eval label``: the standard library's HTTP server on 127.0.0.1.

Nothing leaves the machine and nothing needs an account. Each answer is one POST, written to
``labels.jsonl`` before the reply (a crash loses at most the cell on screen). Requests from
other web pages are refused: every ``/api/`` call carries the page's random token in a header (a
page of another origin cannot send it without a CORS preflight, which this server never
allows), and a request must name this server's own host (no DNS rebinding).

Routes: ``GET /`` the page; ``GET /api/state``; ``POST /api/label`` with
``{"line_number", "evaluator", "label", "reason"}``; ``POST /api/undo``.
"""

import http.server
import json
import secrets
import threading
from typing import Any, Dict, Optional, Tuple

from ..errors import AgentEvalError
from .label_page import json_bytes, page_bytes
from .labelling import LabelSession

#: the largest request body accepted (an answer and its reason are a few hundred bytes)
MAX_BODY = 64 * 1024


class LabelServer:
    """``session`` served on ``127.0.0.1:port`` (0: the system picks a free port); a context manager that
    serves from a thread, or :meth:`serve_forever` in the caller's."""

    def __init__(self, session: LabelSession, port: int = 0, host: str = "127.0.0.1") -> None:
        self.session = session
        self.token = secrets.token_urlsafe(16)
        self._page = page_bytes(session.run.path.name, self.token)
        self.httpd = http.server.ThreadingHTTPServer((host, port), self._handler())
        self.httpd.daemon_threads = True
        self._thread: Optional[threading.Thread] = None

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def __enter__(self) -> "LabelServer":
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="agent-eval-label", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self.httpd.server_close()

    # ------------------------------------------------------------------ requests
    def _route(self, method: str, path: str, body: Dict[str, Any]) -> Tuple[int, Any]:
        if method == "GET" and path == "/api/state":
            return 200, self.session.state()
        if method == "POST" and path == "/api/label":
            return 200, self.session.answer(body.get("line_number"), body.get("evaluator"), body.get("label"),
                                            body.get("reason") or "")
        if method == "POST" and path == "/api/undo":
            return 200, self.session.undo()
        return 404, {"error": f"no {method} {path} here; the page is at {self.url}"}

    def _handler(self) -> type:
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass  # the terminal shows the URL and the end; one line per keypress would bury them

            def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", f"{content_type}; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("X-Content-Type-Options", "nosniff")
                if content_type == "text/html":
                    self.send_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
                                     "script-src 'unsafe-inline'; connect-src 'self'; img-src data:")
                self.end_headers()
                self.wfile.write(body)

            def _refused(self) -> Optional[str]:
                host = (self.headers.get("Host") or "").lower()
                if host not in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
                    return f"this server answers 127.0.0.1:{server.port} only, not {host or 'no host'}"
                if self.path.startswith("/api/") and not secrets.compare_digest(
                        self.headers.get("X-Label-Token") or "", server.token):
                    return "the labelling API answers its own page only (open the URL agent-eval label printed)"
                return None

            def _serve(self, method: str) -> None:
                refused = self._refused()
                if refused:
                    self._send(403, json_bytes({"error": refused}))
                    return
                path = self.path.split("?", 1)[0]
                if method == "GET" and path == "/":
                    self._send(200, server._page, "text/html")
                    return
                body: Dict[str, Any] = {}
                if method == "POST":
                    length = int(self.headers.get("Content-Length") or 0)
                    if length > MAX_BODY:
                        self._send(413, json_bytes({"error": f"a request body is at most {MAX_BODY} bytes"}))
                        return
                    try:
                        parsed = json.loads(self.rfile.read(length) or b"{}")
                    except ValueError:
                        self._send(400, json_bytes({"error": "the request body is not JSON"}))
                        return
                    if not isinstance(parsed, dict):
                        self._send(400, json_bytes({"error": "the request body is a JSON object"}))
                        return
                    body = parsed
                try:
                    status, value = server._route(method, path, body)
                except AgentEvalError as exc:
                    status, value = 400, {"error": str(exc)}
                self._send(status, json_bytes(value))

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self._serve("GET")

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                self._serve("POST")

        return Handler
