"""``import agent_evaluators.judge`` stays light: openai loads on first use."""

import subprocess
import sys


def test_import_does_not_load_openai():
    code = ("import sys, agent_evaluators.judge, agent_evaluators.testing; "
            "print('openai' in sys.modules, 'httpx2' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
