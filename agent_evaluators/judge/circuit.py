"""Fail fast on an endpoint that cannot be reached; wait out a brief outage of one that could.

Five connection failures in a row (refused, DNS, TLS: no connection was ever made) to
one endpoint with no success in between open its circuit. What happens next depends on
whether the endpoint ever answered in this process (this run):

* never: later requests fail at once with one clear error instead of each spending
  five attempts and ~4 s of backoff on a server that is not running (a wrong URL, a
  server not started). After ``COOL_DOWN_S`` one request may probe again.
* it did: this is an outage (a judge restarting, a load balancer moving it), which is
  transient. Requests wait (:meth:`Circuit.wait`, holding no concurrency permit)
  while one probe every ``PROBE_INTERVAL_S`` checks whether it is back; they go on
  when it is. Only an outage longer than ``OUTAGE_PATIENCE_S`` fails them, with a
  message saying how long the endpoint has been down. A judge restarted in 1-2 s under
  a 16-way run used to fail three quarters of the run in the 30 s cool-down.

HTTP statuses and timeouts of a live server do not count: that server is reachable. Any
success closes the circuit. One circuit per endpoint per process, shared by threads and loops.

A rejected key is remembered here too (:meth:`Circuit.reject`): a 401 or 403 is the same
answer for every request sent with that key, so after the first one the requests of every
evaluator built from that config fail at once with the same message, instead of each cell
sending its request and printing the same error (48 cells, 48 requests with a bad key).
"""

import asyncio
import threading
import time
from typing import Any, Dict, Optional, Tuple

FAILURES_TO_OPEN = 5
COOL_DOWN_S = 30.0
#: while an endpoint that answered before is down: how often one request probes it
PROBE_INTERVAL_S = 0.25
#: how long requests wait for such an endpoint to come back before failing
OUTAGE_PATIENCE_S = 60.0
#: how often a waiting request looks at the circuit again
_WAIT_STEP_S = 0.05


class Circuit:
    """Consecutive connection failures of one endpoint."""

    __slots__ = ("_lock", "failures", "opened_at", "last_problem", "reached", "down_since", "rejected")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.failures = 0
        self.opened_at = 0.0
        self.last_problem = ""
        self.reached = False  # has the endpoint ever answered (any HTTP status)?
        self.down_since = 0.0  # when the current run of connection failures began
        #: endpoint config (its key) -> (message, status) of the 401/403 it got
        self.rejected: Dict[Any, Tuple[str, int]] = {}

    @property
    def patience(self) -> float:
        """Seconds requests wait for an endpoint that answered before (``OUTAGE_PATIENCE_S``, read now)."""
        return OUTAGE_PATIENCE_S

    def outage(self) -> bool:
        """Is this a brief outage worth waiting for (an endpoint that answered before, down for less
        than the patience), as opposed to an endpoint that is not there?"""
        return self.reached and time.monotonic() - self.down_since < self.patience

    def down_for(self) -> float:
        """Seconds since the current run of connection failures began."""
        return time.monotonic() - self.down_since

    def allow(self) -> bool:
        """May a request go on the wire now? (``False``: the circuit is open.)"""
        if self.failures < FAILURES_TO_OPEN:
            return True
        with self._lock:
            now = time.monotonic()
            interval = PROBE_INTERVAL_S if self.outage() else COOL_DOWN_S
            if now - self.opened_at >= interval:
                self.opened_at = now  # one probe per interval
                return True
            return False

    async def wait(self) -> bool:
        """Wait while the circuit is open during an outage; ``True`` once a request may go,
        ``False`` at once when the endpoint never answered, or once the outage outlasts the patience."""
        while True:
            if self.allow():
                return True
            if not self.outage():
                return False
            await asyncio.sleep(_WAIT_STEP_S)

    def failed(self, problem: str) -> None:
        with self._lock:
            if self.failures == 0:
                self.down_since = time.monotonic()
            self.failures += 1
            self.last_problem = problem
            if self.failures == FAILURES_TO_OPEN:
                self.opened_at = time.monotonic()

    def reject(self, config: Any, message: Any, status: int) -> None:
        """Remember that requests made with ``config`` (its key) are refused (HTTP ``status``)."""
        with self._lock:
            self.rejected.setdefault(config, (message, status))

    def rejection(self, config: Any) -> Optional[Tuple[str, int]]:
        """``(message, status)`` when requests made with ``config`` were refused, else ``None``."""
        return self.rejected.get(config) if self.rejected else None

    def succeeded(self) -> None:
        if not self.reached:
            self.reached = True
        if self.failures:
            with self._lock:
                self.failures = 0


_circuits: Dict[Tuple[str, str], Circuit] = {}
_lock = threading.Lock()


def circuit_for(kind: str, location: str) -> Circuit:
    """The process-wide circuit of the endpoint at ``location``."""
    key = (kind, location)
    circuit = _circuits.get(key)
    if circuit is None:
        with _lock:
            circuit = _circuits.setdefault(key, Circuit())
    return circuit


def reset_circuits() -> None:
    """Forget every endpoint's failures (tests that reuse ports; a long-lived process after a fix)."""
    with _lock:
        _circuits.clear()
