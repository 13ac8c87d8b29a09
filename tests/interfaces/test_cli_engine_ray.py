"""``agent-eval run --engine ray``: the same run on a local Ray cluster, from the command line."""

import json

import pytest

from tests.cli.helpers import AGENTS, agent_eval

pytestmark = [pytest.mark.heavy, pytest.mark.ray]


def test_engine_ray_gives_the_local_engines_results(tmp_path):
    args = ["run", "--data", AGENTS, "-e", "tool_trajectory=trajectory",
            "--map", "trajectory.ground_truth=expected_tool_calls", "--option", "trajectory.match_type=in_order"]
    local = agent_eval(*args, "-o", tmp_path / "local")
    ray = agent_eval(*args, "--engine", "ray", "-o", tmp_path / "ray")
    assert local.rc == ray.rc == 1, ray
    metrics = [json.loads((tmp_path / d / "summary.json").read_text())["metrics"] for d in ("local", "ray")]
    assert metrics[0]["trajectory.pass_rate"] == metrics[1]["trajectory.pass_rate"] == 0.75
