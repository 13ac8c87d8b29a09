"""Run llama.cpp's own OpenAI-compatible HTTP server on a local GGUF model, for offline judging.

Why ``xllamacpp``: it ships llama.cpp's C++ server as a prebuilt wheel (no compiler,
~34 MB), loads a GGUF in seconds, and its server supports ``response_format``
``json_schema`` and ``json_object`` (grammar-constrained decoding), which is what
makes a small local model produce parseable verdicts. ``llama-cpp-python`` needs a
long source build here and its server rejects ``json_schema``.

::

    from agent_evaluators.local_judge import start_local_judge

    with start_local_judge("qwen2.5-7b-instruct-q4_k_m.gguf") as judge:
        ev = IntentResolutionEvaluator(model_config=judge.model_config)
        ev(query="...", response="...")

The quality of the scores is the model's: a 7B-class instruct model is a
reasonable offline judge; tiny models (e.g. SmolLM2-135M) follow the JSON format
but their scores are meaningless. Check a model with ``agent-eval calibrate``.
"""

import gc
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional, Union

from .._util.install_hint import install_hint
from ..errors import ConfigError

log = logging.getLogger(__name__)

#: Requests the server decodes at once (continuous batching); also the slot count.
DEFAULT_PARALLEL = 2
#: Context tokens per slot: judge prompts with a long conversation reach 3–5k tokens.
DEFAULT_CTX_PER_SLOT = 8192
#: Server-side default of llama.cpp's DRY sampler (its documented setting is 0.8), used
#: unless a request sets its own. Judge templates decode greedily (temperature 0), which
#: sends small models into verbatim loops inside a JSON string until ``max_tokens``
#: (a truncated, unusable verdict); DRY penalises repeating a sequence already written.
DEFAULT_DRY_MULTIPLIER = 0.8
LOCAL_API_KEY = "not-needed"
#: Seconds a judge request may take: a CPU-bound model writes 10–50 tokens/s, and a
#: verdict can be 1–2k tokens; the cloud default (60 s) would time out and retry a
#: request the server is still working on.
DEFAULT_REQUEST_TIMEOUT_S = 600.0
#: Attempts per judge request: a timed-out local generation is not worth repeating.
DEFAULT_MAX_ATTEMPTS = 2
#: Bounds llama.cpp enforces on json_schema verdicts (characters per free-text string,
#: items per list): greedy decoding makes small models fill a ``reason`` or a list until
#: ``max_tokens`` runs out, which ends in a truncated, unusable verdict. Generous enough
#: for a capable model's "two to four sentences" and for long tool-call lists.
DEFAULT_MAX_TEXT_LENGTH = 1000
DEFAULT_MAX_LIST_ITEMS = 64
INSTALL_HINT = "install the local provider with: " + install_hint("local")


def _import_xllamacpp() -> Any:
    try:
        import xllamacpp
    except ImportError as exc:
        raise ConfigError(f"the local judge needs the 'xllamacpp' package ({exc}); {INSTALL_HINT}") from exc
    return xllamacpp


def _check_model_file(model_path: Union[str, "os.PathLike[str]"]) -> Path:
    path = Path(os.fspath(model_path)).expanduser()
    if not path.is_file():
        raise ConfigError(f"local judge model file not found: {str(path)!r}; pass the path of a .gguf file")
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic != b"GGUF":
        raise ConfigError(
            f"{str(path)!r} is not a GGUF model file (it does not start with the GGUF magic bytes); "
            "llama.cpp loads only .gguf files")
    return path


class LocalJudge:
    """A running llama.cpp server on ``127.0.0.1`` (or another host) and a judge config for it.

    ``url``: the server root (``http://127.0.0.1:PORT``); ``base_url``: its OpenAI
    API root (``url + "/v1"``); ``model_config``: the dict to pass to any evaluator
    (``{"model", "base_url", "api_key", "timeout", "max_attempts", "max_text_length",
    "max_list_items"}``); ``model``: the model name the server reports. Use as a context manager, or call :meth:`stop`.
    """

    def __init__(self, server: Any, url: str, model: str, model_path: Path, n_parallel: int, *,
                 request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
                 max_attempts: int = DEFAULT_MAX_ATTEMPTS,
                 max_text_length: Optional[int] = DEFAULT_MAX_TEXT_LENGTH,
                 max_list_items: Optional[int] = DEFAULT_MAX_LIST_ITEMS) -> None:
        self._server = server
        self.url = url.rstrip("/")
        self.model = model
        self.model_path = model_path
        self.n_parallel = n_parallel
        self.request_timeout_s = float(request_timeout_s)
        self.max_attempts = int(max_attempts)
        self.max_text_length = max_text_length
        self.max_list_items = max_list_items
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return self.url + "/v1"

    @property
    def model_config(self) -> Dict[str, Any]:
        """An ``OpenAIModelConfiguration``-shaped dict pointing at this server (no secret involved),
        with a per-request timeout sized for local generation speed and the verdict bounds."""
        cfg: Dict[str, Any] = {"model": self.model, "base_url": self.base_url, "api_key": LOCAL_API_KEY,
                               "timeout": self.request_timeout_s, "max_attempts": self.max_attempts}
        if self.max_text_length:
            cfg["max_text_length"] = self.max_text_length
        if self.max_list_items:
            cfg["max_list_items"] = self.max_list_items
        return cfg

    @property
    def running(self) -> bool:
        return self._server is not None

    def stop(self) -> None:
        """Stop the server and free the model's memory (llama.cpp stops when its server object is released)."""
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            del server
            gc.collect()
            log.info("local judge server %s stopped", self.url)

    def __enter__(self) -> "LocalJudge":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"LocalJudge(model={self.model!r}, url={self.url!r}, {state})"


def _wait_healthy(url: str, timeout_s: float) -> None:
    """llama.cpp answers ``/health`` with 503 while the model is still loading."""
    deadline = time.monotonic() + timeout_s
    last = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/health", timeout=5) as resp:
                if resp.status == 200:
                    return
                last = f"HTTP {resp.status}"
        except urllib.error.HTTPError as e:
            last = f"HTTP {e.code}"
        except OSError as e:
            last = str(e)
        time.sleep(0.1)
    raise ConfigError(f"the local judge server at {url} did not become healthy within {timeout_s:g} s (last: {last})")


def start_local_judge(
    model_path: Union[str, "os.PathLike[str]"],
    port: int = 0,
    *,
    host: str = "127.0.0.1",
    model_name: Optional[str] = None,
    n_parallel: int = DEFAULT_PARALLEL,
    n_ctx: Optional[int] = None,
    n_threads: Optional[int] = None,
    n_gpu_layers: Optional[int] = None,
    dry_multiplier: float = DEFAULT_DRY_MULTIPLIER,
    verbose: bool = False,
    startup_timeout_s: float = 120.0,
    request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
    max_text_length: Optional[int] = DEFAULT_MAX_TEXT_LENGTH,
    max_list_items: Optional[int] = DEFAULT_MAX_LIST_ITEMS,
) -> LocalJudge:
    """Start llama.cpp's HTTP server on ``model_path`` (a GGUF file) and return a :class:`LocalJudge`.

    Args:
        model_path: the ``.gguf`` model file.
        port: TCP port; ``0`` picks a free one (read it from ``.url``).
        host: address to listen on; keep ``127.0.0.1`` unless other machines must reach it
            (the server has no authentication).
        model_name: the name the server reports (default: the file name without ``.gguf``).
        n_parallel: requests decoded at once; match it to the ``max_concurrency`` you run with.
        n_ctx: total context tokens, shared by the slots (default ``n_parallel × 8192``).
        n_threads: CPU threads (default: llama.cpp's choice, the physical cores).
        n_gpu_layers: layers to offload to a GPU build of xllamacpp (default: llama.cpp's choice).
        dry_multiplier: strength of llama.cpp's anti-repetition (DRY) sampler; ``0`` turns it off.
        verbose: let llama.cpp log to stderr (off: it logs every request).
        startup_timeout_s: how long to wait for the model to load.
        request_timeout_s: the judge timeout put into ``model_config`` (seconds per request).
        max_text_length: the bound on verdict strings that the server enforces while decoding
            (``None`` for none); put into ``model_config``.
        max_list_items: the same bound on verdict lists.

    Raises ``ConfigError`` when xllamacpp is missing, the file is not a GGUF model, or
    the server does not start.
    """
    path = _check_model_file(model_path)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"port must be an integer 0-65535 (0 picks a free port), got {port!r}")
    if isinstance(n_parallel, bool) or not isinstance(n_parallel, int) or n_parallel < 1:
        raise ConfigError(f"n_parallel must be an integer >= 1, got {n_parallel!r}")
    xlc = _import_xllamacpp()
    name = model_name or (path.name[:-5] if path.name.lower().endswith(".gguf") else path.name)

    params = xlc.CommonParams()
    params.model.path = str(path)
    params.hostnames = [host]
    params.port = port
    params.n_parallel = n_parallel
    params.n_ctx = n_ctx if n_ctx is not None else n_parallel * DEFAULT_CTX_PER_SLOT
    params.model_alias = {name}
    params.verbosity = 3 if verbose else 0
    params.sampling.dry_multiplier = float(dry_multiplier)
    if n_threads is not None:
        params.cpuparams.n_threads = n_threads
        params.cpuparams_batch.n_threads = n_threads
    if n_gpu_layers is not None:
        params.n_gpu_layers = n_gpu_layers

    started = time.perf_counter()
    try:
        server = xlc.Server(params)
    except Exception as exc:  # noqa: BLE001 - llama.cpp reports load failures as RuntimeError and friends
        raise ConfigError(f"llama.cpp could not start a server on {str(path)!r}: {type(exc).__name__}: {exc}") from exc
    url = str(server.listening_address)
    try:
        _wait_healthy(url, startup_timeout_s)
    except ConfigError:
        del server
        gc.collect()
        raise
    log.info("local judge %r serving at %s (loaded in %.2f s)", name, url, time.perf_counter() - started)
    return LocalJudge(server, url, name, path, n_parallel, request_timeout_s=request_timeout_s,
                      max_text_length=max_text_length, max_list_items=max_list_items)
