import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, optional_import


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The docs site, built with ``mkdocs build --strict`` (a warning fails it) into a temporary folder."""
    optional_import("mkdocs")
    optional_import("material")
    optional_import("mkdocstrings")
    out = tmp_path_factory.mktemp("docs") / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out
