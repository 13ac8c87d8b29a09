"""ADK's ``custom_metrics`` in an eval-set run: each criterion named under ``custom_metrics`` runs
the function its ``code_config.name`` names (:mod:`agent_evaluators.adk.custom_metrics`, the resolver
``agent-eval run -e module:function`` uses too), called as ADK calls it.

The function's own status is the metric's (ADK hands it ``threshold=None`` and keeps the
configured threshold on the criterion); a function that cannot be imported fails the run before
any case runs, and one that returns the wrong thing is an error of that case, never a pass.
"""

from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ...errors import ConfigError
from ..custom_metrics import acall_adk_metric, resolve_function
from ..eval_config import Criterion, EvalConfig
from .metric_outcome import InvocationScore, InvocationsResult, _score_dict


def custom_paths(config: EvalConfig) -> Dict[str, str]:
    """``{metric: "package.module.function"}`` from the config's ``custom_metrics``."""
    out: Dict[str, str] = {}
    where = config.source or "config"
    for name, entry in (config.custom_metrics or {}).items():
        code = entry.get("code_config", entry.get("codeConfig")) if isinstance(entry, Mapping) else None
        path = code.get("name") if isinstance(code, Mapping) else None
        if not isinstance(path, str) or not path.strip():
            raise ConfigError(f"{where}: custom_metrics.{name} needs code_config.name, the function's path, e.g. "
                              f'{{"code_config": {{"name": "my_package.my_metrics.{name}"}}}}')
        out[name] = path
    return out


def resolve_custom(config: EvalConfig, evalset_path: str) -> Dict[str, Callable[..., Any]]:
    """The functions of the config's criteria that are custom metrics, imported now. Besides the
    Python path and the current folder, the config's and the eval set's folders and the two above
    each are searched (ADK puts the agents folder on the path, so ``agent_package.metrics.fn``
    resolves; so does ``samples.agent_package.metrics.fn`` from a checkout)."""
    paths = custom_paths(config)
    folders: List[Path] = []
    for anchor in ([Path(config.source)] if config.source and Path(config.source).is_file() else []) + [Path(evalset_path)]:
        here = anchor.resolve().parent
        folders += [here, here.parent, here.parent.parent]
    return {name: resolve_function(paths[name], metric=name, search=tuple(dict.fromkeys(folders)))
            for name in config.criteria if name in paths}


async def custom_result(name: str, fn: Callable[..., Any], crit: Criterion, actual: Sequence[Any],
                        expected: Optional[Sequence[Any]], scenario: Any) -> InvocationsResult:
    """The function's result for one case, as an :class:`~.criteria.InvocationsResult`."""
    result = await acall_adk_metric(fn, name, crit.to_json_dict(), actual, expected, scenario)
    per = [InvocationScore(p["score"], p["status"]) for p in result.per_invocation]
    if len(per) != len(actual):  # NOT_EVALUATED / INFORMATIONAL may leave them out (ADK: placeholders)
        per = [InvocationScore(None, result.status) for _ in actual]
    details = {"reason": f"custom metric {name}: {result.status}", "per_invocation": [_score_dict(p) for p in per]}
    return InvocationsResult(name, result.score, result.status, [p.score for p in per], crit.threshold, crit, per,
                             details)
