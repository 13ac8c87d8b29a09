"""The run folder's record of its batches (``batches.jsonl``), so a killed run resumes by polling them.

One JSON line per event, appended and flushed at once:

* ``{"event": "intended", "input_file_id", "endpoint", "requests": {custom_id: "row 3 intent", ...}}`` when
  the requests file is uploaded, before its batch is created: a run killed during the create looks
  up the batch made from that file on resume (:meth:`file_of`) instead of sending the requests again;
* ``{"event": "submitted", "batch_id", "endpoint", "input_file_id", "requests": {custom_id: "row 3 intent", ...}}``
  when the provider has accepted a batch;
* ``{"event": "finished", "batch_id", "status", "output_file_id", "error_file_id"}`` when it reached
  a final status.

A ``custom_id`` is the request's content hash plus its occurrence number (see
:mod:`.batch_collect`), so the rows that a resumed run evaluates again ask for exactly the ids
recorded here, and are answered from those batches instead of being sent again; but a cell that
was an error in the earlier run asks again (:meth:`forget`): its answer is what made it an error. ``endpoint``
names the judge without credentials (query values masked), and every event is masked with the
run's secrets, as ``rows.jsonl`` is. A line whose shape is not one of these makes the file unreadable
(:class:`~agent_evaluators.errors.InputError` naming it). A run without an output folder keeps the
record in memory only.
"""

import json
import logging
import os
from pathlib import Path
from typing import Any, Collection, Dict, Iterable, Optional, Tuple

from .._util.scrub import current_run
from ..errors import InputError
from ..wording import Option, Text

JOURNAL_FILE = "batches.jsonl"

log = logging.getLogger(__name__)


class BatchJournal:
    """``batches.jsonl`` in ``folder`` (``None``: memory only); ``keep``: read the earlier run's record."""

    def __init__(self, folder: Optional[Path], *, keep: bool) -> None:
        self.path = folder / JOURNAL_FILE if folder is not None else None
        self.batches: Dict[str, Dict[str, Any]] = {}
        self._batch_of: Dict[str, str] = {}
        self._intents: Dict[str, Dict[str, str]] = {}  # input file id -> its requests (custom id -> origin)
        self._file_of: Dict[str, str] = {}
        if self.path is not None and self.path.exists():
            if keep:
                self._read(self.path)
                self._end_cut_line(self.path)
            else:
                self.path.unlink()  # a new run: its batches are its own

    def _read(self, path: Path) -> None:
        with open(path, "rb") as f:
            for number, raw in enumerate(f, 1):
                try:
                    event = json.loads(raw)
                except ValueError:  # the last line of a killed run may be cut short
                    log.warning("%s: skipping an unreadable line (%d)", path, number)
                    continue
                except RecursionError:
                    event = None
                problem = _problem(event)
                if problem is not None:
                    raise InputError(Text(
                        "{path} (the run's batch record) is damaged: line {number} {problem}. Restore it, or start "
                        "the run again in a new output folder (or without {resume}), which sends its batches again",
                        path=str(path), number=number, problem=problem, resume=Option("resume", True)))
                self._apply(event)

    @staticmethod
    def _end_cut_line(path: Path) -> None:
        """A run killed mid-write leaves a line without its newline: end it, or the next event would be
        appended to it and lost with it."""
        with open(path, "rb+") as f:
            if not f.seek(0, os.SEEK_END):
                return
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                f.write(b"\n")

    def _apply(self, event: Dict[str, Any]) -> None:
        kind = event.get("event")
        if kind == "intended":
            file_id = str(event["input_file_id"])
            self._intents[file_id] = dict(event.get("requests") or {})
            for custom_id in self._intents[file_id]:
                self._file_of[custom_id] = file_id
            return
        batch_id = str(event.get("batch_id"))
        if kind == "submitted":
            self.batches[batch_id] = dict(event)
            for custom_id in event.get("requests") or {}:
                self._batch_of[custom_id] = batch_id
        elif kind == "finished" and batch_id in self.batches:
            self.batches[batch_id].update({k: event.get(k) for k in ("status", "output_file_id", "error_file_id")})

    def forget(self, origins: Collection[str]) -> None:
        """Requests made for these cells (``"row 3 intent"``: cells that were errors) are asked again, in
        new batches, instead of being answered from the earlier run's finished batches. A batch that
        never finished (a timeout, a kill) is still polled: it has not answered anyone yet; and a file
        whose batch is unknown is still looked up (a batch made from it may exist)."""
        if not origins:
            return
        for batch_id, record in self.batches.items():
            if record.get("status") is None:
                continue
            for custom_id, origin in (record.get("requests") or {}).items():
                if origin in origins and self._batch_of.get(custom_id) == batch_id:
                    del self._batch_of[custom_id]
                    self._file_of.pop(custom_id, None)  # its file's batch is known: not to be looked up again

    def _append(self, event: Dict[str, Any]) -> None:
        self._apply(event)
        if self.path is None:
            return
        secrets = current_run()
        if secrets is not None:  # the endpoint is written without its credentials already; anything else too
            event = secrets.scrub_value(event)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(event, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def batch_of(self, custom_id: str) -> Optional[str]:
        """The recorded batch that holds ``custom_id``, if any."""
        return self._batch_of.get(custom_id)

    def file_of(self, custom_id: str) -> Optional[str]:
        """The input file an earlier run uploaded ``custom_id`` in without learning its batch, if any."""
        return self._file_of.get(custom_id)

    def intent_requests(self, file_id: str) -> Iterable[Tuple[str, str]]:
        """The requests (custom id, origin) of the input file ``file_id``."""
        return list(self._intents.get(file_id, {}).items())

    def intended(self, input_file_id: str, endpoint: str, requests: Iterable[Tuple[str, str]]) -> None:
        self._append({"event": "intended", "input_file_id": input_file_id, "endpoint": endpoint,
                      "requests": dict(requests)})

    def submitted(self, batch_id: str, endpoint: str, input_file_id: str, requests: Iterable[Tuple[str, str]]) -> None:
        self._append({"event": "submitted", "batch_id": batch_id, "endpoint": endpoint,
                      "input_file_id": input_file_id, "requests": dict(requests)})

    def finished(self, batch_id: str, status: str, output_file_id: Optional[str], error_file_id: Optional[str]) -> None:
        self._append({"event": "finished", "batch_id": batch_id, "status": status, "output_file_id": output_file_id,
                      "error_file_id": error_file_id})


def _problem(event: Any) -> Optional[str]:
    """What is wrong with one event of the file (``None``: nothing)."""
    if not isinstance(event, dict):
        return f"is a JSON {type(event).__name__}, not an event object"
    kind = event.get("event")
    if kind not in ("intended", "submitted", "finished"):
        return f"has an unknown event {kind!r}"
    if kind in ("submitted", "finished") and not isinstance(event.get("batch_id"), str):
        return f"has no batch_id string ({event.get('batch_id')!r})"
    if kind in ("intended", "submitted"):
        requests = event.get("requests")
        if not isinstance(requests, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                     for k, v in requests.items()):
            return "has no requests map of request ids to rows"
        if not isinstance(event.get("input_file_id"), str):
            return f"has no input_file_id string ({event.get('input_file_id')!r})"
    for key in ("status", "output_file_id", "error_file_id"):
        if event.get(key) is not None and not isinstance(event[key], str):
            return f"has a {key} that is not a string ({event[key]!r})"
    return None
