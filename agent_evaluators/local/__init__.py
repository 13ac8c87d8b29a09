"""Offline judging on a local GGUF model through llama.cpp's server (the ``local`` extra).

* :func:`start_local_judge` — start the server, get a :class:`LocalJudge` whose
  ``model_config`` every judge-backed evaluator and ``evaluate()`` accept;
* :func:`serve_main` — ``agent-eval judge serve --model FILE.gguf [--port P]``.

Importing this package does not import ``xllamacpp``; starting a server does.
A tiny model gives meaningless scores: measure yours with ``agent-eval calibrate``.
"""

from .cli import serve_main
from .server import LocalJudge, start_local_judge

__all__ = ["LocalJudge", "start_local_judge", "serve_main"]
