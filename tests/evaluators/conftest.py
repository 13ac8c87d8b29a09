"""Shared fixtures for judge-backed evaluator tests: a real local judge server.

Replies are derived from what reaches the judge (the rendered prompt), so a test
fails when the wrong content is sent.
"""

import json
import re
from typing import Any

from agent_evaluators.testing import ChatRequest


def block(req: ChatRequest, tag: str) -> Any:
    """The JSON value the template put inside ``<tag>...</tag>`` of the user message."""
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", req.text, re.DOTALL)
    assert m, f"no <{tag}> block in the judge prompt"
    return json.loads(m.group(1))


