"""The send journal (``sent.jsonl`` in the run folder): which attacks reached the target, and what
it answered, so a resumed scan never sends an attack twice.

A ``sent`` line is flushed to disk before the target is called; a ``replied`` line, with the
conversation, after it answers. On resume an attack with a reply on record gets that reply back
(it is scored, not sent); one sent but never answered -- the process died while the target had
it -- is not sent again and ends as ``interrupted`` (a target error, counted apart).
"""

import json
import os
import threading
from pathlib import Path
from typing import Any, Dict, Optional

SENT, REPLIED = "sent", "replied"


class SendSession:
    """The journal of one scan process; thread-safe (sync targets run in worker threads). Its name ends
    in ``Session`` so the resume fingerprint treats it as live machinery: what it holds changes as
    attacks are sent, and must not make a resumed scan look like another setup."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.sent: set = set()
        self.replies: Dict[str, Dict[str, Any]] = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line torn by a kill: its attack was not journalled as sent
                if entry.get("event") == SENT:
                    self.sent.add(entry["attack_id"])
                elif entry.get("event") == REPLIED:
                    self.replies[entry["attack_id"]] = entry

    def _append(self, entry: Dict[str, Any]) -> None:
        line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
        with self._lock, open(self.path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def previous(self, attack_id: str) -> Optional[Dict[str, Any]]:
        """What an earlier process recorded for this attack: its reply entry, an ``interrupted``
        marker, or ``None`` (never sent)."""
        if attack_id in self.replies:
            return self.replies[attack_id]
        if attack_id in self.sent:
            return {"attack_id": attack_id, "event": "interrupted"}
        return None

    def mark_sent(self, attack_id: str) -> None:
        self.sent.add(attack_id)
        self._append({"attack_id": attack_id, "event": SENT})

    def mark_replied(self, attack_id: str, output: Dict[str, Any]) -> None:
        entry = {"attack_id": attack_id, "event": REPLIED, **output}
        self.replies[attack_id] = entry
        self._append(entry)
