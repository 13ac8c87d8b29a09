"""A small OTLP/HTTP logs endpoint for the tests: it decodes each POST /v1/logs body with the
``opentelemetry-proto`` classes (the real protobuf payload the SDK's exporter sends) and keeps
every log record as a plain dict."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional

from tests.conftest import optional_import

_logs_service = optional_import("opentelemetry.proto.collector.logs.v1.logs_service_pb2")


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    return None if kind is None else getattr(any_value, kind)


class OtlpReceiver:
    """``with OtlpReceiver() as r:`` then ``r.endpoint`` for ``OTEL_EXPORTER_OTLP_ENDPOINT``;
    ``status`` is the HTTP status it answers (400: a collector refusing the data)."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.records: List[Dict[str, Any]] = []
        self.paths: List[str] = []
        self.resources: List[Dict[str, Any]] = []
        self._server: Optional[ThreadingHTTPServer] = None

    @property
    def endpoint(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_port}"

    def _take(self, path: str, body: bytes) -> None:
        request = _logs_service.ExportLogsServiceRequest()
        request.ParseFromString(body)
        self.paths.append(path)
        for resource_logs in request.resource_logs:
            self.resources.append({a.key: _value(a.value) for a in resource_logs.resource.attributes})
            for scope_logs in resource_logs.scope_logs:
                for record in scope_logs.log_records:
                    self.records.append({
                        "event_name": record.event_name,
                        "scope": scope_logs.scope.name,
                        "trace_id": record.trace_id.hex(),
                        "span_id": record.span_id.hex(),
                        "body": _value(record.body),
                        "attributes": {a.key: _value(a.value) for a in record.attributes},
                    })

    def __enter__(self) -> "OtlpReceiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if receiver.status == 200:
                    receiver._take(self.path, body)
                self.send_response(receiver.status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
