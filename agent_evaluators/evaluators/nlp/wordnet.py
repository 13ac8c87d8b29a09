"""WordNet 3.0 for METEOR's synonym stage, found on this machine instead of downloaded.

azure-ai-evaluation's METEOR reads NLTK's ``wordnet`` corpus, downloaded at first use. The
same WordNet 3.0 database files ship in Debian's ``wordnet-base`` package
(``/usr/share/wordnet``). We look, in order, in ``AGENT_EVAL_WORDNET`` (a directory holding
``index.noun``, ``data.noun`` ...), in NLTK's data path (``corpora/wordnet``, where
``nltk.download("wordnet")`` puts it) and in ``/usr/share/wordnet``, and read it with NLTK's own
``WordNetCorpusReader``. Debian's copy lacks only the ``lexnames`` file (the 45 lexicographer
file names, which METEOR never reads); it is supplied from WordNet's documentation.
``tests/parity/test_wordnet_provenance.py`` pins how Debian's files relate to Princeton's
WNdb-3.0 release: six are byte-identical, the others differ only in synset offsets (Debian rebuilds
them with ``grind``), one gloss space and one moved hyponym pointer, so the lemmas and senses
METEOR reads are the same.
"""

import functools
import io
import os
from typing import Any, Optional, Tuple

from ...errors import ConfigError

DEBIAN_WORDNET = "/usr/share/wordnet"
WORDNET_HELP = (
    "install WordNet 3.0: `apt-get install wordnet-base` (Debian/Ubuntu, into /usr/share/wordnet), "
    "or `python -m nltk.downloader wordnet`, or set AGENT_EVAL_WORDNET to a directory holding its "
    "index.* and data.* files"
)

_LEXNAMES = "".join(
    f"{i:02d}\t{name}\t{kind}\n"
    for i, (name, kind) in enumerate(
        [("adj.all", 3), ("adj.pert", 3), ("adv.all", 4)]
        + [(f"noun.{n}", 1) for n in (
            "Tops act animal artifact attribute body cognition communication event feeling food group "
            "location motive object person phenomenon plant possession process quantity relation shape "
            "state substance time").split()]
        + [(f"verb.{n}", 2) for n in (
            "body change cognition communication competition consumption contact creation emotion motion "
            "perception possession social stative weather").split()]
        + [("adj.ppl", 3)]
    )
)


def _is_wordnet_dir(path: str) -> bool:
    return all(os.path.isfile(os.path.join(path, f)) for f in ("index.noun", "data.noun", "verb.exc"))


def find_wordnet() -> Optional[Tuple[str, str]]:
    """``("dir", path)`` for a WordNet directory, ``("nltk", "")`` for NLTK's own corpus, or ``None``."""
    given = os.environ.get("AGENT_EVAL_WORDNET")
    if given:
        if not _is_wordnet_dir(given):
            raise ConfigError(f"AGENT_EVAL_WORDNET={given!r} holds no WordNet database (index.noun, data.noun); "
                              f"{WORDNET_HELP}")
        return "dir", given
    try:
        import nltk.data

        nltk.data.find("corpora/wordnet")
        return "nltk", ""
    except LookupError:
        pass
    try:
        import nltk.data

        nltk.data.find("corpora/wordnet.zip")
        return "nltk", ""
    except LookupError:
        pass
    if _is_wordnet_dir(DEBIAN_WORDNET):
        return "dir", DEBIAN_WORDNET
    return None


@functools.lru_cache(maxsize=4)
def _reader(kind: str, path: str) -> Any:
    if kind == "nltk":
        from nltk.corpus import wordnet

        return wordnet
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class _DirectoryWordNet(WordNetCorpusReader):  # type: ignore[misc]
        """NLTK's reader on a plain WordNet 3.0 directory, ``lexnames`` supplied when missing."""

        def open(self, file: str) -> Any:
            if file == "lexnames" and not os.path.isfile(os.path.join(path, file)):
                return io.StringIO(_LEXNAMES)
            return super().open(file)

        def map_wn(self, version: str = "wordnet") -> Any:
            # the map from WordNet 3.0 (for the multilingual data) to this one: this one is 3.0
            return None

    import nltk.data

    # NLTK (3.9.3+) reads corpora only under the roots of its data path: name this directory there
    if path not in nltk.data.path:
        nltk.data.path.append(path)
    with warnings.catch_warnings():  # "multilingual functions are not available": METEOR is English
        warnings.simplefilter("ignore")
        return _DirectoryWordNet(path, None)


def wordnet_reader(evaluator_name: str) -> Any:
    """NLTK's WordNet reader on the WordNet found (loaded once per process); ``ConfigError`` if none."""
    found = find_wordnet()
    if found is None:
        raise ConfigError(f"{evaluator_name}: METEOR's synonym stage needs WordNet and none was found; {WORDNET_HELP}")
    return _reader(*found)
