"""The docs' commands, checked as README's are (``tests/packaging/test_readme_commands.py``, whose reader,
fake judge and runner this uses): every command a page of ``docs/`` shows is either run, as a user types
it and against the bundled fake judge, with the exit code it must end with, or listed with why it is not.
A page that includes a README section (``--8<--``) is covered by README's test."""

from pathlib import Path
from typing import Dict, List

from tests.conftest import REPO_ROOT
from tests.packaging.readme_commands import inline_commands, read, shell_block_commands
from tests.packaging.test_readme_commands import _run, judge_url, workdir  # noqa: F401  (fixtures)

PAGES = sorted(p for p in (REPO_ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)

RUNS: Dict[str, int] = {
    "agent-eval run --config samples/eval.yaml --judge-model fake --judge-base-url http://127.0.0.1:8765/v1 "
    "--output agent-eval-results/first-run": 0,
}

NOT_RUN: Dict[str, str] = {
    "python3 -m venv .venv": "creates an environment; the test runs in the one CI installed",
    ". .venv/bin/activate": "activates that environment",
    "pip install .": "installs into a fresh environment (.ci/run installs the project itself)",
    "python -m agent_evaluators.testing --port 8765": "the fake judge: the test starts its own on a free port",
    "agent-eval report": "names the command in prose (README's test runs it on a run folder)",
}


def doc_commands() -> List[str]:
    found: List[str] = []
    for page in PAGES:
        text = read(page)
        found += shell_block_commands(text) + inline_commands(text)
    return list(dict.fromkeys(found))


def test_the_docs_have_pages_with_commands():
    assert any(p.name == "getting-started.md" for p in PAGES)
    assert doc_commands(), "no command found: the reader is broken"


def test_every_docs_command_is_classified():
    unlisted = [c for c in doc_commands() if c not in {**RUNS, **NOT_RUN}]
    assert not unlisted, f"docs/ shows commands this test does not know; classify them in {Path(__file__).name}: {unlisted}"
    stale = [c for c in {**RUNS, **NOT_RUN} if c not in doc_commands()]
    assert not stale, f"listed here but no longer in docs/: {stale}"


def test_docs_commands_run_against_the_fake_judge(judge_url, workdir):  # noqa: F811
    for command, want in RUNS.items():
        proc = _run(command, judge_url, workdir)
        assert proc.returncode == want, f"$ {command}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    assert (workdir / "agent-eval-results" / "first-run" / "rows.jsonl").is_file()
    assert "intent.intent_resolution" in (workdir / "agent-eval-results" / "first-run" / "summary.json").read_text()


def test_no_docs_page_tells_the_projects_history():
    import re

    history = re.compile(r"round (two|three|four)|issue [0-9]+", re.IGNORECASE)
    told = [f"{p.relative_to(REPO_ROOT)}: {m.group(0)}" for p in PAGES for m in history.finditer(read(p))]
    assert not told, told
