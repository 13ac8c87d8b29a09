"""The benchmarks' English text pairs: one generator, so every bench draws its rows the same way.

Words come from this repository's README and its shipped ``prompty/`` templates (a real
vocabulary with inflections, so a stemmer does real work), drawn with a Zipf-like law (a few
words are most of a text), with punctuation, digits and capitals mixed in. An answer keeps
about half the words of a freshly drawn text and replaces the rest with words of its reference,
as a plausible answer shares words with the expected one.
"""

import random
import re
from pathlib import Path
from typing import List, Tuple, Union

REPO = Path(__file__).resolve().parent.parent


def vocabulary() -> List[str]:
    """Every distinct word of the README and the shipped templates, sorted."""
    sources = [REPO / "README.md", *sorted((REPO / "prompty").glob("*.prompty"))]
    words: List[str] = []
    for path in sources:
        words.extend(re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]", path.read_text(encoding="utf-8")))
    return sorted(set(words))


def text_pairs(rows: int, words: Union[int, str], seed: int = 7, *,
               fresh_replacements: bool = False) -> List[Tuple[str, str]]:
    """``rows`` (answer, reference) pairs of ``words`` words each: a number, every text that long;
    text (``"150"``, ``"8-40"``), a length drawn per text (one draw more from the seeded generator).

    ``fresh_replacements``: an answer's replaced words come from its reference and another fresh
    text (``bench_deterministic.py``'s rows), not from its reference alone (``bench_nlp.py``'s)."""
    rng = random.Random(seed)
    vocab = vocabulary()
    rng.shuffle(vocab)
    weights = [1.0 / (rank + 1) for rank in range(len(vocab))]  # Zipf: a few words are most of a text
    low, _, high = str(words).partition("-")

    def one() -> str:
        out = []
        k = words if isinstance(words, int) else rng.randint(int(low), int(high or low))
        for word in rng.choices(vocab, weights=weights, k=k):
            roll = rng.random()
            if roll < 0.08:
                word += rng.choice([",", ".", ";", "!", "?"])
            elif roll < 0.11:
                word = str(rng.randint(0, 2030))
            elif roll < 0.15:
                word = word.capitalize()
            out.append(word)
        return " ".join(out)

    pairs = []
    for _ in range(rows):
        reference = one()
        ref_words = reference.split()
        answer = " ".join(
            w if rng.random() < 0.5 else rng.choice(ref_words + one().split() if fresh_replacements else ref_words)
            for w in one().split()
        )
        pairs.append((answer, reference))
    return pairs
