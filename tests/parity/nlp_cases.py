"""Seeded text pairs and retrieval cases for the NLP differential test (``test_azure_1_18_nlp.py``).

Every kind of text the issue names is drawn: empty and blank strings, punctuation only,
accented and other non-ASCII Latin text, emoji, CJK, very long texts, and English prose
with what tokenizers trip on (abbreviations, sentence ends, quotes, contractions, numbers,
hyphens, URLs, markup, newlines). Pairs are related (a reference and an edited copy) or
unrelated, so the scores spread over [0, 1].
"""

import random
from typing import Any, Dict, List, Tuple

__all__ = ["text_pairs", "retrieval_cases"]

_WORDS = (
    "the a an cat dog sat on mat quickly slow house car drive fast engine feline canine big small run running ran "
    "runs happy happily sad agent tool call search flight book booked booking hotel Paris London weather "
    "forecast rain sunny cancel meeting 3pm tomorrow today user assistant answer question price cost total "
    "order shipped delivery refund policy account password reset email phone number is was were be been "
    "and or but not never always very really also because however therefore"
).split()
_ENDINGS = (".", "!", "?", "...", ";", ",", ":")
_TRICKY = (
    "Dr. Smith", "Mr. Jones", "U.S.A.", "e.g.", "i.e.", "etc.", "Jan. 5", "3.14", "1,000", "$3.50", "50%", "don't",
    "can't", "it's", "O'Neil", "\"quoted\"", "'single'", "(parens)", "[brackets]", "{braces}", "well-known",
    "state-of-the-art", "http://example.com/a?b=c", "a@b.com", "<b>bold</b>", "&amp;", "#tag", "C++", "--", "—",
    "``", "''", "No. 7", "p.m.", "a.m.", "vs.", "St. Louis", "Inc.", "Ltd.", "10:30", "2024-05-01",
    "the\x00end", "an\x1fapple", "a\x7fb", "the_thing", "\x0bthe\x0c", "A-the-an", "the\rcat",
)
_NON_ASCII = (
    "café", "naïve", "résumé", "Zürich", "São Paulo", "Ångström", "façade", "jalapeño", "crème brûlée",
    "Ελληνικά", "русский язык", "עברית", "العربية", "हिन्दी", "ไทย", "😀", "👍🏽", "€", "£5", "½", "…", "“smart quotes”",
    "‘single’", "–", "·", "™", "°C", "№", "\u00a0", "\u2028", "ﬁ",
)
_CJK = (
    "東京は大きい都市です。", "我喜欢学习中文。", "今日は晴れです", "한국어를 공부합니다.", "北京、上海和广州。",
    "これはテストです！", "你好，世界？", "ラーメンを食べた。", "漢字かなカナ", "１２３４５",
)
_PUNCT_ONLY = ("", " ", "\n", "\t \n", ".", "...", "!?", "--", "()", "''", '""', ".,;:!?", "***", "—", "。", "！？")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(1, 14))]
    for _ in range(rng.randint(0, 2)):
        words.insert(rng.randrange(len(words) + 1), rng.choice(_TRICKY))
    if rng.random() < 0.5:
        words[0] = words[0].capitalize()
    return " ".join(words) + rng.choice(_ENDINGS)


def _english(rng: random.Random, sentences: int) -> str:
    sep = rng.choice((" ", " ", "  ", "\n", " \n"))
    return sep.join(_sentence(rng) for _ in range(sentences))


def _edited(rng: random.Random, text: str) -> str:
    """A copy of ``text`` with some words dropped, swapped or replaced."""
    words = text.split(" ")
    out = []
    for w in words:
        r = rng.random()
        if r < 0.1:
            continue
        if r < 0.2:
            out.append(rng.choice(_WORDS))
        elif r < 0.25:
            out.append(w.upper())
        else:
            out.append(w)
    if len(out) > 3 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(out)


def _text(rng: random.Random, kind: str) -> str:
    if kind == "empty":
        return rng.choice(("", "", " ", "\n"))
    if kind == "punct":
        return rng.choice(_PUNCT_ONLY)
    if kind == "unicode":
        parts = _english(rng, rng.randint(1, 3)).split(" ")
        for _ in range(rng.randint(1, 4)):
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(_NON_ASCII))
        return " ".join(parts)
    if kind == "cjk":
        pieces = [rng.choice(_CJK) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:
            pieces.append(_sentence(rng))
        return rng.choice(("", " ")).join(pieces)
    if kind == "long":
        return _english(rng, rng.randint(60, 90))
    return _english(rng, rng.randint(1, 4))


_KINDS = ("english",) * 10 + ("unicode",) * 3 + ("cjk",) * 2 + ("punct", "empty")


def text_pairs(n: int, seed: int = 24, long_every: int = 100) -> List[Tuple[str, str]]:
    """``n`` seeded ``(response, ground_truth)`` pairs; one in ``long_every`` is a very long text."""
    rng = random.Random(seed)
    pairs = []
    for i in range(n):
        kind = "long" if i % long_every == long_every - 1 else rng.choice(_KINDS)
        reference = _text(rng, kind)
        r = rng.random()
        if r < 0.55:
            response = _edited(rng, reference)
        elif r < 0.65:
            response = reference
        else:
            response = _text(rng, rng.choice(_KINDS))
        pairs.append((response, reference) if rng.random() < 0.8 else (reference, response))
    return pairs


def retrieval_cases(n: int, seed: int = 24) -> List[Dict[str, Any]]:
    """``n`` seeded DocumentRetrieval cases: ``options`` (label range, thresholds) and the two inputs.

    Drawn: no retrieved documents, nothing labelled retrieved, unlabelled retrieved documents
    (holes), duplicate ids on either side, ties in scores, int and float scores, label ranges
    past 9 (where azure orders fidelity's label counts by their text), custom thresholds."""
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        low = rng.choice((0, 0, 0, 1, -2))
        high = rng.choice((4, 4, 3, 12, low + 1))
        high = max(high, max(low, 0) + 1)  # labels are drawn from [max(low, 0), high]
        docs = [f"doc{i}" for i in range(rng.randint(1, 15))]
        labelled = rng.sample(docs, rng.randint(1, len(docs)))
        qrels = [{"document_id": d, "query_relevance_label": rng.randint(max(low, 0), high)} for d in labelled]
        if rng.random() < 0.1:
            qrels.append(dict(rng.choice(qrels), query_relevance_label=rng.randint(max(low, 0), high)))
        pool = docs + [f"other{i}" for i in range(rng.randint(0, 4))]
        retrieved = [] if rng.random() < 0.05 else rng.sample(pool, rng.randint(1, len(pool)))
        results = []
        for d in retrieved:
            score: Any = rng.choice((rng.randint(0, 5), round(rng.uniform(0, 10), 3)))
            results.append({"document_id": d, "relevance_score": score})
        if results and rng.random() < 0.1:
            results.append(dict(rng.choice(results)))
        options: Dict[str, Any] = {"ground_truth_label_min": low, "ground_truth_label_max": high}
        if rng.random() < 0.3:
            options.update(ndcg_threshold=rng.choice((0.3, 0.7, 0.9)), xdcg_threshold=rng.choice((10.0, 30.0)),
                           fidelity_threshold=rng.choice((0.2, 0.8)), top1_relevance_threshold=rng.choice((1.0, 3.0)),
                           top3_max_relevance_threshold=2.0, total_retrieved_documents_threshold=5,
                           total_ground_truth_documents_threshold=3)
        cases.append({"options": options, "retrieval_ground_truth": qrels, "retrieved_documents": results})
    return cases
