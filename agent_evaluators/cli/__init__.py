"""``agent-eval``, the command line (entry point ``agent_evaluators.cli:main``).

One module per job: :mod:`.main` (parser and dispatch), :mod:`.run` (``agent-eval run``),
:mod:`.outcome` (exit codes and checks), :mod:`.output` (terminal tables),
:mod:`.listing` (``agent-eval list``), :mod:`.report` (``agent-eval report``),
:mod:`.messages` (library messages in flag words), :mod:`.table` (tables that fit the terminal),
:mod:`.judge_flags` (the judge flags of every subcommand).
"""

from .main import main
from .run_outcome import RunOutcome, exit_code

__all__ = ["main", "RunOutcome", "exit_code"]
