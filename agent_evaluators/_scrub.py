"""One scrubber for everything that leaves the process: every secret the judge configs hold.

A judge endpoint, a proxy or the judge model itself may echo a key back (in an error, or
inside a *successful* verdict's reason), and a user's data may quote one. Whatever we
keep or show — rows, ``summary.json``, the HTML report, the judge cache, log records,
exception texts, CLI output — passes through :func:`scrub` (or :func:`scrub_bytes` for
encoded ``rows.jsonl`` lines), which replaces every known secret by ``***``.

Secrets are learnt where they enter: each judge client registers what its endpoint
config holds (API key, non-public header values, URL query values) and every Entra ID
token handed out. The set lives for the process; it is small (a few keys per endpoint).
"""

import logging
import re
import threading
from typing import Any, Iterable, List, Tuple

__all__ = ["remember", "secrets", "scrub", "scrub_bytes", "ScrubFilter", "install_log_filter"]

_MIN_LEN = 4
_lock = threading.Lock()
_secrets: Tuple[str, ...] = ()  # longest first, so a secret inside another is replaced after it
_secret_bytes: Tuple[bytes, ...] = ()
_BEARER = re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{8,}")
_MASK = "***"


def remember(values: Iterable[Any]) -> None:
    """Add secrets to the process-wide set (values shorter than 4 characters are ignored)."""
    global _secrets, _secret_bytes
    new = {v for v in values if isinstance(v, str) and len(v) >= _MIN_LEN}
    if not new or new.issubset(_secrets):
        return
    with _lock:
        merged = sorted(set(_secrets) | new, key=len, reverse=True)
        _secrets = tuple(merged)
        _secret_bytes = tuple(s.encode("utf-8") for s in merged)


def secrets() -> List[str]:
    """The known secrets (for tests and for code that must check a text itself)."""
    return list(_secrets)


def scrub(text: str) -> str:
    """``text`` with every known secret and any ``Bearer`` token replaced by ``***``."""
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, _MASK)
    if "earer" in text or "EARER" in text:
        text = _BEARER.sub(r"\1" + _MASK, text)
    return text


def scrub_bytes(data: bytes) -> bytes:
    """:func:`scrub` for encoded JSON lines (secrets are matched as UTF-8 bytes)."""
    for secret in _secret_bytes:
        if secret in data:
            data = data.replace(secret, b"***")
    return data


class ScrubFilter(logging.Filter):
    """Scrubs log records of this package before any handler formats them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if _secrets:
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
