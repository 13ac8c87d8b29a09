"""The NLP metrics at the top level, in our result shape: values worked out by hand, options,
errors, message inputs, ``evaluate()``, and the two import paths of every name.

Their agreement with azure-ai-evaluation 1.18.10 on generated inputs is
``tests/parity/test_azure_1_18_nlp.py``."""

import math

import pytest

import agent_evaluators
from agent_evaluators import (
    BleuScoreEvaluator,
    DocumentRetrievalEvaluator,
    F1ScoreEvaluator,
    GleuScoreEvaluator,
    MeteorScoreEvaluator,
    RougeScoreEvaluator,
    RougeType,
    evaluate,
)
from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.evaluators.nlp.rouge import lcs_length
from tests.conftest import optional_import

NAMES = ("F1ScoreEvaluator", "BleuScoreEvaluator", "GleuScoreEvaluator", "MeteorScoreEvaluator",
         "RougeScoreEvaluator", "RougeType", "DocumentRetrievalEvaluator")


@pytest.mark.parametrize("name", NAMES)
def test_every_name_imports_from_both_layers(name):
    import agent_evaluators.azure as azure_layer

    assert hasattr(agent_evaluators, name) and name in dir(agent_evaluators)
    assert (name in agent_evaluators.__all__) is (name != "RougeType")  # __all__: evaluators and the run API
    assert hasattr(azure_layer, name) and name in azure_layer.__all__


def test_f1_counts_shared_words_after_azures_normalization():
    # "The cat sat." -> [cat, sat]; "a cat sat down" -> [cat, sat, down]: precision 1, recall 2/3
    out = F1ScoreEvaluator()(response="The cat sat.", ground_truth="a cat sat down")
    assert out["f1_score"] == pytest.approx(0.8)
    assert out["f1_score_result"] == "pass" and out["f1_score_threshold"] == 0.5
    assert out["f1_score_details"] == {"precision": 1.0, "recall": pytest.approx(2 / 3)}
    assert "0.800" in out["f1_score_reason"]
    assert F1ScoreEvaluator(threshold=0.9)(response="The cat sat.", ground_truth="a cat sat down")["f1_score_result"] == "fail"


def test_f1_scores_empty_and_article_only_texts_zero():
    for response, truth in (("", ""), ("the a an", "the"), ("...", "!!!"), ("cat", "")):
        assert F1ScoreEvaluator()(response=response, ground_truth=truth)["f1_score"] == 0.0


def test_f1_keeps_azures_odd_word_boundaries_outside_plain_ascii():
    # azure removes \b(a|an|the)\b with a regex: "the—end" loses "the" (the dash is not a word character)
    assert F1ScoreEvaluator()(response="the—end", ground_truth="—end")["f1_score"] == 1.0
    assert F1ScoreEvaluator()(response="the\x00end", ground_truth="\x00end")["f1_score"] == 1.0


def test_a_message_list_is_scored_on_its_final_answer():
    messages = [{"role": "user", "content": "Where is the cat?"},
                {"role": "assistant", "content": "The cat sat."}]
    out = F1ScoreEvaluator()(response=messages, ground_truth="a cat sat down")
    assert out["f1_score"] == pytest.approx(0.8)


def test_a_number_is_not_text():
    with pytest.raises(InputError) as e:
        F1ScoreEvaluator()(response=3, ground_truth="x")
    assert "F1ScoreEvaluator" in str(e.value) and "response" in str(e.value)


def test_rouge_writes_precision_recall_and_f1_with_their_thresholds():
    ev = RougeScoreEvaluator(RougeType.ROUGE_2, precision_threshold=0.2, recall_threshold=0.9, f1_score_threshold=0.3)
    # bigrams: response (the cat)(cat sat)(sat on)(on the)(the mat) vs truth (the cat)(cat is)(is on)(on the)(the mat)
    out = ev(response="The cat sat on the mat.", ground_truth="The cat is on the mat.")
    assert out["rouge"] == out["rouge_f1_score"] == pytest.approx(0.6)
    assert out["rouge_precision"] == out["rouge_recall"] == pytest.approx(0.6)
    assert (out["rouge_precision_result"], out["rouge_recall_result"], out["rouge_f1_score_result"]) == ("pass", "fail", "pass")
    assert (out["rouge_precision_threshold"], out["rouge_recall_threshold"], out["rouge_f1_score_threshold"]) == (0.2, 0.9, 0.3)
    assert out["rouge_result"] == "pass" and out["rouge_threshold"] == 0.3
    assert out["rouge_details"]["rouge_type"] == "rouge2"


def test_rouge_types_by_enum_or_name_and_a_wrong_one_refused():
    texts = {"response": "a b c d e f", "ground_truth": "a b x d e f"}
    assert RougeScoreEvaluator("rougeL")(**texts)["rouge"] == RougeScoreEvaluator(RougeType.ROUGE_L)(**texts)["rouge"]
    assert RougeScoreEvaluator("rouge5")(**texts)["rouge"] == 0.0
    with pytest.raises(ConfigError) as e:
        RougeScoreEvaluator("rougeLsum")
    assert "rouge_type" in str(e.value) and "rouge5" in str(e.value)


def test_bit_parallel_lcs_equals_the_textbook_table():
    import random

    rng = random.Random(3)
    for _ in range(300):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 40))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 40))]
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
        assert lcs_length(a, b) == table[-1][-1]


RETRIEVED = [{"document_id": "2", "relevance_score": 9.0}, {"document_id": "1", "relevance_score": 5.0},
             {"document_id": "3", "relevance_score": 1.0}]
LABELS = [{"document_id": "1", "query_relevance_label": 4}, {"document_id": "2", "query_relevance_label": 2}]


def test_document_retrieval_by_hand():
    out = DocumentRetrievalEvaluator()(retrieval_ground_truth=LABELS, retrieved_documents=RETRIEVED)
    # ranked labels [2, 4, 0]; DCG = 3/log2(2) + 15/log2(3); ideal [4, 2] = 15/log2(2) + 3/log2(3)
    ndcg = (3 + 15 / math.log2(3)) / (15 + 3 / math.log2(3))
    assert out["document_retrieval"] == pytest.approx(ndcg)
    details = out["document_retrieval_details"]
    assert details["xdcg@3"] == pytest.approx(25 * (2 + 4 * 0.6) / (1 + 0.6 + 0.36))
    assert (details["top1_relevance"], details["top3_max_relevance"], details["holes"]) == (2, 4, 1)
    assert details["holes_ratio"] == pytest.approx(1 / 3) and details["fidelity"] == 1.0
    assert details["holes_result"] == "fail" and details["holes_threshold"] == 0
    assert out["document_retrieval_result"] == "pass"


def test_document_retrieval_refuses_bad_inputs_naming_them():
    ev = DocumentRetrievalEvaluator()
    with pytest.raises(InputError, match="retrieval_ground_truth"):
        ev(retrieval_ground_truth=[], retrieved_documents=RETRIEVED)
    with pytest.raises(InputError, match="ground_truth_label_min/max"):
        ev(retrieval_ground_truth=[{"document_id": "1", "query_relevance_label": 9}], retrieved_documents=RETRIEVED)
    with pytest.raises(InputError, match="relevance_score"):
        ev(retrieval_ground_truth=LABELS, retrieved_documents=[{"document_id": "1", "relevance_score": "high"}])
    with pytest.raises(ConfigError, match="ground_truth_label_max"):
        DocumentRetrievalEvaluator(ground_truth_label_min=3, ground_truth_label_max=3)


def test_nlp_metrics_run_in_evaluate():
    rows = [{"response": "The cat sat on the mat.", "ground_truth": "The cat is on the mat.",
             "retrieval_ground_truth": LABELS, "retrieved_documents": RETRIEVED}]
    result = evaluate(data=rows, evaluators={"f1": F1ScoreEvaluator(), "rouge": RougeScoreEvaluator("rougeL"),
                                             "docs": DocumentRetrievalEvaluator()})
    assert result.metrics["f1.f1_score"] == pytest.approx(F1ScoreEvaluator()(
        response=rows[0]["response"], ground_truth=rows[0]["ground_truth"])["f1_score"])
    assert result.metrics["rouge.rouge"] == pytest.approx(5 / 6)
    assert result.metrics["docs.pass_rate"] == 1.0


def _tokenizer_packages():
    optional_import("punkt")
    optional_import("sacremoses")


def test_tokens_written_out():
    """azure's nltk_tokenize on these texts (NLTK 3.10 with its punkt_tab / perluniprops data): the tokens
    are written out here, so the tokenizer is checked even where azure cannot run."""
    _tokenizer_packages()
    from agent_evaluators.evaluators.nlp.tokenize import nltk_tokens

    assert nltk_tokens('Dr. Smith went to Washington. He said "hi!" It cost $3.50, didn\'t it?') == [
        "Dr.", "Smith", "went", "to", "Washington", ".", "He", "said", "``", "hi", "!", "''", "It", "cost", "$",
        "3.50", ",", "did", "n't", "it", "?"]
    assert nltk_tokens("Café au lait costs 3,50€. 東京は大きい。 (hello)") == [
        "Caf", "é", "au", "lait", "costs", "3,50", "€", ".", "東京は大きい", "。", "(", "hello", ")"]
    assert nltk_tokens("") == [] and nltk_tokens("...") == ["..."]


def test_bleu_and_gleu_score_identical_texts_one_and_disjoint_texts_zero():
    _tokenizer_packages()
    text = "The quick brown fox jumps over the lazy dog."
    for ev, key in ((BleuScoreEvaluator(), "bleu_score"), (GleuScoreEvaluator(), "gleu_score")):
        assert ev(response=text, ground_truth=text)[key] == pytest.approx(1.0)
        out = ev(response="alpha beta gamma delta", ground_truth=text)
        assert out[key] == 0.0 and out[f"{key}_result"] == "fail" and isinstance(out[key], float)


def test_meteor_matches_synonyms_through_wordnet():
    _tokenizer_packages()
    ev = MeteorScoreEvaluator()
    assert ev(response="The cat sat on the mat.", ground_truth="The cat sat on the mat.")["meteor_score"] > 0.99
    # "auto" matches "car" only through WordNet (one synset): the synonym stage lifts the score. (NLTK looks
    # synonyms up on the words the stem stage left, as stems: "automobile" is looked up as "automobil" and
    # finds nothing, in azure as here.)
    synonym = ev(response="The auto is red.", ground_truth="The car is red.")["meteor_score"]
    unrelated = ev(response="The spoon is red.", ground_truth="The car is red.")["meteor_score"]
    assert synonym > unrelated
    assert repr(MeteorScoreEvaluator(alpha=0.8)) == "MeteorScoreEvaluator(threshold=0.5, alpha=0.8)"


METEOR_OPENS = r"""
import json, os, sys
opened = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from agent_evaluators import MeteorScoreEvaluator
ev = MeteorScoreEvaluator()
scores = [ev(response=r, ground_truth="The car is red.")["meteor_score"] for r in ("The auto is red.", "The spoon is red.")]
print(json.dumps({"scores": scores, "opened": opened}))
"""


def test_meteor_reads_wordnet_only_from_the_package(tmp_path):
    """No WordNet of the machine's is read (``/usr/share/wordnet``, NLTK's ``corpora/wordnet``): a fresh
    interpreter, NLTK's data path pointed at an empty folder, records every file it opens (an audit hook)
    while METEOR scores a pair only WordNet matches; the one WordNet file opened is the package's table."""
    import json
    import os
    import subprocess
    import sys

    from agent_evaluators.evaluators.nlp.wordnet import TABLE_FILE

    _tokenizer_packages()
    env = dict(os.environ, NLTK_DATA=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", METEOR_OPENS], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    synonym, unrelated = result["scores"]
    assert synonym > unrelated  # the synonym stage ran
    data_files = [p for p in result["opened"] if "wordnet" in p.lower() and not p.endswith((".py", ".pyc"))]
    assert data_files == [str(TABLE_FILE)]
