"""Every ```python block of every guide runs as written against the bundled fake judge.

Each page's blocks run in order, each in a fresh interpreter started by
``python -m agent_evaluators.testing -- python blockN.py`` (the fake OpenAI-compatible judge up for
the length of the command, ``OPENAI_BASE_URL`` / ``AGENT_EVAL_JUDGE_MODEL=fake`` / a placeholder
``OPENAI_API_KEY`` in its environment), in one temporary folder per page holding a copy of
``samples/`` and whatever the page's earlier blocks wrote. A block must exit 0 and print or write
something. A block that cannot run here is listed in ``NOT_RUN`` (page, a snippet unique to the
block) with the reason; custom-evaluators.md has its own test (test_custom_evaluators_guide.py).
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
    ("agents.md", "def test_weather_agent"):
        "a pytest test (pytest collects and runs it; as a script it is only defined), whose "
        "AssertionError for the sample's on-purpose failing case is the point",
    ("calling-evaluators.md", "PromptyEvaluator(prompty=\"helpfulness.prompty\""):
        "reads the reader's own helpfulness.prompty (custom-evaluators.md writes and tests one)",
    ("evaluators.md", "\"intent_resolution_result\": \"pass\""):
        "the shape of a result dict with placeholder values, not a program",
    ("judge-models.md", "start_local_judge("):
        "needs a GGUF model file and llama.cpp",
}


def _blocks(page: str) -> List[str]:
    return re.findall(r"```python\n(.*?)```", (GUIDES / page).read_text(encoding="utf-8"), re.DOTALL)


def _excluded(page: str, block: str) -> bool:
    return any(p == page and snippet in block for p, snippet in NOT_RUN)


PAGES = sorted(p.name for p in GUIDES.glob("*.md") if p.name not in OWN_TEST and _blocks(p.name))
#: the pages with a block to run (a page whose every block is in NOT_RUN is covered by the exclusion test)
RUN_PAGES = [page for page in PAGES if any(not _excluded(page, b) for b in _blocks(page))]


def test_every_exclusion_names_exactly_one_block():
    for (page, snippet), reason in NOT_RUN.items():
        assert reason, (page, snippet)
        hits = [b for b in _blocks(page) if snippet in b]
        assert len(hits) == 1, f"{page}: {snippet!r} matches {len(hits)} blocks"


def _snapshot(folder) -> Dict[str, float]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_pages_python_blocks_run_against_the_fake_judge(page, tmp_path):
    shutil.copytree(REPO_ROOT / "samples", tmp_path / "samples",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    ran = 0
    for n, block in enumerate(_blocks(page)):
        if _excluded(page, block):
            continue
        script = tmp_path / f"_block{n}.py"
        script.write_text(block, encoding="utf-8")
        before = _snapshot(tmp_path)
        proc = subprocess.run(
            [sys.executable, "-m", "agent_evaluators.testing", "--", sys.executable, script.name],
            capture_output=True, text=True, timeout=300, cwd=tmp_path, env=clean_env())
        assert proc.returncode == 0, f"{page} block {n}:\n{block}\n{proc.stdout}{proc.stderr}"
        after = _snapshot(tmp_path)
        wrote = [f for f, m in after.items() if before.get(f) != m and f != script.name]
        assert proc.stdout.strip() or wrote, f"{page} block {n} printed and wrote nothing:\n{block}"
        ran += 1
    assert ran
