"""evaluate()'s engine arguments (no Ray needed)."""

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.ray_engine import evaluate_ray

from ..helpers import ExactMatch


def test_unknown_engine_is_refused():
    with pytest.raises(ConfigError, match="engine must be 'local' or 'ray'"):
        evaluate(data=[{"response": "a", "ground_truth": "a"}], evaluators={"e": ExactMatch()}, engine="spark")


def test_ray_only_arguments_with_the_local_engine_are_refused():
    with pytest.raises(ConfigError, match="engine='ray' only"):
        evaluate(data=[{"response": "a", "ground_truth": "a"}], evaluators={"e": ExactMatch()}, num_workers=4)


@pytest.mark.parametrize("kwargs, message", [({"shard_size": 0}, "shard_size"), ({"num_workers": 0}, "num_workers"),
                                             ({"max_concurrency": 0}, "max_concurrency")])
def test_bad_ray_arguments_fail_before_ray_starts(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        evaluate_ray(data=[{"response": "a", "ground_truth": "a"}], evaluators={"e": ExactMatch()}, **kwargs)
