"""``max_rows`` on the Ray engine: the same rows as the local engine, on both input paths."""

import os

import pytest

from agent_evaluators import evaluate

from ..helpers import ExactMatch
from ..test_max_rows import _data

pytestmark = [pytest.mark.heavy, pytest.mark.ray]


@pytest.mark.parametrize("on_workers", [True, False], ids=["byte-ranges", "row-chunks"])
def test_ray_engine_evaluates_the_same_rows(ray_cluster, tmp_path, on_workers):
    from agent_evaluators.ray_engine import evaluate_ray

    data = _data(tmp_path)
    local = evaluate(data=str(data), evaluators={"exact": ExactMatch()}, max_rows=7, show_progress=False)
    dist = evaluate_ray(data=str(data), evaluators={"exact": ExactMatch()}, max_rows=7, shard_size=3,
                        data_on_workers=on_workers, output_path=tmp_path / "ray", show_progress=False)
    assert [r["line_number"] for r in dist.rows] == [r["line_number"] for r in local.rows] == list(range(7))
    assert dist.metrics == local.metrics
    assert os.path.exists(tmp_path / "ray" / "summary.json")
