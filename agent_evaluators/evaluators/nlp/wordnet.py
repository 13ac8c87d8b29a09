"""WordNet 3.0 for METEOR's synonym stage, from the table this package ships (nothing on the machine, no download).

azure-ai-evaluation's METEOR is NLTK's ``meteor_score`` with NLTK's ``wordnet`` corpus (WordNet 3.0,
downloaded at first use). All METEOR reads of WordNet is ``wordnet.synsets(word)`` on each unmatched
hypothesis word (lower-cased) and the ``lemma.name()`` of every ``synset.lemmas()``. NLTK's
``synsets(word)`` runs its ``_morphy`` on the word for each part of speech (n, v, a, r): the word
itself, the base forms the exception lists give for it (``axes`` -> ``ax``, ``axis``) or else the
forms its detachment rules give (``dogs`` -> ``dog``), each kept if the index lists it for that part
of speech; then, for each form kept, the index's synsets of that lemma in sense order.

So three things decide the answer: the index (lemma -> part of speech -> synsets in sense order),
the exception lists, and each synset's lemma names. ``data/wordnet30_synonyms.txt.gz`` holds exactly
those, built from WordNet 3.0's files by :mod:`.wordnet_build` (format there; 2.1 MB; WordNet's
licence in ``data/WORDNET_LICENSE``). :class:`SynonymWordNet` answers ``synsets`` with **NLTK's own
code**: its ``synsets`` and ``_morphy`` functions and its detachment rules
(``MORPHOLOGICAL_SUBSTITUTIONS``), run on the table's data. Morphy has changed between NLTK releases
(3.9's retried the rules until a form matched, 3.10's applies them once); running the installed
NLTK's code keeps our METEOR equal to azure's on whichever NLTK is installed.

``tests/parity/test_wordnet_table.py`` proves the table equal to its source: with WordNet's files
read by NLTK's ``WordNetCorpusReader``, the same lemmas for each part of speech with the same
synsets' lemma names in the same order, the same exception lists, and the same ``synsets(word)``
answer on every word form of the index and of the exception lists and on their inflections.
"""

import functools
import gzip
import types
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Tuple

TABLE_FILE = Path(__file__).resolve().parent / "data" / "wordnet30_synonyms.txt.gz"


class _Lemma:
    """A lemma as METEOR reads it: ``name()``."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"Lemma({self._name!r})"


class _Synset:
    """A synset as METEOR reads it: ``lemmas()`` (and ``lemma_names()``), in WordNet's order."""

    __slots__ = ("_names",)

    def __init__(self, names: Tuple[str, ...]) -> None:
        self._names = names

    def lemmas(self) -> List[_Lemma]:
        return [_Lemma(n) for n in self._names]

    def lemma_names(self) -> List[str]:
        return list(self._names)

    def __repr__(self) -> str:
        return f"Synset({' '.join(self._names)!r})"


class SynonymWordNet:
    """``synsets(word)`` over the shipped table, answered by NLTK's ``WordNetCorpusReader`` code.

    Pass it as ``meteor_score(..., wordnet=...)``. It holds the attributes NLTK's ``synsets`` and
    ``_morphy`` read (``_lemma_pos_offset_map``: lemma -> part of speech -> synset numbers in sense
    order; ``_exception_map``; ``synset_from_pos_and_offset``), for the parts of speech
    ``synsets(word)`` searches (n, v, a, r); it is no general WordNet reader (no relations, glosses,
    sense keys, or adjective-satellite ``"s"`` queries).
    """

    def __init__(self, text: str) -> None:
        from nltk.corpus.reader.wordnet import WordNetCorpusReader

        # NLTK's own code, bound to this object: synsets() calls self._morphy(), which reads
        # self._exception_map, self.MORPHOLOGICAL_SUBSTITUTIONS and self._lemma_pos_offset_map
        self.synsets: Any = types.MethodType(WordNetCorpusReader.synsets, self)
        self._morphy: Any = types.MethodType(WordNetCorpusReader._morphy, self)
        self.MORPHOLOGICAL_SUBSTITUTIONS = WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS
        lines = text.split("\n")
        if not lines[0].startswith("# agent-evaluators: WordNet 3.0") or not lines[1].startswith("synsets "):
            raise ValueError("not a WordNet synonym table (wordnet_build.py's format 1)")
        at = 1

        def section(kind: str, pos: str = "") -> List[str]:
            nonlocal at
            head = lines[at].split(" ")
            if head[:-1] != ([kind, pos] if pos else [kind]):
                raise ValueError(f"WordNet synonym table: expected section {kind} {pos} at line {at + 1}, got {lines[at]!r}")
            count = int(head[-1])
            rows = lines[at + 1: at + 1 + count]
            at += 1 + count
            return rows

        self._synsets = [_Synset(tuple(row.split(" "))) for row in section("synsets")]
        self._lemma_pos_offset_map: Dict[str, Dict[str, List[int]]] = defaultdict(dict)
        for pos in ("n", "v", "a", "r"):
            for row in section("index", pos):
                lemma, *ids = row.split(" ")
                self._lemma_pos_offset_map[lemma][pos] = [int(i) for i in ids]
        self._exception_map: Dict[str, Dict[str, List[str]]] = {}
        for pos in ("n", "v", "a", "r"):
            self._exception_map[pos] = {form: bases for form, *bases in (row.split(" ") for row in section("exceptions", pos))}
        if lines[at:] != [""]:
            raise ValueError(f"WordNet synonym table: {len(lines) - at} unexpected lines at its end")

    def synset_from_pos_and_offset(self, pos: str, offset: int) -> _Synset:
        return self._synsets[offset]

    def __repr__(self) -> str:
        return f"SynonymWordNet({len(self._synsets)} synsets, {len(self._lemma_pos_offset_map)} lemmas)"


@functools.lru_cache(maxsize=1)
def wordnet_reader() -> SynonymWordNet:
    """The shipped WordNet 3.0 table, loaded once per process."""
    with gzip.open(TABLE_FILE, "rt", encoding="utf-8", newline="\n") as f:
        return SynonymWordNet(f.read())
