"""Moving code changes no byte a user sees: each sample run, through each entry point, against
the files recorded before the package was laid out as core and wings (``tests/golden/runs.py``
says how they were made and masked; ``python -m tests.golden.runs --write`` rewrites them, which
a change that means to alter output does on purpose and says so)."""

import difflib

import pytest

from tests.golden.runs import RUNS, dumps, golden_path


@pytest.mark.parametrize("name", sorted(RUNS))
def test_sample_run_is_byte_identical_to_the_recorded_one(name, tmp_path):
    if name == "cli_adk_agent":
        from tests.conftest import optional_import

        optional_import("google.adk")
    got = dumps(RUNS[name](tmp_path))
    want = golden_path(name).read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "recorded", "now"))[:80])
        pytest.fail(f"{name}: the run's output changed ({len(want)} -> {len(got)} bytes):\n{diff}")
