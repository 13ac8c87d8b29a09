"""Where the ADK fixture files are: this project's own tree, ``tests/adk/fixtures/`` (written by
``tests/adk/fixtures/make_fixtures.py`` with google-adk's models), always; and the outside copy of
ADK's integration fixtures (``../shared/data/adk_fixtures`` beside the checkout) as an extra
cross-check where it exists. Both trees have the same layout, so a test names a relative path and
runs once per tree (``[own]``, ``[shared]``); a fresh clone runs every test on its own tree, with no skip.
"""

from pathlib import Path
from typing import List

import pytest

from tests.conftest import SHARED_DATA

OWN_FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED_FIXTURES = SHARED_DATA / "adk_fixtures"


def fixture_roots() -> List[Path]:
    """Our own tree first; the outside copy too when it is there."""
    return [OWN_FIXTURES] + ([SHARED_FIXTURES] if SHARED_FIXTURES.is_dir() else [])


def root_id(root: Path) -> str:
    return "own" if root == OWN_FIXTURES else "shared"


@pytest.fixture(params=fixture_roots(), ids=root_id)
def adk_root(request: pytest.FixtureRequest) -> Path:
    """An ADK fixture tree (each test using it runs on every tree there is)."""
    return request.param
