"""Every ```python block of every guide runs as written against the bundled fake judge.

Each page's blocks run in order, each in a fresh interpreter started by
``python -m agent_evaluators.testing -- python blockN.py`` (the fake OpenAI-compatible judge up for
the length of the command, ``OPENAI_BASE_URL`` / ``AGENT_EVAL_JUDGE_MODEL=fake`` / a placeholder
``OPENAI_API_KEY`` in its environment), in one temporary folder per page holding a copy of
``samples/`` and whatever the page's earlier blocks wrote. A block must exit 0 and print or write
something. A block that defines a pytest test is run with pytest, as its reader would, and must end as
``PYTEST`` says (a test may fail on purpose: the sample eval set has a case that fails). A file a guide
asks the reader to save ("Save this as `helpfulness.prompty`:" and its block) is in the folder, as it
would be for a reader who followed the guides. A block that cannot run here is listed in ``NOT_RUN``
(page, a snippet unique to the block) with the reason; custom-evaluators.md has its own test
(test_custom_evaluators_guide.py).
"""

import re
import shutil
import subprocess
import sys
from typing import Dict, List, Tuple

import pytest

from tests.cli.helpers import clean_env
from tests.conftest import REPO_ROOT

GUIDES = REPO_ROOT / "docs" / "guides"
OWN_TEST = {"custom-evaluators.md"}

# (page, snippet unique to the block) -> why it does not run here
NOT_RUN: Dict[Tuple[str, str], str] = {
    ("judge-models.md", "start_local_judge("):
        "needs a GGUF model file and llama.cpp (a real model, not a fake judge)",
}

# (page, snippet unique to the block) -> (pytest's exit code, text its output must hold)
PYTEST: Dict[Tuple[str, str], Tuple[int, str]] = {
    # the sample eval set's on-purpose failing case fails the test, naming the case and the metric
    ("agents.md", "def test_weather_agent"): (1, "wrong_expectation: tool_trajectory_avg_score"),
}
SAVE_AS = re.compile(r"Save this as `([\w.-]+)`:\s*\n```\w*\n(.*?)```", re.DOTALL)


def _blocks(page: str) -> List[str]:
    return re.findall(r"```python\n(.*?)```", (GUIDES / page).read_text(encoding="utf-8"), re.DOTALL)


def _excluded(page: str, block: str) -> bool:
    return any(p == page and snippet in block for p, snippet in NOT_RUN)


PAGES = sorted(p.name for p in GUIDES.glob("*.md") if p.name not in OWN_TEST and _blocks(p.name))
#: the pages with a block to run (a page whose every block is in NOT_RUN is covered by the exclusion test)
RUN_PAGES = [page for page in PAGES if any(not _excluded(page, b) for b in _blocks(page))]


def _pytest_expectation(page: str, block: str):
    return next((want for (p, snippet), want in PYTEST.items() if p == page and snippet in block), None)


def test_every_exclusion_names_exactly_one_block():
    for (page, snippet), reason in [*NOT_RUN.items(), *PYTEST.items()]:
        assert reason, (page, snippet)
        hits = [b for b in _blocks(page) if snippet in b]
        assert len(hits) == 1, f"{page}: {snippet!r} matches {len(hits)} blocks"


def _saved_files(folder) -> None:
    """The files the guides ask their reader to save, written into ``folder``."""
    for guide in sorted(GUIDES.glob("*.md")):
        for name, text in SAVE_AS.findall(guide.read_text(encoding="utf-8")):
            (folder / name).write_text(text, encoding="utf-8")


def _snapshot(folder) -> Dict[str, float]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.mark.heavy  # every guide's Python blocks in subprocesses (about 5 s a page)
@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_pages_python_blocks_run_against_the_fake_judge(page, tmp_path):
    shutil.copytree(REPO_ROOT / "samples", tmp_path / "samples",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _saved_files(tmp_path)
    ran = 0
    for n, block in enumerate(_blocks(page)):
        if _excluded(page, block):
            continue
        pytest_run = _pytest_expectation(page, block)
        script = tmp_path / (f"test_block{n}.py" if pytest_run else f"_block{n}.py")
        script.write_text(block, encoding="utf-8")
        before = _snapshot(tmp_path)
        command = ([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", script.name] if pytest_run
                   else [sys.executable, script.name])
        proc = subprocess.run([sys.executable, "-m", "agent_evaluators.testing", "--", *command],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=clean_env())
        if pytest_run:
            code, text = pytest_run
            assert proc.returncode == code and text in proc.stdout, \
                f"{page} block {n} under pytest (want exit {code} and {text!r}):\n{proc.stdout}{proc.stderr}"
            ran += 1
            continue
        assert proc.returncode == 0, f"{page} block {n}:\n{block}\n{proc.stdout}{proc.stderr}"
        after = _snapshot(tmp_path)
        wrote = [f for f, m in after.items() if before.get(f) != m and f != script.name]
        assert proc.stdout.strip() or wrote, f"{page} block {n} printed and wrote nothing:\n{block}"
        ran += 1
    assert ran
