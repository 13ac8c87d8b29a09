"""The WordNet 3.0 table METEOR ships with (``agent_evaluators/evaluators/nlp/data/``) equals its source.

METEOR reads WordNet only through ``wordnet.synsets(word)`` and each synset's lemma names; NLTK's
``synsets`` answers from three things: the index (lemma -> part of speech -> synsets in sense
order), the exception lists morphy consults, and the synsets' lemma names (see
``agent_evaluators/evaluators/nlp/wordnet.py``). Proved here:

* with WordNet 3.0's files (``wordnet_files.require_wordnet_source``: Debian's ``wordnet-base``
  in CI, whose relation to Princeton's release ``test_wordnet_provenance.py`` pins), read by NLTK's
  own ``WordNetCorpusReader``:
  - those three things are equal, entry for entry, for n, v, a and r: 155,287 lemma/part-of-speech
    pairs with their synsets' lemma names in order, 5,947 exception entries;
  - ``synsets(word)`` gives the same lemma names in the same order on every word form of the index
    (147,306), of the exception lists (9,994) and every inflection morphy's rules bring back to an
    index lemma (243,742): 391,890 words;
  - the generator, run on those files, writes the shipped table and its licence byte for byte;
* everywhere (no source needed): the shipped file is the one so proven (its SHA-256 and counts),
  and NLTK's full ``WordNetCorpusReader`` on the table written back as WordNet files answers the
  391,890 words as ``SynonymWordNet`` does (the table's reader runs NLTK's own ``synsets`` and
  morphy, so this checks the data it hands them).
"""

import gzip
import hashlib
import os
import tempfile
from typing import Any, Dict, List, Tuple

import pytest

from agent_evaluators.evaluators.nlp.wordnet import TABLE_FILE, SynonymWordNet, wordnet_reader
from agent_evaluators.evaluators.nlp.wordnet_build import (
    LICENSE_PATH,
    POS_ORDER,
    compress,
    license_text,
    read_wordnet_directory,
    table_text,
)
from tests.parity.wordnet_files import answer, require_wordnet_source, word_forms, write_wordnet_files

TABLE_SHA256 = "83a9d8efc2f2d670b1c64d97460eb98e54d557833d412e5eb875b295d0b89a4a"
INDEX_PAIRS = {"n": 117_798, "v": 11_529, "a": 21_479, "r": 4_481}  # 155,287 lemma/part-of-speech pairs
EXCEPTIONS = {"n": 2_050, "v": 2_401, "a": 1_489, "r": 7}  # 5,947
WORD_FORMS = {"index": 147_306, "exceptions": 9_994, "inflections": 243_742}  # 391,890 distinct


@pytest.fixture(scope="module")
def table() -> SynonymWordNet:
    return wordnet_reader()


@pytest.fixture(scope="module")
def source() -> Any:
    """NLTK's WordNetCorpusReader on WordNet 3.0's files (skips outside CI without them, fails in CI)."""
    return read_wordnet_directory(require_wordnet_source())


def by_lemma(reader: Any, pos: str) -> Dict[str, List[Tuple[str, ...]]]:
    """lemma -> its synsets' lemma names in sense order, for one part of speech (what synsets() reads)."""
    return {lemma: [tuple(lm.name() for lm in reader.synset_from_pos_and_offset(pos, n).lemmas()) for n in by_pos[pos]]
            for lemma, by_pos in reader._lemma_pos_offset_map.items() if pos in by_pos}


def sweep(left: Any, right: Any) -> Tuple[int, int, List[str]]:
    """Every word form of ``left`` asked of both readers: (words asked, words with synsets, words that differ)."""
    words, kinds = word_forms(left)
    assert kinds == WORD_FORMS and len(words) == 391_890
    differ, found = [], 0
    for word in words:
        mine = answer(left, word)
        found += bool(mine)
        if mine != answer(right, word):
            differ.append(word)
    return len(words), found, differ


def test_shipped_table_is_the_proven_one(table: SynonymWordNet) -> None:
    assert hashlib.sha256(TABLE_FILE.read_bytes()).hexdigest() == TABLE_SHA256
    index = table._lemma_pos_offset_map
    assert {pos: sum(pos in by_pos for by_pos in index.values()) for pos in POS_ORDER} == INDEX_PAIRS
    assert len(index) == 147_306 and len(table._synsets) == 117_659
    # 206,978 lemma names: the 206,941 senses of the index, and 37 synsets name one lemma twice in two cases ("A a")
    assert sum(len(s.lemma_names()) for s in table._synsets) == 206_978
    assert {pos: len(table._exception_map[pos]) for pos in POS_ORDER} == EXCEPTIONS
    # every synset is some lemma's: no orphan rows
    assert {n for by_pos in index.values() for ids in by_pos.values() for n in ids} == set(range(117_659))
    assert "WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved." in LICENSE_PATH.read_text()
    # what METEOR's synonym stage gets: "dogs" through the rules, "geese" through the exception list
    assert ("dog", "domestic_dog", "Canis_familiaris") in answer(table, "dogs")
    assert ("goose",) in answer(table, "geese") and answer(table, "qwxz") == []


@pytest.mark.heavy  # every lemma and word form of WordNet (about 30 s together)
def test_table_equals_its_source_on_every_lemma_and_exception(table: SynonymWordNet, source: Any) -> None:
    for pos in POS_ORDER:
        ours, theirs = by_lemma(table, pos), by_lemma(source, pos)
        assert len(ours) == INDEX_PAIRS[pos]
        assert sorted(ours) == sorted(theirs), pos
        differ = [lemma for lemma in theirs if ours[lemma] != theirs[lemma]]
        assert not differ, f"{pos}: {len(differ)} lemmas' synsets differ, e.g. {differ[:5]}"
        assert table._exception_map[pos] == source._exception_map[pos], pos


@pytest.mark.heavy  # every lemma and word form of WordNet (about 30 s together)
def test_table_answers_synsets_as_its_source_on_every_word_form(table: SynonymWordNet, source: Any) -> None:
    asked, found, differ = sweep(source, table)
    assert (asked, found) == (391_890, 389_882)
    assert not differ, f"{len(differ)} of {asked} words differ, e.g. {differ[:5]}"


@pytest.mark.heavy  # rebuilds the whole table from WordNet (about 10 s)
def test_generator_rebuilds_the_shipped_files_byte_for_byte(source: Any) -> None:
    text = table_text(source)
    assert text.encode("utf-8") == gzip.decompress(TABLE_FILE.read_bytes())  # the payload, then its compression
    assert compress(text) == TABLE_FILE.read_bytes()
    assert license_text(require_wordnet_source()) == LICENSE_PATH.read_text(encoding="utf-8")


@pytest.mark.heavy  # every lemma and word form of WordNet (about 30 s together)
def test_nltks_reader_on_the_table_as_wordnet_files_answers_as_the_table_does(table: SynonymWordNet) -> None:
    with tempfile.TemporaryDirectory() as folder:
        nltk_reader = read_wordnet_directory(write_wordnet_files(table, os.path.join(folder, "wordnet")))
        asked, found, differ = sweep(nltk_reader, table)
    assert (asked, found) == (391_890, 389_882)
    assert not differ, f"{len(differ)} of {asked} words differ, e.g. {differ[:5]}"
