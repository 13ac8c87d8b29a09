"""Offline judging on a local GGUF model through llama.cpp's server (the ``local`` extra).

* :func:`start_local_judge` — start the server, get a :class:`LocalJudge` whose
  ``model_config`` every judge-backed evaluator and ``evaluate()`` accept;
* ``agent-eval judge serve --model FILE.gguf [--port P]`` (:mod:`agent_evaluators.cli.judge_serve`)
  keeps one running in the foreground.

Importing this package does not import ``xllamacpp``; starting a server does.
A tiny model gives meaningless scores: measure yours with ``agent-eval calibrate``.
"""

from .._util.lazy import lazy_exports
from .llama_server import LocalJudge, start_local_judge

__all__ = ["LocalJudge", "start_local_judge"]

#: the command's entry, which lives with the command line now: importable here for one more release
__getattr__, __dir__ = lazy_exports(__name__, {}, globals(), moved={"serve_main": "agent_evaluators.cli.judge_serve"})
