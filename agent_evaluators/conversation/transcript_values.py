"""Labelled lists as judge data text, for the judges outside the declared base.

A judge that asks about a list of items it names (rubrics with ids the judge echoes back,
properties of a response) writes them one a line, ``label: text``, each text encoded as
:func:`~agent_evaluators.conversation.transcript.render_value` encodes any row value: the
judge reads the ids and texts as plain lines, never as a JSON list inside the request's JSON.
Built only on the transcript module's public functions, so there is still one encoding.
"""

from typing import Any, Iterable, Tuple

from .transcript import DataText, data_value, render_value


def render_items(items: Iterable[Tuple[Any, Any]], limit: int = 0) -> DataText:
    """``label: value`` lines, one per item, in order: the label encoded as row text, the value
    as :func:`render_value` writes it (shortened to ``limit`` characters, 0: in full)."""
    return DataText("\n".join(f"{data_value(str(label))}: {render_value(value, limit)}" for label, value in items))
