"""The pytest collection items of ``*.eval.yaml`` files (imported by the plugin's hook, so only under pytest).

A file is one :class:`~agent_evaluators.pytest_plugin.EvalRun`: a test per row and one for the
run-level thresholds. Node ids are what ``pytest -v`` prints and what can be pasted back:
``samples/agents.eval.yaml::row3-travel-004``.
"""

from typing import Any, Iterable, Optional, Tuple

import pytest

from ..config.yaml_vocabulary import RUN_CONFIG
from ..errors import AgentEvalError
from .assertions import EvalRowCase, EvalRun, assert_passes, judge_not_run


class EvalFile(pytest.File):
    """A run config collected as tests: a test per row and one for the run thresholds."""

    def collect(self) -> Iterable[Any]:
        run = EvalRun(self.path)
        self.eval_run = run
        for line, label in run.row_labels():
            case = EvalRowCase(run, line, label)
            yield EvalRowItem.from_parent(self, name=case.id, case=case)
        if run.thresholds():
            yield EvalThresholdsItem.from_parent(self, name="thresholds", run=run)


class EvalFileNotEnabled(pytest.File):
    """A run config named on the command line while collection is off: an error saying how to turn it on."""

    def collect(self) -> Iterable[Any]:
        raise self.CollectError(
            f"{self.path.name}: agent-evaluators collects *.eval.yaml files only when asked; "
            "add --agent-eval-collect (or `agent_eval_collect = true` in pytest's ini file)")


class EvalReport(pytest.TestReport):
    """A row's report, headed by its node id (``samples/agents.eval.yaml::row3-travel-004``)."""

    @property
    def head_line(self) -> Optional[str]:
        return self.nodeid


class _EvalItem(pytest.Item):
    def agent_eval_report(self, call: Any) -> pytest.TestReport:
        return EvalReport.from_item_and_call(self, call)  # a classmethod: builds an EvalReport

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:  # str or pytest's TerminalRepr
        if isinstance(excinfo.value, pytest.fail.Exception):
            return str(excinfo.value)
        if isinstance(excinfo.value, AgentEvalError):  # a mistake in the file: said in the file's words
            return f"{type(excinfo.value).__name__}: {RUN_CONFIG.render(excinfo.value)}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> Tuple[Any, Optional[int], str]:
        # no "domain": pytest would print it with '.' turned into '::' (agents::eval::yaml::row0),
        # which cannot be pasted back; without one, -v prints the node id itself
        return self.path, None, ""


class EvalRowItem(_EvalItem):
    def __init__(self, *, case: EvalRowCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        self.case.check()


class EvalThresholdsItem(_EvalItem):
    def __init__(self, *, run: EvalRun, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.run = run

    def runtest(self) -> None:
        metrics = self.run.result().metrics
        active = [t for t in self.run.thresholds() if t.alias not in self.run.skipped]
        if active:
            try:
                assert_passes(metrics, [str(t) for t in active])
            except AssertionError as exc:
                pytest.fail(str(exc), pytrace=False)
        unchecked = [str(t) for t in self.run.thresholds() if t.alias in self.run.skipped]
        if unchecked:
            judge_not_run(self.run, f"run thresholds {', '.join(unchecked)}")
