"""pytest support: aggregate assertions, one test per evaluated row, and ``*.eval.yaml`` files as tests.

Assert aggregates of a run::

    from agent_evaluators.pytest_plugin import assert_passes

    result = evaluate(data="runs.jsonl", evaluators={...})
    assert_passes(result, {"intent.intent_resolution": 4.0, "trajectory.pass_rate": 1.0})   # ">=" each
    assert_passes(result, ["trajectory.tool_trajectory_avg_score >= 0.95", "intent.error_count == 0"])

One test case per row (the evaluation runs once, on first use)::

    from agent_evaluators.pytest_plugin import eval_cases

    @pytest.mark.parametrize("case", eval_cases("samples/eval.yaml"))
    def test_agent(case):
        case.check()          # fails with evaluator, score, threshold and reason per failing cell

    # or without a config file:
    eval_cases(data="runs.jsonl", evaluators={"trajectory": ToolTrajectoryEvaluator()},
               evaluator_config={"trajectory": {"column_mapping": {"ground_truth": "${data.expected}"}}})

As a plugin (registered through the ``pytest11`` entry point, or ``-p agent_evaluators.pytest_plugin``),
every run config named ``*.eval.yaml`` / ``*.eval.yml`` / ``*.eval.json`` inside the collected
paths becomes a test file: one test per row plus one for the run-level thresholds.
Without a judge configured, judge-backed evaluators cannot run: a row whose other checks pass
is then reported as *skipped* with the reason (never silently passed), and it *fails* when the
environment variable ``CI`` is set (``true``/``1``/...), when ``AGENT_EVAL_STRICT=1`` or with
``pytest --agent-eval-strict``, so a missing judge secret cannot turn CI green.
``AGENT_EVAL_STRICT=0`` turns that off in CI.

This module imports pytest only when pytest runs it: ``assert_passes`` works in a plain script
(``pip install agent-evaluators`` without the dev extras).
"""

import os
from pathlib import Path
from typing import Any, Optional

from .assertions import (
    EVAL_FILE_SUFFIXES,
    STRICT_ENV,
    EvalRowCase,
    EvalRun,
    assert_passes,
    eval_cases,
    strict_judge,
)

__all__ = ["assert_passes", "eval_cases", "EvalRowCase", "EvalRun", "strict_judge"]


# ---------------------------------------------------------------------------- the plugin (pytest hooks)
def pytest_addoption(parser: Any) -> None:
    parser.addoption("--agent-eval-strict", action="store_true", default=False,
                     help="agent-evaluators: fail (not skip) judge-backed checks when no judge is configured "
                          "(the default when CI is set)")


def pytest_configure(config: Any) -> None:
    if config.getoption("--agent-eval-strict", default=False):
        os.environ[STRICT_ENV] = "1"


def pytest_collect_file(file_path: Path, parent: Any) -> Optional[Any]:
    if file_path.name.endswith(EVAL_FILE_SUFFIXES):
        from .pytest_items import EvalFile

        return EvalFile.from_parent(parent, path=file_path)
    return None
