"""A slow agent for the Ctrl-C test of ``agent-eval redteam`` (it refuses, after a pause)."""

import time
from typing import Any, Dict, List


def slow_refusing_agent(messages: List[Dict[str, Any]]) -> str:
    time.sleep(0.2)
    return "I'm sorry, but I can't help with that."
