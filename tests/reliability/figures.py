"""Measured figures of the reliability suite, for README's reliability table.

Tests call :func:`record`; when ``AGENT_EVAL_RELIABILITY_FIGURES`` names a file, each
record is appended there as one JSON line (``notes``-style table is built from it),
otherwise figures only go to the test log.
"""

import json
import logging
import os
from typing import Any, Dict

log = logging.getLogger("tests.reliability")


def record(name: str, figures: Dict[str, Any]) -> None:
    line = json.dumps({"test": name, **figures}, sort_keys=True)
    log.info("reliability figures: %s", line)
    path = os.environ.get("AGENT_EVAL_RELIABILITY_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
