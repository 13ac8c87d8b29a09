"""``python -m agent_evaluators.cli``."""

from .main import main

raise SystemExit(main())
