"""The run folder's lock: one run at a time per ``output_path``.

Two processes writing one ``rows.jsonl`` would interleave their records and each would
index the other's rows as its own, so the ledger takes an exclusive ``fcntl.flock`` on
``.agent-eval.lock`` in the folder before it touches anything else there. The kernel
drops a ``flock`` when its holder exits however it exits (SIGKILL included), so a dead
run never blocks the next one; the pid written into the file only names the holder in
the error. Where ``fcntl`` does not exist (Windows), or the filesystem refuses ``flock``
(``ENOLCK`` / ``EOPNOTSUPP`` on some NFS, FUSE and SMB mounts), the lock is best effort: the
pid is written, nothing is enforced, and a warning says so; "in use by another run" is said
only when another descriptor really holds the lock.

A lock that cannot be set up completely (disk full while writing the pid) is undone before
the error is raised, so the same process can use the folder again once there is room.
"""

import errno
import logging
import os
from pathlib import Path
from typing import Optional

from ..errors import ConfigError
from ..wording import Option, Text

logger = logging.getLogger("agent_evaluators.runner")

#: ``flock`` errors that mean "another descriptor holds it"; any other error is the filesystem's
_BUSY = {errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES}

LOCK_FILE = ".agent-eval.lock"

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def _holder(path: Path) -> str:
    try:
        pid = path.read_text(encoding="utf-8").strip()
    except OSError:
        pid = ""
    return f"pid {pid}" if pid.isdigit() else "another process"


class RunFolderLock:
    """An exclusive lock on ``folder`` for the life of a run; :meth:`release` (or exit) frees it."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_FILE
        self._fd: Optional[int] = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in _BUSY:
                    logger.warning(Text(
                        "{folder}: this filesystem does not support file locks (flock: {why}); the run goes on, but a "
                        "second run started on the same {output} meanwhile would not be refused",
                        folder=folder, why=exc.strerror or exc, output=Option("output_path")))
                else:
                    self._close()
                    raise ConfigError(Text(
                        "{folder} is in use by another run ({holder}): two runs cannot share one {output}. Wait for "
                        "it to finish (or stop it), or choose another {output}.",
                        folder=folder, holder=_holder(self.path), output=Option("output_path"))) from None
        try:
            os.ftruncate(self._fd, 0)
            os.write(self._fd, str(os.getpid()).encode())
        except OSError as exc:
            self._close()  # drops the flock: nothing of this attempt stays held
            raise ConfigError(Text(
                "cannot lock {folder}: writing {path} failed ({why}). Free some space (or fix the folder's permissions) "
                "and run again, or choose another {output}.",
                folder=folder, path=self.path, why=exc.strerror or exc, output=Option("output_path"))) from None

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def release(self) -> None:
        if self._fd is not None:
            try:
                os.ftruncate(self._fd, 0)
            except OSError:
                pass
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

