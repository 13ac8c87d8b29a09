"""Builds METEOR's WordNet 3.0 synonym table (``data/wordnet30_synonyms.txt.gz``) from WordNet's own files.

Run ``python -m agent_evaluators.evaluators.nlp.wordnet_build DIR`` (it also writes ``data/WORDNET_LICENSE``,
WordNet's licence as its files carry it) on a directory holding WordNet
3.0's database files (``index.noun``, ``data.noun``, ``noun.exc`` ... for the four parts of speech:
Debian's ``wordnet-base`` puts them in ``/usr/share/wordnet``; Princeton's ``WNdb-3.0`` has them in
``dict/``; NLTK's ``corpora/wordnet`` unzipped works too). It reads them with NLTK's own
``WordNetCorpusReader`` and writes what NLTK's ``synsets(word)`` reads, which is all METEOR reads
(:mod:`.wordnet` says why):

* every synset's lemma names, in WordNet's order (``synset.lemmas()`` / ``lemma.name()``, NLTK's
  reading: adjective markers such as ``(p)`` removed, case kept);
* for each part of speech (n, v, a, r), every lemma of the index and its synsets in sense order;
* for each part of speech, the exception list (irregular form -> base forms) morphy consults.

The payload is plain text (UTF-8, ``\\n`` lines)::

    # a comment line naming the source and the licence
    synsets 117659
    <the lemma names of synset 0, space-separated>
    ...
    index n 117798
    <lemma> <synset number> <synset number> ...
    ...                                   (then index v, index a, index r)
    exceptions n 2050
    <form> <base form> ...
    ...                                   (then exceptions v, a, r)

Synsets are numbered in the order the index first names them (parts of speech n, v, a, r; lemmas
sorted), not by WordNet's byte offsets, so the table depends only on what METEOR reads: Princeton's
files and Debian's (which differ in offsets) give the same bytes. The file is gzip level 9 with no
name and time in its header, so a build is byte-for-byte reproducible
(``tests/parity/test_wordnet_table.py`` rebuilds it).
"""

import argparse
import gzip
import io
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

TABLE_PATH = Path(__file__).resolve().parent / "data" / "wordnet30_synonyms.txt.gz"
LICENSE_PATH = TABLE_PATH.with_name("WORDNET_LICENSE")
POS_ORDER = ("n", "v", "a", "r")  # NLTK's POS_LIST: the parts of speech synsets(word) looks in
HEADER = (
    "# agent-evaluators: WordNet 3.0's lemmas, synsets and exception lists as NLTK's synsets() reads them, "
    "for METEOR (format 1; built by agent_evaluators/evaluators/nlp/wordnet_build.py). "
    "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved; licence: WORDNET_LICENSE beside this file."
)

# The 45 lexicographer file names (WordNet's ``lexnames``). Debian's wordnet-base lacks this file and
# NLTK's reader opens it; the synonyms never depend on it.
LEXNAMES = "".join(
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


def read_wordnet_directory(path: str) -> Any:
    """NLTK's ``WordNetCorpusReader`` on a plain WordNet 3.0 directory (``lexnames`` supplied when missing)."""
    if not all(os.path.isfile(os.path.join(path, f)) for f in ("index.noun", "data.noun", "noun.exc")):
        raise FileNotFoundError(f"{path!r} holds no WordNet database (index.noun, data.noun, noun.exc)")
    import nltk.data
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class _DirectoryWordNet(WordNetCorpusReader):  # type: ignore[misc]
        def open(self, file: str) -> Any:
            if file == "lexnames" and not os.path.isfile(os.path.join(path, file)):
                return io.StringIO(LEXNAMES)
            return super().open(file)

        def map_wn(self, version: str = "wordnet") -> Any:
            # the map from WordNet 3.0 (for the multilingual data) to this one: this one is 3.0
            return None

    # NLTK (3.9.3+) reads corpora only under the roots of its data path: name this directory there
    if path not in nltk.data.path:
        nltk.data.path.append(path)
    with warnings.catch_warnings():  # "multilingual functions are not available": METEOR is English
        warnings.simplefilter("ignore")
        return _DirectoryWordNet(path, None)


def _check_token(text: str, what: str) -> str:
    if not text or any(c.isspace() for c in text):
        raise ValueError(f"{what} {text!r} is empty or holds white space: the table's format cannot hold it")
    return text


def table_text(reader: Any) -> str:
    """The table's payload from an NLTK WordNet reader (what its ``synsets(word)`` reads, see the module doc)."""
    index = reader._lemma_pos_offset_map  # lemma -> pos -> synset offsets, sense order: NLTK's synsets() reads it
    numbers: Dict[Tuple[str, int], int] = {}
    names: List[str] = []
    sections: List[str] = []
    for pos in POS_ORDER:
        lemmas = sorted(lemma for lemma, by_pos in index.items() if pos in by_pos)
        rows = []
        for lemma in lemmas:
            ids = []
            for offset in index[lemma][pos]:
                key = (pos, offset)
                if key not in numbers:
                    numbers[key] = len(names)
                    synset = reader.synset_from_pos_and_offset(pos, offset)
                    names.append(" ".join(_check_token(lemma.name(), "lemma name") for lemma in synset.lemmas()))
                ids.append(str(numbers[key]))
            rows.append(f"{_check_token(lemma, 'index lemma')} {' '.join(ids)}\n")
        sections.append(f"index {pos} {len(rows)}\n" + "".join(rows))
    for pos in POS_ORDER:
        exceptions = reader._exception_map[pos]  # form -> base forms, as morphy reads them
        rows = [" ".join(_check_token(t, "exception form") for t in [form, *exceptions[form]]) + "\n"
                for form in sorted(exceptions)]
        sections.append(f"exceptions {pos} {len(rows)}\n" + "".join(rows))
    return f"{HEADER}\nsynsets {len(names)}\n" + "".join(f"{n}\n" for n in names) + "".join(sections)


def compress(text: str) -> bytes:
    """gzip, level 9, no file name and time 0 in the header: the same text gives the same bytes."""
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=out, mtime=0) as f:
        f.write(text.encode("utf-8"))
    return out.getvalue()


def build(source_dir: str) -> bytes:
    """The table file's bytes, built from the WordNet 3.0 files in ``source_dir``."""
    return compress(table_text(read_wordnet_directory(source_dir)))


def license_text(source_dir: str) -> str:
    """``WORDNET_LICENSE``: what the table is, then WordNet 3.0's licence as its ``data.noun`` carries it.

    Each WordNet database file opens with the licence, one numbered line each (``  1 This software
    ...``, two spaces first); the licence asks that its notice appear on all copies, modifications
    included, so the table ships with it word for word (numbers and trailing spaces removed)."""
    lines = []
    with open(os.path.join(source_dir, "data.noun"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("  "):
                break
            number, _, text = line[2:].rstrip("\n").partition(" ")
            if not number.isdigit():
                raise ValueError(f"unexpected licence line in data.noun: {line!r}")
            lines.append(text.rstrip())
    if not any("WordNet 3.0 Copyright 2006 by Princeton University" in line for line in lines):
        raise ValueError(f"{source_dir}/data.noun carries no WordNet 3.0 licence")
    preface = [
        "wordnet30_synonyms.txt.gz, beside this file, is derived from WordNet 3.0 (Princeton University):",
        "its lemmas, synsets (lemma names only) and morphological exception lists, as",
        "agent_evaluators/evaluators/nlp/wordnet_build.py extracts them from WordNet's database files.",
        "WordNet's licence, as those files carry it:",
        "",
    ]
    return "\n".join(preface + lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent_evaluators.evaluators.nlp.wordnet_build",
                                     description="Build METEOR's WordNet 3.0 synonym table from WordNet's database files.")
    parser.add_argument("source", help="a directory holding WordNet 3.0's index.*, data.* and *.exc files "
                                       "(Debian: /usr/share/wordnet)")
    parser.add_argument("-o", "--output", default=str(TABLE_PATH), help=f"where to write it (default: {TABLE_PATH})")
    args = parser.parse_args(argv)
    data = build(args.source)
    Path(args.output).write_bytes(data)
    licence = Path(args.output).with_name(LICENSE_PATH.name)
    licence.write_text(license_text(args.source), encoding="utf-8")
    print(f"wrote {args.output} ({len(data):,} bytes) and {licence}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
