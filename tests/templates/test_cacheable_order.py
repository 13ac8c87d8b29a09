"""Every shipped template puts its fixed text first and the row's values last (issue 25, item 5).

Providers cache a prompt's longest repeated prefix (OpenAI and Azure OpenAI from 1,024 tokens),
so a metric's instructions are paid in full once and at the cached price afterwards only when
no row value comes before them. Each template is rendered for two different rows: the system
message must be the same text for both, and the user message must start with the row's data.
The only values allowed in a system message are an evaluator's own settings, the same for every
row (the user simulator's stop signal, the trajectory judge's score format), and the simulated
user's persona, which is the same for every turn of its conversation (each turn is one request).
"""

import re

import pytest

from agent_evaluators.templates import load_prompty
from tests.conftest import REPO_ROOT

TEMPLATES = sorted((REPO_ROOT / "prompty").glob("*.prompty"))
#: inputs set once per evaluator (or, for the simulated user, once per conversation), not per request
SETTINGS = {"stop_signal", "score_format"}
PER_CONVERSATION = {"user_simulator": {"persona"}}


def _row(prompty, marker, stem):
    values = {}
    for name, spec in prompty.inputs.items():
        if name in SETTINGS | PER_CONVERSATION.get(stem, set()):
            values[name] = f"setting-{name}"
        elif spec.get("type") == "list":
            values[name] = [{"text": f"{marker} {name}"}]
        else:
            values[name] = f"{marker} {name}"
    return values


@pytest.mark.parametrize("path", TEMPLATES, ids=[p.stem for p in TEMPLATES])
def test_the_system_message_is_the_same_for_every_row(path):
    prompty = load_prompty(path)
    first = prompty.render(**_row(prompty, "ROW-ONE", path.stem))
    second = prompty.render(**_row(prompty, "ROW-TWO", path.stem))
    system = [m["content"] for m in first if m["role"] == "system"]
    assert system and system == [m["content"] for m in second if m["role"] == "system"]
    assert "ROW-ONE" not in "".join(system)
    user = "\n".join(m["content"] for m in first if m["role"] == "user")
    fixed_tail = user[user.rfind("ROW-ONE"):]
    fixed_tail = fixed_tail[fixed_tail.find("\n"):]  # after the last value: only a closing line or two
    assert len(re.sub(r"</\w+>", "", fixed_tail).strip()) < 200, fixed_tail
