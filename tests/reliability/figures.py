"""Measured figures of the reliability suite, for the evidence page's reliability tables.

Tests call :func:`record`; when ``AGENT_EVAL_RELIABILITY_FIGURES`` names a file, each
record is appended there as one JSON line naming the test file that measured it
(``bench/reliability.py`` runs the measuring tests and renders these lines), otherwise
figures only go to the test log.
"""

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, Dict

log = logging.getLogger("tests.reliability")
REPO = Path(__file__).resolve().parents[2]


def record(name: str, figures: Dict[str, Any]) -> None:
    caller = Path(sys._getframe(1).f_code.co_filename).resolve()
    where = caller.relative_to(REPO).as_posix() if caller.is_relative_to(REPO) else caller.name
    line = json.dumps({"test": name, "file": where, **figures}, sort_keys=True)
    log.info("reliability figures: %s", line)
    path = os.environ.get("AGENT_EVAL_RELIABILITY_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
