"""The Prompt flow snippets of samples/flows/README.md, run exactly as written (promptflow's own loader)."""

import os
import re
import subprocess
import sys

import pytest

from agent_evaluators.testing import JudgeServer, schema_reply
from tests.cli.helpers import SAMPLES, clean_env
from tests.conftest import REPO_ROOT, optional_import

optional_import("promptflow.core")

SNIPPETS = re.findall(r"```python\n(.*?)```", (SAMPLES / "flows" / "README.md").read_text(), re.DOTALL)


def test_readme_has_the_two_snippets():
    assert len(SNIPPETS) == 2 and "FlowExecutor" in SNIPPETS[0] and "Prompty.load" in SNIPPETS[1]


@pytest.mark.parametrize("snippet", SNIPPETS, ids=["flex_flow", "prompty"])
def test_snippet_runs_as_written_from_the_repository_root(snippet):
    with JudgeServer(lambda req: schema_reply(req, score=5)) as server:
        env = clean_env(OPENAI_API_KEY="test-key", OPENAI_BASE_URL=server.url + "/v1",
                        AGENT_EVAL_JUDGE_MODEL="judge-model", PYTHONPATH=os.environ.get("PYTHONPATH", ""))
        proc = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, env=env,
                              cwd=REPO_ROOT, timeout=180)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert server.requests, "the snippet never reached the judge"
    assert "5" in proc.stdout, proc.stdout
