"""Turn whatever a user passes as ``model_config`` into one normalized endpoint config.

Accepted: azure-ai-evaluation-shaped dicts (``AzureOpenAIModelConfiguration`` /
``OpenAIModelConfiguration``; ``type`` optional, unlike azure-ai-evaluation's buggy
check), Prompt flow model-config dataclasses, ``{"client": <openai client>, "model": ...}``,
a ready ``openai`` client (async used as is; a sync one is re-created as async from
its settings), or ``None`` for the environment. Nothing here imports ``openai`` at
module import time.
"""

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple
from urllib.parse import parse_qsl, urlsplit

from ..errors import ConfigError
from ..wording import JudgeKey, Text

DEFAULT_AZURE_API_VERSION = "2024-10-21"
AZURE_SCOPE = "https://cognitiveservices.azure.com/.default"
LOCAL_PLACEHOLDER_KEY = "not-needed"

NO_JUDGE_MESSAGE = (
    "No judge model configured: pass model_config={'model': 'gpt-4o-mini', 'api_key': ...} "
    "(or an Azure config with azure_endpoint/azure_deployment/api_key), or set OPENAI_API_KEY and "
    "AGENT_EVAL_JUDGE_MODEL (or AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_DEPLOYMENT and AZURE_OPENAI_API_KEY)."
)

#: extra headers whose values are not secret; every other header value is treated as one
PUBLIC_HEADERS = frozenset({
    "user-agent", "accept", "accept-encoding", "accept-language", "content-type", "openai-organization",
    "openai-project", "openai-beta", "x-request-id", "x-client-request-id", "x-ms-client-request-id",
    "x-ms-useragent", "azureml-model-deployment", "x-title", "http-referer",
})
MASK = "***"

#: how to give an OpenAI-compatible judge a key (the command line names the variable instead: ``--judge-api-key-env``)
_GIVE_OPENAI_KEY = Text.keyed("give-openai-key", "give api_key, set OPENAI_API_KEY")


def _from(source: str) -> Text:
    """`` (where the config came from)`` for a message; a ``model_config`` dict is the judge flags' config on
    the command line, which says nothing of it."""
    if source == "model_config dict":
        return Text.keyed("model-config-dict", " (model_config dict)")
    return Text.of(f" ({source})")


def public_url(url: Optional[str]) -> str:
    """``url`` safe to show or store: credentials dropped, every query value masked
    (``https://h/v1?key=***``). A judge URL may carry a key in its query string."""
    if not url:
        return ""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    out = f"{parts.scheme}://{host}{(':' + str(port)) if port else ''}{parts.path}" if parts.scheme else parts.path
    if parts.query:
        out += "?" + "&".join(f"{k}={MASK}" for k, _ in parse_qsl(parts.query, keep_blank_values=True))
    return out


def public_headers(headers: Any) -> Dict[str, str]:
    """``headers`` (a mapping or pairs) with every value masked unless its name is in :data:`PUBLIC_HEADERS`."""
    items = headers.items() if isinstance(headers, Mapping) else headers or ()
    return {str(k): (str(v) if str(k).lower() in PUBLIC_HEADERS else MASK) for k, v in items}


def _no_userinfo(url: Optional[str], key: str, source: str) -> Optional[str]:
    if url and "@" in (urlsplit(url).netloc or ""):
        raise ConfigError(Text(
            "{key} carries credentials in the URL (user:password@host: {url}){source}; {remove}", key=JudgeKey(key),
            url=public_url(url), source=_from(source),
            remove=Text.keyed("put-key-elsewhere", "remove them and pass the key as 'api_key' or as a header in "
                                                   "'extra_headers'")))
    return url


_AZURE_KEYS = ("azure_endpoint", "azure_deployment", "api_key", "api_version", "credential", "type", "model",
               "extra_headers")
_OPENAI_KEYS = ("model", "api_key", "base_url", "organization", "extra_headers", "type")


@dataclass(frozen=True)
class EndpointConfig:
    """A normalized judge endpoint. Secrets are excluded from ``repr``.

    ``client`` is set when the user handed us a ready async client (used as is, on
    whichever loop they use it). Equal configs share one pooled client per event loop.
    """

    kind: str  # "openai" | "azure" | "client"
    model: str
    base_url: Optional[str] = None
    azure_endpoint: Optional[str] = None
    api_version: Optional[str] = None
    organization: Optional[str] = None
    extra_headers: Tuple[Tuple[str, str], ...] = field(default=(), repr=False)  # may hold keys
    api_key: Optional[str] = field(default=None, repr=False)
    credential: Any = field(default=None, repr=False, compare=False, hash=False)
    credential_id: int = 0  # identity of ``credential`` (credentials are compared by identity)
    client: Any = field(default=None, repr=False, compare=False, hash=False)
    client_id: int = 0

    @property
    def endpoint_key(self) -> str:
        """Which server this is (for remembering what response formats it supports); no secrets."""
        where = self.azure_endpoint or self.base_url or "https://api.openai.com/v1"
        return f"{self.kind}|{where}|{self.model}"

    @property
    def safe_location(self) -> str:
        """Where requests go, for error messages (query values masked, no credentials)."""
        return public_url(self.azure_endpoint or self.base_url or "https://api.openai.com/v1")

    def secrets(self) -> List[str]:
        """Every secret this config holds, for scrubbing texts we keep: the API key, values of
        non-public extra headers (and their last word: ``Bearer <t>`` → ``<t>``), URL query values."""
        found: List[str] = []
        if self.api_key and self.api_key != LOCAL_PLACEHOLDER_KEY:
            found.append(self.api_key)
        for name, value in self.extra_headers:
            if name.lower() not in PUBLIC_HEADERS:
                words = value.split()
                found.extend({value, words[-1]} if words else {value})
        for url in (self.base_url, self.azure_endpoint):
            if url and "?" in url:
                found.extend(v for _, v in parse_qsl(urlsplit(url).query))
        return sorted({s for s in found if len(s) >= 4}, key=len, reverse=True)

    def __repr__(self) -> str:
        return (f"EndpointConfig(kind={self.kind!r}, model={self.model!r}, location={self.safe_location!r}, "
                f"api_version={self.api_version!r}, headers={public_headers(self.extra_headers)!r})")


def _str(value: Any, key: str, source: str) -> Optional[str]:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ConfigError(Text("{key} must be a string, got {kind}{source}", key=JudgeKey(key),
                               kind=type(value).__name__, source=_from(source)))
    return value


def _headers(value: Any) -> Tuple[Tuple[str, str], ...]:
    if not value:
        return ()
    if not isinstance(value, Mapping):
        raise ConfigError(Text("{key} must be a dict of header name to value", key=JudgeKey("extra_headers")))
    return tuple(sorted((str(k), str(v)) for k, v in value.items()))


def _env(*names: str) -> Optional[str]:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def _azure(cfg: Mapping[str, Any], source: str) -> EndpointConfig:
    endpoint = _no_userinfo(_str(cfg.get("azure_endpoint"), "azure_endpoint", source), "azure_endpoint", source)
    deployment = _str(cfg.get("azure_deployment"), "azure_deployment", source) or _str(
        cfg.get("model"), "model", source)
    if endpoint is None:
        raise ConfigError(Text(
            "{missing}{source}; give the resource URL, e.g. 'https://<resource>.openai.azure.com', or set "
            "AZURE_OPENAI_ENDPOINT", missing=JudgeKey("azure_endpoint", missing=True), source=_from(source)))
    if deployment is None:
        raise ConfigError(Text(
            "{missing}{source}; give the deployment name of the judge model, or set AZURE_OPENAI_DEPLOYMENT",
            missing=JudgeKey("azure_deployment", missing=True), source=_from(source)))
    api_key = _str(cfg.get("api_key"), "api_key", source)
    credential = cfg.get("credential")
    if credential is not None and not callable(getattr(credential, "get_token", None)):
        raise ConfigError(Text("{key} must be an object with get_token() (e.g. azure.identity.DefaultAzureCredential())",
                               key=JudgeKey("credential")))
    if api_key is None and credential is None:
        api_key = _env("AZURE_OPENAI_API_KEY")
    if api_key is None and credential is None:
        raise ConfigError(Text.keyed(
            "azure-no-key", "model_config has neither 'api_key' nor 'credential' for Azure endpoint {endpoint}{source}; "
            "give api_key, set AZURE_OPENAI_API_KEY, or pass credential=azure.identity.DefaultAzureCredential()",
            endpoint=public_url(endpoint), source=_from(source)), key="api_key")
    return EndpointConfig(
        kind="azure", model=deployment, azure_endpoint=endpoint.rstrip("/"),
        api_version=_str(cfg.get("api_version"), "api_version", source) or DEFAULT_AZURE_API_VERSION,
        extra_headers=_headers(cfg.get("extra_headers")), api_key=api_key,
        credential=credential, credential_id=id(credential) if credential is not None else 0)


def _openai(cfg: Mapping[str, Any], source: str) -> EndpointConfig:
    model = _str(cfg.get("model"), "model", source)
    if model is None:
        raise ConfigError(Text(
            "{missing}{source}; name the judge model, e.g. {example}, or set AGENT_EVAL_JUDGE_MODEL",
            missing=JudgeKey("model", missing=True), source=_from(source),
            example=Text.keyed("judge-model-example", "{python}", python="{'model': 'gpt-4o-mini', 'api_key': ...}")))
    base_url = _no_userinfo(_str(cfg.get("base_url"), "base_url", source), "base_url", source)
    api_key = _str(cfg.get("api_key"), "api_key", source) or _env("OPENAI_API_KEY")
    if api_key is None:
        if base_url is None:
            raise ConfigError(Text(
                "{missing}{source}; {give}, or point {base_url} at an OpenAI-compatible server that needs no key",
                missing=JudgeKey("api_key", missing=True), source=_from(source), give=_GIVE_OPENAI_KEY,
                base_url=Text.keyed("base-url-word", "'base_url'", key=JudgeKey("base_url"))))
        api_key = LOCAL_PLACEHOLDER_KEY  # local servers (Ollama, llama.cpp, vLLM) ignore it
    return EndpointConfig(
        kind="openai", model=model, base_url=base_url.rstrip("/") if base_url else None,
        organization=_str(cfg.get("organization"), "organization", source),
        extra_headers=_headers(cfg.get("extra_headers")), api_key=api_key)


#: keys a model-config dict may hold besides the endpoint's own: read by the judge client
#: (``get_judge_client``) and by judge evaluators (``max_input_chars``)
CLIENT_KEYS = ("timeout", "max_attempts", "max_text_length", "max_list_items", "max_input_chars", "max_reply_bytes",
               "price")
_KNOWN_KEYS = frozenset(_AZURE_KEYS + _OPENAI_KEYS + CLIENT_KEYS + ("client",))


def _check_keys(cfg: Mapping[str, Any], source: str) -> None:
    """A misspelt key (``temprature``, ``modl``) is an error naming it and the closest valid key,
    not a setting silently ignored."""
    import difflib

    for key in cfg:
        if key not in _KNOWN_KEYS:
            close = difflib.get_close_matches(str(key), sorted(_KNOWN_KEYS), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            sampling = (" Sampling settings such as temperature belong to the evaluator or its template, not "
                        "to the model config." if str(key).lower().startswith(("temp", "top_p", "max_tok")) else "")
            raise ConfigError(
                f"model_config has an unknown key {key!r} ({source}){hint} Valid keys: "
                f"{', '.join(sorted(_KNOWN_KEYS))}.{sampling}"
            )


def _from_mapping(cfg: Mapping[str, Any], source: str) -> EndpointConfig:
    _check_keys(cfg, source)
    if cfg.get("client") is not None:
        return _from_client(cfg["client"], model=_str(cfg.get("model"), "model", source))
    kind = cfg.get("type")
    if kind not in (None, "", "azure_openai", "openai"):
        raise ConfigError(f"model_config type {kind!r} is not supported; use 'azure_openai' or 'openai' "
                          "(or leave 'type' out)")
    if kind == "azure_openai" or cfg.get("azure_endpoint") or cfg.get("azure_deployment"):
        return _azure(cfg, source)
    return _openai(cfg, source)


def _deployment_from_url(url: str) -> Optional[str]:
    parts = [p for p in urlsplit(url).path.split("/") if p]
    if "deployments" in parts:
        i = parts.index("deployments")
        if i + 1 < len(parts):
            return parts[i + 1]
    return None


def _from_client(client: Any, model: Optional[str] = None) -> EndpointConfig:
    import openai

    base_url = str(getattr(client, "base_url", "") or "")
    model = model or _env("AGENT_EVAL_JUDGE_MODEL", "OPENAI_MODEL") or _deployment_from_url(base_url)
    if model is None:
        raise ConfigError(
            "an openai client carries no model name; pass model_config={'client': client, 'model': 'gpt-4o-mini'} "
            "or set AGENT_EVAL_JUDGE_MODEL")
    if isinstance(client, openai.AsyncOpenAI):
        return EndpointConfig(kind="client", model=model, base_url=base_url, client=client, client_id=id(client))
    if isinstance(client, openai.AzureOpenAI):
        provider = getattr(client, "_azure_ad_token_provider", None)
        cfg = EndpointConfig(
            kind="azure", model=model, base_url=base_url.rstrip("/"),
            api_version=getattr(client, "_api_version", None) or DEFAULT_AZURE_API_VERSION,
            api_key=client.api_key or None, credential=provider,
            credential_id=id(provider) if provider is not None else 0)
        return cfg
    if isinstance(client, openai.OpenAI):
        return EndpointConfig(kind="openai", model=model, base_url=base_url.rstrip("/"),
                              organization=client.organization, api_key=client.api_key or LOCAL_PLACEHOLDER_KEY)
    raise ConfigError(f"unsupported judge client {type(client).__name__}; pass an openai.AsyncOpenAI / "
                      "AsyncAzureOpenAI / OpenAI / AzureOpenAI client or a model_config dict")


def _from_environment() -> EndpointConfig:
    model = _env("AGENT_EVAL_JUDGE_MODEL", "OPENAI_MODEL")
    if _env("AZURE_OPENAI_ENDPOINT"):
        cfg: Dict[str, Any] = {
            "azure_endpoint": _env("AZURE_OPENAI_ENDPOINT"),
            "azure_deployment": _env("AZURE_OPENAI_DEPLOYMENT") or model,
            "api_key": _env("AZURE_OPENAI_API_KEY"),
            "api_version": _env("OPENAI_API_VERSION", "AZURE_OPENAI_API_VERSION"),
        }
        return _azure(cfg, "from environment")
    if _env("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        cfg = {"model": model, "base_url": _env("OPENAI_BASE_URL"), "api_key": _env("OPENAI_API_KEY")}
        if model is None:
            raise ConfigError(Text(
                "OPENAI_API_KEY/OPENAI_BASE_URL are set but no judge model is named; set AGENT_EVAL_JUDGE_MODEL "
                "(or OPENAI_MODEL), or {pass_model}",
                pass_model=Text.keyed("pass-judge-model", "{python}", python="pass model_config={'model': ...}")), key="model")
        return _openai(cfg, "from environment")
    raise ConfigError(Text.keyed("no-judge", "{python}", python=NO_JUDGE_MESSAGE), key="model")


def _looks_like_openai_client(obj: Any) -> bool:
    mod = type(obj).__module__ or ""
    return mod.startswith("openai") and hasattr(obj, "chat")


def resolve_config(model_config: Any) -> EndpointConfig:
    """Normalize ``model_config`` (see module docstring); raises ``ConfigError`` saying what to fix."""
    if model_config is None:
        return _from_environment()
    if isinstance(model_config, EndpointConfig):
        return model_config
    if isinstance(model_config, Mapping):
        return _from_mapping(model_config, "model_config dict")
    if _looks_like_openai_client(model_config):
        return _from_client(model_config)
    # Prompt flow's AzureOpenAIModelConfiguration / OpenAIModelConfiguration and similar objects
    attrs = {k: getattr(model_config, k, None) for k in set(_AZURE_KEYS + _OPENAI_KEYS)}
    if any(attrs.get(k) for k in ("azure_endpoint", "azure_deployment", "model")):
        return _from_mapping({k: v for k, v in attrs.items() if v is not None},
                             f"{type(model_config).__name__} object")
    raise ConfigError(
        f"model_config of type {type(model_config).__name__} is not understood; pass a dict like "
        "{'model': 'gpt-4o-mini', 'api_key': ...} or {'azure_endpoint': ..., 'azure_deployment': ..., 'api_key': ...}")
