"""Fixtures for the ADK judge metrics: the real local judge server (see tests/evaluators/conftest.py).

``Script`` hands out scripted labels in arrival order. Samples of one prompt are
identical requests sent concurrently, so which sample gets which label is not
fixed, but how many get each label is: that is all a vote depends on.
"""

import json
import re
import threading
from pathlib import Path
from typing import Any, Iterable, List

import pytest

from agent_evaluators.conversation.transcript_reader import undo_value

from ..evaluators.conftest import block  # noqa: F401  (re-exported helper)


def text_of(req: Any, tag: str) -> str:
    """A plain-text block as the row gave it (a text like "4" stays a text, not a number)."""
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", req.text, re.DOTALL)
    assert m, f"no <{tag}> block in the judge prompt"
    return undo_value(m.group(1))


def turns_of(req: Any) -> List[Any]:
    """The conversation block read back and grouped by user turn: ``[{"turn": n, "messages": [...]}]``."""
    turns: List[Any] = []
    for m in block(req, "conversation"):
        if m["role"] == "user" or not turns:
            turns.append({"turn": len(turns) + 1, "messages": []})
        turns[-1]["messages"].append(m)
    return turns


def sentences_of(req: Any) -> List[Any]:
    """The validator's sentences block read back: one ``index: sentence`` line each."""
    return [{"index": int(d["name"]), "sentence": d["description"]} for d in block(req, "sentences")]


def rubrics_of(req: Any) -> List[Any]:
    """The rubrics block read back: one ``rubric_id: property`` line each (a shown type after the property)."""
    out = []
    for d in block(req, "rubrics"):
        prop, _, kind = d["description"].partition(" (type: ")
        out.append({"rubric_id": d["name"], "property": prop, **({"type": kind[:-1]} if kind else {})})
    return out

#: Numbers produced by google-adk 2.13.0's own evaluators with a scripted judge
#: (tests/reference/gen_adk_judges.py; see its docstring for how to regenerate).
ADK_GOLDEN = json.loads((Path(__file__).resolve().parent.parent / "reference" / "adk_judges.json").read_text())


class Script:
    """Thread-safe queue of scripted values, one per call; the last repeats when exhausted."""

    def __init__(self, values: Iterable[Any]) -> None:
        self._values: List[Any] = list(values)
        self._lock = threading.Lock()
        self.calls = 0

    def next(self) -> Any:
        with self._lock:
            value = self._values[min(self.calls, len(self._values) - 1)]
            self.calls += 1
            return value


@pytest.fixture
def script():
    return Script
