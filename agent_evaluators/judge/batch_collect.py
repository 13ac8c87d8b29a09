"""Batch mode's judge route: collect a round of requests, send them as one batch, hand back the replies.

While a run with ``judge_mode="batch"`` is going, every chat request an evaluator makes arrives
here (:mod:`.batch_route`) instead of going on the wire. It is given a ``custom_id`` and its
evaluator's ``await`` is parked on a future. When no new request has come for
:data:`QUIET_S` (every row in flight is waiting on the judge: the round is complete), or when
the pending requests reach the batch limits (requests, bytes), they are uploaded as one JSONL
file and one batch is created (:mod:`.batch_api`). A poller follows the batch (interval
``poll_s``, growing by half each time up to eight times that) and, once it is final, resolves
each future with its line's reply body, which then goes through the client's normal parsing,
validation, repair and accounting: the same cells and scores as a direct run. A metric that asks
again after a verdict (hallucinations: segment, then validate; a repair request; the user
simulator's next turn) simply makes a request of the next round.

A line that failed (an HTTP error inside the batch, or no answer because the batch expired,
failed or was cancelled) resolves its future with the transport error it stands for; the
client's retry loop then sends it again, and this time as a normal request (a direct one), so a
partial failure costs those lines at the normal price and nothing more.

Nothing waits forever: every call to the batch API is retried as a chat call is and then fails
(:mod:`.batch_api`); a batch not final within ``batch_timeout_s`` (default 24 h, the providers'
window), a status that cannot be read, or any failure of the task that follows a batch resolves
the requests waiting on it with a :class:`~agent_evaluators.errors.JudgeError` that says what
happened (error cells). The output file is streamed line by line within the reply size limit;
a ``custom_id`` answered twice in one file is an error for that request, logged once.

``custom_id`` = a hash of (endpoint URL, body) plus the occurrence number of that body in the run
(samples of one prompt are identical bodies). The batches and their ids are recorded in the run
folder (:mod:`.batch_journal`): a resumed run asks for the same ids, finds their batch there and
polls it instead of sending anything again. The file is recorded before its batch is created, so
a run killed during the create looks up the batch made from that file before making another.
"""

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from typing import Any, AsyncIterator, Callable, Dict, List, Optional, Set

from ..errors import JudgeError
from ..run_context import Fields, current, scoped
from ..wording import Option, Text
from .batch_api import ATTEMPTS, TERMINAL, BatchApi, BatchCallFailed
from .batch_journal import BatchJournal
from .prices import answered_by_batch
from .reply_body import DEFAULT_MAX_REPLY_BYTES, LineTooLong
from .request_body import encode_body
from .retry import backoff_delay, is_retryable_status
from .transport import AiohttpTransport, BadReply, Dropped, StatusError, TransportError, decode_reply

log = logging.getLogger(__name__)

#: a round is complete when no request has arrived for this long
QUIET_S = 0.25
#: ... or when its first request has waited this long (rows that keep trickling in)
MAX_COLLECT_S = 10.0
#: an input file of an earlier run whose batch nobody has looked for yet
_NOT_LOOKED_UP = object()
#: what a batch output line adds around a reply body (ids, status code), beyond the reply size limit
_LINE_OVERHEAD = 64 * 1024


class BatchLimits:
    """How large one batch may be, how often it is polled and how long it is waited for (the
    provider's limits and window by default)."""

    def __init__(self, max_requests: int = 50_000, max_bytes: int = 200_000_000, poll_s: float = 30.0,
                 timeout_s: float = 86_400.0) -> None:
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.poll_s = poll_s
        self.timeout_s = timeout_s


class _Request:
    __slots__ = ("custom_id", "line", "future", "transport", "origin")

    def __init__(self, custom_id: str, line: bytes, future: "asyncio.Future[Dict[str, Any]]",
                 transport: AiohttpTransport, origin: str) -> None:
        self.custom_id = custom_id
        self.line = line
        self.future = future
        self.transport = transport
        self.origin = origin


class _Endpoint:
    """One judge endpoint's batch API and the requests waiting for its next batch."""

    def __init__(self, transport: AiohttpTransport) -> None:
        self.api = BatchApi(transport)
        self.pending: List[_Request] = []
        self.size = 0


class BatchCollector:
    """The batch route of one run; ``on_status`` is called whenever a batch's status is read."""

    def __init__(self, journal: BatchJournal, limits: BatchLimits,
                 on_status: Optional[Callable[[], None]] = None, direct_limit: int = 10) -> None:
        self.journal = journal
        self._direct_slots = asyncio.Semaphore(direct_limit)  # the run's judge budget, for direct requests
        self.limits = limits
        self.on_status = on_status
        self._loop = asyncio.get_running_loop()
        self._seen: Dict[str, int] = {}
        self._direct: Set[str] = set()  # bodies whose batch line failed: their retries go direct
        self._endpoints: Dict[int, _Endpoint] = {}
        self._waiting: Dict[str, Dict[str, List[_Request]]] = {}  # batch id -> custom id -> requests
        self._answers: Dict[str, Dict[str, Dict[str, Any]]] = {}  # a finished batch's lines not yet claimed
        self._failed: Dict[str, str] = {}  # a batch that ended without answers -> why
        self._broken: Dict[str, JudgeError] = {}  # a batch that could not be followed -> the error of its requests
        #: an input file of an earlier run -> its waiters, its batch id, None (no batch) or the error of its look-up
        self._lookups: Dict[str, Any] = {}
        self._line_limit = DEFAULT_MAX_REPLY_BYTES
        self._pollers: Dict[str, "asyncio.Task[None]"] = {}
        self._tasks: Set["asyncio.Task[Any]"] = set()
        self._timer: Optional[asyncio.TimerHandle] = None
        self._first = self._last = 0.0
        self.status: Dict[str, Dict[str, Any]] = {}  # batch id -> {"status", "done", "total"}
        self._used: Set[str] = set()  # the batches this run's requests were answered from (or waited on)
        self._batched = self._sent_direct = 0

    # ------------------------------------------------------------------ the route
    async def send(self, transport: Any, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int) -> Dict[str, Any]:
        """The reply body for ``body``, from a batch (or direct, for a retried line or one with headers)."""
        data = encode_body(body)
        key = hashlib.sha256(transport.url.encode() + b"\n" + data).hexdigest()[:32]
        if headers or key in self._direct:  # a batch line carries no headers of its own
            answered_by_batch(False)
            self._sent_direct += 1
            async with self._direct_slots:
                raw = await transport.fetch("POST", transport.url, data, headers, timeout, max_reply_bytes)
            return decode_reply(raw)
        n = self._seen.get(key, 0)
        self._seen[key] = n + 1
        custom_id = f"{key}-{n}"
        self._line_limit = max(self._line_limit, max_reply_bytes)
        request = _Request(custom_id, data, self._loop.create_future(), transport, current().batch_origin)
        self._route(request)
        try:
            reply = await request.future
            answered_by_batch(True)  # priced at the batch price (this task's context: the evaluator's)
            self._batched += 1
            return reply
        except (StatusError, Dropped):
            self._direct.add(key)
            raise

    def _route(self, request: _Request) -> None:
        """To the recorded batch of its id, to the look-up of the file an earlier run uploaded it in, or
        to the next batch."""
        batch_id = self.journal.batch_of(request.custom_id)
        if batch_id is not None:
            self._wait_on(batch_id, request)
            return
        file_id = self.journal.file_of(request.custom_id)
        if file_id is None:
            self._queue(request)
            return
        state = self._lookups.get(file_id, _NOT_LOOKED_UP)
        if state is _NOT_LOOKED_UP:
            self._lookups[file_id] = [request]
            self._spawn(self._look_up(BatchApi(request.transport), file_id))
        elif isinstance(state, list):  # being looked up
            state.append(request)
        elif isinstance(state, str):  # its batch
            self._wait_on(state, request)
        elif isinstance(state, JudgeError):  # cannot tell whether it became a batch
            self._fail([request], state)
        else:  # it never became a batch
            self._queue(request)

    async def _look_up(self, api: BatchApi, file_id: str) -> None:
        """An earlier run uploaded ``file_id`` and was stopped before it learnt its batch: find the batch
        made from it (then poll it) or send its requests in a new one."""
        waiting: List[_Request] = self._lookups[file_id]
        batch: Optional[Dict[str, Any]] = None
        try:
            batch = await api.created_from(file_id)
        except Exception as e:  # noqa: BLE001 - not knowing must not send the requests twice
            error = JudgeError(Text(
                "batch mode: cannot tell whether the earlier run's batch file {file} became a batch ({problem}); "
                "its requests are not sent again. Continue the run with {resume} later", file=file_id, problem=e,
                resume=Option("resume", True)))
            self._lookups[file_id] = error
            self._fail(waiting, error)
            return
        if batch is None:
            log.info("batch file %s of an earlier run never became a batch: its requests go in a new one", file_id)
            self._lookups[file_id] = None
            for r in waiting:
                self._queue(r)
            return
        batch_id = str(batch["id"])
        self.journal.submitted(batch_id, self._where(api), file_id, self.journal.intent_requests(file_id))
        self._lookups[file_id] = batch_id
        log.info("batch %s found for the batch file %s of an earlier run: polling it", batch_id, file_id)
        for r in waiting:
            self._wait_on(batch_id, r, api)

    @staticmethod
    def _where(api: BatchApi) -> str:
        """The endpoint as batches.jsonl names it: no credentials, query values masked."""
        config = api.transport.config
        return f"{config.kind}|{config.safe_location}|{config.model}"

    def _fail(self, requests: List[_Request], error: BaseException) -> None:
        for r in requests:
            if not r.future.done():
                r.future.set_exception(error)

    def _queue(self, request: _Request) -> None:
        endpoint = self._endpoints.get(id(request.transport))
        if endpoint is None:
            endpoint = self._endpoints[id(request.transport)] = _Endpoint(request.transport)
        size = len(request.line) + 200
        if endpoint.pending and (len(endpoint.pending) >= self.limits.max_requests
                                 or endpoint.size + size > self.limits.max_bytes):
            self._submit(endpoint)
        endpoint.pending.append(request)
        endpoint.size += size
        now = time.monotonic()
        self._last = now
        if self._timer is None:
            self._first = now
            self._timer = self._loop.call_later(QUIET_S, self._round_check)

    def _round_check(self) -> None:
        """Submit what is pending once the round has gone quiet (or waited long enough)."""
        now = time.monotonic()
        if now - self._last < QUIET_S and now - self._first < MAX_COLLECT_S:
            self._timer = self._loop.call_later(QUIET_S - (now - self._last), self._round_check)
            return
        self._timer = None
        for endpoint in self._endpoints.values():
            if endpoint.pending:
                self._submit(endpoint)

    def _submit(self, endpoint: _Endpoint) -> None:
        requests, endpoint.pending, endpoint.size = endpoint.pending, [], 0
        self._spawn(self._send_batch(endpoint.api, requests))

    def _spawn(self, coro: Any) -> "asyncio.Task[Any]":
        task = self._loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ one batch
    async def _send_batch(self, api: BatchApi, requests: List[_Request]) -> None:
        try:
            await self._upload_and_create(api, requests)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - whatever went wrong, the waiting requests are told
            self._fail(requests, self._submit_error(api, requests, e))

    async def _upload_and_create(self, api: BatchApi, requests: List[_Request]) -> None:
        url = api.urls.line_url
        jsonl = b"".join(b'{"custom_id":"' + r.custom_id.encode() + b'","method":"POST","url":"' + url.encode()
                         + b'","body":' + r.line + b"}\n" for r in requests)
        file_id = await api.upload(jsonl, f"agent-eval-{requests[0].custom_id}.jsonl")
        where = self._where(api)
        origins = [(r.custom_id, r.origin) for r in requests]
        self.journal.intended(file_id, where, origins)  # before the create: a kill now cannot send it twice
        batch = await self._create(api, file_id)
        batch_id = str(batch["id"])
        self.journal.submitted(batch_id, where, file_id, origins)
        log.info("batch %s submitted: %d requests", batch_id, len(requests))
        for r in requests:
            self._wait_on(batch_id, r, api)

    @staticmethod
    async def _create(api: BatchApi, file_id: str) -> Dict[str, Any]:
        """Create the batch of ``file_id``; when a create's answer is lost (a dropped connection, a 5xx, a
        reply with no batch in it) the batch may exist all the same: look it up before creating another."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return await api.create(file_id)
            except BatchCallFailed as e:
                if e.status is not None and not is_retryable_status(e.status):
                    raise
                found = await api.created_from(file_id)
                if found is not None:
                    return found
                if isinstance(e.last, BadReply) or attempt == ATTEMPTS:
                    raise
            await asyncio.sleep(backoff_delay(attempt))
        raise AssertionError("unreachable")

    @staticmethod
    def _submit_error(api: BatchApi, requests: List[_Request], e: Exception) -> JudgeError:
        where = api.transport.config.safe_location
        if isinstance(e, BatchCallFailed) and e.status in (404, 405):
            return JudgeError(Text(
                "batch mode: the judge endpoint {where} did not take the batch of {n} requests ({kind} batch API, "
                "{base}: {problem}); check that it offers the batch API (OpenAI, or an Azure OpenAI global-batch "
                "deployment), or run with {direct}", where=where, n=len(requests), kind=api.transport.config.kind,
                base=api.urls.base, problem=e, direct=Option("judge_mode", "direct")))
        if isinstance(e, BatchCallFailed):
            return JudgeError(Text(
                "batch mode: sending the batch of {n} requests to {where} failed ({problem}); nothing of it was "
                "evaluated. Continue the run with {resume} once the endpoint answers again",
                n=len(requests), where=where, problem=e, resume=Option("resume", True)))
        return JudgeError(Text("batch mode: sending the batch of {n} requests to {where} failed unexpectedly "
                               "({kind}: {problem})", n=len(requests), where=where, kind=type(e).__name__, problem=e))

    def used(self) -> Dict[str, int]:
        """How the run's judge requests went: ``batches`` of the provider's Batch API they were answered
        from, ``batched_requests`` answered there, ``direct_requests`` sent directly (a retried line, or
        one with headers of its own). ``summary.json`` keeps it, so a batch run says it was one."""
        return {"batches": len(self._used), "batched_requests": self._batched, "direct_requests": self._sent_direct}

    def _wait_on(self, batch_id: str, request: _Request, api: Optional[BatchApi] = None) -> None:
        self._used.add(batch_id)
        broken = self._broken.get(batch_id)
        if broken is not None:
            self._fail([request], broken)
            return
        answers = self._answers.get(batch_id)
        if answers is not None or batch_id in self._failed:  # that batch is done already
            self._deliver(request, (answers or {}).pop(request.custom_id, None), self._failed.get(batch_id))
            return
        self._waiting.setdefault(batch_id, {}).setdefault(request.custom_id, []).append(request)
        if batch_id not in self._pollers:
            self._pollers[batch_id] = self._spawn(self._follow(api or BatchApi(request.transport), batch_id))

    async def _follow(self, api: BatchApi, batch_id: str) -> None:
        """Follow ``batch_id`` to its answers; whatever stops that fails the requests waiting on it."""
        try:
            await self._poll_and_answer(api, batch_id)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - a task that dies must not leave its requests waiting forever
            error = e if isinstance(e, JudgeError) else self._follow_error(api, batch_id, e)
            self._broken[batch_id] = error
            for requests in self._waiting.pop(batch_id, {}).values():
                self._fail(requests, error)

    def _follow_error(self, api: BatchApi, batch_id: str, e: Exception) -> JudgeError:
        where = api.transport.config.safe_location
        if isinstance(e, BatchCallFailed):
            return JudgeError(Text(
                "batch mode: {problem} (judge endpoint {where}); the requests waiting on batch {batch} are error "
                "cells. The batch is recorded in the run folder's batches.jsonl: continue the run with {resume} "
                "to ask for it again", problem=e, where=where, batch=batch_id, resume=Option("resume", True)))
        return JudgeError(Text("batch mode: following batch {batch} at {where} failed ({kind}: {problem}); the "
                               "requests waiting on it are error cells", batch=batch_id, where=where,
                               kind=type(e).__name__, problem=e))

    async def _poll_and_answer(self, api: BatchApi, batch_id: str) -> None:
        """Poll ``batch_id`` until it is final, then answer every request waiting on it."""
        record = self.journal.batches.get(batch_id, {})
        status = record.get("status")
        batch: Dict[str, Any] = dict(record)
        delay = self.limits.poll_s
        deadline = time.monotonic() + self.limits.timeout_s
        while status not in TERMINAL:
            try:
                batch = await api.retrieve(batch_id)
            except BatchCallFailed as e:
                if e.status not in (400, 404):
                    raise
                batch = {"status": "failed", "errors": str(e)}  # unknown to the provider (deleted, another account)
            status = batch.get("status")
            counts = batch.get("request_counts") or {}
            self.status[batch_id] = {"status": status, "done": counts.get("completed", 0),
                                     "total": counts.get("total", 0)}
            if self.on_status is not None:
                self.on_status()
            if status in TERMINAL:
                self.journal.finished(batch_id, str(status), batch.get("output_file_id"), batch.get("error_file_id"))
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise JudgeError(Text(
                    "batch mode: batch {batch} did not finish within {option} ({limit:g} s; its status: {status}); "
                    "the requests waiting on it are error cells. The batch is recorded in the run folder's "
                    "batches.jsonl: continue the run with {resume} to poll it again", batch=batch_id,
                    option=Option("batch_timeout_s"), limit=self.limits.timeout_s, status=status,
                    resume=Option("resume", True)))
            await asyncio.sleep(min(delay, left))
            delay = min(delay * 1.5, self.limits.poll_s * 8)
        self.status[batch_id] = {**self.status.get(batch_id, {}), "status": status}
        answers = await self._read_answers(api, batch_id, batch)
        why = f"the batch {batch_id} ended '{status}' without answering this request"
        if status != "completed":
            log.warning("batch %s ended %s%s; its unanswered requests are sent again directly", batch_id, status,
                        f" ({batch.get('errors')})" if batch.get("errors") else "")
        self._answers[batch_id] = answers
        self._failed[batch_id] = why
        for custom_id, requests in self._waiting.pop(batch_id, {}).items():
            line = answers.pop(custom_id, None)
            for r in requests:
                self._deliver(r, line, why)
                line = None  # a duplicate waiter (never expected) goes direct

    async def _read_answers(self, api: BatchApi, batch_id: str, batch: Dict[str, Any]) -> Dict[str, Any]:
        """``custom_id`` -> its line of the output (or error) file, read line by line; an id that occurs
        twice in one file maps to the error that says so."""
        answers: Dict[str, Any] = {}
        limit = self._line_limit + _LINE_OVERHEAD
        for key in ("error_file_id", "output_file_id"):  # an output line wins over an error line
            file_id = batch.get(key)
            if not file_id:
                continue
            seen: Set[str] = set()
            try:
                async for text in api.lines(str(file_id), limit):
                    if isinstance(text, LineTooLong):
                        log.warning("batch %s: %s %s holds %s; that line is skipped (its request is sent again "
                                    "directly)", batch_id, key, file_id, text)
                        continue
                    self._take_line(batch_id, key, text, seen, answers)
            except BatchCallFailed as e:
                log.warning("batch %s: cannot read %s %s (%s); its requests are sent again directly",
                            batch_id, key, file_id, e)
            except TransportError as e:  # a break, a stall or a corrupt gzip stream after the first line
                log.warning("batch %s: reading %s %s broke off (%s); its unread requests are sent again directly",
                            batch_id, key, file_id, e)
        return answers

    @staticmethod
    def _take_line(batch_id: str, key: str, text: bytes, seen: Set[str], answers: Dict[str, Any]) -> None:
        try:
            line = json.loads(text)
        except (ValueError, RecursionError):
            return
        if not isinstance(line, dict) or not isinstance(line.get("custom_id"), str):
            return
        custom_id = line["custom_id"]
        if custom_id not in seen:
            seen.add(custom_id)
            answers[custom_id] = line
        elif not isinstance(answers.get(custom_id), JudgeError):
            log.warning("batch %s: the request %s is answered more than once in its %s; it is an error",
                        batch_id, custom_id, key)
            answers[custom_id] = JudgeError(Text(
                "batch mode: batch {batch} answers the request {id} more than once (its {file} repeats the id); "
                "which answer is its own cannot be told, so the request is an error", batch=batch_id, id=custom_id,
                file=key))

    def _deliver(self, request: _Request, line: Any, why: Optional[str]) -> None:
        """Resolve one parked request: its reply body, or the transport error its line stands for."""
        future = request.future
        if future.done():
            return
        if isinstance(line, JudgeError):
            future.set_exception(line)
            return
        response = line.get("response") if isinstance(line, dict) else None
        status = response.get("status_code") if isinstance(response, dict) else None
        body = response.get("body") if isinstance(response, dict) else None
        if status == 200 and isinstance(body, dict):
            future.set_result(body)
        elif isinstance(status, int) and status != 200:
            inner: Dict[str, Any] = body["error"] if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
            future.set_exception(StatusError(status, {}, str(inner.get("message") or body or "batch line failed"),
                                             inner.get("param") if isinstance(inner.get("param"), str) else None))
        else:
            error = line.get("error") if isinstance(line, dict) else None
            message = error.get("message") if isinstance(error, dict) else None
            future.set_exception(Dropped(f"{message or why or 'no answer in the batch'}; sent again directly"))

    # ------------------------------------------------------------------ the run
    def describe(self) -> str:
        """``batches: 1 in_progress 40/120, 2 completed`` for the progress line ('' before the first batch)."""
        if not self.status:
            return ""
        by: Dict[str, List[str]] = {}
        for s in self.status.values():
            text = str(s.get("status"))
            if s.get("total") and text not in TERMINAL:
                text += f" {s.get('done', 0)}/{s['total']}"
            by.setdefault(str(s.get("status")), []).append(text)
        parts = [f"{len(v)} {k}" if k in TERMINAL else ", ".join(v) for k, v in sorted(by.items())]
        return "batches: " + ", ".join(parts)

    async def close(self) -> None:
        """Stop polling (a run that ends or is cancelled): the journal keeps what a resume needs."""
        if self._timer is not None:
            self._timer.cancel()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


@contextlib.asynccontextmanager
async def batch_collector(journal: BatchJournal, limits: Optional[BatchLimits] = None, *, max_concurrency: int = 10,
                          on_status: Optional[Callable[[], None]] = None) -> AsyncIterator[BatchCollector]:
    """A run's collector, polling until the block ends; the run installs it (:func:`routed`) with
    the rest of its context. ``max_concurrency`` bounds the requests it sends directly (retried lines)."""
    collector = BatchCollector(journal, limits or BatchLimits(), on_status=on_status, direct_limit=max_concurrency)
    try:
        yield collector
    finally:
        await collector.close()


def routed(collector: BatchCollector) -> Fields:
    """The run context of batch mode: requests go to ``collector``, and the judge budget is lifted
    for the parked requests (a round would otherwise be ``max_concurrency`` requests)."""
    return {"batch_route": collector, "limiter": None}


@contextlib.asynccontextmanager
async def batch_judging(journal: BatchJournal, limits: Optional[BatchLimits] = None, *, max_concurrency: int = 10,
                        on_status: Optional[Callable[[], None]] = None) -> AsyncIterator[BatchCollector]:
    """Inside this block every judge request of this task (and the tasks it starts) goes through batches.

    The judge budget is lifted for the parked requests (a round would otherwise be ``max_concurrency``
    requests); ``max_concurrency`` still bounds the requests sent directly (retried lines).
    """
    async with batch_collector(journal, limits, max_concurrency=max_concurrency, on_status=on_status) as collector:
        with scoped(**routed(collector)):
            yield collector
