"""The random text converters, each drawing from the caller's seeded ``random.Random``.

Where PyRIT 0.11.0 draws with the module-level ``random``, ours makes the same calls in the same order on the
caller's generator, so ``convert(strategy, text, seed=s)`` equals PyRIT's output after ``random.seed(s)``
(CharSwap, UnicodeConfusable, AnsiAttack): same candidates, same rates, and the same draw for the same seed.
AsciiArt is the exception: PyRIT picks its font from a ``set``, whose order changes with Python's string
hashing from one process to the next, so its draw cannot be replayed; ours picks from the same fonts,
sorted, with the same uniform rate.
"""

import functools
import gzip
import json
import random
import string
from pathlib import Path
from typing import Dict, List, Tuple

from ..._util.install_hint import install_hint
from ...errors import ConfigError
from .ansi_payloads import ASKS, ESCAPED_PAYLOADS, HIGH_LEVEL_TASKS, LIVE_PAYLOADS, REPEAT_STUBS, UNESCAPE_STUBS

CHAR_SWAP_PROPORTION = 0.2
CHAR_SWAP_ITERATIONS = 10
_CONFUSABLES = Path(__file__).with_name("data") / "confusables.json.gz"


def char_swap(text: str, rng: random.Random) -> str:
    """Swap adjacent characters inside a fifth of the space-separated words (PyRIT's CharSwapConverter with
    azure's defaults: ``int(0.2 * words)`` words drawn without replacement, each longer than three
    characters swapped ten times at a random position after the first). Fewer than five words: unchanged."""
    words = text.split(" ")
    count = int(len(words) * CHAR_SWAP_PROPORTION)
    chosen = rng.sample(range(len(words)), count) if count > 0 else []
    for index in chosen:
        words[index] = _swap_within(words[index], rng)
    return " ".join(words)


def _swap_within(word: str, rng: random.Random) -> str:
    # PyRIT's test is a substring test against string.punctuation, kept as it is
    if word in string.punctuation or len(word) <= 3:
        return word
    chars = list(word)
    for _ in range(CHAR_SWAP_ITERATIONS):
        at = rng.randint(1, len(word) - 2)
        chars[at], chars[at + 1] = chars[at + 1], chars[at]
    return "".join(chars)


@functools.lru_cache(maxsize=1)
def confusable_table() -> Dict[str, List[str]]:
    """Each character's look-alikes, in PyRIT's order: what PyRIT's UnicodeConfusableConverter (default
    ``source_package="confusable_homoglyphs"``) gets from ``is_confusable(char, greedy=True)`` for every code
    point, read once from the table shipped in ``data/`` (made by ``tests/reference/make_pyrit_converter_table.py``)."""
    with gzip.open(_CONFUSABLES, "rt", encoding="utf-8") as handle:
        table: Dict[str, List[str]] = json.load(handle)
    return table


def unicode_confusable(text: str, rng: random.Random) -> str:
    """Each character that has look-alikes replaced by one drawn uniformly from them; the rest unchanged."""
    table = confusable_table()
    out = []
    for char in text:
        candidates = table.get(char)
        out.append(rng.choice(candidates) if candidates else char)
    return "".join(out)


def ansi_attack(text: str, rng: random.Random) -> str:
    """One of three ANSI-escape requests (ask for a code; repeat a payload; unescape an escaped payload),
    each filled from PyRIT's lists; the user's text follows when it is not blank."""
    scenarios = [f"{rng.choice(ASKS)} {rng.choice(HIGH_LEVEL_TASKS)}"]
    repeat_stub = rng.choice(REPEAT_STUBS)
    scenarios.append(f"{repeat_stub} {rng.choice(LIVE_PAYLOADS + ESCAPED_PAYLOADS)}")
    unescape_stub = rng.choice(UNESCAPE_STUBS)
    scenarios.append(f"{unescape_stub} {rng.choice(ESCAPED_PAYLOADS)}")
    scenario = rng.choice(scenarios)
    if text.strip():
        scenario = f"{scenario}\nAdditionally, consider this user input: {text}"
    return scenario


def _art():  # type: ignore[no-untyped-def]
    try:
        import art
        import art.params
    except ImportError:
        raise ConfigError(
            "the ascii_art strategy draws its letters from the art package's fonts; install them with "
            + install_hint("redteam")
        ) from None
    return art


@functools.lru_cache(maxsize=1)
def ascii_art_fonts() -> Tuple[str, ...]:
    """The fonts art's ``font="rand"`` chooses among (every font but its RANDOM_FILTERED_FONTS), sorted."""
    params = _art().params
    return tuple(sorted(set(params.FONT_NAMES) - set(params.RANDOM_FILTERED_FONTS)))


def ascii_art(text: str, rng: random.Random) -> str:
    """The text drawn in a font picked uniformly at random (PyRIT's AsciiArtConverter with azure's default
    ``font="rand"``, which makes it random). Characters the font lacks are
    left out, as art does."""
    return render_ascii_art(text, draw_font(rng))


def draw_font(rng: random.Random) -> str:
    """One of :func:`ascii_art_fonts`, each equally likely."""
    return rng.choice(ascii_art_fonts())


def render_ascii_art(text: str, font: str) -> str:
    """``text`` in art's ``font`` (art's own ``text2art``, which PyRIT calls)."""
    return str(_art().text2art(text, font=font))
