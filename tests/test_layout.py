"""The package's standing layout rules, checked on the source itself.

* No import cycle inside ``agent_evaluators/``. Every ``import`` statement counts, also
  those inside functions and under ``TYPE_CHECKING``; ``from pkg import x`` depends on
  ``pkg/__init__.py`` (and on ``pkg.x`` when ``x`` is a submodule). Lazy re-exports that
  name their module in a string (``importlib.import_module``) are not import statements.
* No module over 600 lines.
* No function over 80 lines in the run engine (``agent_evaluators/runner/``).
* The run engine imports nothing of the interfaces layer (CLI, report, result sinks, pytest
  plugin): dependencies point down (DESIGN.md §2).
"""

import ast
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).resolve().parents[1] / "agent_evaluators"
MAX_MODULE_LINES = 600
MAX_ENGINE_FUNCTION_LINES = 80


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> Dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(module: str, is_package: bool, level: int, name: str) -> str:
    if level == 0:
        return name
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def import_graph() -> Dict[str, Set[str]]:
    modules = _modules()
    graph: Dict[str, Set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: List[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, is_package, node.level, node.module or "")
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                if target in modules and target != module:
                    graph[module].add(target)
    return graph


def find_cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """One import cycle as a path ``[a, b, ..., a]``, or ``[]``."""
    state: Dict[str, int] = {}
    stack: List[str] = []

    def visit(node: str) -> List[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_checker_finds_a_cycle_through_a_package_init():
    graph = {"p": {"p.a"}, "p.a": {"p.b"}, "p.b": {"p"}}
    assert find_cycle(graph) == ["p", "p.a", "p.b", "p"]
    assert find_cycle({"p": {"p.a"}, "p.a": set()}) == []


def test_function_level_and_type_checking_imports_count(tmp_path):
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\ndef f():\n    from .c import x\n"
    tree = ast.parse(source)
    found = {_resolve("p.a", False, n.level, n.module or "") for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert {"p", "p.c"} <= found


def test_no_import_cycle_inside_the_package():
    cycle = find_cycle(import_graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_no_module_over_600_lines():
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"split these by job: {long}"


def test_no_long_function_in_the_run_engine():
    long = []
    for path in (PACKAGE / "runner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_ENGINE_FUNCTION_LINES:
                    long.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({length} lines)")
    assert not long, "split these: " + "; ".join(long)


INTERFACES = ("agent_evaluators.cli", "agent_evaluators.report", "agent_evaluators.export", "agent_evaluators.pytest_plugin")


def test_the_run_engine_imports_no_interface():
    upward = sorted(f"{module} -> {target}" for module, targets in import_graph().items()
                    if module.startswith("agent_evaluators.runner") for target in targets
                    if target.startswith(INTERFACES))
    assert not upward, "the run engine reaches up into the interfaces layer: " + "; ".join(upward)
