"""Where the shared ADK fixture files are; absent outside CI → skip, in CI → fail."""

from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA, in_ci

ADK_FIXTURES = SHARED_DATA / "adk_fixtures"


def require_fixtures() -> Path:
    if not ADK_FIXTURES.is_dir():
        if in_ci():
            raise RuntimeError(f"CI needs the ADK fixture files in {ADK_FIXTURES}")
        pytest.skip(f"ADK fixtures not found at {ADK_FIXTURES}")
    return ADK_FIXTURES


@pytest.fixture
def adk_fixtures() -> Path:
    return require_fixtures()
