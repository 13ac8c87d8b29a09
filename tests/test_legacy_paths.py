"""Every module path the package had before it was laid out as core and wings still imports
(``tests/golden/public_paths.json``, recorded on the last commit before the move), for one more
release: the old path is the same module object as the new one, and importing it through the old
path warns with the new one. A package face (and every module that is public now, see
``tests/test_public_surface.py``) keeps every name it exported then; an internal module keeps its
path, not the names it used to list (before, 232 modules declared ``__all__``, so nothing marked
what was public)."""

import importlib
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from agent_evaluators._util.legacy_paths import MOVED, new_name
from tests.test_public_surface import is_public

OLD = json.loads((Path(__file__).parent / "golden" / "public_paths.json").read_text(encoding="utf-8"))



def _is_public(module) -> bool:
    path = Path(module.__file__)
    return hasattr(module, "__path__") or is_public(path)


@pytest.mark.parametrize("module", sorted(OLD))
def test_an_old_module_path_imports_with_its_public_names(module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module(module)
    if not _is_public(old):
        return
    missing = [name for name in OLD[module] if not hasattr(old, name)]
    assert not missing, f"{module} lost {missing}"
    moved_to = new_name(module)
    if moved_to is not None:
        assert old is importlib.import_module(moved_to), f"{module} is a second copy of {moved_to}"


def test_an_old_path_is_the_same_module_and_warns_once_with_the_new_one():
    code = ("import warnings, importlib; warnings.simplefilter('always');\n"
            "with warnings.catch_warnings(record=True) as seen:\n"
            "    import agent_evaluators.adk_eval.criteria as old\n"
            "import agent_evaluators.adk.evalsets.criteria as new\n"
            "assert old is new, (old, new)\n"
            "print([str(w.message) for w in seen if w.category is DeprecationWarning])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "agent_evaluators.adk_eval moved to agent_evaluators.adk.evalsets" in out, out


def test_no_old_path_names_a_module_that_does_not_exist():
    for old, new in MOVED.items():
        assert importlib.util.find_spec(new) is not None, f"{old} -> {new}, which does not exist"
        assert importlib.util.find_spec(old.rpartition('.')[0]) is not None
