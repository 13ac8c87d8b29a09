"""``ResponseMatchEvaluator``: ROUGE-1 overlap of the final answer with the expected one (ADK's ``response_match_score``).

The scorer is ``rouge-score``'s ROUGE-1 F-measure, called as ``score(reference,
candidate)``, with stemming and the Unicode-aware tokenization of google-adk ≥ 2.6
(:class:`UnicodeAwareTokenizer`), so Japanese, Chinese, Korean and Thai answers score
as ADK scores them instead of 0.
"""

import functools
import unicodedata
from collections import Counter
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from ..errors import InputError
from .base import Evaluator, Outcome

TextInput = Union[str, List[Any], Dict[str, Any]]

# One character per token: CJK ideographs, Hiragana, Katakana, Hangul syllables.
_PER_CHARACTER = ((0x4E00, 0x9FFF), (0x3040, 0x309F), (0x30A0, 0x30FF), (0xAC00, 0xD7AF))
# Written without spaces, split into grapheme clusters (base + marks): Thai, Lao, Khmer, Myanmar.
_PER_CLUSTER = ((0x0E00, 0x0E7F), (0x0E80, 0x0EFF), (0x1780, 0x17FF), (0x1000, 0x109F))


def _in(ranges: Tuple[Tuple[int, int], ...], char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in ranges)


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


class UnicodeAwareTokenizer:
    """The tokenization of google-adk ≥ 2.6's ``response_match_score``.

    1. NFKC-normalize and lowercase;
    2. CJK characters become one token each; Thai / Lao / Khmer / Myanmar start a new
       token at every base character and keep their combining marks attached;
       other alphanumerics and combining marks are kept; everything else separates;
    3. ASCII words go through rouge-score's default tokenizer with the Porter stemmer
       (which stems only tokens longer than 3 characters); other words stay whole and
       unstemmed (``café`` ≠ ``cafe``).

    rouge-score's own tokenizer drops everything outside ``[a-z0-9]``, which is why
    ADK before 2.6 scored every CJK answer 0.
    """

    def __init__(self, use_stemmer: bool = True) -> None:
        from rouge_score import tokenizers

        self._ascii = tokenizers.DefaultTokenizer(use_stemmer=use_stemmer)

    def tokenize(self, text: str) -> List[str]:
        text = unicodedata.normalize("NFKC", text).lower()
        pieces: List[str] = []
        for char in text:
            if _in(_PER_CHARACTER, char):
                pieces.extend((" ", char, " "))
            elif _in(_PER_CLUSTER, char):
                pieces.append(char if _is_mark(char) else " " + char)
            elif char.isalnum() or _is_mark(char):
                pieces.append(char)
            else:
                pieces.append(" ")
        tokens: List[str] = []
        for word in "".join(pieces).split():
            if word.isascii():
                tokens.extend(self._ascii.tokenize(word))
            else:
                tokens.append(word)
        return tokens


# ---------------------------------------------------------------------------- fast path
# ``rouge1`` below gives exactly the numbers of ``RougeScorer(["rouge1"],
# tokenizer=UnicodeAwareTokenizer(use_stemmer=True)).score`` (itself identical to
# ``RougeScorer(["rouge1"], use_stemmer=True)`` on ASCII text) at a fraction of the cost.
# Almost all of rouge-score's time is nltk's Porter stemmer, re-run on every occurrence of
# every word, plus a per-character Python loop in the tokenizer. Both are pure functions of
# their input, so they are memoized (with caps, to keep memory bounded) rather than
# re-implemented: the stems still come from rouge-score's own tokenizer and stemmer instance.

#: Distinct words whose rouge-score tokens are remembered (a word is a few dozen bytes).
_WORD_MEMO_SIZE = 1 << 16
#: Distinct code points whose tokenizer mapping is remembered (text rarely uses more than a few thousand).
_CHAR_MEMO_SIZE = 1 << 14


class _CharMap(Dict[int, str]):
    """``str.translate`` table doing step 2 of :class:`UnicodeAwareTokenizer` one character at a time.

    What a character becomes depends on that character alone, so the answer is computed on
    first sight (by the same rules as the tokenizer loop) and remembered, up to a cap.
    """

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if _in(_PER_CHARACTER, char):
            piece = " " + char + " "
        elif _in(_PER_CLUSTER, char):
            piece = char if _is_mark(char) else " " + char
        elif char.isalnum() or _is_mark(char):
            piece = char
        else:
            piece = " "
        if len(self) < _CHAR_MEMO_SIZE:
            self[code] = piece
        return piece


_CHARS = _CharMap()
_ASCII_TOKENIZER: Any = None


@functools.lru_cache(maxsize=_WORD_MEMO_SIZE)
def _ascii_word_tokens(word: str) -> Tuple[str, ...]:
    """rouge-score's own tokens (stemmed) for one ASCII word, memoized: stemming is the cost."""
    global _ASCII_TOKENIZER
    if _ASCII_TOKENIZER is None:  # rouge-score imports nltk: load it on first use, not at import
        from rouge_score import tokenizers

        _ASCII_TOKENIZER = tokenizers.DefaultTokenizer(use_stemmer=True)
    return tuple(_ASCII_TOKENIZER.tokenize(word))


#: Characters of the tokenizer's output split into words at a time: a 50 MB answer is ten million
#: words, and a list of them all would cost about 600 MB where their counts cost a few.
_SPLIT_CHUNK = 1 << 20


def _words(spaced: str) -> Iterator[List[str]]:
    """The words of ``spaced`` (step 2's output, where only ``" "`` separates), a chunk at a time."""
    start, n = 0, len(spaced)
    while start < n:
        end = spaced.find(" ", start + _SPLIT_CHUNK) if start + _SPLIT_CHUNK < n else -1
        end = n if end == -1 else end
        yield spaced[start:end].split()
        start = end


def _spaced(text: str) -> str:
    """Steps 1 and 2 of :class:`UnicodeAwareTokenizer`: words separated by ``" "``, nothing else."""
    return unicodedata.normalize("NFKC", text).lower().translate(_CHARS)


def _word_tokens(word: str) -> Tuple[str, ...]:
    """Step 3 for one word: rouge-score's stemmed tokens of an ASCII word, any other word whole."""
    return _ascii_word_tokens(word) if word.isascii() else (word,)


def _tokens(text: str) -> List[str]:
    """Exactly ``UnicodeAwareTokenizer(use_stemmer=True).tokenize(text)``, with memoized steps."""
    return [token for word in _spaced(text).split() for token in _word_tokens(word)]


def _token_counts(text: str) -> Counter:
    """``Counter(_tokens(text))`` in memory proportional to the distinct words, not to the text's length."""
    words: Counter = Counter()
    for chunk in _words(_spaced(text)):
        words.update(chunk)
    counts: Counter = Counter()
    for word, n in words.items():
        for token in _word_tokens(word):
            counts[token] += n
    return counts


def rouge1(candidate: str, reference: str) -> Dict[str, float]:
    """ROUGE-1 ``precision``, ``recall`` and ``fmeasure`` of ``candidate`` against ``reference``.

    The same arithmetic, in the same order, as rouge-score's ``_score_ngrams`` and
    ``scoring.fmeasure``, so the floats are bit-identical. Both empty gives 0.0, as in ADK
    (an expected answer with no text can never pass).
    """
    target = _token_counts(reference)
    prediction = _token_counts(candidate)
    overlap = 0
    for token in target:
        overlap += min(target[token], prediction[token])
    precision = overlap / max(sum(prediction.values()), 1)
    recall = overlap / max(sum(target.values()), 1)
    fmeasure = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {"precision": precision, "recall": recall, "fmeasure": fmeasure}


class ResponseMatchEvaluator(Evaluator):
    """ROUGE-1 F-measure between the response and the ground truth, as ADK's ``response_match_score``.

    Key ``response_match_score``; inputs ``response`` and ``ground_truth``; score in
    [0, 1]; default threshold 0.8.

    Each input may be a string, a message list (the last non-empty assistant text is the
    answer; none → ``""``), or ADK invocations (the final response text). When both are
    ADK invocation lists, each pair is scored and the score is their mean, as ADK;
    different lengths are an ``InputError``. Empty against empty scores 0.0, as ADK.
    """

    result_key = "response_match_score"
    score_scale = (0.0, 1.0)
    default_threshold = 0.8

    def __init__(self, threshold: float = 0.8) -> None:
        super().__init__(threshold=threshold)

    def _evaluate(self, *, response: TextInput, ground_truth: TextInput) -> Outcome:
        actual = _texts(response, "response")
        expected = _texts(ground_truth, "ground_truth")
        if actual.per_invocation and expected.per_invocation:
            if len(actual.texts) != len(expected.texts):
                raise InputError(
                    f"response has {len(actual.texts)} invocation(s) but ground_truth has {len(expected.texts)}; "
                    "ADK compares invocations pairwise, so the lists must have the same length",
                    input_name="ground_truth",
                )
            scores = [rouge1(a, e) for a, e in zip(actual.texts, expected.texts)]
            mean = sum(s["fmeasure"] for s in scores) / len(scores)
            details = {"per_invocation": scores, "per_invocation_scores": [s["fmeasure"] for s in scores]}
            reason = f"mean ROUGE-1 F-measure over {len(scores)} invocation(s)"
            return Outcome(mean, reason, details)
        for side in (actual, expected):
            if side.per_invocation and len(side.texts) != 1:
                raise InputError(
                    f"{side.name} holds {len(side.texts)} ADK invocations but the other input is a single answer; "
                    "pass ADK invocations on both sides to score them pairwise",
                    input_name=side.name,
                )
        single = rouge1(actual.texts[0], expected.texts[0])
        reason = (
            f"ROUGE-1 F-measure {single['fmeasure']:.3f} (precision {single['precision']:.3f}, recall {single['recall']:.3f})"
        )
        if not actual.texts[0].strip() and not expected.texts[0].strip():
            reason = "both texts are empty; ADK scores that 0.0"
        return Outcome(single["fmeasure"], reason, single)


class _Texts:
    def __init__(self, name: str, texts: List[str], per_invocation: bool) -> None:
        self.name, self.texts, self.per_invocation = name, texts, per_invocation


def _texts(value: Any, name: str) -> _Texts:
    """The answer text(s) of one input."""
    if isinstance(value, str):
        return _Texts(name, [value], False)
    from ..conversation.recorded_turns import read_recorded_turns

    turns = read_recorded_turns(value, input_name=name)
    if turns is not None:
        return _Texts(name, [turn.final_text for turn in turns], True)
    from ..conversation import final_text, to_messages

    text: Optional[str] = final_text(to_messages(value, input_name=name))
    return _Texts(name, [text or ""], False)
