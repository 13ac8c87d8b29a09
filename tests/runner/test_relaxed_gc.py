"""A run raises the young-generation GC threshold while it is in flight, and gives the caller's back."""

import gc
from typing import Any, Dict, List

import pytest

from agent_evaluators import evaluate
from agent_evaluators._util import gc_pause as _gc
from agent_evaluators._util.gc_pause import RUN_THRESHOLD, relaxed_gc


@pytest.fixture(autouse=True)
def _keep_thresholds() -> Any:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_a_run_raises_the_threshold_while_it_runs_and_restores_it() -> None:
    gc.set_threshold(700, 10, 10)
    seen: List[int] = []

    def probe(response: str) -> Dict[str, Any]:
        seen.append(gc.get_threshold()[0])
        return {"x": 1.0}

    evaluate(data=[{"response": "a"}, {"response": "b"}], evaluators={"p": probe}, show_progress=False)
    assert seen == [RUN_THRESHOLD, RUN_THRESHOLD]
    assert gc.get_threshold() == (700, 10, 10)


def test_overlapping_runs_restore_once_the_last_one_ends() -> None:
    gc.set_threshold(700, 5, 5)
    with relaxed_gc():
        with relaxed_gc():
            assert gc.get_threshold() == (RUN_THRESHOLD, 5, 5)
        assert gc.get_threshold() == (RUN_THRESHOLD, 5, 5)
    assert gc.get_threshold() == (700, 5, 5)


def test_a_higher_or_disabled_threshold_and_the_opt_out_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    gc.set_threshold(RUN_THRESHOLD * 2, 10, 10)
    with relaxed_gc():
        assert gc.get_threshold()[0] == RUN_THRESHOLD * 2
    gc.set_threshold(0, 10, 10)  # the caller turned automatic collection off this way
    with relaxed_gc():
        assert gc.get_threshold()[0] == 0
    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv("AGENT_EVAL_GC", "default")
    with relaxed_gc():
        assert gc.get_threshold()[0] == 700


def test_a_threshold_changed_during_the_run_is_not_overwritten() -> None:
    gc.set_threshold(700, 10, 10)
    with relaxed_gc():
        gc.set_threshold(1234, 10, 10)  # the caller's own code, mid-run
    assert gc.get_threshold()[0] == 1234
    assert _gc._depth == 0


def test_an_error_inside_the_block_still_restores() -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError):
        with relaxed_gc():
            raise RuntimeError("boom")
    assert gc.get_threshold() == (700, 10, 10)
