"""``package.module:name`` -> the object: how a run config or a flag names Python code (an evaluator class, a target)."""

import importlib
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from ..errors import ConfigError


def import_object(target: str, search: Sequence[Path] = (), *, what: str = "evaluator type",
                  shape: str = "a class as 'package.module:ClassName'", kind: str = "a class or function",
                  accept: Callable[[Any], bool] = callable) -> Any:
    """Import ``module:attr``; the current folder and ``search`` folders are tried too, as ``python -m`` would.

    ``what`` names the setting in messages (``evaluator type``, ``target``); ``shape`` says how to
    write it; ``accept`` says what may be named (default: anything callable; else the error says it is
    not ``kind``). The folders are added to ``sys.path`` for this import only."""
    module_name, _, attr = target.partition(":")
    if not module_name or not attr.replace(".", "").isidentifier():
        raise ConfigError(f"{what} {target!r}: write {shape}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name.split(".")[0]:
            raise ConfigError(f"{what} {target!r}: importing {module_name} failed: {exc}") from exc
        extra = [str(p) for p in (Path.cwd(), *search) if str(p) not in sys.path]
        sys.path[:0] = extra
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            raise ConfigError(
                f"{what} {target!r}: no module named {module_name!r} (searched the Python path, the current "
                "folder and the config file's folder); install the package or run from the folder that holds it"
            ) from None
        finally:  # the folders were for this import only: the rest of the process keeps its own sys.path
            for folder in extra:
                if folder in sys.path:
                    sys.path.remove(folder)
    obj: Any = module
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise ConfigError(f"{what} {target!r}: {module_name} has no {attr!r}")
    if not accept(obj):
        raise ConfigError(f"{what} {target!r} is not {kind}")
    return obj
