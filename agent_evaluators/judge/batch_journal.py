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
run's secrets, as ``rows.jsonl`` is. A run without an output folder keeps the record in memory only.
"""

import json
import logging
import os
from pathlib import Path
from typing import Any, Collection, Dict, Iterable, Optional, Tuple

from .._util.scrub import current_run

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
            else:
                self.path.unlink()  # a new run: its batches are its own

    def _read(self, path: Path) -> None:
        with open(path, encoding="utf-8") as f:
            for text in f:
                try:
                    event = json.loads(text)
                except ValueError:  # the last line of a killed run may be cut short
                    log.warning("%s: skipping an unreadable line", path)
                    continue
                self._apply(event)

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
        never finished (a timeout, a kill) is still polled: it has not answered anyone yet."""
        if not origins:
            return
        for batch_id, record in self.batches.items():
            if record.get("status") is None:
                continue
            for custom_id, origin in (record.get("requests") or {}).items():
                if origin in origins and self._batch_of.get(custom_id) == batch_id:
                    del self._batch_of[custom_id]
        for requests in self._intents.values():
            for custom_id, origin in requests.items():
                if origin in origins:
                    self._file_of.pop(custom_id, None)

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
