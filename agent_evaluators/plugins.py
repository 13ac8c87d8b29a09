"""Where the core finds the wings this package ships, without importing them.

The core (data model, judge client, evaluators, run engine) names no wing. Each of its
extension points reads its built-in entries here, as ``"module:attribute"`` strings that are
imported the first time they are needed, so ``import agent_evaluators`` loads no wing and a run
loads only the wings it uses:

* :data:`ENGINES`: ``evaluate(engine=NAME)`` besides the local engine;
* :data:`DATA_READERS` and :data:`JSON_DOCUMENTS`: files a wing turns into rows, by suffix, or by the
  top-level keys of a ``.json`` document;
* :data:`TURN_FORMATS`: per-turn records a wing reads into :class:`~agent_evaluators.conversation.turn_pairs.Turn`
  lists (the trajectory and response-match metrics compare such inputs turn by turn);
* :data:`FOREIGN_LIBRARIES`: another library's evaluator classes, by module prefix, and how the
  engine runs them (:class:`~agent_evaluators.runner.foreign.ForeignLibrary`);
* :data:`COMPAT_MEANINGS` and :data:`COMPAT_RUN_METRICS`: what registry names mean in an
  ``azure_compat=True`` run, and what it adds to a run's metrics;
* :data:`RESULT_FILES`: the result files an ``output_path`` suffix asks for;
* :data:`CERTIFICATION`: what the ``certification`` / ``require_certified`` run options call at the end of a
  run (the calibration wing certifies the judge from people's labels and corrects the pass rates);
* :data:`TARGET_ADAPTERS`: another library's agent objects a red-team scan can attack, by module
  prefix of their class, and the wing that wraps one into an agent callable.

The evaluator registry (:mod:`agent_evaluators.registry`) is the same idea for evaluator classes,
and installed packages add evaluators under the ``agent_evaluators.evaluators`` entry-point group.
"""

import importlib
from typing import Any, Dict, Mapping, Tuple

__all__ = ["ENGINES", "DATA_READERS", "JSON_DOCUMENTS", "TURN_FORMATS", "FOREIGN_LIBRARIES", "COMPAT_MEANINGS",
           "COMPAT_RUN_METRICS", "RESULT_FILES", "CERTIFICATION", "TARGET_ADAPTERS", "load"]

#: engine name -> ``run(options, engine_options) -> EvaluationResult``
ENGINES: Mapping[str, str] = {"ray": "agent_evaluators.ray_engine:run_ray"}

#: file suffix -> ``read(path) -> Iterator[row]`` (whole-file formats)
DATA_READERS: Mapping[str, str] = {
    ".evalset.json": "agent_evaluators.adk.convert:iter_rows",
    ".test.json": "agent_evaluators.adk.convert:iter_rows",
}

#: a top-level key of a ``.json`` data file holding one object (not a list of rows) -> the reader of that format
JSON_DOCUMENTS: Mapping[str, str] = {
    "eval_cases": "agent_evaluators.adk.convert:iter_rows",
    "evalCases": "agent_evaluators.adk.convert:iter_rows",
}

#: readers of per-turn records, tried in order: ``read(value, input_name) -> Optional[List[Turn]]``
TURN_FORMATS: Tuple[str, ...] = ("agent_evaluators.adk.invocation_turns:read_invocations",)

#: module prefix of another library's evaluator classes -> its ``ForeignLibrary`` declaration
FOREIGN_LIBRARIES: Mapping[str, str] = {"azure.ai.evaluation": "agent_evaluators.azure._foreign:AZURE_AI_EVALUATION"}

#: registry name -> (``"module:Class"``, its labelled set or ``None``): what a name means in an ``azure_compat`` run
COMPAT_MEANINGS = "agent_evaluators.azure.meaning:MEANINGS"

#: ``compat_metrics(records, evaluators) -> {metric: value}``: the run metrics ``azure_compat=True`` adds
COMPAT_RUN_METRICS = "agent_evaluators.azure._run_metrics:azure_run_metrics"

#: ``output_path`` suffix -> ``write(path, result)``: a result file beside the run folder of the same name
RESULT_FILES: Mapping[str, str] = {".json": "agent_evaluators.azure._output:write_azure_json"}

#: ``certify_result(result)``: adds ``certification`` (and corrected pass rates) to a finished run's summary
CERTIFICATION = "agent_evaluators.calibration.run_certification:certify_result"

#: module prefix of an agent object's class -> ``wrap(agent) -> messages callable`` (a red-team target,
#: :mod:`agent_evaluators.red_team.targets`), with the extra that wing needs
TARGET_ADAPTERS: Mapping[str, Tuple[str, str]] = {"google.adk": ("agent_evaluators.adk.red_team_target:adk_target", "adk")}

_loaded: Dict[str, Any] = {}


def load(target: str) -> Any:
    """The object a ``"module:attribute"`` string names (imported once, then kept)."""
    found = _loaded.get(target)
    if found is None:
        module, _, attribute = target.partition(":")
        found = _loaded[target] = getattr(importlib.import_module(module), attribute)
    return found
