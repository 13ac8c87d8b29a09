"""Run options outside Python, and the one path from a run config into ``evaluate()``.

A run config (YAML / JSON) sets any keyword of ``evaluate()`` under the keyword's own name,
as :mod:`agent_evaluators.runner.option_table` declares it (older spellings such as
``concurrency`` and ``output`` stay accepted); ``agent-eval run`` sets the same ones with
flags (``cli/run_flags.py``). Values are read by the option's kind: a path is relative to the
config file, ``target`` is ``module:function`` (imported like an evaluator's ``module:Class``),
``tags`` is a mapping; every value gets the table's check at load time, so a wrong one is
reported with the file's name, in the file's words (``max_rows:``, ``force: true``: :mod:`.words`).

``agent-eval run``, ``.eval.yaml`` test files and :func:`~agent_evaluators.pytest_plugin.eval_cases`
all call :func:`evaluate_with`; none writes its own ``evaluate(...)`` call, so an option added
to the table reaches all three.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, Mapping, Optional

from .._util.import_path import import_object
from ..errors import ConfigError
from ..runner.option_table import RUN_OPTIONS, RunOption
from ..wording import Text
from .yaml_vocabulary import RunConfigWords

if TYPE_CHECKING:
    from ..runner import EvaluationResult

#: every run-option key a run config may hold (names and older spellings)
RUN_OPTION_KEYS: FrozenSet[str] = frozenset(k for o in RUN_OPTIONS for k in (o.name, *o.aliases))


def option_value(option: RunOption, value: Any, base: Optional[Path] = None) -> Any:
    """A config or flag value of ``option`` as ``evaluate()`` takes it (paths relative to ``base``)."""
    if value is None:
        return None
    if option.kind == "path":
        return (base / str(value)) if base is not None else Path(str(value))
    if option.kind == "callable" and isinstance(value, str):
        return import_object(value, (base,) if base is not None else (), what=option.name,
                             shape="a function as 'package.module:function'", kind="a function")
    if option.kind == "tags" and isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    return value


def read_run_options(raw: Mapping[str, Any], path: Path) -> Dict[str, Any]:
    """The run options a config file sets, read and checked; a wrong value names the file and key."""
    out: Dict[str, Any] = {}
    for option in RUN_OPTIONS:
        given = [k for k in (option.name, *option.aliases) if k in raw]
        if len(given) > 1:
            raise ConfigError(f"{path}: {given[0]!r} and {given[1]!r} set the same option; keep {option.name!r}")
        if not given or raw[given[0]] is None:
            continue
        key = given[0]
        value = option_value(option, raw[key], path.parent)
        try:
            out[option.name] = option.check(option.name, value)
        except ConfigError as exc:  # said in the file's words, with the key as the file spells it
            said = RunConfigWords(keys={option.name: key}).render(exc)
            raise ConfigError(Text("{path}: {problem}", path=path, problem=said), option=option.name) from None
    return out


def evaluate_with(data: Any, evaluators: Mapping[str, Any], evaluator_config: Optional[Mapping[str, Any]],
                  *option_layers: Mapping[str, Any]) -> "EvaluationResult":
    """``evaluate()`` with the run options of ``option_layers`` merged, each over the ones before it."""
    from ..runner import evaluate

    options: Dict[str, Any] = {}
    for layer in option_layers:
        options.update(layer)
    return evaluate(data=data, evaluators=evaluators, evaluator_config=evaluator_config, **options)

