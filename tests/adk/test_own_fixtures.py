"""The project's own ADK fixtures are what ``tests/adk/fixtures/make_fixtures.py`` writes with google-adk
(issue 20, item 12): the script, run in a copy of the tree, reproduces every committed file byte for byte."""

import shutil
import subprocess
import sys

from tests.conftest import REPO_ROOT, optional_import

from .conftest import OWN_FIXTURES

OWN_REFERENCE = REPO_ROOT / "tests" / "reference" / "adk_legacy_conversion_own.json"


def _files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.json")}


def test_make_fixtures_reproduces_the_committed_files(tmp_path):
    optional_import("google.adk")
    copy = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "tests" / "reference", copy / "tests" / "reference",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "tests" / "__init__.py").write_text("")
    (copy / "tests" / "adk" / "fixtures").mkdir(parents=True)
    shutil.copy(OWN_FIXTURES / "make_fixtures.py", copy / "tests" / "adk" / "fixtures")
    proc = subprocess.run([sys.executable, str(copy / "tests" / "adk" / "fixtures" / "make_fixtures.py")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    made = _files(copy / "tests" / "adk" / "fixtures")
    assert made and made == _files(OWN_FIXTURES)
    assert (copy / "tests" / "reference" / OWN_REFERENCE.name).read_bytes() == OWN_REFERENCE.read_bytes()


def test_own_fixtures_cover_every_form_adk_reads():
    """ADK's full serialisation (null Part fields spelled out), a sparse hand-written set, legacy lists of
    turns, a conversation_scenario case, and test_config.json files."""
    texts = {p.relative_to(OWN_FIXTURES).as_posix(): p.read_text() for p in OWN_FIXTURES.rglob("*.json")}
    assert any('"thought_signature": null' in t for t in texts.values())            # ADK's model_dump_json
    assert '"thought_signature"' not in texts["elicitation_agent/elicitation_flow.test.json"]  # sparse
    assert texts["trip_planner_agent/trip_inquiry.test.json"].lstrip().startswith("[")  # legacy turns
    assert '"conversation_scenario"' in texts["live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json"]
    assert sum(name.endswith("test_config.json") for name in texts) == 6
