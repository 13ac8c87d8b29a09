"""Shipped-template lookup from an editable checkout (the built-wheel path: tests/packaging)."""

import re
from pathlib import Path

import pytest

from agent_evaluators import ConfigError
from agent_evaluators.templates import Prompty, find_template, load_prompty

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "prompty").glob("*.prompty"))


def test_there_are_shipped_templates():
    assert SHIPPED, f"no templates in {REPO / 'prompty'}"


def test_editable_checkout_finds_repo_templates():
    name = SHIPPED[0].name
    assert find_template(name) == SHIPPED[0].resolve()
    assert find_template(SHIPPED[0].stem) == SHIPPED[0].resolve()  # suffix optional


def test_missing_template_lists_where_it_looked():
    with pytest.raises(ConfigError) as err:
        find_template("no_such_metric")
    text = str(err.value)
    assert "no_such_metric.prompty" in text
    assert str(REPO / "prompty") in text
    assert "agent_evaluators" in text and "prompty" in text


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_templates_stay_promptflow_compatible_and_render(path):
    prompty = load_prompty(path)
    body_lines = prompty.body.splitlines()
    assert "---" not in [line.strip() for line in body_lines], "promptflow cannot load a '---' line in the body"
    roles = {m.group(1).lower() for line in body_lines
             if (m := re.match(r"^\s*#?\s*(\w+)\s*:\s*$", line)) and m.group(1).lower() in
             ("system", "developer", "user", "assistant", "function", "tool")}
    assert roles <= {"system", "user", "assistant"}, f"only system/user/assistant markers: {roles}"
    values = {name: [{"role": "user", "content": "probe <x>"}] if str(spec.get("type", "")).lower() in ("list", "object", "dict")
              else "probe <x>" for name, spec in prompty.inputs.items()}
    messages = prompty.render(**values)
    assert messages and all(m["role"] in ("system", "user", "assistant") and m["content"] for m in messages)
    assert "probe \\u003cx\\u003e" in "".join(m["content"] for m in messages)


def test_prompty_from_text_default_source_label():
    assert Prompty.from_text("---\n---\nuser:\nhi\n").source == "<string>"
