"""The package's standing layout rules, checked on the source itself: a core with wings.

The **core** names no wing: errors, the conversation and trace data model, the judge client,
templates, the evaluator bases and generic evaluators, the registries, the run engine,
statistics, the fake judge and the private utilities. A **wing** plugs into the core's
registries (:mod:`agent_evaluators.plugins`, the evaluator registry and its entry points)
and imports only the core: ``adk`` (everything ADK), ``azure`` (1.18's meaning and result
shape), ``ray_engine``, ``export`` (OTel, MLflow), ``local_judge``, ``calibration``. The
**interfaces** (``cli``, ``report``, ``config``, ``pytest_plugin``, and every ``__main__``)
may use any wing's public face.

* No import cycle inside ``agent_evaluators/``. Every ``import`` statement counts, also
  those inside functions and under ``TYPE_CHECKING``; ``from pkg import x`` depends on
  ``pkg/__init__.py`` (and on ``pkg.x`` when ``x`` is a submodule). Lazy re-exports that
  name their module in a string (``importlib.import_module``) are not import statements.
* Dependencies point down: the core imports no wing and no interface; a wing imports no
  interface (one named exception, :data:`UPWARD`) and no other wing; an interface reaches a
  wing only through its public modules (no ``_private`` module of it).
* At most eight modules at the top of the package (old module paths are answered by one
  finder, :mod:`agent_evaluators._util.legacy_paths`, not by files).
* No ADK-named module outside the ADK wing.
* Inside the run engine: no azure-named module, no import of the azure wing, and no azure
  identifier but the public ``azure_compat`` / ``azure_ai_project`` options.
* No module over 600 lines; no function over 80 lines in the run engine (``agent_evaluators/runner/``).
"""

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

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


WINGS = ("adk", "azure", "ray_engine", "export", "local_judge", "calibration")
INTERFACES = ("cli", "report", "config", "pytest_plugin")
MAX_TOP_LEVEL_MODULES = 8
#: the one import that runs up: the MLflow sink logs the run's HTML report, which the report interface renders
UPWARD = {("agent_evaluators.export.mlflow_run", "agent_evaluators.report")}


def part_of(module: str) -> Tuple[str, str]:
    """(``"core"`` | ``"wing"`` | ``"interface"``, the top-level package or module it is in)."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    if parts[-1] == "__main__":
        return "interface", top
    if top in WINGS:
        return "wing", top
    if top in INTERFACES:
        return "interface", top
    return "core", top


_RANK = {"core": 0, "wing": 1, "interface": 2}


def _edges() -> List[Tuple[str, str]]:
    return [(a, b) for a, targets in import_graph().items() for b in sorted(targets)]


def upward_imports() -> List[Tuple[str, str]]:
    """Imports from a lower part of the house to a higher one (core < wing < interface)."""
    return [(a, b) for a, b in _edges() if _RANK[part_of(b)[0]] > _RANK[part_of(a)[0]]]


def test_the_core_imports_no_wing_and_no_interface():
    up = [f"{a} -> {b}" for a, b in upward_imports() if part_of(a)[0] == "core"]
    assert not up, "the core reaches into a wing or an interface (plug in through agent_evaluators.plugins): " + \
        "; ".join(up)


def test_at_most_one_upward_import_and_only_the_named_one():
    up = set(upward_imports())
    assert up <= UPWARD, f"an import runs up the house: {sorted(up - UPWARD)}"
    assert len(up) <= 1


def test_a_wing_imports_no_other_wing():
    across = [f"{a} -> {b}" for a, b in _edges()
              if part_of(a)[0] == part_of(b)[0] == "wing" and part_of(a)[1] != part_of(b)[1]]
    assert not across, "a wing imports another wing (go through a core registry): " + "; ".join(across)


def test_an_interface_uses_only_a_wings_public_modules():
    private = [f"{a} -> {b}" for a, b in _edges() if part_of(a)[0] == "interface" and part_of(b)[0] == "wing"
               and part_of(a)[1] != part_of(b)[1] and any(p.startswith("_") for p in b.split(".")[2:])]
    assert not private, "an interface reaches into a wing's private module: " + "; ".join(private)


def test_at_most_eight_modules_at_the_top_of_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, f"{len(top)} modules at the top of the package: {top}"


def test_no_adk_named_module_outside_the_adk_wing():
    named = sorted(m for m in _modules() if "adk" in m.split(".")[-1].lower() and part_of(m)[1] != "adk"
                   and m.split(".")[-1] != "__main__")
    assert not named, f"ADK-named modules outside agent_evaluators/adk/: {named}"


def test_the_run_engine_names_no_azure_module_import_or_identifier():
    engine = {m: p for m, p in _modules().items() if part_of(m)[1] == "runner"}
    assert not [m for m in engine if "azure" in m.lower()], "an azure-named module in the run engine"
    imports = [f"{a} -> {b}" for a, b in _edges() if a in engine and part_of(b)[1] == "azure"]
    assert not imports, "the run engine imports the azure wing: " + "; ".join(imports)
    allowed = {"azure_compat", "azure_ai_project"}
    named = sorted({f"{m}: {n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else n.arg}"
                    for m, path in engine.items() for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                    if (isinstance(n, ast.Name) and "azure" in n.id.lower() and n.id not in allowed)
                    or (isinstance(n, ast.Attribute) and "azure" in n.attr.lower() and n.attr not in allowed)
                    or (isinstance(n, ast.arg) and "azure" in n.arg.lower() and n.arg not in allowed)
                    or (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                        and "azure" in n.name.lower())})
    assert not named, f"azure identifiers in the run engine: {named}"
