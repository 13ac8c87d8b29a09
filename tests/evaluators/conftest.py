"""Shared fixtures for judge-backed evaluator tests: a real local judge server.

Replies are derived from what reaches the judge (the rendered prompt), so a test
fails when the wrong content is sent.
"""

import re
from typing import Any

from agent_evaluators.testing import ChatRequest, read_transcript


def block(req: ChatRequest, tag: str) -> Any:
    """The value the template put inside ``<tag>...</tag>`` of the user message: JSON, or a judge
    transcript read back as messages, calls or definitions."""
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", req.text, re.DOTALL)
    assert m, f"no <{tag}> block in the judge prompt"
    return read_transcript(m.group(1))


