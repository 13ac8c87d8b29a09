"""What is public says so: a module that declares ``__all__`` is a public face, and every other module
is internal (README, "How the code is laid out"). The public faces are the package's top-level
modules, every package's ``__init__`` (but the private ``_util``), the statistics, and the four
modules a metric author writes against; each name they list resolves. Every exception a user can
catch is importable from ``agent_evaluators``, under ``AgentEvalError`` (Ctrl-C's
``RunInterrupted`` beside it, a ``KeyboardInterrupt`` on purpose)."""

import ast
import importlib
import pkgutil
from pathlib import Path

import agent_evaluators
from agent_evaluators import AgentEvalError

PACKAGE = Path(agent_evaluators.__file__).parent
AUTHOR_MODULES = {"agent_evaluators.evaluators.base", "agent_evaluators.evaluators.judge_base",
                  "agent_evaluators.evaluators.declared", "agent_evaluators.evaluators.inputs",
                  "agent_evaluators.judge.token_count", "agent_evaluators.azure.meaning"}


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_public(path: Path) -> bool:
    name = _name(path)
    if name.startswith("agent_evaluators._util"):
        return False
    return (path.name == "__init__.py" or path.parent == PACKAGE or name in AUTHOR_MODULES
            or name.startswith("agent_evaluators.stats."))


def declares_all(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
               and any(isinstance(t, ast.Name) and t.id == "__all__"
                       for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
               for n in tree.body)


def test_only_public_faces_declare_all():
    internal = sorted(_name(p) for p in PACKAGE.rglob("*.py") if declares_all(p) and not is_public(p))
    assert not internal, f"internal modules that declare __all__ (a public face's mark): {internal}"


def test_every_name_a_public_face_lists_resolves():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__main__.py" or not is_public(path) or not declares_all(path):
            continue
        module = importlib.import_module(_name(path))
        missing = [n for n in module.__all__ if not hasattr(module, n)]
        assert not missing, f"{module.__name__}.__all__ lists names it does not have: {missing}"


def test_every_exception_a_user_can_catch_is_importable_from_the_top():
    for info in pkgutil.walk_packages(agent_evaluators.__path__, "agent_evaluators."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    seen, stack = [], [AgentEvalError]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("agent_evaluators") and not cls.__name__.startswith("_"):
            seen.append(cls)
    assert len(seen) >= 6  # the root, ConfigError, InputError, JudgeError, BudgetExhausted, EvaluatorErrors
    for cls in seen + [agent_evaluators.RunInterrupted]:
        assert getattr(agent_evaluators, cls.__name__) is cls, cls
        assert cls.__name__ in agent_evaluators.__all__, cls
    assert issubclass(agent_evaluators.RunInterrupted, KeyboardInterrupt)
    assert not issubclass(agent_evaluators.RunInterrupted, Exception)
