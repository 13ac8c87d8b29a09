"""Issue 21 "Reliability, round three", item 13: the run-folder lock under filesystem faults.

Before the fix a disk-full error while writing the pid into ``.agent-eval.lock`` leaked the
descriptor and its ``flock`` (a raw ``OSError``, then every later run of the same process was
told the folder was "in use by another process"), and a filesystem whose ``flock`` fails
(``ENOLCK`` on some NFS / FUSE / SMB mounts) was reported as "in use by another run". The
faults are the operating system's, so they are injected at the ``os`` / ``fcntl`` call.
"""

import errno
import logging

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.runner import lock


def _length(response: str) -> dict:
    return {"length": len(response)}


ROWS = [{"response": "a"}, {"response": "bb"}]


def test_a_full_disk_while_locking_is_a_clear_error_and_leaves_the_folder_usable(tmp_path, monkeypatch):
    out = tmp_path / "out"
    real_write = lock.os.write

    def full_disk(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(lock.os, "write", full_disk)
    with pytest.raises(ConfigError, match="No space left on device") as info:
        evaluate(data=ROWS, evaluators={"len": _length}, output_path=out)
    assert "Free some space" in str(info.value)
    monkeypatch.setattr(lock.os, "write", real_write)
    # the same process can use the folder once there is room again
    result = evaluate(data=ROWS, evaluators={"len": _length}, output_path=out)
    assert [r["outputs.len.length"] for r in result.rows] == [1, 2]


@pytest.mark.skipif(lock.fcntl is None, reason="no flock on this platform")
def test_a_filesystem_without_flock_is_not_called_busy(tmp_path, monkeypatch, caplog):
    def no_locks(fd, how):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(lock.fcntl, "flock", no_locks)
    with caplog.at_level(logging.WARNING, logger="agent_evaluators.runner"):
        result = evaluate(data=ROWS, evaluators={"len": _length}, output_path=tmp_path / "out")
    assert len(result.rows) == 2
    assert "does not support file locks" in caplog.text and "No locks available" in caplog.text
    assert "in use by another run" not in caplog.text
