"""Judge panels in run configs and on the command line: ``judge: [...]`` and ``--judge-config FILE``.

A run config's ``judge:`` is one judge (a mapping) or a panel (a list of mappings, each with
the same keys as one judge plus an optional ``name``)::

    judge:
      - {name: gpt, model: gpt-4o-mini, api_key_env: OPENAI_API_KEY}
      - {name: local, model: qwen2.5, base_url: "http://127.0.0.1:11434/v1"}

``agent-eval run --judge-config judges.yaml`` reads the same section from a file of its own
(a mapping or a list, optionally under a top-level ``judge:`` key); it replaces the run
config's ``judge:``. The other judge flags (``--judge-timeout``, ``--judge-max-attempts``, ...)
apply to every judge of a panel. Each judge is resolved exactly as a single judge is
(:func:`~agent_evaluators.config.judge_settings.judge_model_config`), and the evaluators get the list
as ``model_config=[...]`` (:mod:`agent_evaluators.evaluators.panel`).
"""

from dataclasses import fields
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..errors import ConfigError
from .judge_settings import _JUDGE_KEYS, JudgeSettings, judge_model_config

#: (name, settings) of one judge of a panel
NamedJudge = Tuple[str, JudgeSettings]


def _settings(judge: Mapping[str, Any], where: str) -> Any:
    bad = sorted(set(judge) - set(_JUDGE_KEYS) - {"name"})
    if bad:
        if bad[0] == "api_key":
            raise ConfigError(f"{where}: do not put API keys in config files; name the variable with api_key_env")
        raise ConfigError(f"{where}: unknown judge key {bad[0]!r}; known: name, {', '.join(_JUDGE_KEYS)}")
    named = {k: judge[k] for k in _JUDGE_KEYS if judge.get(k) is not None}
    return JudgeSettings(**named, from_config=frozenset(named))


def read_judge_section(judge: Any, where: str) -> Tuple[Any, List[NamedJudge]]:
    """(the single judge's settings, the panel's named settings): one of them is empty."""
    if judge is None or isinstance(judge, Mapping):
        if isinstance(judge, Mapping) and "name" in judge:
            raise ConfigError(f"{where}: 'name' names a judge of a panel; make 'judge:' a list of judges")
        return _settings(judge or {}, where), []
    if not isinstance(judge, list) or not all(isinstance(j, Mapping) for j in judge):
        raise ConfigError(f"{where}: 'judge' must be a mapping (model, base_url, api_key_env, ...) or, for a judge "
                          "panel, a list of such mappings")
    if len(judge) == 1:
        return _settings({k: v for k, v in judge[0].items() if k != "name"}, f"{where}[0]"), []
    panel: List[NamedJudge] = []
    for i, j in enumerate(judge):
        name = str(j.get("name") or j.get("model") or j.get("azure_deployment") or f"judge{i + 1}")
        if name in (n for n, _ in panel):
            raise ConfigError(f"{where}: two judges of the panel are named {name!r}; give each its own 'name'")
        panel.append((name, _settings(j, f"{where}[{i}]")))
    return JudgeSettings(), panel


def read_judge_config_file(path: Path) -> Tuple[Any, List[NamedJudge]]:
    """``--judge-config FILE``: a judge section (a mapping or a list) in a YAML or JSON file of its own,
    or the ``judge:`` section of a run config."""
    import yaml

    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"--judge-config {path}: cannot read it ({exc.strerror or exc})") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"--judge-config {path}: not YAML or JSON ({exc})") from None
    if isinstance(raw, Mapping) and "judge" in raw:  # a run config: its judge section
        raw = raw["judge"]
    return read_judge_section(raw, f"--judge-config {path}")


def panel_model_config(panel: List[NamedJudge], flags: Any) -> List[Dict[str, Any]]:
    """Each judge's ``model_config`` (with its ``name``), the judge flags in ``flags`` applied to every one."""
    given = {f.name: getattr(flags, f.name) for f in fields(flags) if f.name != "from_config"}
    if not given.get("is_reasoning_model"):
        given.pop("is_reasoning_model", None)  # False is the default, not a choice that overrides a judge's
    out: List[Dict[str, Any]] = []
    for name, settings in panel:
        if settings.is_reasoning_model:
            raise ConfigError(f"judge panel: judge {name!r}: is_reasoning_model applies to the whole panel; pass "
                              "--judge-reasoning (reasoning models are recognised by name without it)")
        cfg = judge_model_config(settings.merged(**given))
        if cfg is None:
            raise ConfigError(f"judge panel: judge {name!r} has no endpoint; give it base_url, azure_endpoint or "
                              "api_key_env (an empty environment is not a judge of a panel)")
        out.append({"name": name, **cfg})
    return out


def describe_judges(model_config: Any) -> Optional[str]:
    """``judge: M at URL`` or ``judge panel: a (M at URL), b (...)`` for the run's first lines."""
    from ..judge.endpoint import public_url

    def one(cfg: Mapping[str, Any]) -> str:
        where = cfg.get("base_url") or cfg.get("azure_endpoint") or "https://api.openai.com/v1"
        return f"{cfg.get('model') or cfg.get('azure_deployment')} at {public_url(where)}"

    if isinstance(model_config, list):
        return "judge panel: " + ", ".join(f"{c.get('name')} ({one(c)})" for c in model_config)
    if isinstance(model_config, Mapping):
        return "judge: " + one(model_config)
    return None
