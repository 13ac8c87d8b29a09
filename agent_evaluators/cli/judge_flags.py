"""The judge flags, defined once for every subcommand that asks a judge.

One spelling per setting (``--judge-model``, ``--judge-base-url``, ``--judge-api-key-env``,
``--judge-timeout``, ``--judge-max-attempts``, ``--judge-max-text-length``,
``--judge-max-list-items``, ``--judge-max-input-chars``, ``--judge-max-reply-bytes``, ``--judge-reasoning``,
``--max-concurrency``); older spellings stay accepted but hidden, so scripts keep
working while ``--help`` shows one name. The values map one to one onto the YAML
``judge:`` section (:class:`~agent_evaluators.config.run_config.JudgeSettings`), so a flag
and a config key can never mean different things.

Use from any subcommand::

    add_judge_arguments(parser)
    ...
    settings = judge_settings_from_args(args, config_settings)   # flags win over the file
    model_config = judge_model_config(settings)                   # None: no judge configured
"""

import argparse
from typing import Any, Optional

from ..config.run_config import JudgeSettings

#: (flag, JudgeSettings field, type, metavar, help)
_FLAGS = (
    ("--judge-model", "model", str, "M", "judge model (or Azure deployment) name"),
    ("--judge-base-url", "base_url", str, "URL",
     "OpenAI-compatible judge endpoint, e.g. http://127.0.0.1:11434/v1"),
    ("--judge-api-key-env", "api_key_env", str, "VAR",
     "environment variable that holds the judge API key (keys never go on the command line)"),
    ("--judge-azure-endpoint", "azure_endpoint", str, "URL", "Azure OpenAI endpoint"),
    ("--judge-azure-deployment", "azure_deployment", str, "NAME", "Azure OpenAI deployment"),
    ("--judge-api-version", "api_version", str, "V", "Azure OpenAI API version"),
    ("--judge-timeout", "timeout", float, "SECONDS", "seconds per judge HTTP attempt (default 60)"),
    ("--judge-max-attempts", "max_attempts", int, "N", "judge HTTP attempts per request, retries included (default 5)"),
    ("--judge-max-text-length", "max_text_length", int, "N",
     "maxLength put into json_schema requests (local servers that enforce schemas)"),
    ("--judge-max-list-items", "max_list_items", int, "N", "maxItems put into json_schema requests"),
    ("--judge-max-input-chars", "max_input_chars", int, "N",
     "largest prompt sent to the judge, in characters; a larger row is an error cell (default 400000)"),
    ("--judge-max-reply-bytes", "max_reply_bytes", int, "N",
     "largest judge reply body read, compressed and inflated; a larger one is an error (default 4194304: 4 MiB)"),
)

#: the JudgeSettings fields the flags set
JUDGE_FLAG_KEYS = tuple(f[1] for f in _FLAGS) + ("is_reasoning_model",)


def flag_for(key: str) -> Optional[str]:
    """The flag that sets model-config / ``judge:`` key ``key`` (``max_attempts`` -> ``--judge-max-attempts``),
    or ``None``: how a library message naming the key is shown to a command-line user."""
    if key == "api_key":
        return "--judge-api-key-env"
    return next((flag for flag, field, *_ in _FLAGS if field == key), None)


def metavar_for(key: str) -> Optional[str]:
    """The value a judge flag takes, as its help shows it (``model`` -> ``M``), or ``None``."""
    if key == "api_key":
        key = "api_key_env"
    return next((metavar for _, field, _, metavar, _ in _FLAGS if field == key), None)


def add_judge_arguments(parser: argparse.ArgumentParser, *, concurrency_default: Optional[int] = None) -> None:
    """Add the judge flags (a group) and ``--max-concurrency`` to ``parser``.

    Destinations are ``judge_<field>`` (``args.judge_model`` ...) and ``max_concurrency``;
    every default is ``None`` so that a config file's value is kept unless a flag is given.
    """
    group = parser.add_argument_group("judge (default: the config file's judge:, then the environment)")
    for flag, key, typ, metavar, text in _FLAGS:
        group.add_argument(flag, dest=f"judge_{key}", type=typ, metavar=metavar, default=None, help=text)
    group.add_argument("--judge-config", dest="judge_config", metavar="FILE", default=None,
                       help="the judge from a YAML/JSON file: one judge (a mapping) or a judge panel (a list, each "
                            "with a name), or a run config's judge:; replaces the config's judge: (run, calibrate)")
    group.add_argument("--judge-reasoning", dest="judge_is_reasoning_model", action="store_true", default=None,
                       help="the judge is a reasoning model (o-series, gpt-5 under another name)")
    from .run_flags import add_run_option_flag

    add_run_option_flag(group, "judge_mode")  # --judge-mode / --batch: every command that asks a judge
    group.add_argument("--max-concurrency", dest="max_concurrency", type=int, metavar="N", default=concurrency_default,
                       help=f"judge requests in flight, shared by every evaluator (default {concurrency_default or 10})")
    # old spellings: accepted, not shown
    for alias in ("--concurrency", "--max_concurrency"):
        group.add_argument(alias, dest="max_concurrency", type=int, help=argparse.SUPPRESS)
    for alias in ("--judge_model", "--judge"):
        group.add_argument(alias, dest="judge_model", help=argparse.SUPPRESS)
    group.add_argument("--judge_base_url", dest="judge_base_url", help=argparse.SUPPRESS)
    group.add_argument("--judge-api-key", dest="judge_api_key", help=argparse.SUPPRESS)


def judge_settings_from_args(args: argparse.Namespace, base: Optional[JudgeSettings] = None) -> JudgeSettings:
    """``base`` (the config file's ``judge:``) with every judge flag given on the command line applied."""
    from ..errors import ConfigError

    if getattr(args, "judge_api_key", None):
        raise ConfigError("--judge-api-key: do not put API keys on the command line (shell history, CI logs); "
                          "put the key in a variable and pass --judge-api-key-env VAR")
    overrides: Any = {key: getattr(args, f"judge_{key}", None) for key in JUDGE_FLAG_KEYS}
    return (base or JudgeSettings()).merged(**overrides)


def model_config_from_args(args: argparse.Namespace, base: Optional[JudgeSettings] = None) -> Optional[dict]:
    """The judge ``model_config`` from flags, ``base`` (or ``--judge-config``) and the environment; ``None`` when
    no judge is configured. One judge only: a judge panel in ``--judge-config`` is a ``ConfigError`` here."""
    from ..config.run_config import judge_model_config
    from ..errors import ConfigError

    if getattr(args, "judge_config", None):
        from pathlib import Path

        from ..config.judge_panels import read_judge_config_file

        base, panel = read_judge_config_file(Path(args.judge_config))
        if panel:
            raise ConfigError(f"--judge-config {args.judge_config} holds a judge panel; this command takes one judge "
                              "(panels: agent-eval run and calibrate)")
    return judge_model_config(judge_settings_from_args(args, base))
