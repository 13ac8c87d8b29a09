"""``python -m agent_evaluators.adk EVALSET... [--config F] [--actual F] [--output DIR]`` (same as ``agent-eval adk``)."""

import sys

from .runner import main

if __name__ == "__main__":
    sys.exit(main())
