"""A local OpenAI-compatible chat-completions server for tests and benchmarks.

Real HTTP/1.1 (keep-alive) on 127.0.0.1 with an ephemeral port, served by one asyncio
loop in a background thread, so hundreds of delayed replies can be in flight at a low
CPU cost. Replies are derived from each request by a *responder* (so a test fails when
the wrong content reaches the judge), and faults are injected at seeded random rates:
429 with ``retry-after-ms`` / ``Retry-After``, 500, slow replies, malformed (non-JSON)
content, truncation (``finish_reason: "length"``) and dropped connections.

Routes: ``POST /v1/chat/completions``, ``POST /chat/completions``,
``POST /openai/deployments/{deployment}/chat/completions?api-version=...`` (Azure),
the Batch API's files and batches under ``/v1`` and ``/openai`` (:mod:`.batches`),
``GET /stats``, ``POST /reset``.
"""

import asyncio
import inspect
import json
import logging
import random
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Tuple, Union
from urllib.parse import parse_qsl, urlsplit

from .batches import BatchFaults, FakeBatches
from .requests import AUTO, ChatRequest, Reply
from .synth import schema_reply

log = logging.getLogger(__name__)

Responder = Callable[[ChatRequest], Union[Dict[str, Any], str, Reply]]

TEST_API_KEY = "test-key"
MALFORMED_CONTENT = "Sure! I would rate this a four out of five because it looks mostly fine."
_REASONS = {200: "OK", 307: "Temporary Redirect", 308: "Permanent Redirect",
            400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 408: "Request Timeout",
            429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


@dataclass
class Faults:
    """Seeded random fault injection; each request draws at most one of the ``rate_*`` faults.

    ``reject_json_schema`` answers every ``json_schema`` response format with an
    OpenAI-style 400 naming ``response_format`` (to exercise the client's fallback).
    """

    rate_429: float = 0.0
    retry_after_ms: Optional[int] = 50
    retry_after_s: Optional[float] = None
    rate_500: float = 0.0
    rate_slow: float = 0.0
    slow_s: float = 2.0
    rate_malformed: float = 0.0
    rate_length: float = 0.0
    rate_reset: float = 0.0
    reject_json_schema: bool = False
    seed: int = 0

    def draw(self, rng: random.Random) -> Optional[str]:
        r = rng.random()
        for kind, rate in (("429", self.rate_429), ("500", self.rate_500), ("slow", self.rate_slow),
                           ("malformed", self.rate_malformed), ("length", self.rate_length),
                           ("reset", self.rate_reset)):
            if r < rate:
                return kind
            r -= rate
        return None


def _error_body(message: str, *, type_: str = "invalid_request_error", param: Optional[str] = None,
                code: Optional[str] = None) -> Dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


class JudgeServer:
    """The server; use as a context manager (or ``start()`` / ``stop()``).

    ``responder(req)`` returns a dict (sent as JSON content), a string (sent verbatim)
    or a :class:`Reply`; it may also be ``async``. The default responder answers with
    :func:`schema_reply`. ``delay_s`` delays every successful reply (not faults).
    ``keep_requests=False`` stops recording ``requests`` (long benchmarks); counters still run.
    ``require_api_key``: answer 401 (OpenAI's ``invalid_api_key`` error) to every chat request
    whose ``Authorization: Bearer`` / ``api-key`` header does not carry this key, as a real
    endpoint does; counted in ``stats()["faults"]["unauthorized"]``.
    ``batch``: how the files and batches endpoints behave (:class:`~.batches.BatchFaults`);
    ``batches.custom_ids`` counts the batch lines answered, per ``custom_id``.
    ``count_tokens``: a tokenizer (text -> tokens) for the reported usage, e.g.
    ``agent_evaluators.judge.token_count.counter_for(model)``, so a test can compare a dry run's
    estimate with what a real run records (:meth:`ChatRequest.prompt_tokens`); default: characters / 4.
    """

    def __init__(
        self,
        responder: Optional[Callable[[ChatRequest], Any]] = None,
        *,
        faults: Optional[Faults] = None,
        delay_s: float = 0.0,
        seed: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
        keep_requests: bool = True,
        require_api_key: Optional[str] = None,
        batch: Optional[BatchFaults] = None,
        count_tokens: Optional[Callable[[str], int]] = None,
    ) -> None:
        self.count_tokens = count_tokens
        self.responder = responder or schema_reply
        self.faults = faults or Faults()
        self.delay_s = delay_s
        self.seed = seed
        self.host = host
        self._port = port
        self.keep_requests = keep_requests
        self.require_api_key = require_api_key
        self._lock = threading.Lock()
        self._rng = random.Random(seed * 1_000_003 + self.faults.seed)
        self._requests: List[ChatRequest] = []
        self._count = 0
        self._in_flight = 0
        self._max_in_flight = 0
        self._fault_counts: Dict[str, int] = {}
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._stop_event: Optional[asyncio.Event] = None
        self._ready = threading.Event()
        self._error: Optional[BaseException] = None
        self._writers: set = set()
        self._handlers: set = set()  # connection tasks, cancelled at stop (no "Task was destroyed" noise)
        self._next_id = 0
        self.batches = FakeBatches(self._chat, batch or BatchFaults())

    # ------------------------------------------------------------------ lifecycle
    @property
    def port(self) -> int:
        return self._port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self._port}"

    def start(self) -> "JudgeServer":
        if self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._run, name="judge-server", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise RuntimeError(f"judge server failed to start: {self._error}") from self._error
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if not loop.is_closed():
            loop.call_soon_threadsafe(self._stop_event.set)  # type: ignore[union-attr]
        thread.join(10)
        self._thread = None

    def __enter__(self) -> "JudgeServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        except BaseException as e:  # noqa: BLE001 - reported to start()
            self._error = e
            self._ready.set()
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stop_event = asyncio.Event()
        server = await asyncio.start_server(
            self._handle_connection, self.host, self._port, backlog=4096, limit=1 << 24
        )
        self._port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            await self._stop_event.wait()
        finally:
            server.close()
            for writer in list(self._writers):
                writer.transport.abort()
            pending = [t for t in self._handlers if not t.done()]
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=5)
            try:
                await asyncio.wait_for(server.wait_closed(), 5)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - shutting down anyway
                pass

    # ------------------------------------------------------------------ configs and stats
    def openai_config(self, model: str = "judge-model") -> Dict[str, Any]:
        """An ``OpenAIModelConfiguration``-shaped dict pointing at this server."""
        return {"model": model, "base_url": self.url + "/v1", "api_key": TEST_API_KEY}

    def azure_config(self, deployment: str = "judge", api_version: str = "2024-10-21") -> Dict[str, Any]:
        """An ``AzureOpenAIModelConfiguration``-shaped dict pointing at this server."""
        return {"azure_endpoint": self.url, "azure_deployment": deployment, "api_key": TEST_API_KEY,
                "api_version": api_version}

    @property
    def requests(self) -> List[ChatRequest]:
        """Every chat request received so far (a copy), faulted ones included."""
        with self._lock:
            return list(self._requests)

    def stats(self) -> Dict[str, Any]:
        with self._lock:
            return {"requests": self._count, "max_in_flight": self._max_in_flight,
                    "in_flight": self._in_flight, "faults": dict(self._fault_counts)}

    def reset(self) -> None:
        """Forget received requests and counters (in-flight count is kept: it is live)."""
        with self._lock:
            self._requests.clear()
            self._count = 0
            self._max_in_flight = self._in_flight
            self._fault_counts.clear()
            self.batches.custom_ids.clear()

    def _count_fault(self, kind: str) -> None:
        with self._lock:
            self._fault_counts[kind] = self._fault_counts.get(kind, 0) + 1

    # ------------------------------------------------------------------ HTTP
    async def _handle_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                try:
                    method, target, version = lines[0].split(" ", 2)
                except ValueError:
                    return
                headers: Dict[str, str] = {}
                for line in lines[1:]:
                    if line:
                        name, _, value = line.partition(":")
                        headers[name.strip().lower()] = value.strip()
                try:
                    if "content-length" in headers:
                        body = await reader.readexactly(int(headers["content-length"]))
                    elif headers.get("transfer-encoding", "").lower() == "chunked":
                        body = await self._read_chunked(reader)
                    else:
                        body = b""
                except (asyncio.IncompleteReadError, ConnectionError, ValueError):
                    return
                keep_alive = version.upper() == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
                result = await self._dispatch(method.upper(), target, headers, body)
                if result is None:  # injected connection reset
                    writer.transport.abort()
                    return
                status, extra_headers, payload = result[:3]
                trickle = result[3] if len(result) > 3 else None
                head_lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}",
                              "content-type: application/json",
                              f"content-length: {len(payload)}",
                              "connection: keep-alive" if keep_alive else "connection: close"]
                head_lines.extend(f"{k}: {v}" for k, v in extra_headers.items())
                if trickle:
                    writer.write(("\r\n".join(head_lines) + "\r\n\r\n").encode("latin-1"))
                    for i in range(len(payload)):  # a judge (or proxy) sending one byte at a time
                        await asyncio.sleep(trickle)
                        writer.write(payload[i:i + 1])
                        await writer.drain()
                else:
                    writer.write(("\r\n".join(head_lines) + "\r\n\r\n").encode("latin-1") + payload)
                    await writer.drain()
                if not keep_alive:
                    return
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            self._writers.discard(writer)
            try:
                writer.close()
            except Exception:  # noqa: BLE001 - already gone
                pass

    @staticmethod
    async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
        chunks: List[bytes] = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)

    async def _dispatch(self, method: str, target: str, headers: Dict[str, str],
                        body: bytes) -> Optional[Tuple[Any, ...]]:
        parts = urlsplit(target)
        path = parts.path
        if method == "GET" and path.rstrip("/") == "/stats":
            return 200, {}, json.dumps(self.stats()).encode()
        if method == "POST" and path.rstrip("/") == "/reset":
            self.reset()
            return 200, {}, b"{}"
        batch_route = FakeBatches.route(path)
        if batch_route is not None:
            denied = self._unauthorized(headers) if self.require_api_key is not None else None
            return denied or await self.batches.dispatch(method, batch_route, dict(parse_qsl(parts.query)), headers,
                                                         body, azure=path.lstrip("/").startswith("openai"))
        deployment = None
        segments = [s for s in path.split("/") if s]
        if segments[-2:] != ["chat", "completions"]:
            return 404, {}, json.dumps(_error_body(f"no route for {path}", code="not_found")).encode()
        if segments[:2] == ["openai", "deployments"] and len(segments) == 5:
            deployment = segments[2]
        elif segments not in (["v1", "chat", "completions"], ["chat", "completions"]):
            return 404, {}, json.dumps(_error_body(f"no route for {path}", code="not_found")).encode()
        if method != "POST":
            return 405, {}, json.dumps(_error_body("use POST")).encode()
        return await self._chat(path, dict(parse_qsl(parts.query)), deployment, headers, body)

    # ------------------------------------------------------------------ chat completions
    async def _chat(self, path: str, query: Dict[str, str], deployment: Optional[str],
                    headers: Dict[str, str], raw: bytes) -> Optional[Tuple[Any, ...]]:
        try:
            body = json.loads(raw or b"{}")
            if not isinstance(body, dict):
                raise ValueError("body is not a JSON object")
        except ValueError as e:
            return 400, {}, json.dumps(_error_body(f"invalid JSON body: {e}")).encode()
        req = ChatRequest(path=path, headers=headers, body=body, query=query, deployment=deployment)
        with self._lock:
            if self.keep_requests:
                self._requests.append(req)
            self._count += 1
            self._in_flight += 1
            if self._in_flight > self._max_in_flight:
                self._max_in_flight = self._in_flight
            fault = self.faults.draw(self._rng)
            self._next_id += 1
            request_id = self._next_id
        try:
            return await self._answer(req, fault, request_id)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _unauthorized(self, headers: Dict[str, str]) -> Optional[Tuple[Any, ...]]:
        """The 401 for a request without the required key, else ``None``."""
        auth = headers.get("authorization", "")
        given = auth[7:].strip() if auth.lower().startswith("bearer ") else headers.get("api-key", "")
        if given == self.require_api_key:
            return None
        self._count_fault("unauthorized")
        shown = f"{given[:3]}***{given[-4:]}" if len(given) > 8 else "***"
        return 401, {}, json.dumps(_error_body(
            f"Incorrect API key provided: {shown}. You can find your API key at https://platform.openai.com/account/api-keys.",
            code="invalid_api_key")).encode()

    async def _answer(self, req: ChatRequest, fault: Optional[str],
                      request_id: int) -> Optional[Tuple[Any, ...]]:
        faults = self.faults
        if self.require_api_key is not None:
            denied = self._unauthorized(req.headers)
            if denied is not None:
                return denied
        if faults.reject_json_schema and req.response_format_type == "json_schema":
            self._count_fault("reject_json_schema")
            return 400, {}, json.dumps(_error_body(
                "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
                param="response_format")).encode()
        if fault is not None:
            self._count_fault(fault)
        if fault == "reset":
            return None
        if fault == "429":
            hdrs = {}
            if faults.retry_after_ms is not None:
                hdrs["retry-after-ms"] = str(int(faults.retry_after_ms))
            if faults.retry_after_s is not None:
                hdrs["retry-after"] = f"{faults.retry_after_s:g}"
            return 429, hdrs, json.dumps(_error_body(
                "Rate limit reached for requests (injected fault).", type_="requests", code="rate_limit_exceeded")).encode()
        if fault == "500":
            return 500, {}, json.dumps(_error_body("The server had an error (injected fault).",
                                                   type_="server_error")).encode()

        n = body_n if isinstance(body_n := req.body.get("n"), int) and body_n > 0 else 1
        replies = []
        for i in range(n):
            try:
                replies.append(await self._respond(req if i == 0 else replace(req, choice_index=i)))
            except Exception as e:  # noqa: BLE001 - a broken responder is a 500, visible in stats
                log.exception("judge server responder raised")
                self._count_fault("responder_error")
                return 500, {}, json.dumps(_error_body(f"responder raised {type(e).__name__}: {e}",
                                                       type_="server_error")).encode()
        first = replies[0]
        delay = self.delay_s if first.delay_s is None else first.delay_s
        if fault == "slow":
            delay += faults.slow_s
        if delay > 0:
            await asyncio.sleep(delay)
        if first.reset:
            self._count_fault("reset")
            return None
        if first.body is not None:
            return first.status, dict(first.headers), first.body.encode(), first.trickle_s
        if first.status != 200:
            if isinstance(first.content, dict):
                err = first.content if "error" in first.content else {"error": first.content}
            else:
                err = _error_body(str(first.content or "scripted error"))
            return first.status, dict(first.headers), json.dumps(err).encode()

        choices = []
        completion_chars = 0
        completion_tokens = 0
        for i, reply in enumerate(replies):
            content = reply.content
            text = json.dumps(content) if isinstance(content, (dict, list)) else content
            finish = reply.finish_reason
            if fault == "malformed":
                text = MALFORMED_CONTENT
            elif fault == "length":
                text = (text or "")[: max(1, len(text or "") // 2)]
                finish = "length"
            completion_chars += len(text or "")
            completion_tokens += self.count_tokens(text or "") if self.count_tokens is not None else 0
            if reply.refusal is not None:
                text = None
            choices.append({"index": i, "message": {"role": "assistant", "content": text, "refusal": reply.refusal},
                            "finish_reason": finish, "logprobs": None})
        out: Dict[str, Any] = {"id": f"chatcmpl-local-{request_id}", "object": "chat.completion",
                               "created": int(time.time()), "model": req.model or "local-judge",
                               "choices": choices}
        if first.usage is AUTO and self.count_tokens is not None:
            prompt, completion = req.prompt_tokens(self.count_tokens), completion_tokens
            out["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                            "total_tokens": prompt + completion}
        elif first.usage is AUTO:
            prompt = max(1, len(req.text) // 4)
            completion = max(1, completion_chars // 4)
            out["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                            "total_tokens": prompt + completion}
        elif first.usage is not None:
            out["usage"] = first.usage
        return 200, dict(first.headers), json.dumps(out).encode(), first.trickle_s

    async def _respond(self, req: ChatRequest) -> Reply:
        result = self.responder(req)
        if inspect.isawaitable(result):
            result = await result
        if isinstance(result, Reply):
            return result
        if isinstance(result, (dict, list, str)) or result is None:
            return Reply(content=result)  # type: ignore[arg-type]  # a list is sent as JSON too
        raise TypeError(f"responder returned {type(result).__name__}; expected dict, str or Reply")
