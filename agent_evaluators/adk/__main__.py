"""``python -m agent_evaluators.adk EVALSET... [--config F] [--actual F] [--output DIR]`` (same as ``agent-eval adk``).

The command lives in :mod:`agent_evaluators.cli.eval_sets`; it is imported by name here so the
data-model package never imports the runner.
"""

import sys
from importlib import import_module

if __name__ == "__main__":
    sys.exit(import_module("agent_evaluators.cli.eval_sets").main())
