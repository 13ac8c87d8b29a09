"""A metric's labelled calibration set, from its declaration or from the data file its author wrote.

    python -m agent_evaluators.calibration.build     # rewrite the shipped sets of declared metrics

Two sources, no code per metric:

* a ``calibration_cases`` declaration on the class
  (:class:`~agent_evaluators.evaluators.declared.CalibrationCases`): for each shared scenario
  (:mod:`.scenarios`) a good case and a bad case, each input taking the scenario field the
  declaration names;
* a JSONL file of labelled cases (``{"id", "label": "good" | "bad", "why", "inputs"}`` per
  line): ``calibration_file`` on the class (relative to its module), or, for the built-in
  metrics, ``calibration/data/<result key>.jsonl``.

The built-in declared metrics ship their set as a file too (so a wheel needs no scenarios at
run time, and a reviewer sees the cases); a test checks each file equals its declaration.
"""

import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..errors import ConfigError

DATA_DIR = Path(__file__).resolve().parent / "data"

Case = Dict[str, Any]


# ---------------------------------------------------------------------------- scenario fields
def _query_messages(s: Mapping[str, Any]) -> List[Dict[str, Any]]:
    return [{"role": "system", "content": s["system"]}, {"role": "user", "content": s["query"]}]


def _run(s: Mapping[str, Any], answer: str, call: str = "call", result: Any = None) -> List[Dict[str, Any]]:
    """The agent called the tool call ``call`` (default: the right tool with the right arguments),
    got ``result`` (default: the scenario's result for it), then answered ``answer``."""
    made, call_id = s[call], f"call_{s['id']}"
    return [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": made["name"], "arguments": json.dumps(made["arguments"])}}]},
        {"role": "tool", "tool_call_id": call_id, "content": json.dumps(s["result"] if result is None else result)},
        {"role": "assistant", "content": answer},
    ]


def _failed_result(s: Mapping[str, Any]) -> Dict[str, Any]:
    """What a tool that failed technically returns: an error, not data."""
    return {"error": {"code": 503, "message": f"{s['call']['name']} timed out: service unavailable"}}


def _dialogue(s: Mapping[str, Any], run: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """A two-turn conversation: a greeting turn, then the scenario's request and the agent's ``run``
    (for the metrics that judge a whole conversation)."""
    return [*_query_messages(s)[:1], {"role": "user", "content": "Hi, I have a question."},
            {"role": "assistant", "content": "Hello! What can I do for you?"},
            {"role": "user", "content": s["query"]}, *run]


def _repeated_run(s: Mapping[str, Any], answer: str, times: int = 3) -> List[Dict[str, Any]]:
    """The right call made ``times`` times over, each with the same result, then ``answer``."""
    steps = [m for _ in range(times) for m in _run(s, answer)[:2]]
    return [*steps, {"role": "assistant", "content": answer}]


def _tool_calls(call: Mapping[str, Any]) -> List[Dict[str, Any]]:
    return [{"type": "tool_call", "name": call["name"], "arguments": call["arguments"]}]


#: ``"<form>:<key>"`` fields: how a scenario value becomes an input
_FORMS: Dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "run": lambda s, key: _run(s, s[key]),
    "wrong_args_run": lambda s, key: _run(s, s[key], "wrong_args_call", s["wrong_args_result"]),
    "failed_run": lambda s, key: _run(s, s[key], result=_failed_result(s)),
    "tool_calls": lambda s, key: _tool_calls(s[key]),
    "dialogue": lambda s, key: _dialogue(s, _run(s, s[key])),
    "dialogue_wrong_args": lambda s, key: _dialogue(s, _run(s, s[key], "wrong_args_call", s["wrong_args_result"])),
    "dialogue_repeated": lambda s, key: _dialogue(s, _repeated_run(s, s[key])),
}


def _field(s: Mapping[str, Any], spec: str, owner: str) -> Any:
    if spec == "query+system":
        return _query_messages(s)
    form, sep, key = spec.partition(":")
    if sep and form in _FORMS and key in s:
        return _FORMS[form](s, key)
    if not sep and spec in s:
        return s[spec]
    raise ConfigError(
        f"{owner}.calibration_cases: unknown scenario field {spec!r}; use a scenario key "
        f"({', '.join(sorted(s))}), 'query+system', 'run:<key>', 'wrong_args_run:<key>', 'failed_run:<key>', "
        f"'tool_calls:<key>', or 'dialogue:<key>', 'dialogue_wrong_args:<key>', 'dialogue_repeated:<key>' (two turns)")


def declared_cases(cls: type) -> List[Case]:
    """The labelled cases a class's ``calibration_cases`` declaration makes: a good and a bad one per scenario."""
    from .scenarios import SCENARIOS

    decl = getattr(cls, "calibration_cases", None)
    if decl is None:
        raise ConfigError(missing_set_message(cls))
    owner = cls.__name__
    cases: List[Case] = []
    for s in SCENARIOS:
        for label, fields, why in (("good", decl.good, decl.why_good), ("bad", decl.bad, decl.why_bad)):
            cases.append({"id": f"{s['id']}/{label}", "label": label, "why": why,
                          "inputs": {name: _field(s, spec, owner) for name, spec in fields.items()}})
    return cases


def missing_set_message(cls: type) -> str:
    """What to add when a judge metric has no calibration set (the error names both ways)."""
    key = getattr(cls, "result_key", "") or cls.__name__
    return (
        f"{cls.__name__} has no calibration set: declare one on the class, "
        f"calibration_cases = CalibrationCases(good={{INPUT: SCENARIO_FIELD, ...}}, bad={{...}}, why_bad='...') "
        f"(from agent_evaluators.evaluators.declared), or write 10-20 good and 10-20 bad labelled cases as JSONL "
        f"({{\"id\", \"label\": \"good\"|\"bad\", \"why\", \"inputs\"}} per line) and set "
        f"calibration_file = '{key}.jsonl' (beside the class's module); see CONTRIBUTING.md, 'Adding an evaluator'"
    )


def file_for(cls: Optional[type], name: str) -> Optional[Path]:
    """The data file of a metric's set, if it has one: its ``calibration_file``, else the shipped one."""
    own = getattr(cls, "calibration_file", None) if cls is not None else None
    if own:
        module = sys.modules.get(cls.__module__)  # type: ignore[union-attr]
        base = Path(getattr(module, "__file__", "") or ".").resolve().parent
        return base / own
    shipped = DATA_DIR / f"{name}.jsonl"
    return shipped if shipped.is_file() else None


def render(cases: List[Case]) -> str:
    """A set as JSONL, one case a line, keys sorted (the shipped files' form)."""
    return "".join(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n" for c in cases)


def build_all() -> Dict[str, List[Case]]:
    """Every calibrated metric's set, by result key: built from its declaration where it has one,
    else read from its data file (the file is then the source)."""
    out: Dict[str, List[Case]] = {}
    for name, cls in _calibrated():
        if getattr(cls, "calibration_cases", None) is not None:
            out[name] = declared_cases(cls)
            continue
        path = file_for(cls, name)
        if path is None:
            raise ConfigError(missing_set_message(cls))
        out[name] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def _calibrated(builtin_only: bool = False) -> List[Tuple[str, type]]:
    """(set name, class) of every evaluator the registry gives a calibration set."""
    from .. import registry

    chosen = registry.ENTRIES if builtin_only else registry.calibrated_entries()
    return [(e.calibration.stem, e.load()) for e in chosen if e.calibration is not None]


def azure_sets() -> Dict[str, List[Case]]:
    """The sets of the ``azure_compat`` meanings that declare their own (1.18's TaskAdherence and
    ToolCallAccuracy ask other questions than ours), by set name."""
    from .. import registry

    own = {e.calibration.stem: e.load() for e in registry.compat_entries()
           if e.calibration is not None and e.calibration.stem != registry.get(e.name).calibration.stem}  # type: ignore[union-attr]
    return {name: declared_cases(cls) for name, cls in own.items()}


def main() -> None:
    """Rewrite the shipped set of every built-in metric that declares its cases."""
    for name, cases in azure_sets().items():
        (DATA_DIR / f"{name}.jsonl").write_text(render(cases), encoding="utf-8")
        print(f"{name}: {len(cases)} cases")
    for name, cls in _calibrated(builtin_only=True):
        if getattr(cls, "calibration_cases", None) is not None:
            cases = declared_cases(cls)
            (DATA_DIR / f"{name}.jsonl").write_text(render(cases), encoding="utf-8")
            print(f"{name}: {len(cases)} cases")


if __name__ == "__main__":  # pragma: no cover
    main()
