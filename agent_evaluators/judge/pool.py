"""One pooled transport per (endpoint config, running event loop).

HTTP connection pools are bound to the loop that opened them, so the pool is kept
per loop (weakly keyed: a collected loop drops its transports; closed loops are pruned)
and shared by every evaluator built from an equal config. Building a session costs an
SSL context and a connection pool; doing that per call is what made
azure-ai-evaluation spend ~60 ms of CPU per judge call.
"""

import asyncio
import os
import threading
import weakref
from typing import Dict, Optional, Tuple

from .endpoint import EndpointConfig
from .transport import Transport, build_transport

#: the variables a transport's proxy is read from when it is built (:func:`.transport.env_proxy`): they are
#: part of the pool's key, so a client made after they change (or a server on a reused port) gets its own
_PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy")
_PoolKey = Tuple[EndpointConfig, Tuple[Optional[str], ...]]
_pools: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Dict[_PoolKey, Transport]]" = (
    weakref.WeakKeyDictionary())
_lock = threading.Lock()


def transport_for_loop(config: EndpointConfig, loop: asyncio.AbstractEventLoop) -> Transport:
    """The shared transport for ``config`` on ``loop`` (built on first use)."""
    with _lock:
        per_loop = _pools.get(loop)
        if per_loop is None:
            for old in [lp for lp in _pools.keys() if lp.is_closed()]:
                for stale in (_pools.pop(old, None) or {}).values():
                    stale.retire()
            per_loop = _pools[loop] = {}
        key = (config, tuple(os.environ.get(name) for name in _PROXY_VARS))
        transport = per_loop.get(key)
        if transport is None:
            transport = per_loop[key] = build_transport(config)
        return transport


#: the name earlier versions exported
client_for_loop = transport_for_loop
