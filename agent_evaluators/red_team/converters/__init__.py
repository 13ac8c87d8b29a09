"""Text converters for red-team attacks: azure-ai-evaluation 1.18.10's converter strategies, without PyRIT.

``convert(strategy, text, seed=0)`` turns an attack objective into its converted form as azure's scan does
(azure's AttackStrategy value names it: ``"base64"``, ``"rot13"``, ``"char_swap"``, ...), with the parameters
azure passes to PyRIT 0.11.0's converter of that name, and PyRIT's output: ``tests/red_team/`` holds the
differential proof against PyRIT itself. ``compose`` applies several in order (azure's
``AttackStrategy.Compose``). The random ones (CharSwap, UnicodeConfusable, AnsiAttack, AsciiArt) draw from
``random.Random(seed)``: the same seed gives the same text.

Strategies that are not text converters (``"tense"``, which asks a model; ``"baseline"``; ``"jailbreak"``;
the multi-turn ones; the ``"easy"``/``"moderate"``/``"difficult"`` groups) raise ``KeyError``.
AsciiArt needs the ``art`` package's fonts (the ``redteam`` extra); the rest need nothing beyond the core.
"""

import random
from typing import Callable, Dict, Sequence

from . import encodings as enc
from . import perturbations as per

__all__ = ["convert", "compose", "CONVERTER_STRATEGIES", "RANDOM_CONVERTER_STRATEGIES"]

Converter = Callable[[str, random.Random], str]

_CONVERTERS: Dict[str, Converter] = {
    "ansi_attack": per.ansi_attack,
    "ascii_art": per.ascii_art,
    "ascii_smuggler": enc.ascii_smuggler,
    "atbash": enc.atbash,
    "base64": enc.base64_,
    "binary": enc.binary,
    "caesar": enc.caesar,
    "character_space": enc.character_space,
    "char_swap": per.char_swap,
    "diacritic": enc.diacritic,
    "flip": enc.flip,
    "leetspeak": enc.leetspeak,
    "morse": enc.morse,
    "rot13": enc.rot13,
    "suffix_append": enc.suffix_append,
    "string_join": enc.string_join,
    "unicode_confusable": per.unicode_confusable,
    "unicode_substitution": enc.unicode_substitution,
    "url": enc.url,
}

#: the AttackStrategy values ``convert`` handles
CONVERTER_STRATEGIES = frozenset(_CONVERTERS)
#: those whose output depends on ``seed``
RANDOM_CONVERTER_STRATEGIES = frozenset({"ansi_attack", "ascii_art", "char_swap", "unicode_confusable"})


def _converter(strategy: str) -> Converter:
    # an AttackStrategy member stands for its value, as in azure
    value = getattr(strategy, "value", strategy)
    try:
        return _CONVERTERS[value]
    except (KeyError, TypeError):
        raise KeyError(
            f"{value!r} is not a text converter strategy; the converters are: {', '.join(sorted(_CONVERTERS))}"
        ) from None


def convert(strategy: str, text: str, *, seed: int = 0) -> str:
    """``text`` converted by the strategy named ``strategy`` (an AttackStrategy value, e.g. ``"base64"``, or
    the member itself).

    Raises ``KeyError`` when ``strategy`` is not a text converter, ``InputError`` when the converter cannot
    write ``text`` (Binary past U+FFFF, UnicodeSubstitution past U+1FFFF, as PyRIT)."""
    converter = _converter(strategy)
    if not isinstance(text, str):
        raise TypeError(f"convert({strategy!r}, ...) takes the text as str, got {type(text).__name__}")
    return converter(text, random.Random(seed))


def compose(strategies: Sequence[str], text: str, *, seed: int = 0) -> str:
    """``text`` through each strategy in turn, the first applied first; the random ones share one
    ``random.Random(seed)``, so one strategy alone gives what ``convert`` gives."""
    if isinstance(strategies, str):
        raise TypeError(f"compose takes a sequence of strategies, got the string {strategies!r}; use convert")
    converters = [_converter(strategy) for strategy in strategies]
    rng = random.Random(seed)
    for converter in converters:
        text = converter(text, rng)
    return text
