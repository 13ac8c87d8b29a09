"""``AgentEvaluator.evaluate``: ADK's pytest entry point, on any judge.

::

    @pytest.mark.asyncio
    async def test_agent():
        await AgentEvaluator.evaluate("samples.adk_agent", "samples/adk_agent/weather.evalset.json",
                                      num_runs=2, judge_model_config=judge)

Per eval file: its ``test_config.json`` (or ADK's default criteria), every case run
``num_runs`` times with ADK's ``Runner`` (:func:`~agent_evaluators.agents.adk_runner.run_case`)
and scored (:func:`~agent_evaluators.agents.case_scoring.score_case`). The verdict per case and
metric is ADK's: the flat mean of every per-invocation score over all runs, compared with the
threshold; no score at all is a failure ("was not evaluated"), except where it cannot be
otherwise (a reference-based metric on a ``conversation_scenario`` case, the simulator metric
on a static case), which is skipped. Raises ``AssertionError`` listing every failure.
"""

import statistics
from pathlib import Path
from typing import Any, List, Optional, Union

__all__ = ["AgentEvaluator"]


def _eval_files(path: Union[str, Path]) -> List[Path]:
    p = Path(path)
    if p.is_file():
        return [p]
    if p.is_dir():
        files = sorted(set(p.rglob("*.test.json")) | set(p.rglob("*.evalset.json")))
        if files:
            return files
    raise ValueError(f"{path}: no eval files (*.test.json or *.evalset.json) found")


class AgentEvaluator:
    """ADK's ``AgentEvaluator`` call shape; see the module docstring."""

    @staticmethod
    async def evaluate(
        agent_module: Any,
        eval_dataset_file_path_or_dir: Union[str, Path],
        num_runs: int = 2,
        agent_name: Optional[str] = None,
        initial_session_file: Optional[str] = None,
        print_detailed_results: bool = True,
        *,
        judge_model_config: Any = None,
    ) -> None:
        """Run and score the agent on every eval file; ``AssertionError`` naming failed cases and metrics.

        ``judge_model_config``: the judge (and, unless ``user_simulator_config.model`` names
        another model, the user simulator); ``None`` reads the environment.
        ``agent_name`` selects a sub-agent of the root agent, as in ADK.
        """
        from ..adk import find_config_for, load_eval_config, load_eval_set
        from .adk_runner import load_agent, run_case
        from .case_scoring import score_case

        if isinstance(num_runs, bool) or not isinstance(num_runs, int) or num_runs < 1:
            raise ValueError(f"num_runs must be an integer >= 1, got {num_runs!r}")
        if initial_session_file is not None:
            raise ValueError("initial_session_file is not supported; put session_input in the eval cases")
        root, app = load_agent(agent_module)
        if agent_name:
            found = root.find_agent(agent_name)
            if found is None:
                raise ValueError(f"Sub-Agent {agent_name!r} not found.")
            root, app = found, None
        failures: List[str] = []
        for path in _eval_files(eval_dataset_file_path_or_dir):
            config = load_eval_config(find_config_for(path))
            eval_set = load_eval_set(path)
            if not eval_set.eval_cases:
                raise ValueError(f"{path}: the eval set has no cases")
            for case in eval_set.eval_cases:
                runs = await run_case((root, app), case, simulator_model_config=judge_model_config,
                                      user_simulator_config=config.user_simulator_config, num_runs=num_runs)
                scored = [await score_case(case, run, config.criteria, judge_model_config) for run in runs]
                failures += _case_failures(agent_module, case, scored, print_detailed_results)
        assert not failures, "Following are all the test failures.\n" + "\n".join(failures)


def _case_failures(agent_module: Any, case: Any, scored: List[Any], verbose: bool) -> List[str]:
    failures = []
    names = [m.name for m in scored[0].metrics] if scored else []
    for i, name in enumerate(names):
        outcomes = [s.metrics[i] for s in scored]
        values = [v for o in outcomes for v in o.per_invocation_scores if v is not None]
        threshold = outcomes[0].threshold
        if not values:
            reason = outcomes[0].reason
            structural = ("conversation_scenario" in reason) or ("static conversation" in reason)
            if structural:
                continue
            failures.append(f"{case.eval_id}: {name} for {agent_module} was not evaluated ({reason}), so the "
                            f"threshold of {threshold} was never checked.")
            continue
        overall = statistics.mean(values)
        if verbose:
            print(f"{case.eval_id}: {name}: {overall} (threshold {threshold})")
        if overall < threshold:
            failures.append(f"{case.eval_id}: {name} for {agent_module} Failed. Expected {threshold}, but got {overall}.")
    return failures
