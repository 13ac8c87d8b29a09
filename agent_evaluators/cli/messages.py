"""Messages for command-line users: the runner speaks Python (``force=True``), the CLI speaks flags.

The runner's messages are written for ``evaluate()`` callers and stay that way; the
CLI passes every message it prints through :func:`for_cli`, which rewrites the known
Python phrases into the flag that does the same thing.
"""

import logging
import re
from pathlib import Path
from typing import Any, List, Optional, TextIO, Tuple

from .._util.safe_text import terminal_message
from ..runner.option_table import RUN_OPTIONS

__all__ = ["for_cli", "cell_reason", "print_error", "FlagWords", "evalset_hint", "is_eval_set"]

def _judge_flag(match: "re.Match[str]") -> str:
    """``model_config 'base_url'`` -> ``--judge-base-url`` (the flag of that key), else unchanged."""
    from .judge_flags import flag_for

    return flag_for(match.group("key")) or match.group(0)


def _judge_howto() -> str:
    from ..config.run_config import JUDGE_HOWTO

    return JUDGE_HOWTO


def _option_rewrites() -> List[Tuple["re.Pattern[str]", Any]]:
    """The run option table's keywords in flag words: ``force=True`` -> ``--force``, ``or resume=False``
    -> ``or run without --resume``, ``engine='ray'`` -> ``--engine ray``, and every keyword with an
    underscore as a word (``num_runs`` -> ``--num-runs``)."""
    out: List[Tuple["re.Pattern[str]", Any]] = []
    for option in RUN_OPTIONS:
        flag = option.flag
        if option.kind == "flag":
            out.append((re.compile(rf"\bor {option.name}=False\b"), f"or run without {flag}"))
            out.append((re.compile(rf"\b{option.name}=True\b"), flag))
        if option.kind == "choice":
            out.append((re.compile(rf"\b{option.name}='(\w+)'"), rf"{flag} \1"))
        if "_" in option.name:  # not quoted (a run config's key 'num_runs'), not a flag
            out.append((re.compile(rf"(?<![-'\w]){option.name}(?!['\w])"), flag))
    return out


# Order matters: the specific phrases first, then the single words they are made of.
_REWRITES: List[Tuple["re.Pattern[str]", Any]] = [
    # --- column mappings (evaluator_config=...) -> --map
    (re.compile(r"e\.g\. evaluator_config=\{'<alias>': \{'column_mapping': \{'<input>': '\$\{data\.<column>\}'\}\}\} "
                r"\('default' applies to every evaluator without its own\)"),
     "e.g. --map <alias>.<input>=<column> (--map default.<input>=<column> applies to every evaluator "
     "without its own)"),
    (re.compile(r"evaluator_config=\{'([^']+)': \{'column_mapping': \{'([^']+)': '\$\{data\.<column>\}'\}\}\}"),
     r"--map \1.\2=<column>"),
    (re.compile(r"evaluator_config\['([^']+)'\]\['column_mapping'\]\['([^']+)'\] = (.+?) is not a column reference; "
                r"use '\$\{data\.<column>\}' \(nested: '\$\{data\.a\.b\}'\) or '\$\{target\.<output>\}'"),
     r"--map \1.\2=\3 is not a column reference; write --map \1.\2=COLUMN (nested: a.b)"),
    (re.compile(r"evaluator_config\['([^']+)'\] maps input '([^']+)', but"), r"--map \1.\2=... maps input '\2', but"),
    # --- run options -> run flags
    (re.compile(r"raise evaluate\(timeout=\.\.\.\)"), "raise --timeout SECONDS"),
    (re.compile(r"\btimeout must be a positive number of seconds \(or None for no limit\)"),
     "--timeout must be a positive number of seconds"),
    (re.compile(r"resume=True / --resume continues it"), "--resume continues it"),
    (re.compile(r"^resume refused\b"), "--resume refused"),
    (re.compile(r"\(evaluate\(output_path=\.\.\.\) or agent-eval run --output\)"), "(agent-eval run --output DIR)"),
    *_option_rewrites(),
    (re.compile(r" \(or pass an iterable of dicts; register more with agent_evaluators\.runner\.register_reader\)"),
     " (convert the file to one of them)"),
    # --- the judge's model_config -> judge flags and variables
    (re.compile(r"^No judge model configured: pass model_config=.*$", re.S),
     lambda m: f"no judge model configured: {_judge_howto()}"),
    (re.compile(r"or pass model_config=\{'model': \.\.\.\}"), "or pass --judge-model M"),
    (re.compile(r" \(model_config dict\)"), ""),
    (re.compile(r"model_config has neither 'api_key' nor 'credential' for"), "no API key for"),
    (re.compile(r"give api_key, set AZURE_OPENAI_API_KEY, or pass credential=\S+"),
     "set AZURE_OPENAI_API_KEY, or name the variable that holds the key with --judge-api-key-env VAR"),
    (re.compile(r"give api_key, set OPENAI_API_KEY,"),
     "set OPENAI_API_KEY (or name the variable that holds the key with --judge-api-key-env VAR),"),
    (re.compile(r"remove them and pass the key as 'api_key' or as a header in 'extra_headers'"),
     "remove them and put the key in a variable named by --judge-api-key-env VAR"),
    (re.compile(r"model_config is missing '(?P<key>\w+)'"), lambda m: f"the judge needs {_judge_flag(m)}"),
    (re.compile(r"model_config '(?P<key>\w+)'"), _judge_flag),
    (re.compile(r"^(?P<head>(?:evaluator '[^']*': )?)(?P<key>timeout|max_attempts) must be"),
     lambda m: f"{m.group('head')}{_judge_flag(m)} must be"),
    (re.compile(r"check the api_key / credential for this endpoint"),
     "check the API key: the variable named by --judge-api-key-env, else OPENAI_API_KEY / AZURE_OPENAI_API_KEY"),
    (re.compile(r"JudgeError\.raw_text"), "the cell's details (raw_text) in rows.jsonl"),
]


def for_cli(text: Any) -> str:
    """``text`` with Python keyword phrases replaced by the matching ``agent-eval`` flag."""
    out = str(text)
    for pattern, repl in _REWRITES:
        out = pattern.sub(repl, out)
    return out


_CELL_WHERE = re.compile(r"^row \d+: evaluator '[^']*' \((?P<cls>[^)]*)\): ")
_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?=\s|$)")  # "api-keys.." (a message ending in "." + ours); not "../x"


def cell_reason(reason: Any) -> str:
    """An error cell's message as the CLI lists it under its row and alias: without the ``row N:
    evaluator 'a' (Class):`` prefix and the class name repeated after the exception type (the line
    above already says both), one full stop where a message ending in one got another, flag words."""
    text = str(reason)
    m = _CELL_WHERE.match(text)
    if m:
        text = text[m.end():]
        text = text.replace(f"{m.group('cls')}: ", "")  # also after "sample 1 of 5 failed, ...: "
    return for_cli(_DOUBLE_STOP.sub(".", text))


class FlagWords(logging.Filter):
    """A logging filter for the CLI's handler: library warnings (``use resume=True ...``) in flag words too."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        rewritten = for_cli(text)
        if rewritten != text:
            record.msg, record.args = rewritten, None
        return True


def print_error(err: TextIO, text: Any, prog: str = "agent-eval") -> int:
    """Print ``prog: error: text`` in flag words, its line breaks kept and data escaped; return exit code 2."""
    print(f"{prog}: error: {terminal_message(for_cli(text))}", file=err)
    return 2


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
