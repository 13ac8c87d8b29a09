"""Where the judge is: the ``judge:`` settings of a run config and the flags, and the ``model_config`` built from them.

Precedence: command-line flags, then the config file, then the environment. Split out of
:mod:`agent_evaluators.config.run_config` (which re-exports these names) so that the judge-panel
reader (:mod:`agent_evaluators.config.judge_panels`) can use them without an import cycle.
"""

import logging
import os
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Mapping, Optional

from ..errors import ConfigError
from ..wording import Text

logger = logging.getLogger(__name__)


JUDGE_HOWTO = (
    "set OPENAI_API_KEY (and --judge-model, default from the config), or --judge-base-url URL for a local "
    "OpenAI-compatible server, or AZURE_OPENAI_ENDPOINT + AZURE_OPENAI_API_KEY + AZURE_OPENAI_DEPLOYMENT"
)

_JUDGE_KEYS = ("model", "base_url", "api_key_env", "azure_endpoint", "azure_deployment", "api_version",
               "is_reasoning_model", "timeout", "max_attempts", "max_text_length", "max_list_items", "max_input_chars",
               "max_reply_bytes")
#: the judge settings that travel in the model_config dict (the judge client and JudgeEvaluator read them)
_CLIENT_LIMITS = ("timeout", "max_attempts", "max_text_length", "max_list_items", "max_input_chars",
                  "max_reply_bytes")


@dataclass
class JudgeSettings:
    """Where the judge is. Precedence: command-line flags, then the config file, then the environment."""

    model: Optional[str] = None
    base_url: Optional[str] = None
    api_key_env: Optional[str] = None
    azure_endpoint: Optional[str] = None
    azure_deployment: Optional[str] = None
    api_version: Optional[str] = None
    is_reasoning_model: bool = False
    timeout: Optional[float] = None
    max_attempts: Optional[int] = None
    max_text_length: Optional[int] = None
    max_list_items: Optional[int] = None
    max_input_chars: Optional[int] = None
    max_reply_bytes: Optional[int] = None
    #: the settings whose value only a run config gave (not a flag, not Python): a key taken from the
    #: environment is not sent to a host named only there (see :func:`judge_model_config`)
    from_config: FrozenSet[str] = frozenset()

    def merged(self, **overrides: Any) -> "JudgeSettings":
        values = {k: getattr(self, k) for k in _JUDGE_KEYS}
        given = {k: v for k, v in overrides.items() if v is not None}
        values.update(given)
        return JudgeSettings(**values, from_config=self.from_config - set(given))


def judge_model_config(settings: JudgeSettings, env: Optional[Mapping[str, str]] = None) -> Optional[Dict[str, Any]]:
    """The judge ``model_config`` dict, or ``None`` when no judge is available.

    "Available" means there is somewhere to send requests: an API key (named by
    ``api_key_env``, else ``OPENAI_API_KEY`` / ``AZURE_OPENAI_API_KEY``), a
    ``base_url`` (``OPENAI_BASE_URL``; local servers need no key) or an Azure endpoint.
    A model name alone is a preference, not a judge. A judge that is named but
    incomplete (a key without a model, an ``api_key_env`` that is not set) is a
    :class:`ConfigError`.

    A key taken implicitly from ``OPENAI_API_KEY`` / ``AZURE_OPENAI_API_KEY`` is not sent
    to a host that only a run config names (:mod:`.judge.implicit_key`):
    an OpenAI-compatible judge there gets no key (a warning says how to allow it), an
    Azure one is a :class:`ConfigError`. ``api_key_env`` is an explicit choice and is honoured.
    """
    from ..judge.endpoint import resolve_config
    from ..judge.implicit_key import KeyWithheld, WithheldKey, takes_implicit_key

    env = os.environ if env is None else env
    model = settings.model or env.get("AGENT_EVAL_JUDGE_MODEL") or env.get("OPENAI_MODEL")

    def key(default_var: str, field: str, url: Optional[str]) -> Optional[str]:
        var = settings.api_key_env or default_var
        value = env.get(var)
        if settings.api_key_env and not value:
            raise ConfigError(f"judge API key variable {var} is not set (named by --judge-api-key-env / judge.api_key_env)")
        if value and not settings.api_key_env and field in settings.from_config and not takes_implicit_key(url, env):
            raise KeyWithheld(var, field, url or "")
        return value or None

    azure_endpoint = settings.azure_endpoint or (None if settings.base_url else env.get("AZURE_OPENAI_ENDPOINT"))
    if azure_endpoint:
        try:
            azure_key = key("AZURE_OPENAI_API_KEY", "azure_endpoint", azure_endpoint)
        except KeyWithheld as withheld:
            raise ConfigError(withheld.message() + "; the Azure judge has no other key") from None
        cfg: Dict[str, Any] = {
            "azure_endpoint": azure_endpoint,
            "azure_deployment": settings.azure_deployment or env.get("AZURE_OPENAI_DEPLOYMENT") or model,
            "api_key": azure_key,
            "api_version": settings.api_version or env.get("OPENAI_API_VERSION") or env.get("AZURE_OPENAI_API_VERSION"),
        }
    else:
        base_url = settings.base_url or env.get("OPENAI_BASE_URL")
        try:
            api_key = key("OPENAI_API_KEY", "base_url", base_url)
        except KeyWithheld as withheld:
            logger.warning("%s; sending no key (enough for a local server)", withheld.message())
            api_key = WithheldKey(withheld)  # no key (not None: the endpoint resolver would take OPENAI_API_KEY itself)
        if not base_url and not api_key:
            return None
        if not model:
            raise ConfigError(Text(
                "a judge endpoint is configured but no judge model is named; {how}",
                how=Text.keyed("name-judge-model",  # agent-eval adk has no config file: it leaves that part out
                               "pass --judge-model, set judge.model in the config file, or set AGENT_EVAL_JUDGE_MODEL")),
                key="model")
        cfg = {"model": model, "base_url": base_url, "api_key": api_key}
    cfg.update({k: getattr(settings, k) for k in _CLIENT_LIMITS})
    cfg = {k: v for k, v in cfg.items() if v is not None}
    resolve_config(cfg)  # raises ConfigError naming what is missing
    return cfg


#: the endpoint of a dry run's judge when none is configured: never contacted (a dry run sends nothing)
DRY_RUN_BASE_URL = "http://dry-run.invalid/v1"


def dry_run_model_config(settings: JudgeSettings, env: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
    """A judge for ``--dry-run`` without a configured one: the named model (for its tokenizer and
    price) at an endpoint that is never contacted, so an estimate needs no key."""
    env = os.environ if env is None else env
    model = settings.model or env.get("AGENT_EVAL_JUDGE_MODEL") or env.get("OPENAI_MODEL") or "unnamed-judge"
    return {"model": model, "base_url": DRY_RUN_BASE_URL, "api_key": "dry-run"}
