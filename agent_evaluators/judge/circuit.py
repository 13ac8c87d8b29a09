"""Fail fast on an endpoint that cannot be reached.

Five connection failures in a row (refused, DNS, TLS: no connection was ever made) to
one endpoint with no success in between open its circuit: later requests fail at once
with one clear error instead of each spending five attempts and ~4 s of backoff on a
server that is not running. HTTP statuses and timeouts of a live server do not count:
that server is reachable. After ``COOL_DOWN_S`` one request may probe again; any success
closes the circuit. One circuit per endpoint per process, shared by threads and loops.
"""

import threading
import time
from typing import Dict, Tuple

__all__ = ["FAILURES_TO_OPEN", "COOL_DOWN_S", "Circuit", "circuit_for", "reset_circuits"]

FAILURES_TO_OPEN = 5
COOL_DOWN_S = 30.0


class Circuit:
    """Consecutive connection failures of one endpoint."""

    __slots__ = ("_lock", "failures", "opened_at", "last_problem")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.failures = 0
        self.opened_at = 0.0
        self.last_problem = ""

    def allow(self) -> bool:
        """May a request go on the wire now? (``False``: the circuit is open.)"""
        if self.failures < FAILURES_TO_OPEN:
            return True
        with self._lock:
            if time.monotonic() - self.opened_at >= COOL_DOWN_S:
                self.opened_at = time.monotonic()  # one probe per cool-down
                return True
            return False

    def failed(self, problem: str) -> None:
        with self._lock:
            self.failures += 1
            self.last_problem = problem
            if self.failures == FAILURES_TO_OPEN:
                self.opened_at = time.monotonic()

    def succeeded(self) -> None:
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
