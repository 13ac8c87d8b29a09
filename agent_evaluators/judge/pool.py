"""One pooled ``openai`` async client per (endpoint config, running event loop).

HTTP connection pools are bound to the loop that opened them, so the pool is kept
per loop (weakly keyed: a collected loop drops its clients; closed loops are pruned)
and shared by every evaluator built from an equal config. Building a client costs an
SSL context and a connection pool; doing that per call is what made
azure-ai-evaluation spend ~60 ms of CPU per judge call.
"""

import asyncio
import collections
import inspect
import threading
import weakref
from typing import Any, Dict, List

from .config import AZURE_SCOPE, EndpointConfig

__all__ = ["client_for_loop", "issued_tokens"]

_pools: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Dict[EndpointConfig, Any]]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


#: the most recent Entra ID tokens handed to a client, so error texts can be scrubbed of them
#: (an endpoint or proxy may echo the bare token, without the ``Bearer`` prefix a pattern could find)
_issued_tokens: "collections.deque[str]" = collections.deque(maxlen=32)


def issued_tokens() -> List[str]:
    """Tokens recently obtained from credentials (secrets to scrub from any text we keep)."""
    return list(_issued_tokens)


def _remember(token: Any) -> Any:
    if isinstance(token, str) and len(token) >= 8 and token not in _issued_tokens:
        _issued_tokens.append(token)
    return token


def _token_provider(credential: Any) -> Any:
    get_token = getattr(credential, "get_token", None)
    if get_token is None:
        if not callable(credential):
            return credential
        if inspect.iscoroutinefunction(credential):  # a token provider callable (from a sync AzureOpenAI client)
            async def async_callable() -> str:
                return _remember(await credential())

            return async_callable
        return lambda: _remember(credential())
    if inspect.iscoroutinefunction(get_token):
        async def async_provider() -> str:
            return _remember((await get_token(AZURE_SCOPE)).token)

        return async_provider

    def provider() -> str:
        return _remember(get_token(AZURE_SCOPE).token)

    return provider


def build_client(config: EndpointConfig) -> Any:
    """A fresh async ``openai`` client for ``config`` with the client's own retries off."""
    import openai

    headers = dict(config.extra_headers) or None
    if config.kind == "client":
        return config.client.with_options(max_retries=0)
    if config.kind == "azure":
        kwargs: Dict[str, Any] = {"api_version": config.api_version, "max_retries": 0, "default_headers": headers}
        if config.azure_endpoint:
            kwargs["azure_endpoint"] = config.azure_endpoint
            kwargs["azure_deployment"] = config.model
        else:
            kwargs["base_url"] = config.base_url
        if config.api_key:
            kwargs["api_key"] = config.api_key
        else:
            kwargs["azure_ad_token_provider"] = _token_provider(config.credential)
        return openai.AsyncAzureOpenAI(**kwargs)
    return openai.AsyncOpenAI(api_key=config.api_key, base_url=config.base_url, organization=config.organization,
                              max_retries=0, default_headers=headers)


def _retire(client: Any) -> None:
    """Forget a client whose loop is closed, without its finalizer scheduling ``aclose()``
    on the *current* loop (which fails with "Event loop is closed" noise: its sockets
    belong to the dead loop). The OS sockets are released when the objects are collected."""
    http = getattr(client, "_client", None)
    state = getattr(http, "_state", None)
    try:
        if state is not None:
            http._state = type(state)["CLOSED"]
    except Exception:  # noqa: BLE001 - best effort only
        pass


def client_for_loop(config: EndpointConfig, loop: asyncio.AbstractEventLoop) -> Any:
    """The shared client for ``config`` on ``loop`` (built on first use)."""
    with _lock:
        per_loop = _pools.get(loop)
        if per_loop is None:
            for old in [lp for lp in _pools.keys() if lp.is_closed()]:
                for cfg, stale in (_pools.pop(old, None) or {}).items():
                    if cfg.kind != "client":  # a user's own client shares its HTTP pool with ours
                        _retire(stale)
            per_loop = _pools[loop] = {}
        client = per_loop.get(config)
        if client is None:
            client = per_loop[config] = build_client(config)
        return client
