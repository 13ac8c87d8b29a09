"""How one chat-completions request reaches the judge: one small interface, two implementations.

``send(body, headers)`` posts one request body and returns the parsed JSON object, or
raises a :class:`TransportError` subclass the client's retry loop understands.

* :class:`AiohttpTransport` (every config we build ourselves): one pooled
  ``aiohttp.ClientSession`` per (endpoint, event loop), the URL, the fixed headers and
  the timeout computed once, stdlib ``json``. About a tenth of the CPU the ``openai``
  SDK spends per call (request models, httpx, response models), which dominated a run.
  Redirects are never followed: aiohttp would forward ``api-key`` / ``Authorization``
  to whatever origin a ``Location`` names. Reply bodies are read within a size limit
  (:mod:`.reply_body`). The standard ``HTTP_PROXY`` / ``HTTPS_PROXY`` / ``NO_PROXY``
  variables are honoured, as the ``openai`` client does: read once per session (aiohttp's
  own ``trust_env`` would look them and ``~/.netrc`` up again on every request, in a thread,
  and a netrc entry for the judge's host would clash with our ``Authorization`` header).
* :class:`OpenAIClientTransport`: a user's own ``openai`` async client, used as is
  through its documented low-level ``post`` (its proxies, auth hooks and transport stay theirs).

A session is closed while its loop still runs (an async generator registered with the
loop is closed by ``asyncio.run``'s ``shutdown_asyncgens``), so no "Unclosed client
session" warning is left behind; a loop closed some other way has its sessions dropped
quietly (:func:`_retire`).
"""

import asyncio
import atexit
import json
import threading
import time
import weakref
from typing import Any, AsyncIterator, Dict, Mapping, Optional, Union

from .._util.deadlines import SHARED_DEADLINES, Deadlines, expired_here, survived
from .._util.json_text import loads
from ..errors import InputError, JudgeError
from ..run_context import current
from .endpoint import AZURE_SCOPE, EndpointConfig, public_url
from .entra_tokens import remember_token
from .reply_body import (
    ACCEPT_ENCODING,
    DEFAULT_MAX_REPLY_BYTES,
    LineTooLong,
    ReplyTooLarge,
    UnreadableBody,
    iter_lines,
    read_body,
)
from .request_body import encode_body

#: connections per (endpoint, loop): above any sane ``max_concurrency`` of one process, below fd limits
CONNECTION_LIMIT = 1024
#: refresh an Entra ID token this long before it expires
_TOKEN_MARGIN_S = 300.0


class TransportError(Exception):
    """Base of what ``send`` raises; ``str()`` may hold secrets echoed by a server (scrub before showing)."""


class StatusError(TransportError):
    """The server answered with a non-2xx status. ``message``/``param`` come from an
    OpenAI-style ``{"error": {...}}`` body when there is one."""

    def __init__(self, status: int, headers: Mapping[str, str], message: str, param: Optional[str] = None,
                 location: Optional[str] = None) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.headers = headers
        self.message = message
        self.param = param
        self.location = location  # the Location header of a 3xx


class TransportTimeout(TransportError):
    """No complete reply within the attempt's total deadline."""


class ConnectFailure(TransportError):
    """No connection could be made (refused, DNS, TLS): the endpoint is unreachable, not slow."""


class Dropped(TransportError):
    """The connection broke after it was made (reset, closed mid-reply): transient."""


class TooLarge(TransportError):
    """The reply body passed the size limit (``limit`` bytes); ``str()`` names the limit."""

    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit


class BadReply(TransportError):
    """A 2xx reply whose body is not a JSON object; ``text`` is the raw body (unscrubbed)."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


def _parse_error(raw: bytes) -> "tuple[str, Optional[str]]":
    text = raw.decode("utf-8", "replace")
    try:
        body = json.loads(text)
    except ValueError:
        return text[:600].strip() or "(empty body)", None
    if isinstance(body, dict):
        inner = body["error"] if isinstance(body.get("error"), dict) else body
        message = inner.get("message")
        param = inner.get("param")
        return str(message if message is not None else body)[:2000], param if isinstance(param, str) else None
    return text[:600], None


def decode_reply(raw: bytes) -> Dict[str, Any]:
    """The JSON object of a 2xx body, or :class:`BadReply` (an HTML error page labelled JSON, ...)."""
    try:
        value = loads(raw)
    except ValueError as e:
        text = raw.decode("utf-8", "replace")
        raise BadReply(f"the judge answered HTTP 200 with a body that is not JSON ({e})", text) from None
    except RecursionError:  # arrays nested 100,000 deep: valid JSON no verdict looks like
        raise BadReply("the judge answered HTTP 200 with JSON nested too deeply to read",
                       raw[:2000].decode("utf-8", "replace")) from None
    if not isinstance(value, dict):
        raise BadReply(f"the judge answered HTTP 200 with a JSON {type(value).__name__}, not an object",
                       raw.decode("utf-8", "replace"))
    return value


class Transport:
    """Sends one chat-completions body; see the module docstring."""

    async def send(self, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> Dict[str, Any]:
        """Post ``body``; ``max_reply_bytes`` bounds the reply body (where the transport reads it itself)."""
        raise NotImplementedError

    def retire(self) -> None:
        """Forget resources bound to a closed loop, quietly."""


class _Token:
    """An Entra ID bearer token from a credential or token provider, reused until near expiry."""

    def __init__(self, credential: Any) -> None:
        self.credential = credential
        self.value: Optional[str] = None
        self.expires = 0.0

    async def get(self) -> str:
        if self.value is not None and time.time() < self.expires - _TOKEN_MARGIN_S:
            return self.value
        cred = self.credential
        get_token = getattr(cred, "get_token", None)
        expires: Optional[float] = None
        if get_token is not None:
            result = get_token(AZURE_SCOPE)
            if asyncio.iscoroutine(result):
                result = await result
            token, expires = result.token, float(getattr(result, "expires_on", 0) or 0)
        else:  # a token provider callable (from an AzureOpenAI client): it caches on its own
            result = cred()
            token = await result if asyncio.iscoroutine(result) else result
        token = str(token)
        remember_token(token, cred)
        if expires:
            self.value, self.expires = token, expires
        return token


def chat_url(config: EndpointConfig) -> str:
    """Where chat-completions requests for ``config`` go (query string included: it may carry a key)."""
    if config.kind == "azure":
        version = f"api-version={config.api_version}"
        if config.azure_endpoint:
            base, query = _split_query(config.azure_endpoint)
            return f"{base}/openai/deployments/{config.model}/chat/completions?{version}{'&' + query if query else ''}"
        base, query = _split_query(config.base_url or "")
        if "/deployments/" not in base + "/":
            base = f"{base}/deployments/{config.model}"
        return f"{base}/chat/completions?{version}{'&' + query if query else ''}"
    base, query = _split_query(config.base_url or "https://api.openai.com/v1")
    return f"{base}/chat/completions{'?' + query if query else ''}"


def env_proxy(url: str) -> "tuple[Any, Optional[Dict[str, str]]]":
    """``(proxy URL, proxy headers)`` for ``url`` from ``HTTP(S)_PROXY`` / ``NO_PROXY`` (credentials in the
    proxy URL become a ``Proxy-Authorization`` header), or ``(None, None)``."""
    from aiohttp.helpers import get_env_proxy_for_url
    from yarl import URL

    try:
        proxy, auth = get_env_proxy_for_url(URL(url))
    except LookupError:  # no proxy for this scheme, or NO_PROXY names the host
        return None, None
    return proxy, ({"Proxy-Authorization": auth.encode()} if auth is not None else None)


def _split_query(url: str) -> "tuple[str, str]":
    base, _, query = url.partition("?")
    return base.rstrip("/"), query


_open_transports: "weakref.WeakSet[AiohttpTransport]" = weakref.WeakSet()
_atexit_lock = threading.Lock()
_atexit_registered = False


def _close_at_exit() -> None:
    """Close sessions still open at interpreter exit (a long-lived background loop, such as the
    one sync evaluator calls use, is never shut down), so no "Unclosed client session" is printed."""
    for transport in list(_open_transports):
        session, loop = transport._session, transport._loop
        if session is None or loop is None:
            continue
        try:
            if loop.is_closed():
                transport.retire()
            elif loop.is_running():
                if threading.get_ident() != getattr(loop, "_thread_id", None):
                    asyncio.run_coroutine_threadsafe(session.close(), loop).result(2)
            else:
                loop.run_until_complete(session.close())
        except Exception:  # noqa: BLE001 - exiting anyway; at worst a warning
            transport.retire()


def _register_at_exit() -> None:
    global _atexit_registered
    with _atexit_lock:
        if not _atexit_registered:
            atexit.register(_close_at_exit)
            _atexit_registered = True


class AiohttpTransport(Transport):
    """One ``aiohttp`` session for one endpoint on one event loop."""

    def __init__(self, config: EndpointConfig) -> None:
        self.config = config
        self.url = chat_url(config)
        self.headers: Dict[str, str] = {"Content-Type": "application/json", "Accept": "application/json",
                                        "Accept-Encoding": ACCEPT_ENCODING}
        self.headers.update(dict(config.extra_headers))
        if config.organization:
            self.headers["OpenAI-Organization"] = config.organization
        self._token: Optional[_Token] = None
        if config.kind == "azure":
            if config.api_key:
                self.headers["api-key"] = config.api_key
            elif config.credential is not None:
                self._token = _Token(config.credential)
        elif config.api_key:
            self.headers["Authorization"] = f"Bearer {config.api_key}"
        self._session: Any = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._closer: Optional[AsyncIterator[None]] = None
        #: per timeout: aiohttp's own ``ClientTimeout`` (Python 3.10), or the requests' shared :class:`Deadlines`
        self._timeouts: Dict[float, Any] = {}
        self._deadlines: Dict[float, Deadlines] = {}
        self._untimed: Any = None  # aiohttp.ClientTimeout() (no limit): the deadline is ours
        self._proxy: Any = None
        self._proxy_headers: Optional[Dict[str, str]] = None
        #: the fixed headers are the session's defaults (no proxy): a request passes only what differs
        self._session_headers = False

    def _open(self) -> Any:
        import aiohttp

        self._proxy, proxy_headers = env_proxy(self.url)
        if proxy_headers and not self.url.startswith("https:"):
            self.headers.update(proxy_headers)  # a plain-HTTP proxy reads them from the request itself
        else:
            self._proxy_headers = proxy_headers  # sent in the CONNECT to the proxy
        connector = aiohttp.TCPConnector(limit=CONNECTION_LIMIT, ttl_dns_cache=300, keepalive_timeout=30)
        # No cookie jar: a judge has no session state, and a jar is scanned on every request.
        # The fixed headers are the session's own when no proxy is in the way: aiohttp then copies
        # them as one multidict per request instead of converting and merging a dict (about 1 µs of a
        # judge call). Through a proxy they go per request: aiohttp copies a session's headers into
        # the proxy's, which would send the API key to the proxy (in the clear in a CONNECT, or as
        # Proxy-Authorization).
        self._session_headers = self._proxy is None
        self._untimed = aiohttp.ClientTimeout()
        return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(),
                                     headers=self.headers if self._session_headers else None,
                                     auto_decompress=False)  # inflated by read_body

    async def _close_with_loop(self) -> AsyncIterator[None]:
        try:
            yield
        finally:
            session, self._session = self._session, None
            if session is not None and not session.closed:
                await session.close()

    async def send(self, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> Dict[str, Any]:
        route = current().batch_route
        if route is not None:  # batch mode: the request joins the next batch (:mod:`.batch_collect`)
            return await route.send(self, body, headers, timeout, max_reply_bytes)
        return decode_reply(await self.fetch("POST", self.url, encode_body(body), headers, timeout, max_reply_bytes))

    async def fetch(self, method: str, url: str, data: Optional[bytes], headers: Optional[Dict[str, str]],
                    timeout: float, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """One HTTP exchange with this endpoint's session, headers and auth: the raw 2xx body, or a
        :class:`TransportError`. ``send`` posts chat requests with it; the batch API (:mod:`.batch_api`)
        uploads files and polls batches with it.

        ``timeout`` bounds the whole exchange (connect, send, reply read). On Python 3.11+ the requests
        under one timeout share one event-loop timer (:mod:`agent_evaluators._util.deadlines`, as the
        run's cells do) and aiohttp is given none: its own total timeout is a timer, a timer context and
        a task lookup per request, about 6 µs of a judge call's CPU (measured against a same-loop server).
        Expiry cancels the request as aiohttp's own timeout does, and becomes a :class:`TransportTimeout`."""
        import aiohttp

        session = self._session or await self._start_session()
        # a key's headers as they are (no coroutine per request); a token's (Entra ID) are fetched
        headers = self.headers if not headers and self._token is None else await self._headers_for(headers)
        sent = None if headers is self.headers and self._session_headers else headers  # the session's own
        task = asyncio.current_task() if SHARED_DEADLINES else None
        if task is not None:  # timed by the shared deadlines, not by a timer per request (see the docstring)
            deadlines = self._deadlines.get(timeout) or self._deadlines.setdefault(timeout, Deadlines(timeout))
            cancelling = task.cancelling()  # type: ignore[attr-defined,unused-ignore]
            entry: Any = deadlines.start(self._loop, task)  # type: ignore[arg-type]  # set with the session
            limit = self._untimed
        else:
            entry = None
            limit = self._timeouts.get(timeout)
            if limit is None:
                limit = self._timeouts[timeout] = aiohttp.ClientTimeout(total=timeout)
        try:
            async with session.request(method, url, data=data, headers=sent, timeout=limit, allow_redirects=False,
                                       proxy=self._proxy, proxy_headers=self._proxy_headers) as resp:
                raw = await read_body(resp, max_reply_bytes)
                status = resp.status
                if status >= 300:
                    message, param = _parse_error(raw)
                    raise StatusError(status, resp.headers, message, param, resp.headers.get("Location"))
        except asyncio.CancelledError:
            if entry is not None and expired_here(entry, task, cancelling):  # type: ignore[arg-type]
                raise TransportTimeout(f"no complete reply within the {timeout:g} s timeout") from None
            raise
        except (ReplyTooLarge, UnreadableBody, asyncio.TimeoutError, aiohttp.ClientError, OSError) as e:
            raise self._failure(e, f"no complete reply within the {timeout:g} s timeout") from None
        finally:
            if entry is not None:
                deadlines.end(entry)
        if entry is not None:
            survived(entry, task)  # type: ignore[arg-type]
        return raw

    def _failure(self, exc: BaseException, timed_out: str) -> TransportError:
        """The :class:`TransportError` for what an exchange with this endpoint raised (``timed_out``: the
        message of a timeout), one mapping for :meth:`fetch` and :meth:`lines`."""
        import aiohttp

        if isinstance(exc, ReplyTooLarge):
            return TooLarge(str(exc), exc.limit)
        if isinstance(exc, UnreadableBody):
            return BadReply(str(exc), "")
        if isinstance(exc, asyncio.TimeoutError):
            return TransportTimeout(timed_out)
        what = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, aiohttp.ClientProxyConnectionError):
            return ConnectFailure(f"cannot connect to the proxy {public_url(str(self._proxy))} (from HTTP_PROXY / "
                                  f"HTTPS_PROXY; NO_PROXY lists hosts that bypass it) ({what})")
        if isinstance(exc, aiohttp.ClientConnectorError):
            return ConnectFailure(f"cannot connect ({what})")
        return Dropped(f"connection error ({what})")

    async def _start_session(self) -> Any:
        session = self._session = self._open()
        self._loop = asyncio.get_running_loop()
        _open_transports.add(self)
        _register_at_exit()
        self._closer = self._close_with_loop()
        await self._closer.__anext__()  # registered with the loop: closed by its shutdown_asyncgens()
        return session

    async def _headers_for(self, headers: Optional[Dict[str, str]]) -> Dict[str, str]:
        headers = self.headers if not headers else {**self.headers, **headers}
        if self._token is not None:
            headers = dict(headers, Authorization=f"Bearer {await self._token.get()}")
        return headers

    async def lines(self, url: str, headers: Optional[Dict[str, str]], timeout: float,
                    max_line_bytes: int) -> AsyncIterator[Union[bytes, LineTooLong]]:
        """The lines of a GET of ``url`` (a batch's output file), streamed: memory stays within about
        ``max_line_bytes`` whatever the file's size; a longer line comes as :class:`LineTooLong`.
        ``timeout`` bounds each read, not the whole file. Raises the same errors as :meth:`fetch`."""
        import aiohttp

        session = self._session or await self._start_session()
        sent = await self._headers_for(headers)
        try:
            async with session.request("GET", url, headers=sent, timeout=aiohttp.ClientTimeout(sock_read=timeout,
                                       sock_connect=timeout), allow_redirects=False, proxy=self._proxy,
                                       proxy_headers=self._proxy_headers) as resp:
                if resp.status >= 300:
                    message, param = _parse_error(await read_body(resp, DEFAULT_MAX_REPLY_BYTES))
                    raise StatusError(resp.status, resp.headers, message, param, resp.headers.get("Location"))
                async for line in iter_lines(resp, max_line_bytes):
                    yield line
        except (ReplyTooLarge, UnreadableBody, asyncio.TimeoutError, aiohttp.ClientError, OSError) as e:
            raise self._failure(e, f"no data for {timeout:g} s") from None

    def retire(self) -> None:
        session, self._session = self._session, None
        self._closer = None
        if session is None:
            return
        connector = session.connector
        try:
            if connector is not None:
                # close the sockets directly: the dead loop cannot run the transports' close callbacks
                for protos in list(getattr(connector, "_conns", {}).values()):
                    for proto, _ in protos:
                        transport = getattr(proto, "transport", None)
                        sock = getattr(transport, "_sock", None)
                        if sock is not None:
                            sock.close()
                            transport._sock = None  # type: ignore[union-attr]
                connector._conns.clear()
                connector._closed = True
            session._connector = None
        except Exception:  # noqa: BLE001 - best effort: at worst a ResourceWarning
            pass


class OpenAIClientTransport(Transport):
    """A user's own ``openai`` async client (its own retries off)."""

    def __init__(self, client: Any) -> None:
        self.client = client.with_options(max_retries=0)

    async def send(self, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> Dict[str, Any]:
        import openai

        if current().batch_route is not None:
            raise JudgeError("judge_mode='batch' needs a model_config dict (endpoint, key, model), not an openai "
                             "client object: pass the client's settings as a dict, or use judge_mode='direct'")
        options: Dict[str, Any] = {"timeout": timeout}
        if headers:
            options["headers"] = headers
        try:
            # the documented low-level ``post`` skips the SDK's request transform and response models
            reply = await self.client.post("/chat/completions", cast_to=dict, body=body, options=options)
        except openai.APIStatusError as e:
            err = e.body
            inner = err.get("error") if isinstance(err, dict) and isinstance(err.get("error"), dict) else err
            message = inner.get("message") if isinstance(inner, dict) else None
            raise StatusError(e.status_code, e.response.headers, str(message or e.message or e),
                              e.param if isinstance(getattr(e, "param", None), str) else None,
                              e.response.headers.get("location")) from None
        except openai.APITimeoutError:
            raise TransportTimeout(f"no reply within the {timeout:g} s timeout") from None
        except openai.APIConnectionError as e:
            cause = e.__cause__ or e
            kind = ConnectFailure if type(cause).__name__ in ("ConnectError", "ConnectTimeout") else Dropped
            raise kind(f"connection error ({type(cause).__name__}: {cause})") from None
        except json.JSONDecodeError as e:
            raise BadReply(f"the judge answered with a body that is not JSON ({e})", e.doc) from None
        except RecursionError:
            raise BadReply("the judge answered with JSON nested too deeply to read", "") from None
        except UnicodeEncodeError as e:  # the openai client cannot send a lone surrogate of an input
            raise InputError(
                f"the judge request holds text with no UTF-8 form ({e.object[e.start:e.end]!r}, a lone surrogate) "
                "that the openai client given as model_config cannot send: remove it from the input, or pass a "
                "model_config dict (which sends it as its JSON escape)") from None
        if not isinstance(reply, dict):
            raise BadReply(f"the judge answered with a JSON {type(reply).__name__}, not an object", str(reply))
        return reply


def build_transport(config: EndpointConfig) -> Transport:
    """A fresh transport for ``config`` (see :mod:`.pool` for sharing)."""
    if config.kind == "client":
        return OpenAIClientTransport(config.client)
    return AiohttpTransport(config)
