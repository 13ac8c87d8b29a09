"""WordNet 3.0 for the tests: the source the shipped table is proven against, and the table as WordNet files.

* :func:`wordnet_source` / :func:`require_wordnet_source`: a directory of WordNet 3.0's database files
  (``AGENT_EVAL_WORDNET_SOURCE``, else Debian's ``wordnet-base`` in ``/usr/share/wordnet``, which
  ``.ci/run`` installs for these tests). Outside CI a test needing it skips, naming it; in CI it fails.
* :func:`render_wordnet_files`: the shipped table written back as a WordNet database NLTK's
  ``WordNetCorpusReader`` reads (index and data files, exception lists), with what METEOR never
  reads left out: no glosses, pointers, verb frames or lexicographer files, every adjective a head
  adjective ("a"), byte offsets of its own. NLTK's full reader on these files and
  ``SynonymWordNet`` on the table must answer ``synsets(word)`` alike
  (``test_wordnet_table.py``), and azure's METEOR reads them where no source is installed
  (``nltk_data.py``).
* :func:`word_forms` / :func:`answer`: the words the equality tests ask about and the answer compared.
"""

import os
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest

from agent_evaluators.evaluators.nlp.wordnet_build import LEXNAMES, POS_ORDER
from tests.conftest import in_ci

__all__ = ["DEBIAN_WORDNET", "SOURCE_NEEDED", "wordnet_source", "require_wordnet_source", "render_wordnet_files",
           "write_wordnet_files", "word_forms", "answer"]

DEBIAN_WORDNET = "/usr/share/wordnet"
SOURCE_NEEDED = ("needs WordNet 3.0's database files, the shipped table's source: apt-get install wordnet-base "
                 "(Debian/Ubuntu), or AGENT_EVAL_WORDNET_SOURCE=DIR (Princeton's WNdb-3.0 dict/, or NLTK's "
                 "corpora/wordnet unzipped)")
SUFFIX = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def wordnet_source() -> Optional[str]:
    """The WordNet 3.0 directory to prove the table against, or ``None``."""
    given = os.environ.get("AGENT_EVAL_WORDNET_SOURCE")
    if given:
        return given
    return DEBIAN_WORDNET if os.path.isfile(os.path.join(DEBIAN_WORDNET, "index.noun")) else None


def require_wordnet_source() -> str:
    source = wordnet_source()
    if source is None:
        if in_ci():
            raise RuntimeError("CI must install WordNet 3.0's files for the table's provenance tests "
                               "(.ci/run installs Debian's wordnet-base)")
        pytest.skip(SOURCE_NEEDED)
    return source


def render_wordnet_files(table: Any) -> Dict[str, str]:
    """The table (a ``SynonymWordNet``) as the files of a WordNet database, by file name."""
    files: Dict[str, str] = {"lexnames": LEXNAMES, "index.sense": ""}
    index = table._lemma_pos_offset_map
    for pos in POS_ORDER:
        lemmas = sorted(lemma for lemma, by_pos in index.items() if pos in by_pos)
        numbers = sorted({n for lemma in lemmas for n in index[lemma][pos]})
        offset, offsets, data = 0, {}, []
        for n in numbers:
            names = table.synset_from_pos_and_offset(pos, n).lemma_names()
            line = f"{offset:08d} 00 {pos} {len(names):02x} {' '.join(f'{name} 0' for name in names)} 000 | \n"
            offsets[n] = offset
            data.append(line)
            offset += len(line.encode("utf-8"))
        files[f"data.{SUFFIX[pos]}"] = "".join(data)
        files[f"index.{SUFFIX[pos]}"] = "".join(
            f"{lemma} {pos} {len(index[lemma][pos])} 0 {len(index[lemma][pos])} 0 "
            + " ".join(f"{offsets[n]:08d}" for n in index[lemma][pos]) + " \n"
            for lemma in lemmas)
        exceptions = table._exception_map[pos]
        files[f"{SUFFIX[pos]}.exc"] = "".join(f"{form} {' '.join(exceptions[form])}\n" for form in sorted(exceptions))
    return files


def write_wordnet_files(table: Any, folder: str) -> str:
    os.makedirs(folder, exist_ok=True)
    for name, text in render_wordnet_files(table).items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return folder


def word_forms(reader: Any) -> Tuple[List[str], Dict[str, int]]:
    """Every word form METEOR's lookups can reach, sorted, with how many came from each kind.

    ``index``: every lemma of the index, any part of speech; ``exceptions``: every form and base form
    of the exception lists; ``inflections``: each index lemma run backwards through every detachment
    rule of its part of speech (``dog`` -> ``dogs``; ``fly`` -> ``flies``; ``big`` -> ``bigger``), the
    forms morphy's rules bring back to it."""
    index = reader._lemma_pos_offset_map
    kinds: Dict[str, Set[str]] = {"index": set(index), "exceptions": set(), "inflections": set()}
    for pos in POS_ORDER:
        for form, bases in reader._exception_map[pos].items():
            kinds["exceptions"].update([form, *bases])
        rules = reader.MORPHOLOGICAL_SUBSTITUTIONS[pos]
        for lemma, by_pos in index.items():
            if pos in by_pos:
                for old, new in rules:
                    if lemma.endswith(new):
                        kinds["inflections"].add(lemma[:len(lemma) - len(new)] + old)
    everything = sorted(set().union(*kinds.values()))
    return everything, {kind: len(forms) for kind, forms in kinds.items()}


def answer(reader: Any, word: str) -> List[Tuple[str, ...]]:
    """``reader.synsets(word)`` as METEOR reads it: each synset's lemma names, in order.

    METEOR's synonyms of ``word`` are the names without ``_`` of all these, plus ``word``: equal
    answers give equal synonyms."""
    return [tuple(lemma.name() for lemma in synset.lemmas()) for synset in reader.synsets(word)]
