"""The documentation site builds strictly and has a page for everything the code declares.

``mkdocs build --strict`` (``conftest.site``: a broken link, an orphan page or a page mkdocstrings cannot read fails it)
into a temporary folder, then: a page per registry evaluator, titled with its class name and naming its
registry name and result key; a page per run option of the option table, giving its CLI flag; the CLI
page holds every command of the command table. A new evaluator or option therefore cannot be missing
from the site, and a page cannot outlive what it documents.
"""

import html
import sys
from pathlib import Path

from agent_evaluators import registry
from agent_evaluators.cli.commands import command_table
from agent_evaluators.runner.option_table import RUN_OPTIONS
from tests.conftest import REPO_ROOT, optional_import


def _text(page: Path) -> str:
    return html.unescape(page.read_text(encoding="utf-8"))


def test_every_registry_evaluator_has_its_page(site):
    missing = []
    for entry in registry.entries():
        page = site / "reference" / "evaluators" / f"{entry.name}.html"
        if not page.exists():
            missing.append(entry.name)
            continue
        text = _text(page)
        assert f'<h1 id="{entry.class_name.lower()}">{entry.class_name}<' in text, entry.name
        assert f"<title>{entry.class_name} - agent-evaluators</title>" in text, entry.name
        assert entry.name in text and entry.result_key in text, entry.name
    assert not missing, f"no page for {missing}"
    index = _text(site / "reference" / "evaluators" / "index.html")
    assert all(f"{e.name}.html" in index for e in registry.entries())


def test_every_run_option_has_its_page(site):
    for option in RUN_OPTIONS:
        page = site / "reference" / "run-options" / f"{option.name}.html"
        assert page.exists(), f"no page for the run option {option.name}"
        assert option.flag in _text(page), option.name


def test_the_cli_page_has_every_command(site):
    text = _text(site / "reference" / "cli.html")
    for command in command_table():
        assert f"agent-eval {' '.join(command.words)}" in text, command.words
    assert "--max-concurrency" in text  # a flag of `agent-eval run`, printed by its own parser


def test_the_python_api_page_documents_evaluate(site):
    text = _text(site / "reference" / "python-api.html")
    assert "max_concurrency" in text and "evaluate_async" in text


def test_every_public_module_has_its_python_api_page(site):
    """A module that declares ``__all__`` is a public face: its page documents each name from its docstring."""
    import re

    reference = _hook()
    modules = reference.public_modules()
    assert {"agent_evaluators.azure", "agent_evaluators.adk", "agent_evaluators.config", "agent_evaluators.calibration",
            "agent_evaluators.evaluators.base", "agent_evaluators.evaluators.judge_base",
            "agent_evaluators.evaluators.declared", "agent_evaluators.evaluators.inputs",
            "agent_evaluators.testing", "agent_evaluators.stats.intervals"} <= set(modules)
    index = _text(site / "reference" / "python-api.html")
    for module, names in modules.items():
        page = site / "reference" / "api" / f"{module}.html"
        assert page.exists(), f"no Python API page for {module}"
        text = _text(page)
        # an entry's anchor is its dotted path where it is defined (a re-export's: its submodule's)
        missing = [n for n in names if not re.search(rf'id="(?:[\w.]+\.)?{re.escape(n)}"', text, re.IGNORECASE)]
        assert not missing, f"{module}: no entry for {missing}"
        raw = re.findall(r":(?:class|func|mod|meth|attr|data):`[^`]*`", text)
        assert not raw, f"{module}: reST roles left unread on the page (docs/_hooks/griffe_rst.py): {raw[:3]}"
        assert f"api/{module}.html" in index, module


def _hook():
    optional_import("mkdocs")
    sys.path.insert(0, str(REPO_ROOT / "docs" / "_hooks"))
    try:
        import reference
    finally:
        sys.path.pop(0)
    return reference


def test_a_page_the_code_no_longer_declares_is_not_built(tmp_path):
    """The pages are generated from the registry at build time (not files in docs/): nothing to go stale."""
    pages = _hook().pages()
    assert {p for p in pages if p.startswith("reference/evaluators/") and p != "reference/evaluators/index.md"} == \
        {f"reference/evaluators/{e.name}.md" for e in registry.entries()}
    assert not list((REPO_ROOT / "docs" / "reference").glob("evaluators/*.md"))


def test_no_user_document_tells_the_projects_history():
    """Users read what the package does, not how it got there ("round three", "issue 13", "(before: ...)")."""
    import re

    from tests.packaging.readme_commands import read, user_documents

    history = re.compile(r"round (two|three|four)|issue [0-9]+|\bbefore: ", re.IGNORECASE)
    told = [f"{p.relative_to(REPO_ROOT)}: {m.group(0)}" for p in user_documents(REPO_ROOT)
            for m in history.finditer(read(p))]
    assert not told, told


def test_the_readme_fits_a_screen():
    assert len((REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readmes_python_runs_as_written_against_the_fake_judge(tmp_path):
    """README's Python blocks, run as a user would, with the fake judge in their environment
    (``python -m agent_evaluators.testing -- python block.py``)."""
    import re
    import subprocess

    from tests.cli.helpers import clean_env

    blocks = re.findall(r"```python\n(.*?)```", (REPO_ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    assert blocks
    for n, block in enumerate(blocks):
        script = tmp_path / f"block{n}.py"
        script.write_text(block, encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "agent_evaluators.testing", "--", sys.executable, str(script)],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=clean_env())
        assert proc.returncode == 0, f"README's Python block {n}:\n{block}\n{proc.stdout}{proc.stderr}"
        assert "pass" in proc.stdout, proc.stdout
