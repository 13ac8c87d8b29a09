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

As a plugin, with collection asked for (``pytest --agent-eval-collect``, ``agent_eval_collect = true``
in the ini file, or ``-p agent_evaluators.pytest_plugin``), every run config named ``*.eval.yaml`` /
``*.eval.yml`` / ``*.eval.json`` inside the collected paths becomes a test file: one test per row plus
one for the run-level thresholds. The plugin is registered through the ``pytest11`` entry point, so it
is loaded by every ``pytest`` in an environment that has the package; collecting (and running, with
judge calls) every such file under the tested paths without being asked would surprise a project
that only keeps run configs there. A file named on the command line without the opt-in is a
collection error that says which flag to add.
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
from typing import Any, Dict, List, Optional

from .assertions import EVAL_FILE_SUFFIXES, STRICT_ENV, EvalRowCase, EvalRun, assert_passes, eval_cases, strict_judge

__all__ = ["assert_passes", "eval_cases", "EvalRowCase", "EvalRun", "strict_judge"]


COLLECT_FLAG = "--agent-eval-collect"
COLLECT_INI = "agent_eval_collect"
_PLUGIN_NAMES = ("agent_evaluators.pytest_plugin", "agent_evaluators")  # module, pytest11 entry-point name


# ---------------------------------------------------------------------------- the plugin (pytest hooks)
def pytest_addoption(parser: Any) -> None:
    parser.addoption("--agent-eval-strict", action="store_true", default=False,
                     help="agent-evaluators: fail (not skip) judge-backed checks when no judge is configured "
                          "(the default when CI is set)")
    parser.addoption(COLLECT_FLAG, action="store_true", default=False,
                     help="agent-evaluators: collect *.eval.yaml / *.eval.yml / *.eval.json run configs as tests "
                          "(one per row and one for the run thresholds); off unless asked for")
    parser.addini(COLLECT_INI, type="bool", default=False,
                  help=f"agent-evaluators: collect *.eval.yaml run configs as tests (same as {COLLECT_FLAG})")


def pytest_configure(config: Any) -> None:
    if config.getoption("--agent-eval-strict", default=False):
        os.environ[STRICT_ENV] = "1"


def collection_enabled(config: Any) -> bool:
    """Whether ``*.eval.yaml`` files are collected: the flag, the ini option, or naming the plugin with ``-p``."""
    if config.getoption(COLLECT_FLAG, default=False) or config.getini(COLLECT_INI):
        return True
    return any(name in _PLUGIN_NAMES for name in (getattr(config.option, "plugins", None) or []))


def _named_on_command_line(config: Any, file_path: Path) -> bool:
    start = Path(config.invocation_params.dir)
    return any((start / str(arg).split("::")[0]).resolve() == file_path.resolve() for arg in config.args)


def pytest_collect_file(file_path: Path, parent: Any) -> Optional[Any]:
    if not file_path.name.endswith(EVAL_FILE_SUFFIXES):
        return None
    from .items import EvalFile, EvalFileNotEnabled

    if collection_enabled(parent.config):
        return EvalFile.from_parent(parent, path=file_path)
    if _named_on_command_line(parent.config, file_path):
        return EvalFileNotEnabled.from_parent(parent, path=file_path)
    return None


def pytest_collection_finish(session: Any) -> None:
    """Each collected run config evaluates only the rows the selection kept (``file::row3``, ``-k``): one
    selected row is one row judged. Its thresholds test needs every row, so selecting it keeps them all."""
    from .items import EvalRowItem, EvalThresholdsItem

    lines: Dict[int, List[int]] = {}
    runs: Dict[int, Any] = {}
    whole = set()
    for item in session.items:
        if isinstance(item, EvalRowItem):
            runs[id(item.case.run)] = item.case.run
            lines.setdefault(id(item.case.run), []).append(item.case.line)
        elif isinstance(item, EvalThresholdsItem):
            whole.add(id(item.run))
    for key, run in runs.items():
        if key not in whole and len(lines[key]) < len(run.row_labels()):
            run.select(lines[key])


def pytest_runtest_makereport(item: Any, call: Any) -> Optional[Any]:
    """The report of an eval-row test: its failure header names the row's node id (pytest's
    default header is the test's ``domain``, which a row leaves empty so ``-v`` prints node ids as
    they can be pasted back; an empty header reads "test session")."""
    make = getattr(item, "agent_eval_report", None)
    return make(call) if make is not None else None
