"""Shared fixtures for judge-backed evaluator tests: a real local judge server.

Replies are derived from what reaches the judge (the rendered prompt), so a test
fails when the wrong content is sent.
"""

import json
import re
from typing import Any, Callable, Iterator

import pytest

from agent_evaluators.testing import ChatRequest, JudgeServer


def block(req: ChatRequest, tag: str) -> Any:
    """The JSON value the template put inside ``<tag>...</tag>`` of the user message."""
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", req.text, re.DOTALL)
    assert m, f"no <{tag}> block in the judge prompt"
    return json.loads(m.group(1))


@pytest.fixture
def judge_server() -> Iterator[Callable[..., JudgeServer]]:
    """Factory: ``judge_server(responder, **kwargs)`` starts a server stopped at teardown."""
    servers = []

    def start(responder: Callable[[ChatRequest], Any], **kwargs: Any) -> JudgeServer:
        server = JudgeServer(responder, **kwargs)
        server.start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()
