"""Messages for command-line users: the runner speaks Python (``force=True``), the CLI speaks flags.

The runner's messages are written for ``evaluate()`` callers and stay that way; the
CLI passes every message it prints through :func:`for_cli`, which rewrites the known
Python phrases into the flag that does the same thing.
"""

import re
from pathlib import Path
from typing import Any, List, Optional, Tuple

__all__ = ["for_cli", "evalset_hint", "is_eval_set"]

_REWRITES: List[Tuple["re.Pattern[str]", str]] = [
    (re.compile(r"e\.g\. evaluator_config=\{'<alias>': \{'column_mapping': \{'<input>': '\$\{data\.<column>\}'\}\}\} "
                r"\('default' applies to every evaluator without its own\)"),
     "e.g. --map <alias>.<input>=<column> (--map default.<input>=<column> applies to every evaluator "
     "without its own)"),
    (re.compile(r"evaluator_config=\{'([^']+)': \{'column_mapping': \{'([^']+)': '\$\{data\.<column>\}'\}\}\}"),
     r"--map \1.\2=<column>"),
    (re.compile(r"raise evaluate\(timeout=\.\.\.\)"), "raise --timeout SECONDS"),
    (re.compile(r"or resume=False to start over"), "or run without --resume to start over"),
    (re.compile(r"or rerun_failed=False to start over"), "or run without --rerun-failed to start over"),
    (re.compile(r"^resume refused\b"), "--resume refused"),
    (re.compile(r"^rerun_failed refused\b"), "--rerun-failed refused"),
    (re.compile(r"\(force=True\)"), "(--force)"),
    (re.compile(r"\bpass force=True\b"), "pass --force"),
    (re.compile(r"\bforce=True\b"), "--force"),
    (re.compile(r"resume=True / rerun_failed=True need output_path"), "--resume / --rerun-failed need --output"),
    (re.compile(r"\bmax_concurrency\b"), "--max-concurrency"),
]


def for_cli(text: Any) -> str:
    """``text`` with Python keyword phrases replaced by the matching ``agent-eval run`` flag."""
    out = str(text)
    for pattern, repl in _REWRITES:
        out = pattern.sub(repl, out)
    return out


def is_eval_set(data: Optional[Path]) -> bool:
    return data is not None and data.name.lower().endswith((".evalset.json", ".test.json"))


def evalset_hint(data: Optional[Path], messages: List[str]) -> Optional[str]:
    """Why every cell of an ADK eval set misses ``response``: an eval set holds no agent output."""
    if not is_eval_set(data) or not any("'response'" in m or "'actual" in m for m in messages):
        return None
    return (
        f"{data} is an ADK eval set: it holds the conversation the agent should have, not what your agent "
        "answered, so there is no 'response' to evaluate. Use `agent-eval adk EVALSET --actual RUNS.jsonl` "
        "(recorded agent runs), or call evaluate(target=your_agent) from Python to produce the responses."
    )
