"""``AgentEvaluator.evaluate``: ADK's pytest entry point, on any judge.

::

    async def test_agent():
        await AgentEvaluator.evaluate("samples.adk_agent", "samples/adk_agent/weather.evalset.json",
                                      num_runs=2, judge_model_config=judge)

The eval files run on the eval-set runner (:mod:`agent_evaluators.adk.evalsets.runner`), the
same path as ``agent-eval adk AGENT_DIR EVALSET``: each file with its ``test_config.json``
(or ADK's default criteria), every case run ``num_runs`` times with ADK's ``Runner``
(:func:`~agent_evaluators.adk.agent_runner.agent_producer`) and scored per criterion. Only
the verdict differs, because it is ADK's ``AgentEvaluator``'s: per case and metric, the flat
mean of every per-invocation score over all runs, compared with the threshold; no score at
all is a failure ("was not evaluated"), except where it cannot be otherwise (a
reference-based metric on a ``conversation_scenario`` case, a scenario metric on a static
case), which is skipped; a criterion the judge could not score (a case's ``errors``) is a
failure too, even when its other invocations scored. Raises ``AssertionError`` listing every failure.
"""

import statistics
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union


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
        max_concurrency: int = 10,
        tool_recorder: Any = None,
    ) -> None:
        """Run and score the agent on every eval file; ``AssertionError`` naming failed cases and metrics.

        ``judge_model_config``: the judge (and, unless ``user_simulator_config.model`` names
        another model, the user simulator); ``None`` reads the environment.
        ``agent_name`` selects a sub-agent of the root agent, as in ADK.
        ``max_concurrency``: judge calls in flight at once, across the whole run.
        ``tool_recorder``: a :class:`~agent_evaluators.agents.ToolRecorder` in ``"replay"`` mode serves
        every tool call from its recording (no tool runs; a call not recorded fails its case), in
        ``"record"`` mode (with ``num_runs=1``) it records them (``agent-eval adk --replay-tools``).
        """
        from .._util.validators import positive_int
        from ..errors import ConfigError
        from ..wording import Option, Text
        from .agent_runner import agent_producer
        from .evalsets.printing import format_case, format_summary
        from .evalsets.runner import prepare_run

        positive_int("num_runs", num_runs)  # a ConfigError, which is a ValueError
        if initial_session_file is not None:
            raise ValueError("initial_session_file is not supported; put session_input in the eval cases")
        files = _eval_files(eval_dataset_file_path_or_dir)
        if tool_recorder is not None and tool_recorder.mode == "record" and num_runs > 1:
            raise ConfigError(Text("a tool recording keeps one run per case: record with {one}",
                                   one=Option("num_runs", 1)))
        producer = agent_producer(agent_module, simulator_model_config=judge_model_config, agent_name=agent_name,
                                  tool_recorder=tool_recorder)
        plan = prepare_run([str(f) for f in files], producer=producer, model_config=judge_model_config,
                           num_runs=num_runs)
        for job in plan.jobs:
            if not job.cases:
                raise ValueError(f"{job.path}: the eval set has no cases")
        results = await plan.run(output_dir=None, model_config=judge_model_config, max_concurrency=max_concurrency)
        if print_detailed_results:
            print(format_summary(results))
            for r in results:
                print(format_case(r))
        failures: List[str] = []
        at = 0
        for job in plan.jobs:
            for case in job.cases:
                runs = results[at:at + num_runs]  # the runner keeps the runs of a case together
                at += num_runs
                failures += _case_failures(agent_module, case, runs, print_detailed_results)
        assert not failures, "Following are all the test failures.\n" + "\n".join(failures)


def _case_failures(agent_module: Any, case: Any, runs: Sequence[Any], verbose: bool) -> List[str]:
    """ADK's per-metric verdict over every run of one case."""
    from .evalsets.criteria import METRICS
    from .results import EvalStatus

    failures = [f"{case.eval_id}: the agent could not be run: {'; '.join(r.notes)}"
                for r in runs if not r.overall_eval_metric_results]
    if failures:
        return failures
    # a judge that failed is an error, whatever the other invocations scored
    failures = [f"{case.eval_id}: {error}" for r in runs for error in r.errors]
    errored = {m.metric_name for r in runs for m in r.overall_eval_metric_results
               if m.eval_status == EvalStatus.FAILED and m.score is None}  # said above, in the errors
    scenario = case.conversation_scenario is not None
    thresholds: Dict[str, Any] = {}
    values: Dict[str, List[float]] = {}
    for r in runs:
        for m in r.overall_eval_metric_results:
            if m.metric_name in errored or m.eval_status == EvalStatus.INFORMATIONAL:
                continue  # an informational metric (tool_call_count_v1 ...) never fails, as in ADK
            thresholds[m.metric_name] = m.threshold
            values.setdefault(m.metric_name, [])
        for item in r.eval_metric_result_per_invocation:
            for m in item.eval_metric_results:
                if m.score is not None and m.metric_name in values:
                    values[m.metric_name].append(m.score)
    for name, scores in values.items():
        threshold = thresholds[name]
        if not scores:
            spec = METRICS.get(name)  # None: a custom metric (custom_metrics), which says its own status
            if spec is not None and ((spec.reference_based and scenario) or (spec.scenario_based and not scenario)
                                     or (spec.state_based and not case.final_session_state)):
                continue  # cannot apply to this kind of case: ADK skips it too
            why = "; ".join(n for r in runs for n in r.notes if n.startswith(f"{name}:")) or "no score"
            failures.append(f"{case.eval_id}: {name} for {agent_module} was not evaluated ({why}), so the "
                            f"threshold of {threshold} was never checked.")
            continue
        overall = statistics.mean(scores)
        if verbose:
            print(f"{case.eval_id}: {name}: {overall} (threshold {threshold})")
        if threshold is not None and overall < threshold:
            failures.append(f"{case.eval_id}: {name} for {agent_module} Failed. Expected {threshold}, but got {overall}.")
    return failures
