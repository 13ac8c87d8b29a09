"""Where a judge key taken implicitly from the environment may go.

``OPENAI_API_KEY`` / ``AZURE_OPENAI_API_KEY`` are read when nothing names a key. A run config
is a file anyone can hand you, so a host that only a run config names does not get such a
key: only api.openai.com and the hosts the environment itself names (``OPENAI_BASE_URL``,
``AZURE_OPENAI_ENDPOINT``) do. A host named on the command line or in Python is the caller's
own choice and is never checked here; ``api_key_env`` is an explicit choice too.
"""

import os
from typing import Mapping, Optional
from urllib.parse import urlsplit

from .endpoint import LOCAL_PLACEHOLDER_KEY, public_url


def _host(url: Optional[str]) -> Optional[str]:
    if not url:
        return None
    try:
        return urlsplit(url).hostname or None  # already lower-case
    except ValueError:
        return None


def takes_implicit_key(url: Optional[str], env: Optional[Mapping[str, str]] = None) -> bool:
    """Whether a key from the environment may go to ``url`` (``None``: api.openai.com), a host only a run config names."""
    env = os.environ if env is None else env
    host = _host(url or "https://api.openai.com/v1")
    trusted = {"api.openai.com", _host(env.get("OPENAI_BASE_URL")), _host(env.get("AZURE_OPENAI_ENDPOINT"))}
    return host is not None and host in trusted


class KeyWithheld(Exception):
    """The key in ``var`` is not sent to ``url``, which only the run config's ``judge.<field>`` names."""

    def __init__(self, var: str, field: str, url: str) -> None:
        super().__init__(var)
        self.var, self.field, self.url = var, field, url

    def message(self) -> str:
        """What happened and the two ways to allow it (no key is ever shown)."""
        flag = _flag(self.field)
        where = public_url(self.url)
        return (f"{self.var} is not sent to {where}: only the run config names that host (judge.{self.field}), and "
                "a key taken from the environment goes only to api.openai.com, the host in OPENAI_BASE_URL / "
                "AZURE_OPENAI_ENDPOINT, or a host named on the command line or in Python. To send it there, pass "
                f"{flag} {where} on the command line, or name the variable: --judge-api-key-env {self.var} "
                f"(or judge.api_key_env: {self.var} in the config)")

    def refused(self) -> str:
        """Why a request this host refused carried no key, and the two ways to send it, in one short clause."""
        return (f"{self.var} was withheld: only the run config names this host (judge.{self.field}); pass "
                f"{_flag(self.field)} on the command line or --judge-api-key-env {self.var}")


def _flag(field: str) -> str:
    return "--judge-base-url" if field == "base_url" else "--judge-azure-endpoint"


class WithheldKey(str):
    """What a judge gets in place of a withheld key: no key (the placeholder a local server ignores, the
    same bytes on the wire), remembering which key was withheld and why, so that a 401 from that host
    says the key was withheld and how to allow it, not "check the key"."""

    withheld: KeyWithheld

    def __new__(cls, withheld: KeyWithheld) -> "WithheldKey":
        key = super().__new__(cls, LOCAL_PLACEHOLDER_KEY)
        key.withheld = withheld
        return key
