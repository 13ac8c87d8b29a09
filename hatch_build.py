"""Build hook: compile the optional C speed-up of the NLP metrics, ``agent_evaluators/evaluators/nlp/_overlap.c``.

The extension counts the n-grams that token F1 and ROUGE-N share (``grams.py`` beside it holds
the pure-Python reference and picks whichever imports). Where no C compiler is present, or the
compiler fails, the build warns and goes on: the package is complete without it, only slower.

A wheel gets the compiled file added (and a platform tag); an editable install (``pip install -e``)
gets it built in place next to its source, where the editable install's path finds it (the file is
listed in ``.gitignore``). ``AGENT_EVAL_PURE_PYTHON=1`` skips the extension.
"""

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "agent_evaluators.evaluators.nlp._overlap"
SOURCE = Path("agent_evaluators/evaluators/nlp/_overlap.c")


class OverlapExtensionHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: Dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("AGENT_EVAL_PURE_PYTHON") == "1":
            return
        self._scratch = tempfile.mkdtemp(prefix="agent-eval-ext-")
        try:
            built = _compile(Path(self.root), Path(self._scratch))
        except Exception as exc:  # any compiler or toolchain failure: build without the extension
            self.app.display_warning(
                f"agent-evaluators: the C speed-up of F1 and ROUGE-N was not built ({type(exc).__name__}: {exc}); "
                "the pure-Python version will be used (same numbers, slower)")
            return
        relative = SOURCE.parent / built.name
        if version == "editable":
            shutil.copy2(built, Path(self.root) / relative)
        else:
            build_data["force_include"][str(built)] = relative.as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: Dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def _compile(root: Path, scratch: Path) -> Path:
    """Compile the extension with setuptools' ``build_ext`` into ``scratch``; the built file's path."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    extension = Extension(MODULE, [str(root / SOURCE)])
    command = build_ext(Distribution({"name": "agent-evaluators-overlap", "ext_modules": [extension]}))
    command.build_lib = str(scratch / "lib")
    command.build_temp = str(scratch / "temp")
    command.ensure_finalized()
    command.run()
    built = Path(command.get_ext_fullpath(MODULE))
    if not built.is_file():
        raise FileNotFoundError(f"the compiler wrote no {built.name}")
    return built
