"""A test that needs an optional extra says so through one helper, ``tests/conftest.py::optional_import``.

Outside CI a missing extra skips the test with the extra's name and install command; in CI
(``CI=true``, where every extra is installed) it is a failure. Checked here: the helper's two
behaviours, that it knows every extra of ``pyproject.toml``, and, on the test sources, that no test
imports a module of an extra before ``optional_import`` has asked for that extra (in the module, or
earlier in the same test or fixture) and that nothing uses ``pytest.importorskip``, which would
skip in CI too and name no extra.
"""

import ast
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

import pytest

from tests.conftest import EXTRAS, REPO_ROOT, extra_of, needs, optional_import


def pyproject_extras() -> Set[str]:
    if sys.version_info >= (3, 11):
        import tomllib

        return set(tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    from importlib.metadata import metadata  # Python 3.10: no tomllib; the installed package's metadata

    return set(metadata("agent-evaluators").get_all("Provides-Extra") or [])


def test_the_helper_knows_every_extra_of_pyproject():
    assert set(EXTRAS.values()) == pyproject_extras() - {"dev"}
    assert extra_of("google.adk.runners") == "adk" and extra_of("opentelemetry.sdk") == "otel"
    assert extra_of("azure.ai.evaluation._exceptions") == "azure" and extra_of("azure") is None
    assert extra_of("nltk") is None  # a dependency of the package, no extra


def test_a_missing_extra_skips_naming_it_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        optional_import("google.adk.no_such_module_here")
    assert str(skipped.value.msg).startswith("needs the [adk] extra: pip install -e '.[adk]' (No module named")
    assert needs("otel") == "needs the [otel] extra: pip install -e '.[otel]'"
    with pytest.raises(pytest.skip.Exception) as skipped:
        optional_import("no_such_dependency_here")
    assert "a dependency of agent-evaluators: pip install -e ." in str(skipped.value.msg)


def test_a_missing_extra_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(RuntimeError, match=r"CI must install the \[mlflow\] extra \(mlflow\.no_such_module_here\)"):
        optional_import("mlflow.no_such_module_here")
    assert optional_import("json") is sys.modules["json"]  # an installed module is returned


def _test_sources() -> Iterator[Path]:
    for path in sorted((REPO_ROOT / "tests").rglob("*.py")):
        if path.name.startswith("test_") or path.name == "conftest.py":
            yield path


def _asked(node: ast.AST) -> Optional[str]:
    """The extra an ``optional_import("module")`` call asks for."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "optional_import"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return extra_of(node.args[0].value)
    return None


def _imported(node: ast.AST) -> List[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _functions(tree: ast.Module) -> Iterator[ast.AST]:
    for statement in tree.body:
        if isinstance(statement, FUNCTIONS):
            yield statement
        elif isinstance(statement, ast.ClassDef):
            yield from (s for s in statement.body if isinstance(s, FUNCTIONS))


def fixture_extras(source: str) -> Dict[str, Set[str]]:
    """fixture name -> the extras its body asks for (a test taking the fixture is guarded by it)."""
    out: Dict[str, Set[str]] = {}
    for function in _functions(ast.parse(source)):
        assert isinstance(function, FUNCTIONS)
        if any("fixture" in ast.unparse(d) for d in function.decorator_list):
            asked = {e for n in ast.walk(function) for e in [_asked(n)] if e}
            if asked:
                out[function.name] = asked
    return out


def unguarded_imports(source: str, fixtures: Optional[Dict[str, Set[str]]] = None) -> List[Tuple[int, str]]:
    """(line, module) of each import of an extra's module not preceded by ``optional_import`` of that extra:
    in the module's own top-level code, or earlier in the same function, or in a fixture the function takes."""
    tree = ast.parse(source)
    fixtures = {**(fixtures or {}), **fixture_extras(source)}
    module_level: Set[str] = set()  # asked by the module's top-level code, in order
    bad: List[Tuple[int, str]] = []
    top_level = [s for s in tree.body if not isinstance(s, (*FUNCTIONS, ast.ClassDef))]
    for statement in top_level:
        for node in sorted((n for n in ast.walk(statement) if hasattr(n, "lineno")), key=lambda n: (n.lineno, n.col_offset)):
            extra = _asked(node)
            if extra:
                module_level.add(extra)
            bad += [(node.lineno, m) for m in _imported(node) if extra_of(m) and extra_of(m) not in module_level]
    for function in _functions(tree):
        assert isinstance(function, FUNCTIONS)
        asked = set(module_level)  # top-level code runs when the module is imported, before any test
        for arg in function.args.args:
            asked |= fixtures.get(arg.arg, set())
        for node in sorted((n for n in ast.walk(function) if hasattr(n, "lineno")), key=lambda n: (n.lineno, n.col_offset)):
            extra = _asked(node)
            if extra:
                asked.add(extra)
            bad += [(node.lineno, m) for m in _imported(node) if extra_of(m) and extra_of(m) not in asked]
    return bad


def test_the_source_check_finds_an_unguarded_import():
    assert unguarded_imports("import mlflow\n") == [(1, "mlflow")]
    assert unguarded_imports("def test():\n    from google.adk import x\n") == [(2, "google.adk")]
    assert unguarded_imports("optional_import('mlflow')\nimport mlflow\n") == []
    assert unguarded_imports("def test():\n    optional_import('google.adk')\n    import google.adk\n") == []
    assert unguarded_imports("x = optional_import('ray')\ndef test():\n    import ray\n") == []
    assert unguarded_imports("import mlflow\noptional_import('mlflow')\n") == [(1, "mlflow")]  # too late
    assert unguarded_imports("def test():\n    import ray\n    optional_import('ray')\n") == [(2, "ray")]
    with_fixture = "@pytest.fixture\ndef cluster():\n    return optional_import('ray')\ndef test(cluster):\n    import ray\n"
    assert unguarded_imports(with_fixture) == []
    assert unguarded_imports("def test(cluster):\n    import ray\n", fixture_extras(with_fixture)) == []
    assert unguarded_imports("def test(other):\n    import ray\n", fixture_extras(with_fixture)) == [(2, "ray")]


def test_every_test_asks_for_its_extra_through_the_helper():
    bad, skips = [], []
    conftest_fixtures: Dict[str, Set[str]] = {}
    for path in (REPO_ROOT / "tests").rglob("conftest.py"):
        conftest_fixtures.update(fixture_extras(path.read_text(encoding="utf-8")))
    for path in _test_sources():
        source = path.read_text(encoding="utf-8")
        name = path.relative_to(REPO_ROOT)
        bad += [f"{name}:{line}: import {module}" for line, module in unguarded_imports(source, conftest_fixtures)]
        if "importorskip" in source and path.name != "test_optional_extras.py":
            skips.append(str(name))
    assert not bad, "imports of an extra's module with no optional_import before them:\n" + "\n".join(bad)
    assert not skips, f"pytest.importorskip (skips in CI too, names no extra): {skips}"
