"""Optional on-disk cache of successful judge replies (sqlite, stdlib only).

Key: sha256 over model, messages, parameters, requested response format and sample
index (documented, stable, and free of secrets: no API key or endpoint credentials
are hashed or stored). Only replies that parsed and validated are stored, so a
failure is never replayed. The cache never raises: a broken or locked file only
logs a warning and behaves as a miss.
"""

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from typing import Any, Dict, Optional

from .._util.json_text import utf8_json

log = logging.getLogger(__name__)


def cache_key(*, model: str, messages: Any, params: Dict[str, Any], response_format: Any, sample_index: int) -> str:
    payload = json.dumps(
        {"model": model, "messages": messages, "params": params, "response_format": response_format,
         "sample_index": sample_index},
        sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str,
    )
    return hashlib.sha256(utf8_json(payload)).hexdigest()  # a lone surrogate in a row has no plain UTF-8


class JudgeCache:
    """A small key/value store of reply records (dicts) in one sqlite file.

    Reads and writes are tiny (one row); WAL mode with ``synchronous=NORMAL`` keeps a
    commit off fsync, so calling from the event loop does not stall it. One
    connection guarded by a lock serves every thread and loop.
    """

    def __init__(self, path: "str | os.PathLike") -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        self._conn: Optional[sqlite3.Connection] = None
        self._broken = False

    def _connect(self) -> Optional[sqlite3.Connection]:
        if self._conn is not None or self._broken:
            return self._conn
        try:
            parent = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(parent, exist_ok=True)
            conn = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                         "created REAL NOT NULL)")
            self._conn = conn
        except (sqlite3.Error, OSError) as e:
            self._broken = True
            log.warning("judge cache %s disabled: %s", self.path, e)
        return self._conn

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        with self._lock:
            conn = self._connect()
            if conn is None:
                return None
            try:
                row = conn.execute("SELECT value FROM replies WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as e:
                log.warning("judge cache read failed (%s); treating as a miss", e)
                return None
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: Dict[str, Any]) -> None:
        try:
            text = utf8_json(json.dumps(value, ensure_ascii=False, default=str)).decode()  # sqlite needs UTF-8
        except (TypeError, ValueError) as e:
            log.warning("judge cache: reply not stored (%s)", e)
            return
        with self._lock:
            conn = self._connect()
            if conn is None:
                return
            try:
                conn.execute("INSERT OR REPLACE INTO replies (key, value, created) VALUES (?, ?, ?)",
                             (key, text, time.time()))
            except sqlite3.Error as e:
                log.warning("judge cache write failed (%s); reply not stored", e)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


_caches: Dict[str, JudgeCache] = {}
_caches_lock = threading.Lock()


def open_cache(path: "str | os.PathLike") -> JudgeCache:
    """One shared :class:`JudgeCache` per file path in this process."""
    key = os.path.abspath(os.fspath(path))
    with _caches_lock:
        cache = _caches.get(key)
        if cache is None:
            cache = _caches[key] = JudgeCache(key)
        return cache
