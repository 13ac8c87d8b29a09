"""Every hint to install an optional extra gives the spelling that works from a clone too, through one
helper (``agent_evaluators._util.install_hint``): ``pip install 'agent-evaluators[x]'`` alone, typed in
a checkout, fetches the published package over the editable one."""

import ast
import re

import pytest

from agent_evaluators._util.install_hint import install_hint
from agent_evaluators.errors import ConfigError
from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "agent_evaluators"


def _message_strings(tree: ast.AST):
    """The string constants of a module that are not docstrings (messages, help texts)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def test_the_hint_gives_both_spellings():
    assert install_hint("otel") == "pip install 'agent-evaluators[otel]' (from a checkout: pip install -e '.[otel]')"


def test_no_message_spells_an_extra_install_its_own_way():
    own = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "install_hint.py":
            continue
        for node in _message_strings(ast.parse(path.read_text(encoding="utf-8"))):
            if re.search(r"agent-evaluators\[", node.value):
                own.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}")
    assert not own, own


def test_a_missing_extra_is_refused_with_the_checkout_spelling(monkeypatch):
    import agent_evaluators._util.validators as validators

    monkeypatch.setattr(validators, "_installed", lambda module: False)
    with pytest.raises(ConfigError, match=re.escape("pip install -e '.[otel]'")):
        validators.needs_extra("otel", "opentelemetry")("otel", True)
