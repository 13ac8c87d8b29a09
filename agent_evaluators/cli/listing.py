"""``agent-eval list``: every registered evaluator with its key, inputs, options and defaults
(``--azure-compat``: the class each name means in an azure_compat run, with 1.18's scale and threshold).

The names and the judge/deterministic kind come from the registry; inputs, options
and defaults are read from each class's signatures, so the listing cannot drift
from the code.
"""

import argparse
import inspect
import json
from typing import Any, Dict, TextIO, Type

from .. import registry

#: constructor arguments every judge evaluator takes: listed once in the help, not per evaluator
_COMMON = ("self", "model_config", "credential", "threshold", "cache")


def describe_class(cls: Type[Any]) -> Dict[str, Any]:
    """What ``agent-eval list`` shows: key, inputs, options with defaults, threshold, summary."""

    def show(p: inspect.Parameter) -> str:
        return p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"

    call_sig = getattr(cls, "_public_signature", None) or inspect.signature(cls.__call__)
    inputs = [show(p) for n, p in call_sig.parameters.items() if n != "self"]
    init = inspect.signature(cls.__init__).parameters
    options = [show(p) for n, p in init.items()
               if n not in _COMMON and p.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)]
    doc = inspect.getdoc(cls) or ""
    return {
        "class": cls.__name__,
        "key": getattr(cls, "result_key", ""),
        "judge": bool(getattr(cls, "uses_judge", False)),
        "threshold": getattr(cls, "default_threshold", None),
        "inputs": inputs,
        "options": options,
        "summary": doc.split("\n\n")[0].replace("\n", " "),
    }


def _azure_fields(cls: Type[Any]) -> Dict[str, Any]:
    """What an ``azure_compat`` run's class reports: its scale, the threshold its rows carry,
    and the score it passes at where that is not the threshold (azure 1.18's behaviour)."""
    scale = getattr(cls, "score_scale", None)  # a property on a class whose scale depends on its options
    reported = getattr(cls, "reported_threshold", None)
    return {
        "module": cls.__module__.split("._")[0],
        "scale": list(scale) if isinstance(scale, (tuple, list)) else None,
        "threshold": reported if reported is not None else getattr(cls, "default_threshold", None),
        "pass_at": getattr(cls, "pass_mark", None),
    }


def list_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    described: Dict[str, Dict[str, Any]] = {}
    azure = bool(getattr(args, "azure_compat", False))
    for entry in registry.entries():
        try:
            if azure:
                entry = registry.compat_entry(entry.name)
            cls = entry.load()
            extra = _azure_fields(cls) if azure else {}
            described[entry.name] = {**describe_class(cls), "adk_metric": entry.adk_metric, **extra}
        except Exception as exc:  # one broken module must not hide the others
            described[entry.name] = {"error": f"{type(exc).__name__}: {exc}"}
    if args.json:
        print(json.dumps(described, indent=2, default=str), file=out)
        return 0
    for name, d in described.items():
        if "error" in d:
            print(f"{name}\n    (cannot be imported: {d['error']})\n", file=out)
            continue
        kind = "judge" if d["judge"] else "deterministic"
        if azure:
            scale = "{:g}-{:g}".format(*d["scale"]) if d["scale"] else "set by its options"
            passes = f" (passes at {d['pass_at']:g})" if d["pass_at"] is not None else ""
            print(f"{name}  [{kind}]  {d['module']}.{d['class']}, key {d['key']}, scale {scale}, "
                  f"threshold {d['threshold']}{passes}", file=out)
        else:
            threshold = "none (informational: a value, never a pass or fail)" if d["threshold"] is None else d["threshold"]
            print(f"{name}  [{kind}]  {d['class']}, key {d['key']}, default threshold {threshold}", file=out)
        print(f"    {d['summary']}", file=out)
        print(f"    inputs:  {', '.join(d['inputs'])}", file=out)
        if d["options"]:
            print(f"    options: {', '.join(d['options'])}", file=out)
        if d["adk_metric"]:
            print(f"    ADK metric: {d['adk_metric']}", file=out)
        print(file=out)
    return 0


def add_list_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    lst = sub.add_parser("list", help="list the evaluators with their inputs and defaults")
    lst.add_argument("--json", action="store_true")
    lst.add_argument("--azure-compat", action="store_true",
                     help="show the class each name means in an `agent-eval run --azure-compat` run "
                          "(azure-ai-evaluation 1.18's scale and threshold)")
    lst.set_defaults(func=list_command)
