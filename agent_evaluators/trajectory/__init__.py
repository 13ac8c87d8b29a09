"""Deterministic tool-trajectory matching: one core for ADK's and openevals' modes.

* :mod:`.modes`: mode names and their forgiving parsing;
* :mod:`.args`: argument comparison (global mode + per-tool overrides);
* :mod:`.matching`: the core (optimal matching, verdict, evidence);
* :mod:`.inputs`: reading evaluator inputs at the edge;
* :mod:`.navigation` / :mod:`.navigation_inputs`: azure-ai-evaluation's task navigation
  efficiency (its three matching modes, precision / recall / F1) on this core.

``ToolTrajectoryEvaluator`` (``agent_evaluators.evaluators.trajectory``) and
``TaskNavigationEfficiencyEvaluator`` (``agent_evaluators.evaluators.task_navigation``, and its
azure-shaped twin in ``agent_evaluators.azure``) are the evaluators built on it.
"""

from .args import ArgsPolicy, values_equal
from .matching import TrajectoryMatch, match_trajectory, maximum_matching
from .modes import ArgsMode, TrajectoryMode, parse_args_mode, parse_trajectory_mode

__all__ = [
    "ArgsMode",
    "ArgsPolicy",
    "TrajectoryMatch",
    "TrajectoryMode",
    "match_trajectory",
    "maximum_matching",
    "parse_args_mode",
    "parse_trajectory_mode",
    "values_equal",
]
