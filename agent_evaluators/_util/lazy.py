"""Lazy public names for a package: ``__getattr__`` / ``__dir__`` from a table of module names.

Used by every package ``__init__`` that re-exports names from its modules, so that importing the
package stays cheap and a re-export never creates an import cycle: the modules are named by
string and imported on first access only.

::

    __getattr__, __dir__ = lazy_exports(__name__, {"load_eval_set": "loading", ...}, globals())

A table value is a submodule of the package (``"loading"``, ``"evalsets.criteria"``), or an
absolute ``"agent_evaluators.x.y"``. ``moved`` names what a face used to export and now lives
elsewhere (``{"main": "agent_evaluators.cli.eval_sets"}``): still importable from the old face for one
release, with a :class:`DeprecationWarning` naming the new home.
"""

import warnings
from importlib import import_module
from typing import Any, Callable, Dict, List, Mapping, MutableMapping, Optional, Tuple


def _target(package: str, module: str) -> str:
    if module.startswith("agent_evaluators."):
        return module
    return f"{package}.{module}"


def lazy_exports(package: str, table: Mapping[str, str], namespace: MutableMapping[str, Any],
                 moved: Optional[Mapping[str, str]] = None) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: a name in ``table`` is imported from its module on
    first access and then kept in ``namespace`` (the package's globals), so later lookups are plain."""
    targets: Dict[str, str] = {name: _target(package, module) for name, module in table.items()}
    old_names: Mapping[str, str] = moved or {}

    def __getattr__(name: str) -> Any:
        module = targets.get(name)
        if module is None and name in old_names:
            warnings.warn(f"{package}.{name} moved to {old_names[name]}.{name}; import it from there "
                          "(the old name goes in the next release)", DeprecationWarning, stacklevel=2)
            return getattr(import_module(old_names[name]), name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace.get("__all__", ())) | set(targets))

    return __getattr__, __dir__
