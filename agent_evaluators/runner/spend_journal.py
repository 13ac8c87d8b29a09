"""``spend.jsonl``: what a capped run has spent on judge calls, written as it happens.

``summary.json`` records a run's spending when the run ends; a run killed before that (SIGKILL,
a power cut) left nothing, so its resume counted from zero and the caps could be passed by a
whole run's worth per kill. The run's :class:`~agent_evaluators.judge.caps.BudgetBook` therefore
notes its totals here each time it admits or settles a call: one JSON line, written with a single
``write()`` on an ``O_APPEND`` descriptor (a killed process leaves whole lines; a torn last line is
skipped), holding the totals so far, never a difference:

``{"run": ID, "judge_calls": N, "cost_usd": USD, "stopped": REASON}``

``judge_calls`` counts every call admitted, those still in flight included, and ``cost_usd`` is the
money charged plus the reservation of the calls in flight, so a resume after a kill starts from at
least what was really spent. ``run`` names the chain of runs that continue one another (a run and
its resumes: ``summary.json``'s ``budget.journal``); a new run over the folder starts a chain of its
own, and a resume reads only its own chain's last line. The file is compacted when a run first
writes to it (one line per chain), so it stays small however many runs the folder has seen.
"""

import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple

logger = logging.getLogger("agent_evaluators.runner")

SPEND_FILE = "spend.jsonl"


def new_chain() -> str:
    return secrets.token_hex(8)


def read_spend(folder: Path) -> Tuple[Dict[str, Dict[str, Any]], Optional[str]]:
    """Each chain's latest totals in ``folder``'s journal, and the chain written last (``None``: no journal)."""
    chains: Dict[str, Dict[str, Any]] = {}
    last: Optional[str] = None
    try:
        with open(folder / SPEND_FILE, "rb") as f:
            for raw in f:
                if not raw.endswith(b"\n"):
                    continue  # a torn last line from a kill
                try:
                    record = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(record, dict) and isinstance(record.get("run"), str):
                    chains[record["run"]] = record
                    last = record["run"]
    except OSError:
        pass
    return chains, last


def spent(record: Optional[Mapping[str, Any]]) -> Tuple[int, float]:
    """(judge calls, USD) of one journal line; (0, 0.0) for none or a line that is not numbers."""
    if not record:
        return 0, 0.0
    calls, cost = record.get("judge_calls"), record.get("cost_usd")
    if (isinstance(calls, int) and not isinstance(calls, bool) and calls >= 0
            and isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost >= 0):
        return calls, float(cost)
    return 0, 0.0


class SpendJournal:
    """Appends a budget's totals to ``spend.jsonl`` (see the module docstring); given to the run's
    :class:`~agent_evaluators.judge.caps.BudgetBook` as its ``journal``.

    Pickled with the book to the Ray engine's permit actor, it travels as its path and chain and
    opens the file there (the actor runs on the driver's machine)."""

    def __init__(self, folder: Path, chain: str) -> None:
        self.path = Path(folder) / SPEND_FILE
        self.chain = chain
        self._fd: Optional[int] = None
        self._failed = False

    def __getstate__(self) -> Dict[str, Any]:
        return {"path": self.path, "chain": self.chain}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.path, self.chain = state["path"], state["chain"]
        self._fd, self._failed = None, False

    def note(self, totals: Mapping[str, Any]) -> None:
        """Append the budget's totals now; a failure to write is logged once, never raised into a judge call."""
        if self._failed:
            return
        line = json.dumps({"run": self.chain, **totals}, separators=(",", ":"), allow_nan=False) + "\n"
        try:
            if self._fd is None:
                self._open()
            assert self._fd is not None
            os.write(self._fd, line.encode("utf-8"))
        except (OSError, ValueError) as exc:
            self._failed = True
            logger.warning("%s could not be written (%s): a resume after a crash may not know what this run spent",
                           self.path, exc)

    def _open(self) -> None:
        chains, _ = read_spend(self.path.parent)  # this chain's line too: a kill right after this keeps it
        if chains:
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in chains.values()),
                           encoding="utf-8")
            os.replace(tmp, self.path)
        elif self.path.exists():
            self.path.unlink()
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        self._fd = os.open(self.path, flags, 0o644)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
