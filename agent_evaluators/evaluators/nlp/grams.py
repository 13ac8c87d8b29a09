"""How many n-grams two token strings share, counted as a multiset: the core of token F1 and ROUGE-N.

Both metrics reduce two texts to tokens and then need one integer, the size of the multiset
intersection of the two texts' n-grams (each shared n-gram counted as often as both texts have
it). They hand the tokens here as bytes, separated by whitespace (:func:`shared_grams`).

Two implementations give the same three integers: :func:`shared_grams_python`, the reference,
and the optional C extension ``_overlap`` (``_overlap.c`` beside this file), which the package
build compiles where a C compiler is present (``hatch_build.py``) and which this module uses when
it imports. In Python the count costs about 50 ns per token (a bytes object, a hash and a dict
update each); in C the tokens stay spans of the two buffers, which puts F1 and ROUGE-N on
150-word texts at several times the speed. ``tests/evaluators/test_nlp_grams.py`` checks both on
the same generated inputs; ``IMPLEMENTATION`` says which one runs (the NLP bench prints it), and
``AGENT_EVAL_PURE_PYTHON=1`` in the environment makes it the Python one.
"""

import os
from collections import _count_elements  # type: ignore[attr-defined]
from typing import Any, Callable, Dict, Iterable, List, Tuple

_ARTICLES = (b"a", b"an", b"the")


def multiset_overlap(counts: Dict[Any, int], items: Iterable[Any]) -> int:
    """How many of ``items`` find an unused match in ``counts`` (which this uses up): the size of
    the multiset intersection, ``sum(min(counts[w], items.count(w)))``.

    One pass over ``items`` against the other side's counts costs less than counting ``items``
    too and intersecting two dicts."""
    get = counts.get
    shared = 0
    for item in items:
        left = get(item)
        if left:
            counts[item] = left - 1
            shared += 1
    return shared


def _grams(tokens: List[bytes], n: int) -> Iterable[Any]:
    """The n-grams of ``tokens`` in order, as tuples (the tokens themselves for ``n == 1``)."""
    return tokens if n == 1 else zip(*(tokens[i:] for i in range(n)))


def shared_grams_python(a: bytes, b: bytes, n: int, drop_articles: bool) -> Tuple[int, int, int]:
    """``(shared, tokens of a, tokens of b)``: the n-grams the token strings ``a`` and ``b`` share (as
    a multiset), and how many tokens each has. A token is a maximal run of bytes other than ASCII
    whitespace (what ``bytes.split()`` splits on); with ``drop_articles`` the tokens a, an and the
    are left out first."""
    if n < 1:
        raise ValueError("shared_grams: n must be at least 1")
    tokens_a, tokens_b = a.split(), b.split()
    if n == 1:
        return _shared_words(tokens_a, tokens_b, _ARTICLES if drop_articles else ())
    if drop_articles:
        tokens_a = [t for t in tokens_a if t not in _ARTICLES]
        tokens_b = [t for t in tokens_b if t not in _ARTICLES]
    counts: Dict[Any, int] = {}
    _count_elements(counts, _grams(tokens_a, n))
    return multiset_overlap(counts, _grams(tokens_b, n)), len(tokens_a), len(tokens_b)


def _shared_words(tokens_a: List[bytes], tokens_b: List[bytes], dropped: Tuple[bytes, ...]) -> Tuple[int, int, int]:
    """:func:`shared_grams_python` for single tokens, the ``dropped`` words left in both lists
    (cheaper than filtering them out): ``a``'s are popped from its counts, and ``b``'s meet a
    count that never runs out, so how far that count went down is how many ``b`` had."""
    counts: Dict[Any, int] = {}
    _count_elements(counts, tokens_a)
    kept_a = len(tokens_a)
    never_used_up = len(tokens_b) + 1
    for word in dropped:
        kept_a -= counts.pop(word, 0)
        counts[word] = never_used_up
    shared = multiset_overlap(counts, tokens_b)
    skipped = 0
    for word in dropped:
        skipped += never_used_up - counts[word]
    return shared - skipped, kept_a, len(tokens_b) - skipped


def _compiled() -> Tuple[Callable[[bytes, bytes, int, bool], Tuple[int, int, int]], str]:
    if os.environ.get("AGENT_EVAL_PURE_PYTHON") == "1":  # to compare, or to rule the extension out
        return shared_grams_python, "python"
    try:
        from ._overlap import shared_grams as compiled  # type: ignore[import-not-found]
    except ImportError:  # built without a C compiler, or run from a source tree not built in place
        return shared_grams_python, "python"
    return compiled, "c"


shared_grams, IMPLEMENTATION = _compiled()
