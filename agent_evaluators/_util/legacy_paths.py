"""Module paths from before the package was laid out as core and wings, kept importable for one release.

``import agent_evaluators.run_config`` still works: a finder at the front of ``sys.meta_path``
answers every old dotted path (and anything below it) with the module at its new path, the very
same object, so ``isinstance`` checks and ``monkeypatch.setattr("agent_evaluators.old.path.x", ...)``
keep working; the first import through an old path warns with a :class:`DeprecationWarning` naming
the new one. One table instead of a shim file per old module: nothing to keep in step by hand, and
no module is loaded twice under two names.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Dict, Optional, Sequence

#: old dotted path -> new dotted path (a package maps its whole subtree)
MOVED: Dict[str, str] = {
    "agent_evaluators._concurrency": "agent_evaluators._util.concurrency",
    "agent_evaluators._gc": "agent_evaluators._util.gc_pause",
    "agent_evaluators._json_text": "agent_evaluators._util.json_text",
    "agent_evaluators._lazy": "agent_evaluators._util.lazy",
    "agent_evaluators._loop": "agent_evaluators._util.loop",
    "agent_evaluators._safe_text": "agent_evaluators._util.safe_text",
    "agent_evaluators._scrub": "agent_evaluators._util.scrub",
    "agent_evaluators.adk_eval": "agent_evaluators.adk.evalsets",
    "agent_evaluators.adk_eval.cases": "agent_evaluators.adk.evalsets.cases",
    "agent_evaluators.adk_eval.cli": "agent_evaluators.cli.eval_sets",
    "agent_evaluators.adk_eval.criteria": "agent_evaluators.adk.evalsets.criteria",
    "agent_evaluators.adk_eval.custom": "agent_evaluators.adk.evalsets.custom",
    "agent_evaluators.adk_eval.end_state": "agent_evaluators.adk.evalsets.end_state",
    "agent_evaluators.adk_eval.informational": "agent_evaluators.adk.evalsets.informational",
    "agent_evaluators.adk_eval.outcome": "agent_evaluators.adk.evalsets.metric_outcome",
    "agent_evaluators.adk_eval.printing": "agent_evaluators.adk.evalsets.printing",
    "agent_evaluators.adk_eval.producers": "agent_evaluators.adk.evalsets.producers",
    "agent_evaluators.adk_eval.runner": "agent_evaluators.adk.evalsets.runner",
    "agent_evaluators.agents.adk_runner": "agent_evaluators.adk.agent_runner",
    "agent_evaluators.agents.adk_tool_plugin": "agent_evaluators.adk.tool_plugin",
    "agent_evaluators.agents.agent_evaluator": "agent_evaluators.adk.agent_evaluator",
    "agent_evaluators.agents.conversation": "agent_evaluators.agents.dialogue",
    "agent_evaluators.agents.tool_recorder": "agent_evaluators.agents.tool_replay",
    "agent_evaluators.agents.tool_recording": "agent_evaluators.agents.recordings",
    "agent_evaluators.assertions": "agent_evaluators.pytest_plugin.assertions",
    "agent_evaluators.calibration.cli": "agent_evaluators.cli.calibrate",
    "agent_evaluators.calibration.metrics": "agent_evaluators.calibration.kappa",
    "agent_evaluators.calibration.run": "agent_evaluators.calibration.labelled_run",
    "agent_evaluators.calibration_record": "agent_evaluators.config.calibration_records",
    "agent_evaluators.cli.estimate": "agent_evaluators.cli.estimate_table",
    "agent_evaluators.cli.outcome": "agent_evaluators.cli.run_outcome",
    "agent_evaluators.conversation.turns": "agent_evaluators.conversation.turn_pairs",
    "agent_evaluators.custom_metric": "agent_evaluators.adk.custom_metrics",
    "agent_evaluators.efficiency": "agent_evaluators.adk.efficiency",
    "agent_evaluators.efficiency.metrics": "agent_evaluators.adk.efficiency.metrics",
    "agent_evaluators.efficiency.sources": "agent_evaluators.adk.efficiency.sources",
    "agent_evaluators.evaluators.adk_judges": "agent_evaluators.adk.judges",
    "agent_evaluators.evaluators.adk_judges._shared": "agent_evaluators.adk.judges._shared",
    "agent_evaluators.evaluators.adk_judges.final_response_match": "agent_evaluators.adk.judges.final_response_match",
    "agent_evaluators.evaluators.adk_judges.hallucinations": "agent_evaluators.adk.judges.hallucinations",
    "agent_evaluators.evaluators.adk_judges.multi_turn": "agent_evaluators.adk.judges.multi_turn",
    "agent_evaluators.evaluators.adk_judges.rubrics": "agent_evaluators.adk.judges.rubrics",
    "agent_evaluators.evaluators.adk_judges.safety": "agent_evaluators.adk.judges.safety",
    "agent_evaluators.evaluators.efficiency": "agent_evaluators.adk.efficiency.evaluators",
    "agent_evaluators.evaluators.response_evaluation": "agent_evaluators.adk.judges.response_evaluation",
    "agent_evaluators.evaluators.user_simulator_quality": "agent_evaluators.adk.judges.user_simulator_quality",
    "agent_evaluators.export.cells": "agent_evaluators.export.records",
    "agent_evaluators.import_path": "agent_evaluators._util.import_path",
    "agent_evaluators.judge.body": "agent_evaluators.judge.request_body",
    "agent_evaluators.judge.budget": "agent_evaluators.judge.caps",
    "agent_evaluators.judge.dry": "agent_evaluators.judge.dry_transport",
    "agent_evaluators.judge.tokens": "agent_evaluators.judge.entra_tokens",
    "agent_evaluators.judge_panel_config": "agent_evaluators.config.judge_panels",
    "agent_evaluators.judge_settings": "agent_evaluators.config.judge_settings",
    "agent_evaluators.local": "agent_evaluators.local_judge",
    "agent_evaluators.local.cli": "agent_evaluators.cli.judge_serve",
    "agent_evaluators.local.server": "agent_evaluators.local_judge.llama_server",
    "agent_evaluators.pytest_items": "agent_evaluators.pytest_plugin.items",
    "agent_evaluators.report.plan": "agent_evaluators.report.sample_size",
    "agent_evaluators.run_call": "agent_evaluators.config.run_call",
    "agent_evaluators.run_config": "agent_evaluators.config.run_config",
    "agent_evaluators.runner.azure_metrics": "agent_evaluators.azure._run_metrics",
    "agent_evaluators.runner.azure_output": "agent_evaluators.azure._output",
    "agent_evaluators.runner.azure_rows": "agent_evaluators.azure._rows",
    "agent_evaluators.runner.budget_run": "agent_evaluators.runner.judge_caps",
    "agent_evaluators.runner.distributed": "agent_evaluators.ray_engine",
    "agent_evaluators.runner.distributed.budget": "agent_evaluators.ray_engine.permit_actor",
    "agent_evaluators.runner.distributed.caps": "agent_evaluators.ray_engine.cluster_caps",
    "agent_evaluators.runner.distributed.driver": "agent_evaluators.ray_engine.driver",
    "agent_evaluators.runner.distributed.shards": "agent_evaluators.ray_engine.shards",
    "agent_evaluators.runner.distributed.worker": "agent_evaluators.ray_engine.worker",
    "agent_evaluators.runner.estimate": "agent_evaluators.runner.dry_run_estimate",
    "agent_evaluators.runner.local": "agent_evaluators.runner.engine",
    "agent_evaluators.runner.rows": "agent_evaluators.runner.row_evaluator",
    "agent_evaluators.runner.settings": "agent_evaluators.runner.settings_digest",
    "agent_evaluators.testing.server": "agent_evaluators.testing.judge_server",
    "agent_evaluators.thresholds": "agent_evaluators.config.thresholds",
    "agent_evaluators.traces.messages": "agent_evaluators.traces.convention_messages",
    "agent_evaluators.traces.rows": "agent_evaluators.traces.trace_rows",
    "agent_evaluators.trajectory.inputs": "agent_evaluators.trajectory.read_input",
}


def new_name(fullname: str) -> Optional[str]:
    """Where an old dotted path lives now, or ``None`` when it is not an old path."""
    head, rest = fullname, ""
    while head:
        if head in MOVED:
            return MOVED[head] + rest
        head, _, tail = head.rpartition(".")
        rest = f".{tail}{rest}"
    return None


class _Alias(importlib.abc.Loader):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{self.old} moved to {self.new}; import it from there (the old path goes in the next release)",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module is the new path's, already loaded."""


class _LegacyPaths(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        if not fullname.startswith("agent_evaluators."):
            return None
        new = new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(fullname, new))


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once): before the path finder, which would otherwise
    load a file of a moved package a second time under its old name."""
    if not any(isinstance(f, _LegacyPaths) for f in sys.meta_path):
        sys.meta_path.insert(0, _LegacyPaths())
