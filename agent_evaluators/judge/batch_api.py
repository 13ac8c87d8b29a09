"""The provider's batch API: upload a JSONL of requests, create a batch, poll it, read its files.

One code path for both providers; only the URLs differ (:func:`batch_urls`):

* OpenAI: ``{base_url}/files`` (multipart, ``purpose=batch``), ``{base_url}/batches`` (``endpoint``
  ``/v1/chat/completions``, ``completion_window`` ``24h``), ``{base_url}/batches/{id}``,
  ``{base_url}/files/{id}/content``.
* Azure OpenAI global batch: the same under ``{azure_endpoint}/openai/...?api-version=...``, with
  ``/chat/completions`` as the endpoint and the deployment name as each line's ``model``.

Every exchange goes through the endpoint's pooled :class:`~.transport.AiohttpTransport`
(``fetch``), so the headers, ``api-key`` / ``Authorization`` / Entra token, proxy settings and
the reply size limit are those of the normal chat path, and so are the retries: every call is
retried and waits out a brief outage by the chat call's rules (:mod:`.retry`, :mod:`.circuit`),
then fails with :class:`BatchCallFailed`, which says what was tried and what happened. Every reply
is checked for the shape the code reads (:class:`BadReply` otherwise): a batch with no ``id`` or a
``request_counts`` that is not a map is a failure, not a crash of the task that reads it.
"""

import asyncio
import json
import logging
import uuid
from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, List, Optional, TypeVar, Union

from .circuit import circuit_for
from .reply_body import LineTooLong
from .retry import backoff_delay, is_retryable_status, retry_after_seconds
from .transport import AiohttpTransport, BadReply, ConnectFailure, StatusError, TransportError, _split_query, decode_reply

log = logging.getLogger(__name__)

#: the statuses after which a batch changes no more
TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
#: every status a provider gives a batch (OpenAI and Azure OpenAI)
STATUSES = TERMINAL | {"validating", "in_progress", "finalizing", "cancelling"}
#: attempts per call, as a chat call's default (``max_attempts``)
ATTEMPTS = 5
#: batches listed per page when looking for the batch created from a file
_LIST_PAGE = 100
#: pages looked at (the newest batches first): a batch created in the last minutes is on the first
_LIST_PAGES = 5

T = TypeVar("T")


class BatchCallFailed(TransportError):
    """A batch API call that failed for good: ``what`` was tried ``attempts`` times; ``last`` is the
    last failure (a :class:`StatusError` when the endpoint answered with an HTTP error)."""

    def __init__(self, what: str, attempts: int, last: TransportError) -> None:
        tries = "once" if attempts == 1 else f"{attempts} times"
        super().__init__(f"{what}: tried {tries}; last: {last}")
        self.what = what
        self.attempts = attempts
        self.last = last

    @property
    def status(self) -> Optional[int]:
        return self.last.status if isinstance(self.last, StatusError) else None


@dataclass(frozen=True)
class BatchUrls:
    """Where one endpoint's files and batches live; ``line_url`` is what each request line names."""

    base: str
    query: str
    line_url: str

    def url(self, path: str) -> str:
        return f"{self.base}{path}{'?' + self.query if self.query else ''}"


def batch_urls(config: Any) -> BatchUrls:
    """The batch routes of an endpoint config (the URL query, which may carry a key, is kept)."""
    if config.kind == "azure":
        version = f"api-version={config.api_version}"
        if config.azure_endpoint:
            base, query = _split_query(config.azure_endpoint)
            base += "/openai"
        else:  # a base_url such as https://x.openai.azure.com/openai[/deployments/name]
            base, query = _split_query(config.base_url or "")
            base = base.split("/deployments/")[0]
        return BatchUrls(base, version + ("&" + query if query else ""), "/chat/completions")
    base, query = _split_query(config.base_url or "https://api.openai.com/v1")
    return BatchUrls(base, query, "/v1/chat/completions")


def checked_batch(reply: Any, what: str) -> Dict[str, Any]:
    """A batch object with the fields the collector reads in their types, or :class:`BadReply`."""
    def bad(problem: str) -> BadReply:
        return BadReply(f"the {what} reply {problem}", json.dumps(reply, default=str)[:2000])

    if not isinstance(reply, dict):
        raise bad(f"is a JSON {type(reply).__name__}, not a batch object")
    if not isinstance(reply.get("id"), str) or not reply["id"]:
        raise bad("has no batch id")
    if reply.get("status") not in STATUSES:
        raise bad(f"has no known status ({reply.get('status')!r})")
    counts = reply.get("request_counts")
    if counts is not None and (not isinstance(counts, dict) or not all(
            isinstance(counts.get(k, 0), int) and not isinstance(counts.get(k, 0), bool)
            for k in ("total", "completed", "failed"))):
        raise bad(f"has request_counts of the wrong shape ({counts!r})")
    for key in ("output_file_id", "error_file_id", "input_file_id"):
        if reply.get(key) is not None and not isinstance(reply[key], str):
            raise bad(f"has a {key} that is not a string ({reply[key]!r})")
    return reply


class BatchApi:
    """The calls a batch needs, on one endpoint's transport, each retried as a chat call is;
    raises :class:`BatchCallFailed`."""

    def __init__(self, transport: AiohttpTransport, timeout: float = 300.0, attempts: int = ATTEMPTS) -> None:
        self.transport = transport
        self.urls = batch_urls(transport.config)
        self.timeout = timeout
        self.attempts = attempts
        config = transport.config
        self.circuit = circuit_for(config.kind, config.azure_endpoint or config.base_url or "")

    async def _retried(self, what: str, call: Callable[[], Awaitable[T]], *, retry: bool = True) -> T:
        """``call()`` under the chat call's rules: 429/408/5xx, timeouts, dropped connections and replies
        of the wrong shape are retried with backoff (the server's ``Retry-After`` wins); other HTTP errors
        are not; connection failures count in the endpoint's circuit, which waits out a brief outage."""
        circuit = self.circuit
        last: TransportError = TransportError("not tried")
        attempts = self.attempts if retry else 1
        for attempt in range(1, attempts + 1):
            if not circuit.allow() and not await circuit.wait():
                raise BatchCallFailed(what, attempt - 1, ConnectFailure(
                    f"the endpoint is unreachable ({circuit.last_problem})"))
            wait: Optional[float] = None
            try:
                result = await call()
                circuit.succeeded()
                return result
            except StatusError as e:
                circuit.succeeded()
                if not is_retryable_status(e.status):
                    raise BatchCallFailed(what, attempt, e) from None
                last, wait = e, retry_after_seconds(e.headers)
            except ConnectFailure as e:
                circuit.failed(str(e))
                last = e
            except TransportError as e:
                last = e
            log.debug("%s: attempt %d/%d failed: %s", what, attempt, attempts, last)
            if attempt < attempts:
                await asyncio.sleep(wait if wait is not None else backoff_delay(attempt))
        raise BatchCallFailed(what, attempts, last)

    async def _json(self, method: str, path: str, data: Any = None,
                    headers: "Dict[str, str] | None" = None) -> Dict[str, Any]:
        raw = await self.transport.fetch(method, self.urls.url(path), data, headers, self.timeout)
        return decode_reply(raw)

    async def upload(self, jsonl: bytes, name: str) -> str:
        """Upload the requests file (``purpose=batch``); its file id."""
        boundary = uuid.uuid4().hex
        head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: application/jsonl\r\n\r\n").encode()
        data = head + jsonl + f"\r\n--{boundary}--\r\n".encode()

        async def once() -> str:
            reply = await self._json("POST", "/files", data, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
            if not isinstance(reply.get("id"), str) or not reply["id"]:
                raise BadReply("the upload reply has no file id", json.dumps(reply, default=str)[:2000])
            return str(reply["id"])

        return await self._retried(f"uploading the batch file ({len(jsonl):,} bytes)", once)

    async def create(self, file_id: str) -> Dict[str, Any]:
        """Start a batch over an uploaded file; the batch object. Tried once: a create whose answer was
        lost may have made the batch, so the caller looks it up (:meth:`created_from`) before trying again."""
        body = {"input_file_id": file_id, "endpoint": self.urls.line_url, "completion_window": "24h"}

        async def once() -> Dict[str, Any]:
            return checked_batch(await self._json("POST", "/batches", json.dumps(body).encode()), "create")

        return await self._retried(f"creating a batch from file {file_id}", once, retry=False)

    async def retrieve(self, batch_id: str) -> Dict[str, Any]:
        async def once() -> Dict[str, Any]:
            return checked_batch(await self._json("GET", f"/batches/{batch_id}"), f"status of batch {batch_id}")

        return await self._retried(f"reading the status of batch {batch_id}", once)

    async def created_from(self, file_id: str) -> Optional[Dict[str, Any]]:
        """The batch created from the file ``file_id`` (the newest pages of ``GET /batches``), if any."""
        after: Optional[str] = None
        for _ in range(_LIST_PAGES):
            query = f"limit={_LIST_PAGE}" + (f"&after={after}" if after else "")
            sep = "&" if self.urls.query else "?"

            async def once(query: str = query, sep: str = sep) -> Dict[str, Any]:
                url = self.urls.url("/batches") + sep + query
                return decode_reply(await self.transport.fetch("GET", url, None, None, self.timeout))

            page = await self._retried(f"looking for the batch created from file {file_id}", once)
            data = page.get("data")
            if not isinstance(data, list):
                return None
            for batch in data:
                if isinstance(batch, dict) and batch.get("input_file_id") == file_id:
                    return checked_batch(batch, "batch list")
            if not page.get("has_more") or not data or not isinstance(data[-1], dict):
                return None
            after = str(data[-1].get("id"))
        return None

    async def lines(self, file_id: str, max_line_bytes: int) -> AsyncIterator[Union[bytes, LineTooLong]]:
        """A file's lines (a batch's output or error JSONL), streamed; a line over ``max_line_bytes``
        comes as :class:`LineTooLong`. Opening the file (up to its first line) is retried; a break
        later raises."""
        url = self.urls.url(f"/files/{file_id}/content")
        headers = {"Accept": "application/jsonl, application/json"}
        opened: List[Any] = []  # [stream, its first line or None]

        async def open_file() -> None:
            stream = self.transport.lines(url, headers, self.timeout, max_line_bytes)
            try:
                first: Optional[Union[bytes, LineTooLong]] = await stream.__anext__()
            except StopAsyncIteration:
                first = None
            opened[:] = [stream, first]

        await self._retried(f"reading file {file_id}", open_file)
        stream, first = opened
        if first is None:
            return
        yield first
        async for line in stream:
            yield line
