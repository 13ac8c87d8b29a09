"""The local judge server's files and batches endpoints (OpenAI Batch API and Azure OpenAI global batch).

Routes (``{p}`` is ``/v1`` or Azure's ``/openai``, whose requests carry ``?api-version=``):
``POST {p}/files`` (multipart: ``purpose=batch``, ``file``), ``GET {p}/files/{id}/content``,
``POST {p}/batches``, ``GET {p}/batches/{id}``.

A batch is answered by the same responder, faults and key check as a normal request: when it is
due (``complete_after_s`` after its creation, on the first status check after that) each line goes
through the server's chat path once, concurrently (its ``ChatRequest`` has the header
``x-batch-custom-id``), and its reply becomes an output line (2xx) or
an error-file line. :class:`BatchFaults` scripts the rest: a share of lines failing with a 500
inside the batch, a batch that expires with only part of its lines answered, scripted failures of
each route, edited (hostile) batch objects and output files, gzip output. ``custom_ids``
counts how often each line was answered, across batches, so a test sees that nothing ran twice.
``GET {p}/batches`` lists the batches, newest first (``after``, ``limit``).
"""

import asyncio
import gzip
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

#: what the server's chat path answers: (status, headers, payload[, trickle]) or None (a reset)
ChatAnswer = Callable[[str, Dict[str, str], Optional[str], Dict[str, str], bytes], Awaitable[Optional[Tuple[Any, ...]]]]


@dataclass
class BatchFaults:
    """How the fake's batches behave.

    ``complete_after_s``: a batch stays ``in_progress`` this long (slow completion).
    ``line_error_rate``: the share of lines (seeded) answered with an HTTP 500 in the error file.
    ``expire``: batches end ``expired`` with only ``expire_answered`` of their lines answered; the
    rest are error lines ``batch_expired``.
    ``fail``: scripted answers per route (``"upload"``, ``"create"``, ``"retrieve"``, ``"content"``,
    ``"list"``): each call of that route takes the next status of its list (``0``: the connection is
    reset) until the list is empty, then the route works.
    ``edit``: ``edit(route, obj)`` returns the JSON object a ``"create"`` / ``"retrieve"`` / ``"upload"``
    call answers instead of ``obj`` (a reply with no ``id``, a ``request_counts`` that is a string).
    ``edit_output``: ``edit_output(records)`` returns the output file's records (duplicate ids ...).
    ``gzip_output``: output and error files are sent with ``Content-Encoding: gzip``.
    ``create_delay_s``: a created batch exists at once, but its create call is answered this late
    (a client killed meanwhile never learns its id); ``create_reset``: ... and then the connection is reset.
    """

    complete_after_s: float = 0.0
    line_error_rate: float = 0.0
    expire: bool = False
    expire_answered: float = 0.5
    seed: int = 0
    fail: Dict[str, List[int]] = field(default_factory=dict)
    edit: Optional[Callable[[str, Dict[str, Any]], Any]] = None
    edit_output: Optional[Callable[[List[Dict[str, Any]]], List[Dict[str, Any]]]] = None
    gzip_output: bool = False
    create_delay_s: float = 0.0
    create_reset: bool = False


def _json(status: int, value: Any) -> Tuple[int, Dict[str, str], bytes]:
    return status, {}, json.dumps(value).encode()


def _error(status: int, message: str) -> Tuple[int, Dict[str, str], bytes]:
    return _json(status, {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}})


def _multipart(headers: Dict[str, str], body: bytes) -> Dict[str, bytes]:
    """The named parts of a ``multipart/form-data`` body."""
    ctype = headers.get("content-type", "")
    boundary = ctype.partition("boundary=")[2].strip().strip('"').encode()
    parts: Dict[str, bytes] = {}
    if not boundary:
        return parts
    for chunk in body.split(b"--" + boundary):
        head, sep, value = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        name = head.decode("latin-1").partition('name="')[2].partition('"')[0]
        parts[name] = value[:-2] if value.endswith(b"\r\n") else value
    return parts


class FakeBatches:
    """Files and batches in memory, answered through ``chat`` (the server's chat path)."""

    def __init__(self, chat: ChatAnswer, faults: BatchFaults) -> None:
        self.chat = chat
        self.faults = faults
        self.files: Dict[str, bytes] = {}
        self.batches: Dict[str, Dict[str, Any]] = {}
        self.custom_ids: "Counter[str]" = Counter()
        self._rng = random.Random(faults.seed)
        self._running: Dict[str, "asyncio.Task[None]"] = {}
        self._outputs: set = set()  # output and error files (sent gzipped with gzip_output)
        self._next = 0

    def _id(self, prefix: str) -> str:
        self._next += 1
        return f"{prefix}-local-{self._next}"

    @staticmethod
    def route(path: str) -> Optional[List[str]]:
        """The path's segments after ``/v1`` or ``/openai`` when it is a files or batches route."""
        segments = [s for s in path.split("/") if s]
        if len(segments) >= 2 and segments[0] in ("v1", "openai") and segments[1] in ("files", "batches"):
            return segments[1:]
        return None

    def _scripted(self, route: str) -> Optional[int]:
        script = self.faults.fail.get(route)
        return script.pop(0) if script else None

    def _edited(self, route: str, answer: Tuple[Any, ...]) -> Tuple[Any, ...]:
        if self.faults.edit is None or answer[0] != 200:
            return answer
        return _json(200, self.faults.edit(route, json.loads(answer[2])))

    async def dispatch(self, method: str, segments: List[str], query: Dict[str, str], headers: Dict[str, str],
                       body: bytes, azure: bool) -> Optional[Tuple[Any, ...]]:
        route = self._route_name(method, segments)
        scripted = self._scripted(route)
        if scripted == 0:
            return None  # a reset connection
        if scripted is not None:
            return _error(scripted, f"scripted {route} failure (HTTP {scripted})")
        answer = await self._dispatch(method, segments, query, headers, body, azure)
        return self._edited(route, answer) if answer is not None else None

    @staticmethod
    def _route_name(method: str, segments: List[str]) -> str:
        if segments[0] == "files":
            return "upload" if method == "POST" else "content"
        if len(segments) == 1:
            return "create" if method == "POST" else "list"
        return "retrieve"

    async def _dispatch(self, method: str, segments: List[str], query: Dict[str, str], headers: Dict[str, str],
                        body: bytes, azure: bool) -> Optional[Tuple[Any, ...]]:
        if segments == ["files"] and method == "POST":
            parts = _multipart(headers, body)
            if parts.get("purpose", b"").strip() != b"batch" or "file" not in parts:
                return _error(400, "upload a multipart form with purpose=batch and a file")
            file_id = self._id("file")
            self.files[file_id] = parts["file"]
            return _json(200, {"id": file_id, "object": "file", "bytes": len(parts["file"]), "purpose": "batch",
                               "created_at": int(time.time()), "filename": "batch.jsonl", "status": "processed"})
        if len(segments) == 3 and segments[0] == "files" and segments[2] == "content" and method == "GET":
            content = self.files.get(segments[1])
            if content is None:
                return _error(404, f"no file {segments[1]}")
            if self.faults.gzip_output and segments[1] in self._outputs:
                return 200, {"content-encoding": "gzip"}, gzip.compress(content)
            return 200, {}, content
        if segments == ["batches"] and method == "GET":
            return self._list(query)
        if segments == ["batches"] and method == "POST":
            answer = self._create(json.loads(body or b"{}"), query, headers, azure)
            if answer[0] == 200 and (self.faults.create_delay_s or self.faults.create_reset):
                await asyncio.sleep(self.faults.create_delay_s)
                if self.faults.create_reset:
                    return None
            return answer
        if len(segments) == 2 and segments[0] == "batches" and method == "GET":
            batch = self.batches.get(segments[1])
            if batch is None:
                return _error(404, f"no batch {segments[1]}")
            return _json(200, await self._status(batch))
        return _error(404, f"no route for {method} /{'/'.join(segments)}")

    def _create(self, request: Dict[str, Any], query: Dict[str, str], headers: Dict[str, str],
                azure: bool) -> Tuple[Any, ...]:
        expected = "/chat/completions" if azure else "/v1/chat/completions"
        if request.get("endpoint") != expected or request.get("completion_window") != "24h":
            return _error(400, f"endpoint must be {expected} and completion_window 24h")
        content = self.files.get(str(request.get("input_file_id")))
        if content is None:
            return _error(404, f"no file {request.get('input_file_id')}")
        lines = [json.loads(t) for t in content.splitlines() if t.strip()]
        if any(line.get("url") != expected for line in lines):
            return _error(400, f"every line's url must be {expected}")
        batch_id = self._id("batch")
        self.batches[batch_id] = {
            "id": batch_id, "object": "batch", "endpoint": expected, "input_file_id": request["input_file_id"],
            "completion_window": "24h", "status": "validating", "created_at": time.time(),
            "output_file_id": None, "error_file_id": None, "errors": None,
            "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            "_lines": lines, "_headers": dict(headers), "_query": dict(query), "_azure": azure,
        }
        return _json(200, self._public(self.batches[batch_id]))

    def _list(self, query: Dict[str, str]) -> Tuple[Any, ...]:
        """OpenAI's ``GET /batches``: newest first, ``limit`` (default 20) after the id ``after``."""
        ordered = list(reversed(list(self.batches.values())))
        after = query.get("after")
        if after is not None:
            ids = [b["id"] for b in ordered]
            ordered = ordered[ids.index(after) + 1:] if after in ids else []
        limit = int(query.get("limit") or 20)
        page = ordered[:limit]
        return _json(200, {"object": "list", "data": [self._public(b) for b in page],
                           "first_id": page[0]["id"] if page else None, "last_id": page[-1]["id"] if page else None,
                           "has_more": len(ordered) > limit})

    @staticmethod
    def _public(batch: Dict[str, Any]) -> Dict[str, Any]:
        return {k: v for k, v in batch.items() if not k.startswith("_")}

    async def _status(self, batch: Dict[str, Any]) -> Dict[str, Any]:
        if batch["status"] in ("validating", "in_progress"):
            if time.time() - batch["created_at"] < self.faults.complete_after_s:
                batch["status"] = "in_progress"
            else:
                task = self._running.get(batch["id"])
                if task is None:
                    task = self._running[batch["id"]] = asyncio.ensure_future(self._run(batch))
                await asyncio.shield(task)
        return self._public(batch)

    async def _run(self, batch: Dict[str, Any]) -> None:
        lines = batch["_lines"]
        answered = len(lines) if not self.faults.expire else int(len(lines) * self.faults.expire_answered)
        results = await asyncio.gather(*(self._line(batch, line) for line in lines[:answered]))
        out: List[Dict[str, Any]] = []
        errors: List[Dict[str, Any]] = []
        for line, (status, reply) in zip(lines, results):
            self.custom_ids[line["custom_id"]] += 1
            record = {"id": self._id("batch_req"), "custom_id": line["custom_id"],
                      "response": {"status_code": status, "request_id": self._id("req"), "body": reply}, "error": None}
            (out if status == 200 else errors).append(record)
        for line in lines[answered:]:
            errors.append({"id": self._id("batch_req"), "custom_id": line["custom_id"], "response": None,
                           "error": {"code": "batch_expired", "message": "This request could not be executed "
                                     "before the completion window expired."}})
        if self.faults.edit_output is not None:
            out = self.faults.edit_output(out)
        for key, records in (("output_file_id", out), ("error_file_id", errors)):
            if records:
                file_id = self._id("file")
                self._outputs.add(file_id)
                self.files[file_id] = "".join(json.dumps(r) + "\n" for r in records).encode()
                batch[key] = file_id
        batch["request_counts"] = {"total": len(lines), "completed": len(out), "failed": len(errors)}
        batch["status"] = "expired" if self.faults.expire else "completed"

    async def _line(self, batch: Dict[str, Any], line: Dict[str, Any]) -> Tuple[int, Any]:
        if self.faults.line_error_rate and self._rng.random() < self.faults.line_error_rate:
            return 500, {"error": {"message": "The server had an error processing this line (injected).",
                                   "type": "server_error", "param": None, "code": None}}
        body = line.get("body") or {}
        deployment = str(body.get("model")) if batch["_azure"] else None
        path = f"/openai/deployments/{deployment}/chat/completions" if batch["_azure"] else "/v1/chat/completions"
        headers = {**batch["_headers"], "x-batch-custom-id": line["custom_id"]}  # how a test tells batch lines apart
        answer = await self.chat(path, batch["_query"], deployment, headers, json.dumps(body).encode())
        if answer is None:
            return 500, {"error": {"message": "the line's connection was reset (injected)", "type": "server_error"}}
        status, payload = answer[0], answer[2]
        try:
            return status, json.loads(payload)
        except ValueError:
            return 500, {"error": {"message": "unreadable reply", "type": "server_error"}}
