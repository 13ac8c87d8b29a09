"""Starting a child that a test will send Ctrl-C (SIGINT) to.

A suite started in the background (``nohup pytest &``, a CI step under ``&``) inherits SIGINT
*ignored*, and an ignored signal stays ignored across ``exec``: Python then installs no
KeyboardInterrupt handler in the child, the test's SIGINT does nothing and the test waits out its
timeout and fails. Every such child starts through :func:`popen_for_ctrl_c`, which puts SIGINT
back to its default first, as an interactive shell would have it.
"""

import signal
import subprocess
from typing import Any, Sequence


def restore_default_sigint() -> None:
    """``preexec_fn``: SIGINT at its default in the child, whatever the test runner inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen_for_ctrl_c(argv: Sequence[Any], **kwargs: Any) -> "subprocess.Popen[Any]":
    """:class:`subprocess.Popen` for a child that will be sent SIGINT (see the module docstring)."""
    return subprocess.Popen(list(argv), preexec_fn=restore_default_sigint, **kwargs)
