"""The C and the pure-Python shared n-gram counts (``evaluators/nlp/grams.py``) give the same integers.

Token F1 and ROUGE-N get their one integer, the multiset intersection of two texts' n-grams, from
``grams.shared_grams``: the C extension where the build compiled it, else
``shared_grams_python``. Both must agree on every input, so each test here runs both on the same
inputs (seeded random token strings: repeated tokens, runs of spaces and other ASCII whitespace,
empty and blank strings, articles, bytes above 0x7f and control bytes that are not whitespace, n
from 1 to 6, texts shorter than n; and Hypothesis' own) and
compares them with a third count written the textbook way (``Counter`` intersection).

In CI the extension is built (``pip install -e .`` runs ``hatch_build.py``), and
``test_the_ci_build_uses_the_extension`` fails if it is not; without a compiler the package uses
the Python version and the comparisons are skipped with a reason (the Python version is still
checked against the textbook count).
"""

import os
import random
from collections import Counter
from typing import List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_evaluators.evaluators.nlp import grams

ARTICLES = {b"a", b"an", b"the"}
try:
    from agent_evaluators.evaluators.nlp._overlap import shared_grams as compiled
except ImportError:  # built without a compiler, or a source tree not built in place
    compiled = None

needs_extension = pytest.mark.skipif(compiled is None, reason="the C extension is not built here (no compiler, or not installed)")


def textbook(a: bytes, b: bytes, n: int, drop_articles: bool) -> Tuple[int, int, int]:
    """The definition, written plainly: tokens, their n-grams, the Counter intersection."""
    def tokens(text: bytes) -> List[bytes]:
        return [t for t in text.split() if not (drop_articles and t in ARTICLES)]

    ta, tb = tokens(a), tokens(b)
    ga = Counter(tuple(ta[i:i + n]) for i in range(len(ta) - n + 1))
    gb = Counter(tuple(tb[i:i + n]) for i in range(len(tb) - n + 1))
    return sum((ga & gb).values()), len(ta), len(tb)


def random_text(rng: random.Random) -> bytes:
    vocabulary = [b"a", b"an", b"the", b"x", b"y", b"cat", b"z9", b"\xc3\xa9t\xc3\xa9", b"\x00", b"\x1c", b"thee", b"A", b"an" * 40]
    words = [rng.choice(vocabulary[: rng.randint(2, len(vocabulary))]) for _ in range(rng.choice((0, 1, 2, 3, 8, 40, 300)))]
    gaps = (b" ", b" ", b" ", b"  ", b"\t", b"\r\n", b" \x0b\x0c ")
    return b"".join(w + rng.choice(gaps) for w in words) if rng.random() < 0.9 else b" \t" * rng.randint(0, 3)


def seeded_cases(count: int = 3000) -> List[Tuple[bytes, bytes, int, bool]]:
    rng = random.Random(20261125)
    return [(random_text(rng), random_text(rng), rng.randint(1, 6), rng.random() < 0.5) for _ in range(count)]


def test_the_python_version_is_the_textbook_count() -> None:
    for a, b, n, drop in seeded_cases():
        assert grams.shared_grams_python(a, b, n, drop) == textbook(a, b, n, drop), (a, b, n, drop)


@needs_extension
def test_the_extension_equals_the_python_version_on_3000_seeded_cases() -> None:
    for a, b, n, drop in seeded_cases():
        assert compiled(a, b, n, drop) == grams.shared_grams_python(a, b, n, drop), (a, b, n, drop)


@needs_extension
@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300), st.integers(1, 6), st.booleans())
def test_the_extension_equals_the_python_version_on_any_bytes(a: bytes, b: bytes, n: int, drop: bool) -> None:
    assert compiled(a, b, n, drop) == grams.shared_grams_python(a, b, n, drop)


@needs_extension
def test_the_extension_on_long_texts_counts_without_the_lock_and_still_agrees() -> None:
    """Texts past 8 KB are counted with the GIL released: same numbers, and other threads run meanwhile."""
    rng = random.Random(7)
    words = [f"w{rng.randint(0, 300)}".encode() for _ in range(20000)]
    a, b = b" ".join(words), b" ".join(reversed(words[:15000]))
    for n in (1, 2, 5):
        assert compiled(a, b, n, False) == grams.shared_grams_python(a, b, n, False) == textbook(a, b, n, False)


@needs_extension
def test_the_extension_rejects_what_the_python_version_rejects() -> None:
    for call in (compiled, grams.shared_grams_python):
        with pytest.raises(ValueError, match="n must be at least 1"):
            call(b"x", b"x", 0, False)
    with pytest.raises(TypeError):
        compiled("text", b"x", 1, False)


def test_the_ci_build_uses_the_extension() -> None:
    """``.ci/run`` sets AGENT_EVAL_EXPECT_EXTENSION=1: there the compiled version must be the one in use."""
    if os.environ.get("AGENT_EVAL_EXPECT_EXTENSION") != "1":
        pytest.skip("only where the build is expected to have compiled the extension (AGENT_EVAL_EXPECT_EXTENSION=1)")
    assert grams.IMPLEMENTATION == "c"
    assert grams.shared_grams is compiled
