"""The judge client: one chat request in, one validated verdict (or a ``JudgeError``) out.

Everything that every judge-backed evaluator needs is done here once: one pooled HTTP
transport per (config, event loop) (:mod:`.pool`, :mod:`.transport`); reasoning-model
parameter rules (``max_completion_tokens``, no sampling knobs); the response format ladder
``json_schema`` → ``json_object`` → plain text, with what each endpoint supports remembered
for the rest of the process; bounded retries with backoff that honour ``Retry-After``
(:mod:`.retry`), each HTTP attempt holding one permit of the run's judge budget while on the
wire; our own tolerant, fail-closed parsing (:mod:`.parsing`) and pydantic validation, with
exactly one repair request for an unusable reply; usage/latency/cost accounting
(:mod:`.usage`, :mod:`.prices`) and the optional on-disk cache (:mod:`.cache`).

Failure is never a score: a truncated reply, an unparseable one after the repair,
or an HTTP failure after the last attempt raises :class:`~agent_evaluators.errors.JudgeError`.
"""

import asyncio
import json
import logging
import os
import random
import re
import threading
import time
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Type
from urllib.parse import urlsplit

from .._util import validators
from .._util.concurrency import report_throttle, take_free_permit
from .._util.scrub import SecretSet, install_log_filter, register
from ..errors import JudgeError
from ..run_context import Sender, current
from ..wording import JudgeKey, Option, Text
from .advice import advice, raw_text_kept, rejected_message
from .cache import JudgeCache, cache_key, open_cache
from .caps import admit_call
from .circuit import FAILURES_TO_OPEN, Circuit, circuit_for
from .endpoint import CLIENT_KEYS, EndpointConfig, resolve_config
from .entra_tokens import token_secrets
from .parsing import JudgeReplyParseError, describe_validation_error, parse_json_reply
from .pool import transport_for_loop
from .prices import Price, check_price, priced
from .reply_body import DEFAULT_MAX_REPLY_BYTES, describe_size
from .retry import backoff_delay, is_retryable_status, retry_after_seconds
from .schema import response_format_for, strict_schema
from .transport import BadReply, ConnectFailure, StatusError, TooLarge, Transport, TransportError, TransportTimeout
from .usage import UsageTally, empty_usage

log = logging.getLogger(__name__)

#: Reasoning models spend completion tokens on hidden reasoning; a template's small
#: ``max_tokens`` would end in ``finish_reason: length``, so the budget is floored.
REASONING_MIN_COMPLETION_TOKENS = 4096
_REASONING_DROPPED = ("temperature", "top_p", "presence_penalty", "frequency_penalty")
_REASONING_NAME = re.compile(r"^(o\d+)(?:$|[-_.])|^gpt-5")
_FORMAT_LADDER = {"json_schema": "json_object", "json_object": "text"}
_BEARER = re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{8,}")
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "structured output", "'json'")

# endpoint_key -> best response format mode known to work there
_format_support: Dict[str, str] = {}
_format_lock = threading.Lock()


def is_reasoning_model_name(model: str) -> bool:
    """o1/o3/o4-class and gpt-5-class names (a ``provider/`` prefix is ignored)."""
    name = model.rsplit("/", 1)[-1].strip().lower()
    return bool(_REASONING_NAME.match(name))


@dataclass
class JudgeReply:
    """One judge verdict.

    ``data``: the validated ``output_model`` instance (or, without a model, the parsed
    JSON dict, or ``None`` when the reply is not JSON); ``text``: the raw reply text;
    ``usage``: the usage record (see :mod:`agent_evaluators.judge.usage`);
    ``cached``: served from the on-disk cache without any HTTP request.
    """

    data: Any
    text: str
    finish_reason: Optional[str]
    usage: Dict[str, Any]
    cached: bool = False


class _Unusable(Exception):
    """The reply text cannot become a verdict; ``problem`` says why (for the repair request)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class _FormatRejected(Exception):
    pass


class JudgeClient:
    """Sends judge requests to one endpoint. Cheap to hold; the HTTP pool is shared.

    Build with :func:`get_judge_client`. ``complete`` is safe to call concurrently
    from many tasks, and from different event loops (each loop gets its own pool).
    """

    def __init__(self, config: EndpointConfig, *, is_reasoning_model: bool = False,
                 cache: Optional[JudgeCache] = None, timeout: float = 60.0, max_attempts: int = 5,
                 schema_limits: Optional[Tuple[Optional[int], Optional[int]]] = None,
                 max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES, price: Optional[Price] = None) -> None:
        self.config = config
        self.price = price  # a model config's own price; None: the run's prices, then the shipped table
        #: (max_text_length, max_items) bounds added to json_schema requests (local servers only)
        self.schema_limits = schema_limits if schema_limits and any(schema_limits) else None
        self.model: str = config.model
        self.is_reasoning: bool = bool(is_reasoning_model) or is_reasoning_model_name(config.model)
        self.cache = cache
        self.cache_scope: Optional[str] = None  # a panel judge's name: keeps two judges of one model apart
        self.timeout = float(timeout)
        self.max_attempts = int(max_attempts)
        #: largest reply body read, on the wire and inflated (see :mod:`.reply_body`)
        self.max_reply_bytes = int(max_reply_bytes)
        self._endpoint_key = config.endpoint_key
        # API key, non-public header values, URL query values, Entra tokens issued to the credential
        linked = [token_secrets(config.credential)] if config.credential is not None else []
        self.secrets = SecretSet(config.secrets(), linked)
        register(self.secrets)  # log records are masked with them while this client lives
        install_log_filter()
        self._circuit = circuit_for(config.kind, config.azure_endpoint or config.base_url or "")
        self._rng: Optional[random.Random] = None  # None: the shared generator (seeding one costs ~50 µs)
        self._last: Tuple[Any, Any] = (None, None)  # (loop, transport): a reused client does no lookup

    def __repr__(self) -> str:
        return f"JudgeClient(model={self.model!r}, endpoint={self.config.safe_location!r}, is_reasoning={self.is_reasoning})"

    # ------------------------------------------------------------------ pieces
    def _transport(self) -> Transport:
        loop = asyncio.get_running_loop()
        last_loop, transport = self._last
        if last_loop is loop:
            return transport  # type: ignore[no-any-return]
        transport = transport_for_loop(self.config, loop)
        self._last = (loop, transport)
        return transport

    def prepare_params(self, params: Optional[Dict[str, Any]]) -> Dict[str, Any]:
        """A prompty's model parameters as sent: reasoning-model rules applied, streaming off,
        ``response_format`` removed (the client chooses it)."""
        out = {k: v for k, v in (params or {}).items() if v is not None and k not in ("stream", "response_format")}
        if self.is_reasoning:
            for k in _REASONING_DROPPED:
                out.pop(k, None)
            max_tokens = out.pop("max_tokens", None)
            if "max_completion_tokens" not in out and max_tokens is not None:
                out["max_completion_tokens"] = max(int(max_tokens), REASONING_MIN_COMPLETION_TOKENS)
        return out

    def format_mode(self, output_model: Optional[type]) -> str:
        """The response format mode the next request will use."""
        if output_model is None:
            return "text"
        return _format_support.get(self._endpoint_key, "json_schema")

    def _remember_format(self, mode: str) -> None:
        with _format_lock:
            _format_support[self._endpoint_key] = mode

    def _scrub(self, text: str, limit: Optional[int] = 600) -> str:
        """``text`` without any known secret (this endpoint's API key, secret header values, Entra
        tokens issued to us, any ``Bearer`` token): endpoints and proxies may echo them."""
        text = self.secrets.scrub(text)
        return text[:limit] if limit is not None else text

    def _scrub_reply(self, text: str) -> str:
        """A reply text without this client's secrets, also where the JSON spells one with escapes
        (``\\u0073k-...`` decodes to the key when parsed): then the parsed object, masked, is the text."""
        text = self.secrets.scrub(text)
        if "\\u" not in text and "\\/" not in text:
            return text
        try:
            data = parse_json_reply(text)
        except JudgeReplyParseError:
            return text
        clean = self.secrets.scrub_value(data)
        return text if clean is data else json.dumps(clean, ensure_ascii=False)

    # ------------------------------------------------------------------ HTTP with retries
    async def _post(self, transport: Sender, body: Dict[str, Any], tally: UsageTally,
                    headers: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
        circuit = self._circuit
        last_status: Optional[int] = None
        last_problem = ""
        last_kind = ""
        for attempt in range(1, self.max_attempts + 1):
            if not circuit.allow() and not await circuit.wait():  # waits out a brief outage; see .circuit
                raise JudgeError(self._unreachable_message(circuit), attempts=tally.attempts)
            wait: Optional[float] = None
            # judge_slot() without its coroutines: a free permit is taken at once (this runs per attempt)
            limiter = current().limiter
            if limiter is not None and not take_free_permit(limiter):
                await limiter.acquire()
            try:
                refused = circuit.rejection(self.config)  # looked at once the permit is ours: it may be news
                if refused is not None:  # this key was refused already: the answer would be the same
                    raise JudgeError(refused[0], status_code=refused[1], attempts=tally.attempts)
                tally.attempts += 1
                try:
                    reply = await transport.send(body, headers, self.timeout, self.max_reply_bytes)
                    circuit.succeeded()
                    return reply
                except StatusError as e:
                    circuit.succeeded()  # the server is reachable
                    status = e.status
                    message = self._scrub(e.message)
                    if 300 <= status < 400:
                        raise JudgeError(self._redirect_message(status, e.location), status_code=status,
                                         attempts=tally.attempts) from None
                    if not is_retryable_status(status):
                        if status in (400, 422) and "response_format" in body and (
                                e.param == "response_format" or any(w in message.lower() for w in _FORMAT_WORDS)):
                            raise _FormatRejected(message) from None
                        rejected = self._rejected_message(status, message)
                        if status in (401, 403) and self._remembers_refusals:
                            circuit.reject(self.config, rejected, status)
                        raise JudgeError(rejected, status_code=status, attempts=tally.attempts) from None
                    wait = retry_after_seconds(e.headers)
                    if status == 429:
                        report_throttle(wait)  # a cluster-wide budget pauses the other workers too
                    last_status, last_problem, last_kind = status, f"HTTP {status}: {message}", str(status)
                except TooLarge as e:
                    circuit.succeeded()
                    raise JudgeError(Text(
                        "judge endpoint {where} (model {model!r}): {problem}; the reply was dropped unread (a verdict is "
                        "a few KB). If this judge really writes replies that long, {raise_it}.",
                        where=self.config.safe_location, model=self.model, problem=e, raise_it=Text.keyed(
                            "reply-limit", "raise max_reply_bytes ({key}, agent-eval --judge-max-reply-bytes; now {limit})",
                            key=JudgeKey("max_reply_bytes"), limit=describe_size(e.limit))),
                        attempts=tally.attempts) from None
                except BadReply as e:
                    circuit.succeeded()
                    raise JudgeError(Text(
                        "judge endpoint {where} (model {model!r}) gave an unusable reply: {problem}; is the URL an "
                        "OpenAI-compatible API (a proxy or login page answers HTML)? {raw}.",
                        where=self.config.safe_location, model=self.model, problem=self._scrub(str(e)),
                        raw=raw_text_kept("body")), raw_text=self._scrub(e.text, None), attempts=tally.attempts) from None
                except TransportTimeout as e:
                    last_status, last_problem, last_kind = None, str(e), "timeout"
                except ConnectFailure as e:
                    last_status, last_problem, last_kind = None, self._scrub(str(e)), "connect"
                    circuit.failed(last_problem)
                except TransportError as e:
                    last_status, last_problem, last_kind = None, self._scrub(str(e)), "dropped"
            finally:
                if limiter is not None:
                    limiter.release()
            log.debug("judge attempt %d/%d failed: %s", attempt, self.max_attempts, last_problem)
            if attempt < self.max_attempts:
                await asyncio.sleep(wait if wait is not None else backoff_delay(attempt, self._rng))
        raise JudgeError(Text(
            "judge request to {where} (model {model!r}) failed after {attempts} attempts; last: {last}{stop} {advice}",
            where=self.config.safe_location, model=self.model, attempts=tally.attempts, last=last_problem,
            stop="" if str(last_problem).endswith(".") else ".",  # the server's own sentence may end in one
            advice=advice(last_kind, self.config.safe_location)), status_code=last_status, attempts=tally.attempts)

    def _unreachable_message(self, circuit: Circuit) -> Text:
        where = self.config.safe_location
        if circuit.reached:
            return Text("judge endpoint {where} answered earlier in this run but has been unreachable for {down:.0f} s, "
                        "longer than the {patience:g} s a run waits for a judge to come back (last problem: {last}); "
                        "requests to it now fail at once. Check that the server at {where} is running, then continue "
                        "the run with {resume}: its failed and missing cells run again.",
                        where=where, down=circuit.down_for(), patience=circuit.patience, last=circuit.last_problem,
                        resume=Option("resume", True))
        return Text.of(f"judge endpoint {where} is unreachable: the last {FAILURES_TO_OPEN} "
                       f"connection attempts failed ({circuit.last_problem}); requests to it now fail at once. Check "
                       f"the URL and that the server is running at {where}.")

    def _redirect_message(self, status: int, location: Optional[str]) -> str:
        where = urlsplit(location or "")
        origin = f"{where.scheme}://{where.netloc.rpartition('@')[2]}" if where.netloc else "(no Location)"
        return (f"judge endpoint {self.config.safe_location} answered HTTP {status}, a redirect to {origin}; "
                "redirects are not followed (credentials must not travel to another address): set base_url / "
                "azure_endpoint to the final URL")

    @property
    def _remembers_refusals(self) -> bool:
        """A 401/403 answers every later request with the same key alike; an Entra ID token is refreshed."""
        return self.config.credential is None

    def _rejected_message(self, status: int, message: str) -> Text:
        key_var = "AZURE_OPENAI_API_KEY" if self.config.kind == "azure" else "OPENAI_API_KEY"
        withheld = getattr(self.config.api_key, "withheld", None)  # a WithheldKey (judge.implicit_key)
        return rejected_message(self.config.safe_location, self.model, status, message,
                                key_var if self._remembers_refusals else None,
                                withheld.refused() if withheld is not None else None)

    async def _exchange(self, client: Sender, messages: List[Dict[str, Any]], params: Dict[str, Any],
                        output_model: Optional[type], extra_rf: Any, tally: UsageTally) -> Tuple[Any, str]:
        """One request, stepping down the response-format ladder when the endpoint rejects a format."""
        mode = self.format_mode(output_model)
        body: Dict[str, Any] = {"model": self.model, "messages": messages, **params}
        headers = body.pop("extra_headers", None)
        while True:
            rf = response_format_for(output_model, mode, self.schema_limits) if output_model is not None else extra_rf
            if rf is not None:
                body["response_format"] = rf
            else:
                body.pop("response_format", None)
            try:
                completion = await self._post(client, body, tally, headers)
            except _FormatRejected as e:
                nxt = _FORMAT_LADDER.get(mode)
                if output_model is None or nxt is None:
                    raise JudgeError(self._rejected_message(400, str(e)), status_code=400,
                                     attempts=tally.attempts) from None
                log.info("judge endpoint %s rejected response_format %s; using %s from now on",
                         self.config.safe_location, mode, nxt)
                mode = nxt
                self._remember_format(mode)
                continue
            tally.add(completion, messages, self.model)
            return completion, mode

    # ------------------------------------------------------------------ parsing
    @staticmethod
    def _reply_text(completion: Dict[str, Any]) -> Tuple[str, Optional[str]]:
        choices = completion.get("choices") or []
        choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
        message: Dict[str, Any] = choice["message"] if isinstance(choice.get("message"), dict) else {}
        text = message.get("content") or ""
        if not isinstance(text, str):  # content parts from some servers
            text = "".join(p.get("text", "") for p in text if isinstance(p, dict)) if isinstance(text, list) else str(text)
        return text, choice.get("finish_reason")

    @staticmethod
    def _refusal(completion: Dict[str, Any]) -> Optional[str]:
        """The model's refusal text when it refused instead of answering (``message.refusal``)."""
        choices = completion.get("choices") or []
        choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
        message: Dict[str, Any] = choice["message"] if isinstance(choice.get("message"), dict) else {}
        refusal = message.get("refusal")
        return refusal if isinstance(refusal, str) and refusal.strip() else None

    @staticmethod
    def _verdict(text: str, output_model: type) -> Any:
        try:
            data = parse_json_reply(text, integral_floats=True)
        except JudgeReplyParseError as e:
            raise _Unusable(str(e)) from None
        # strict JSON-mode validation: a score must be a JSON number ("4" is not; 4.0 and 4e0 are
        # read as 4 for an integer scale, 4.5 is not), a flag a JSON boolean (1 and "true" are not);
        # enums and nested models still accept their JSON forms.
        # The reply text itself is validated when it is exactly the object (the usual case:
        # no re-serialization); otherwise the object found in it (fences, prose) is.
        validate = output_model.model_validate_json  # type: ignore[attr-defined]
        try:
            return validate(text, strict=True)
        except Exception:  # noqa: BLE001 - not bare JSON, or invalid: decided below
            pass
        try:
            return validate(json.dumps(data), strict=True)
        except Exception as e:  # noqa: BLE001 - pydantic ValidationError and validators' own errors
            raise _Unusable(f"the JSON does not match the required fields: {describe_validation_error(e)}") from None

    def _check_finish(self, text: str, finish: Optional[str], tally: UsageTally,
                      completion: Optional[Dict[str, Any]] = None) -> None:
        if completion is not None and not text.strip():
            refusal = self._refusal(completion)
            if refusal is not None:
                raise JudgeError(
                    Text("the judge model refused to give a verdict: {refusal!r}; no score was taken. {raw}.",
                         refusal=self._scrub(refusal), raw=raw_text_kept("refusal")), raw_text=self._scrub(refusal, None),
                    attempts=tally.attempts)
        if finish == "length":
            raise JudgeError(
                "the judge reply was cut off at the token limit (finish_reason 'length'); no score was taken from "
                "it. Raise max_tokens (max_completion_tokens for reasoning models) for this evaluator.",
                raw_text=self._scrub(text, None), attempts=tally.attempts)
        if finish == "content_filter":
            raise JudgeError("the judge endpoint's content filter blocked the reply (finish_reason "
                             "'content_filter'); no score was taken.", raw_text=self._scrub(text, None),
                             attempts=tally.attempts)

    @staticmethod
    def _repair_prompt(problem: str, output_model: type) -> str:
        fields = ", ".join(strict_schema(output_model).get("properties", {}))
        return (f"Your previous reply could not be used: {problem}. Reply again with only one JSON object "
                f"(fields: {fields}) and nothing else: no code fences, no prose.")

    # ------------------------------------------------------------------ public
    async def complete(self, messages: List[Dict[str, Any]], *, output_model: Optional[Type[Any]] = None,
                       params: Optional[Dict[str, Any]] = None, sample_index: int = 0,
                       template_hash: Optional[str] = None) -> JudgeReply:
        """Ask the judge and return its validated verdict.

        ``params``: the template's model parameters. ``output_model``: the pydantic
        model the reply must validate against (structured output is requested for it).
        ``sample_index`` separates repeated samples of the same prompt in the cache.
        Raises ``JudgeError`` on HTTP failure after retries, truncation, or a reply that
        is still unusable after one repair request.
        """
        started = time.perf_counter()
        run = current()  # the run's state: its secrets, a dry run's judge, (in the calls below) caps and prices
        if run.secrets is not None:
            run.secrets.join(self.secrets)  # the run masks this client's secrets in its rows and summary
        dry = run.dry_transport  # a dry run: answered in process (see .dry)
        client = dry or self._transport()
        sent_params = self.prepare_params(params)
        extra_rf = (params or {}).get("response_format") if output_model is None else None
        key = None
        if self.cache is not None:
            requested = (response_format_for(output_model, "json_schema", self.schema_limits)
                         if output_model is not None else extra_rf)
            scoped = sent_params if self.cache_scope is None else {**sent_params, "panel_judge": self.cache_scope}
            key = cache_key(model=self.model, messages=messages, params=scoped, response_format=requested,
                            sample_index=sample_index)
            hit = self._from_cache(key, output_model, started, template_hash)
            if hit is not None:
                return hit

        # the run's caps (.budget); no coroutine at all for a run without one
        ticket = await admit_call(self.model, self.price, messages, sent_params) if run.budget is not None else None
        tally = UsageTally()
        try:
            completion, mode = await self._exchange(client, messages, sent_params, output_model, extra_rf, tally)
            text, finish = self._reply_text(completion)
            self._check_finish(text, finish, tally, completion)
            text = self._scrub_reply(text)  # a key echoed inside a verdict must not reach results, reports, cache
            if output_model is None:
                try:
                    data: Any = parse_json_reply(text)
                except JudgeReplyParseError:
                    data = None
            else:
                try:
                    data = self._verdict(text, output_model)
                except _Unusable as bad:
                    log.info("judge reply unusable (%s); sending one repair request", bad.problem)
                    repair = list(messages) + [
                        {"role": "assistant", "content": text},
                        {"role": "user", "content": self._repair_prompt(bad.problem, output_model)},
                    ]
                    completion, mode = await self._exchange(client, repair, sent_params, output_model, extra_rf,
                                                            tally)
                    text, finish = self._reply_text(completion)
                    self._check_finish(text, finish, tally, completion)
                    text = self._scrub_reply(text)
                    try:
                        data = self._verdict(text, output_model)
                    except _Unusable as again:
                        raise JudgeError(Text(
                            "the judge reply could not be used, even after one repair request: {problem}. {raw}; use a "
                            "judge model that follows the JSON format, or an endpoint that supports structured output.",
                            problem=again.problem, raw=raw_text_kept("reply")),
                            raw_text=self._scrub(text, None), attempts=tally.attempts) from None
        except JudgeError as e:
            if e.usage is None:
                e.usage = tally.usage(model=self.model, mode=self.format_mode(output_model), started=started,
                                      template_hash=template_hash, price=self.price)
            raise
        finally:  # charged with what was measured; a cancelled call with its estimate
            if ticket is not None:
                ticket.settle(tally.usage(model=self.model, mode="", started=started, template_hash=None,
                                          price=self.price) if tally.calls else None)
        usage = tally.usage(model=self.model, mode=mode, started=started, template_hash=template_hash, price=self.price)
        if key is not None and self.cache is not None and dry is None:  # a placeholder verdict is never kept
            self.cache.put(key, {"text": text, "finish_reason": finish, "response_format": mode,
                                 "model": usage["model"]})
        return JudgeReply(data=data, text=text, finish_reason=finish, usage=usage)

    def _from_cache(self, key: str, output_model: Optional[type], started: float,
                    template_hash: Optional[str]) -> Optional[JudgeReply]:
        record = self.cache.get(key) if self.cache is not None else None
        if not record or not isinstance(record.get("text"), str):
            return None
        text = record["text"]
        try:
            if output_model is not None:
                data: Any = self._verdict(text, output_model)
            else:
                try:
                    data = parse_json_reply(text)
                except JudgeReplyParseError:
                    data = None
        except _Unusable:
            return None  # stored under an older model definition: ask again
        usage = empty_usage()
        usage.update(prompt_tokens=0, completion_tokens=0, reasoning_tokens=0, cached_tokens=0, judge_calls=1,
                     attempts=0, model=record.get("model") or self.model,
                     response_format=record.get("response_format"),
                     latency_s=round(time.perf_counter() - started, 6), template_hash=template_hash)
        return JudgeReply(data=data, text=text, finish_reason=record.get("finish_reason"),
                          usage=priced(usage, self.price, self.model), cached=True)


#: model-config keys read by the client itself, not by the endpoint resolver (max_input_chars: the evaluator's)
_CLIENT_KEYS = tuple(k for k in CLIENT_KEYS if k != "max_input_chars")


def get_judge_client(model_config: Any = None, *, is_reasoning_model: bool = False,
                     cache: "str | os.PathLike | None" = None, timeout: float = 60.0,
                     max_attempts: int = 5, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> JudgeClient:
    """Build a :class:`JudgeClient` from a model config (see :mod:`.endpoint` for the accepted shapes).

    ``cache``: path of an sqlite file for the optional reply cache. ``timeout``: seconds
    per HTTP attempt. ``max_attempts``: HTTP attempts per request, retries included.
    ``max_reply_bytes``: the largest reply body read, compressed and inflated (a larger one
    fails the request with a ``JudgeError`` naming the limit; default 4 MiB).
    A model-config dict may carry ``timeout``, ``max_attempts``, ``max_reply_bytes`` and ``price``
    (see :mod:`.prices`) too, so every evaluator built from it gets them; and ``max_text_length`` /
    ``max_list_items``: bounds put into ``json_schema`` requests for servers that enforce them
    while decoding (:func:`.schema.response_format_for`). Raises ``ConfigError`` naming what is missing.
    """
    if isinstance(model_config, JudgeClient):
        return model_config
    limits: Optional[Tuple[Optional[int], Optional[int]]] = None
    price = check_price("model_config 'price'", model_config.get("price")) if isinstance(model_config, Mapping) else None
    if isinstance(model_config, Mapping) and any(k in model_config for k in _CLIENT_KEYS):
        timeout = model_config.get("timeout", timeout)
        max_attempts = model_config.get("max_attempts", max_attempts)
        max_reply_bytes = model_config.get("max_reply_bytes", max_reply_bytes)
        limits = (model_config.get("max_text_length"), model_config.get("max_list_items"))
        for name, value in zip(("max_text_length", "max_list_items"), limits):
            if value is not None:
                validators.whole_number_at_least(JudgeKey(name), value, 1)
        model_config = {k: v for k, v in model_config.items() if k not in _CLIENT_KEYS}
    validators.positive_seconds(JudgeKey("timeout"), timeout)
    validators.whole_number_at_least(JudgeKey("max_attempts"), max_attempts, 1)
    validators.whole_number_at_least(JudgeKey("max_reply_bytes"), max_reply_bytes, 1024, "bytes")
    config = resolve_config(model_config)
    return JudgeClient(config, is_reasoning_model=is_reasoning_model, cache=open_cache(cache) if cache is not None else None,
                       timeout=timeout, max_attempts=max_attempts, schema_limits=limits, max_reply_bytes=max_reply_bytes,
                       price=price)
