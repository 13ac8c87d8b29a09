"""The memoized ROUGE-1 of ``response_match_score`` gives rouge-score's exact floats, much faster.

Oracles: rouge-score's own ``RougeScorer`` (default tokenizer with the Porter stemmer on
ASCII text; with our :class:`UnicodeAwareTokenizer`, the readable un-memoized spec, on any
text) and the values google-adk computed (``tests/reference/adk_deterministic.json``).
Equality is exact (``==`` on floats), never approximate.
"""

import json
import random
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from rouge_score import rouge_scorer

from agent_evaluators.evaluators import response_match
from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator, UnicodeAwareTokenizer, rouge1

TABLE = json.loads((Path(__file__).resolve().parent.parent / "reference" / "adk_deterministic.json").read_text("utf-8"))
ROUGE: Dict[str, Dict[str, Any]] = {c["name"]: c for c in TABLE["rouge"]}

ASCII_WORDS = (
    "the running runner runs ran cats cat's caresses ponies flies dying agreed owned humbled sized meeting "
    "stating siezing itemization sensational traditional reference colonizer plotted generously weather "
    "Paris is sunny it's isn't don't 2024 3.14 1,000 x86_64 e-mail U.S.A. re-run, again; again! again? A I"
).split()
UNICODE_WORDS = (
    "café cafe naïve Straße ﬁnance ｆｕｌｌｗｉｄｔｈ ２０２４ ① Ⅻ 東京 天気 晴れ です。 カタカナ ひらがな 한국어 "
    "ภาษาไทย สวัสดี ລາວ ខ្មែរ မြန်မာ e\u0301t\u00e9 Ελληνικά русский עברית العربية 😀 ½ ² — … “quoted” ‘x’"
).split()
PUNCT = [",", ".", ";", ":", "!", "?", "(", ")", "-", "'", '"', "\n", "\t", "  ", "/", "&", "_", "#"]


def _text(rng: random.Random, words: List[str], n: int) -> str:
    out = []
    for _ in range(n):
        word = rng.choice(words)
        if rng.random() < 0.2:
            word = word.upper() if rng.random() < 0.5 else word.capitalize()
        if rng.random() < 0.3:
            word += rng.choice(PUNCT)
        if rng.random() < 0.1:
            word = " ".join([word] * rng.randint(2, 4))  # repeated words: counts, not sets
        out.append(word)
    return rng.choice(["", " "]).join(out) if rng.random() < 0.1 else " ".join(out)


def _pairs(words: List[str], count: int, seed: int) -> List[Tuple[str, str]]:
    rng = random.Random(seed)
    pairs = [("", ""), ("", "a"), ("the cat", ""), ("...", "!!!"), ("a an the", "a an the")]
    for _ in range(count):
        pairs.append((_text(rng, words, rng.randint(0, 40)), _text(rng, words, rng.randint(0, 40))))
    return pairs


def _triple(score: Any) -> Tuple[float, float, float]:
    return (score.precision, score.recall, score.fmeasure)


def _ours(candidate: str, reference: str) -> Tuple[float, float, float]:
    got = rouge1(candidate, reference)
    return (got["precision"], got["recall"], got["fmeasure"])


def test_ascii_texts_equal_rouge_scores_default_scorer_exactly() -> None:
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    for candidate, reference in _pairs(ASCII_WORDS, 600, seed=1):
        assert _ours(candidate, reference) == _triple(scorer.score(reference, candidate)["rouge1"]), (candidate, reference)


def test_any_text_equals_rouge_score_with_the_unicode_tokenizer_exactly() -> None:
    spec = UnicodeAwareTokenizer(use_stemmer=True)
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=spec)
    for candidate, reference in _pairs(ASCII_WORDS + UNICODE_WORDS, 600, seed=2):
        assert response_match._tokens(candidate) == spec.tokenize(candidate), candidate
        assert _ours(candidate, reference) == _triple(scorer.score(reference, candidate)["rouge1"]), (candidate, reference)


def test_random_code_points_tokenize_as_the_spec() -> None:
    """Any character at all (controls, surrogate-free planes, marks) maps as the per-character loop does."""
    rng = random.Random(3)
    spec = UnicodeAwareTokenizer(use_stemmer=True)
    for _ in range(200):
        text = "".join(chr(rng.choice([rng.randint(0, 0x2FFF), rng.randint(0xE000, 0x10FFFF)])) for _ in range(30))
        assert response_match._tokens(text) == spec.tokenize(text)


@pytest.mark.parametrize("case_name", [n for n, c in ROUGE.items() if "pair" in c])
def test_adk_reference_pairs_are_bit_identical(case_name: str) -> None:
    case = ROUGE[case_name]
    actual, expected = case["pair"]
    assert response_match._tokens(actual) == case["adk_tokens"]["actual"]
    assert response_match._tokens(expected) == case["adk_tokens"]["expected"]
    assert rouge1(actual, expected) == case["adk_rouge1"]


@pytest.mark.parametrize("case_name", list(ROUGE))
def test_adk_reference_scores_are_bit_identical(case_name: str) -> None:
    case = ROUGE[case_name]
    result: Dict[str, Any] = dict(ResponseMatchEvaluator()(response=case["actual"], ground_truth=case["expected"]))
    assert result["response_match_score"] == case["adk"]["score"]
    assert result["response_match_score_details"]["per_invocation_scores"] == case["adk"]["per_invocation_scores"]


def test_memos_are_bounded() -> None:
    info = response_match._ascii_word_tokens.cache_info()
    assert info.maxsize == response_match._WORD_MEMO_SIZE
    rng = random.Random(4)
    for _ in range(40):  # far more distinct words than a memo slot each would allow unbounded growth to show
        rouge1(" ".join(f"w{rng.getrandbits(64):x}ing" for _ in range(2000)), "reference")
    assert response_match._ascii_word_tokens.cache_info().currsize <= response_match._WORD_MEMO_SIZE
    rouge1("".join(chr(c) for c in range(0x4E00, 0x4E00 + 20000)), "x")
    assert len(response_match._CHARS) <= response_match._CHAR_MEMO_SIZE
    # Past the cap, answers stay right (computed, just not remembered).
    spec = UnicodeAwareTokenizer(use_stemmer=True)
    text = "".join(chr(c) for c in range(0xAC00, 0xAC00 + 300)) + " ภาษาไทย runs"
    assert response_match._tokens(text) == spec.tokenize(text)


def test_much_faster_than_rouge_score_on_the_same_texts() -> None:
    """A loose in-test bound (the machine is shared); bench/bench_deterministic.py checks 10x."""
    rng = random.Random(5)
    pairs = [(_text(rng, ASCII_WORDS * 5 + UNICODE_WORDS[:3], 150), _text(rng, ASCII_WORDS, 150)) for _ in range(150)]
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    for c, r in pairs:
        rouge1(c, r)  # warm the memo, as in a run of many rows

    def timed(fn: Any) -> float:
        start = time.perf_counter()
        for c, r in pairs:
            fn(c, r)
        return time.perf_counter() - start

    theirs = min(timed(lambda c, r: scorer.score(r, c)) for _ in range(2))
    ours = min(timed(rouge1) for _ in range(3))
    assert theirs / ours >= 5, f"rouge-score {theirs * 1000:.1f} ms vs ours {ours * 1000:.1f} ms"
