"""CONTRIBUTING.md's "Adding a run option", followed step by step on a copy of the package (issue 22, point 5).

The test copies ``agent_evaluators/`` (and ``prompty/``) into a temporary folder, makes exactly
the edits CONTRIBUTING.md lists for a throw-away option ``run_label`` (one table entry in
``runner/option_table.py``, its field in ``RunSettings`` in ``runner/run_settings.py``, its keyword
in the two signatures of ``runner/api.py``) and nothing else, then checks in fresh processes that the option reaches ``evaluate()``, the
``agent-eval run`` flag, a run config's key, ``summary.json`` and the resume fingerprint, and
that the signatures still equal the table.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import clean_env, write_jsonl
from tests.conftest import REPO_ROOT

ENTRY = ('    RunOption("run_label", None, "text", "a label for this run", metavar="LABEL", in_summary=True,\n'
         '              fingerprinted=True),\n')
KEYWORD = "    run_label: Optional[str] = None,\n"
FIELD = "    run_label: Optional[str] = None\n"


def _recipe_section() -> str:
    readme = (REPO_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return readme.split("## Adding a run option", 1)[1].split("\n## ", 1)[0]


def _copy_with_option(root: Path) -> Path:
    """The package with CONTRIBUTING.md's edits for ``run_label`` made, and no other."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO_ROOT / "agent_evaluators", root / "agent_evaluators", ignore=ignore)
    shutil.copytree(REPO_ROOT / "prompty", root / "prompty", ignore=ignore)
    table = root / "agent_evaluators" / "runner" / "option_table.py"
    text = table.read_text(encoding="utf-8")
    end = text.index("\n)\n", text.index("RUN_OPTIONS: Tuple[RunOption, ...] = ("))
    table.write_text(text[:end + 1] + ENTRY + text[end + 1:], encoding="utf-8")
    settings = root / "agent_evaluators" / "runner" / "run_settings.py"
    text = settings.read_text(encoding="utf-8")
    last = "    num_workers: Optional[int] = None\n"  # the table's last entry: the new field goes after it
    assert text.count(last) == 1
    settings.write_text(text.replace(last, last + FIELD), encoding="utf-8")
    api = root / "agent_evaluators" / "runner" / "api.py"
    text = api.read_text(encoding="utf-8")
    anchor = "    azure_ai_project: Any = None,\n"
    assert text.count(anchor) == 2  # the last keyword of each signature
    api.write_text(text.replace(anchor, KEYWORD + anchor), encoding="utf-8")
    return root


def _run(root: Path, *args: object, cwd: Path) -> subprocess.CompletedProcess:
    env = clean_env(PYTHONPATH=str(root))
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)


def test_readme_recipe_names_the_files_it_edits():
    section = _recipe_section()
    for step in ("agent_evaluators/runner/option_table.py", "agent_evaluators/runner/run_settings.py",
                 "agent_evaluators/runner/api.py", "RUN_OPTIONS", "RunSettings", "options.settings.name", "_prepare",
                 "evaluate_async", "fingerprinted", "in_summary", "row_source.py", "tests/test_recipe_option.py"):
        assert step in section, step


def test_a_new_option_reaches_evaluate_cli_yaml_summary_and_fingerprint(tmp_path):
    root = _copy_with_option(tmp_path / "pkg")
    work = tmp_path / "work"
    work.mkdir()
    write_jsonl(work / "d.jsonl", [{"response": "a", "ground_truth": "a"}] * 3)

    check = _run(root, "-c", """
import inspect, agent_evaluators
from agent_evaluators import evaluate, evaluate_async
from agent_evaluators.runner.option_table import OWN_FORM_ARGUMENTS, RUN_OPTIONS
assert agent_evaluators.__file__.startswith(%r), agent_evaluators.__file__
for fn, names in ((evaluate, [o.name for o in RUN_OPTIONS]), (evaluate_async, [o.name for o in RUN_OPTIONS if o.async_too])):
    assert sorted(inspect.signature(fn).parameters) == sorted([*OWN_FORM_ARGUMENTS, *names]), fn
from agent_evaluators import ResponseMatchEvaluator
r = evaluate(data="d.jsonl", evaluators={"m": ResponseMatchEvaluator()}, run_label="from-python", output_path="py")
print(r.summary["config"]["run_label"], r.summary["fingerprint"]["run_label"])
""" % str(root), cwd=work)
    assert check.returncode == 0, check.stderr
    assert check.stdout.split() == ["from-python", "from-python"]

    help_text = _run(root, "-m", "agent_evaluators.cli", "run", "--help", cwd=work).stdout
    assert "--run-label LABEL" in help_text and "a label for this run" in help_text

    flag = _run(root, "-m", "agent_evaluators.cli", "run", "--data", "d.jsonl", "-e", "response_match",
                "--run-label", "first", "-o", "out", cwd=work)
    assert flag.returncode == 0, flag.stdout + flag.stderr
    summary = json.loads((work / "out" / "summary.json").read_text())
    assert summary["config"]["run_label"] == "first" and summary["fingerprint"]["run_label"] == "first"

    (work / "run.yaml").write_text("data: d.jsonl\noutput_path: out\nrun_label: second\n"
                                   "evaluators: [response_match]\n")
    resumed = _run(root, "-m", "agent_evaluators.cli", "run", "--config", "run.yaml", "--resume", cwd=work)
    assert resumed.returncode == 2, resumed.stdout + resumed.stderr  # fingerprinted: a changed label is refused
    assert "--run-label changed (first -> second)" in resumed.stderr, resumed.stderr
    forced = _run(root, "-m", "agent_evaluators.cli", "run", "--config", "run.yaml", "--resume", "--force", cwd=work)
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert json.loads((work / "out" / "summary.json").read_text())["config"]["run_label"] == "second"
    assert "run_label" not in (REPO_ROOT / "agent_evaluators" / "runner" / "option_table.py").read_text()
