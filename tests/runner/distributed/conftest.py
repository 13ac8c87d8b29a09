"""One local Ray cluster for the whole Ray test module run (starting one costs ~10 s on 2 cores).

``ray.init(num_cpus=2, include_dashboard=False)`` with usage stats off, as CI runs it;
shut down at the end of the session. Tests that start a second driver process connect
to this cluster through ``ray_cluster`` (its GCS address).
"""

import os

import pytest

from tests.conftest import optional_import


@pytest.fixture(scope="session")
def ray_cluster():
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = optional_import("ray")
    if ray.is_initialized():
        ray.shutdown()
    # loopback only: the test cluster must not listen on (or be reached through) an outside interface
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING", _node_ip_address="127.0.0.1")
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
