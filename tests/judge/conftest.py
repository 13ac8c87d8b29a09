"""Shared helpers for judge-client tests (all run over real HTTP against JudgeServer)."""

import itertools
import threading

import pytest
from pydantic import BaseModel, Field

from agent_evaluators.judge import client as judge_client_module
from agent_evaluators.testing import ChatRequest, Reply, schema_reply


class Verdict(BaseModel):
    score: int = Field(ge=1, le=5)
    reason: str


def scripted(*replies, then=None):
    """A responder answering with ``replies`` in order, then ``then(req)`` (default: a schema reply).

    Each scripted item may be a callable of the request, so replies still derive from what arrived.
    """
    lock = threading.Lock()
    counter = itertools.count()

    def responder(req: ChatRequest):
        with lock:
            i = next(counter)
        item = replies[i] if i < len(replies) else (then or schema_reply)
        return item(req) if callable(item) and not isinstance(item, Reply) else item

    return responder


@pytest.fixture(autouse=True)
def _forget_format_support():
    judge_client_module._format_support.clear()
    yield
    judge_client_module._format_support.clear()


MESSAGES = [{"role": "system", "content": "You grade answers. Reply in JSON."},
            {"role": "user", "content": "Question: 2+2? Answer: 4"}]
