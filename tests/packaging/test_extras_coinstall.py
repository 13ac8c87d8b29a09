"""README's install commands, one after the other, in a fresh venv: no dependency conflict (issue 20, item 11).

README's test install (``pip install -e ".[dev,azure,promptflow]"``) followed by the ADK section's
``pip install -e '.[adk]'`` made pip print "ERROR: pip's dependency resolver ..." lines: promptflow-core
1.18.2+ caps starlette below 0.50 and promptflow-tracing 1.18.2+ caps opentelemetry-sdk below 1.39, while
google-adk 2.13 needs starlette >= 1.3.1 and opentelemetry-sdk >= 1.39. The promptflow extra is bounded
below 1.18.2 in pyproject.toml; this test installs both ways round and asks ``pip check``.

README's results-out install (``pip install -e '.[otel,mlflow]'``) and the ``[adk]`` extra also go in
either order to the same OpenTelemetry versions: google-adk 2.13 caps opentelemetry-sdk at 1.44, and
``[otel,mlflow]`` first used to install 1.45+ that ``[adk]`` then downgraded; the extras now share
google-adk's window (``test_extras_pins.py`` checks the pins without installing anything).

Heavy: full installs (about two minutes on 2 cores with a warm pip cache; PyPI or a mirror needed).
"""

import json
import os
import shutil
import subprocess
import venv

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.heavy

TEST_INSTALL = ".[dev,azure,promptflow]"  # README's "Run the tests" command
ADK_INSTALL = ".[adk]"                    # README's "ADK agents" section
SINKS_INSTALL = ".[otel,mlflow]"          # README's "Sending results to MLflow / OpenTelemetry"


def _copy_checkout(dest):
    ignore = shutil.ignore_patterns(".git", ".venv", ".refvenvs", "agent-eval-results", "__pycache__", ".mypy_cache",
                                    ".ruff_cache", "build", "dist", "*.egg-info")
    shutil.copytree(REPO_ROOT, dest, ignore=ignore)
    return dest


def _pip(python, *args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}
    return subprocess.run([str(python), "-m", "pip", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=900)


def _opentelemetry(python, repo):
    listed = _pip(python, "list", "--format=json", cwd=repo)
    return {p["name"].lower(): p["version"] for p in json.loads(listed.stdout) if p["name"].lower().startswith("opentelemetry")}


def _install_in_order(tmp_path, first, second):
    """Install ``first`` then ``second``; the OpenTelemetry versions after each step."""
    repo = _copy_checkout(tmp_path / "repo")
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    versions = []
    for extras in (first, second):
        proc = _pip(python, "install", "-q", "-e", extras, cwd=repo)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
        errors = [line for line in out.splitlines() if line.startswith("ERROR") or "which is incompatible" in line]
        assert not errors, f"pip install -e '{extras}' after the one before it:\n" + "\n".join(errors)
        versions.append(_opentelemetry(python, repo))
    check = _pip(python, "check", cwd=repo)
    assert check.returncode == 0, check.stdout + check.stderr
    return versions


def test_readme_test_install_then_adk_extra_has_no_conflict(tmp_path):
    _install_in_order(tmp_path, TEST_INSTALL, ADK_INSTALL)


def test_adk_extra_then_readme_test_install_has_no_conflict(tmp_path):
    _install_in_order(tmp_path, ADK_INSTALL, TEST_INSTALL)


def test_results_out_extras_and_adk_install_the_same_opentelemetry_in_either_order(tmp_path):
    """The second install changes nothing the first put in (it used to downgrade opentelemetry-sdk 1.45 to
    1.44), and both orders end with the same versions."""
    sinks_first = _install_in_order(tmp_path / "sinks_first", SINKS_INSTALL, ADK_INSTALL)
    adk_first = _install_in_order(tmp_path / "adk_first", ADK_INSTALL, SINKS_INSTALL)
    for before, after in (sinks_first, adk_first):
        assert {name: after.get(name) for name in before} == before, (before, after)
    assert sinks_first[1] == adk_first[1] and sinks_first[1].get("opentelemetry-sdk"), (sinks_first, adk_first)
