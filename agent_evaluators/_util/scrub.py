"""Masking secrets in what we keep: each judge client masks its own, each run masks its judges'.

A judge endpoint, a proxy or the judge model itself may echo a key back (in an error, or
inside a *successful* verdict's reason). So every judge client owns a :class:`SecretSet`
(its config's API key, non-public header values, URL query values, and the Entra tokens
issued to its credential) and masks its reply and error texts with it before they are
parsed, cached or raised. A run (:class:`~agent_evaluators.runner.row_evaluator.RowEvaluator`) holds
a :class:`RunSecrets` that every judge client used by the run joins, and masks the string
values of ``rows.jsonl`` records (never the user's ``inputs.*``) and ``summary.json`` with
it; the package's log records are masked with the secrets of the judge clients alive.

Why not one process-wide set replacing bytes: a placeholder key such as ``"EMPTY"``,
``"null"`` or ``"pass"``, or a header ``X-Env: prod``, then rewrote the user's data and made
``rows.jsonl`` invalid JSON, and a key stayed masked in later runs without any judge. So:

* only a value that is plausibly a secret is masked (:func:`plausible_secret`: 16+
  characters, no whitespace, letters *and* digits, varied characters) — never a word, a
  number or a short placeholder;
* masking works on string values (:meth:`SecretSet.scrub_value`), never on encoded JSON;
* secrets belong to the client that owns them and to the runs that use that client.

Only exact occurrences are found: a secret transformed on the way back (base64, reversed,
split across fields) is beyond this scrubber; a JSON ``\\u`` escape of one is decoded first
(see :meth:`~agent_evaluators.judge.client.JudgeClient`'s reply handling).
"""

import json
import logging
import math
import re
import threading
import weakref
from collections import Counter
from typing import Any, Iterable, Iterator, List, Optional, Tuple, cast

from ..run_context import current, scoped

MASK = "***"
_MIN_LEN = 16
_MIN_ENTROPY = 3.0  # bits per character: 16 random hex digits give ~3.7, "aaaa1111aaaa1111" gives 1.0
_BEARER = re.compile(r"(?i)(bearer\s+)([A-Za-z0-9._\-]{8,})")


def plausible_secret(value: Any) -> bool:
    """Whether ``value`` looks like a key or token worth masking: a string of 16+ characters without
    whitespace that mixes letters and digits with varied characters. Dictionary words, numbers and
    placeholders (``EMPTY``, ``ollama``, ``null``, ``1234``, ``not-needed``) are not."""
    if not isinstance(value, str) or len(value) < _MIN_LEN or any(c.isspace() for c in value):
        return False
    if not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    counts = Counter(value)
    n = len(value)
    entropy = -sum(c / n * math.log2(c / n) for c in counts.values())
    return entropy >= _MIN_ENTROPY


def _bearer_mask(match: "re.Match[str]") -> str:
    return match.group(1) + MASK if plausible_secret(match.group(2)) else match.group(0)


def _mask_bearer(text: str) -> str:
    if "earer" in text or "EARER" in text:
        masked = _BEARER.sub(_bearer_mask, text)
        return text if masked == text else masked  # unchanged text stays the same object
    return text


class SecretSet:
    """The secrets one owner (a judge client, a credential) holds; only plausible ones are kept.

    ``linked`` sets (a credential's issued tokens) are masked too, including values they learn later.
    """

    def __init__(self, values: Iterable[Any] = (), linked: Iterable["SecretSet"] = ()) -> None:
        self._values: Tuple[str, ...] = ()
        self._linked = tuple(linked)
        self._lock = threading.Lock()
        self.add(values)

    def add(self, values: Iterable[Any]) -> None:
        new = {v for v in values if plausible_secret(v)}
        if not new or new.issubset(self._values):
            return
        with self._lock:  # longest first, so a secret inside another is replaced after it
            self._values = tuple(sorted(set(self._values) | new, key=len, reverse=True))

    def values(self) -> List[str]:
        """This set's secrets and its linked sets' (longest first)."""
        out = list(self._values)
        for linked in self._linked:
            out.extend(linked.values())
        return sorted(set(out), key=len, reverse=True)

    def scrub(self, text: str) -> str:
        """``text`` with each of these secrets and any plausible ``Bearer`` token replaced by ``***``."""
        for secret in self._values:
            if secret in text:
                text = text.replace(secret, MASK)
        for linked in self._linked:
            text = linked.scrub(text)
        return _mask_bearer(text)

    def scrub_value(self, value: Any) -> Any:
        """``value`` (decoded JSON) with :meth:`scrub` applied to every string value in it, keys and
        structure untouched; returns ``value`` itself when nothing changed."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, dict):
            out = {k: self.scrub_value(v) for k, v in value.items()}
            return value if all(out[k] is v for k, v in value.items()) else out
        if isinstance(value, list):
            items = [self.scrub_value(v) for v in value]
            return value if all(a is b for a, b in zip(items, value)) else items
        return value


class RunSecrets:
    """The secrets of every judge client one run used: ``rows.jsonl`` and ``summary.json`` are masked with them.

    A client joins when it sends a request inside the run (:func:`joining_run`); a later run that
    uses no judge masks nothing.
    """

    def __init__(self) -> None:
        self._owners: "dict[int, SecretSet]" = {}

    def join(self, owner: SecretSet) -> None:
        if id(owner) not in self._owners:
            self._owners[id(owner)] = owner

    def _sets(self) -> Iterator[SecretSet]:
        return iter(list(self._owners.values()))

    def scrub(self, text: str) -> str:
        for owner in self._sets():
            text = owner.scrub(text)
        return text

    def scrub_value(self, value: Any) -> Any:
        for owner in self._sets():
            value = owner.scrub_value(value)
        return value

    def scrub_json(self, text: str, *, keep_inputs: bool = False) -> Optional[Any]:
        """``text`` (a JSON document we are about to write) decoded and masked in its string values, or
        ``None`` when no secret occurs in it (the usual case: one substring test per secret). With
        ``keep_inputs``, a top-level ``inputs.*`` value (the user's own data in a ``rows.jsonl``
        record) is left as it is. Working on the decoded value keeps the JSON valid whatever the secret."""
        if not self._owners or self.scrub(text) == text:
            return None
        value = json.loads(text)
        if keep_inputs and isinstance(value, dict):
            return {k: (v if k.startswith("inputs.") else self.scrub_value(v)) for k, v in value.items()}
        return self.scrub_value(value)


def current_run() -> Optional[RunSecrets]:
    """The run being evaluated in this context (``None`` outside a run)."""
    return cast(Optional[RunSecrets], current().secrets)  # only joining_run installs them


class joining_run:
    """``with joining_run(secrets): ...`` — judge clients used inside join ``secrets`` (the run
    context's ``secrets``)."""

    __slots__ = ("_secrets", "_scope")

    def __init__(self, secrets: RunSecrets) -> None:
        self._secrets = secrets
        self._scope = scoped(secrets=secrets)

    def __enter__(self) -> RunSecrets:
        self._scope.__enter__()
        return self._secrets

    def __exit__(self, *exc: Any) -> None:
        self._scope.__exit__(*exc)


# ------------------------------------------------------------------ log records
_live: "weakref.WeakSet[SecretSet]" = weakref.WeakSet()  # judge clients' sets, while the clients live
_remembered = SecretSet()  # remember(): secrets held outside any judge client


def register(owner: SecretSet) -> None:
    """Mask ``owner``'s secrets in the package's log records while ``owner`` is alive."""
    _live.add(owner)


def remember(values: Iterable[Any]) -> None:
    """Mask ``values`` (the plausible ones) in the package's log records and :func:`scrub` for the
    rest of the process: for a secret held outside any judge client."""
    _remembered.add(values)


def _owners() -> List[SecretSet]:
    return [_remembered, *list(_live)]


def secrets() -> List[str]:
    """The secrets the log filter masks now (for tests and diagnostics)."""
    return sorted({s for owner in _owners() for s in owner.values()}, key=len, reverse=True)


def scrub(text: str) -> str:
    """``text`` with the secrets of live judge clients, :func:`remember`-ed ones and any plausible
    ``Bearer`` token masked (for log records and texts shown outside a run)."""
    for owner in _owners():
        text = owner.scrub(text)
    return _mask_bearer(text)


class ScrubFilter(logging.Filter):
    """Scrubs log records of this package before any handler formats them."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string is the handler's problem
            return True
        clean = scrub(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


_installed = False


def install_log_filter() -> None:
    """Put :class:`ScrubFilter` on the ``agent_evaluators`` logger (once)."""
    global _installed
    if not _installed:
        _installed = True
        logging.getLogger("agent_evaluators").addFilter(ScrubFilter())
