"""The NLP metrics from the command line: listed with their options, picked with ``-e NAME``, options
set with ``--option`` and in a run config's ``options`` (subprocesses, as a user's shell runs them)."""

import json

from .helpers import agent_eval, write_jsonl

NAMES = ("f1_score", "bleu_score", "gleu_score", "meteor_score", "rouge", "document_retrieval")
ROWS = [
    {"id": "close", "answer": "The cat sat on the mat.", "truth": "The cat is on the mat.",
     "labels": [{"document_id": "1", "query_relevance_label": 4}, {"document_id": "2", "query_relevance_label": 2}],
     "found": [{"document_id": "1", "relevance_score": 9.0}, {"document_id": "2", "relevance_score": 5.0}]},
    {"id": "far", "answer": "Dogs bark at night.", "truth": "The cat is on the mat.",
     "labels": [{"document_id": "1", "query_relevance_label": 4}],
     "found": [{"document_id": "7", "relevance_score": 9.0}]},
]


def _summary(out_dir):
    return json.loads((out_dir / "summary.json").read_text())["metrics"]


def test_list_shows_every_nlp_metric():
    r = agent_eval("list", "--json")
    assert r.rc == 0, r
    listed = json.loads(r.out)
    for name in NAMES:
        assert listed[name]["judge"] is False, name
    assert listed["rouge"]["options"][0] == "rouge_type='rouge1'"
    assert "ndcg_threshold=0.5" in listed["document_retrieval"]["options"]
    assert listed["document_retrieval"]["inputs"] == ["retrieval_ground_truth", "retrieved_documents"]


def test_run_by_name_with_an_option(tmp_path):
    data = write_jsonl(tmp_path / "runs.jsonl", ROWS)
    r = agent_eval("run", "--data", data, "-e", "f1_score=f1", "-e", "rouge", "--option", "rouge.rouge_type=rougeL",
                   "--map", "default.response=answer", "--map", "default.ground_truth=truth", "-o", tmp_path / "out")
    assert r.rc == 1, r  # the second row fails both
    metrics = _summary(tmp_path / "out")
    assert metrics["f1.pass_rate"] == 0.5 and metrics["rouge.pass_rate"] == 0.5
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    close = next(row for row in rows if row["inputs.id"] == "close")
    assert close["outputs.rouge.rouge_details"]["rouge_type"] == "rougeL"
    assert close["outputs.rouge.rouge"] == 5 / 6  # LCS 5 of 6 words each way
    bad = agent_eval("run", "--data", data, "-e", "rouge", "--option", "rouge.rouge_type=rouge9x",
                     "--map", "rouge.response=answer", "--map", "rouge.ground_truth=truth", "-o", tmp_path / "bad")
    assert bad.rc == 2 and "rouge_type" in bad.err, bad


def test_a_run_config_sets_document_retrieval_options(tmp_path):
    data = write_jsonl(tmp_path / "runs.jsonl", ROWS)
    cfg = tmp_path / "eval.yaml"
    cfg.write_text(f"data: {data}\nevaluators:\n  docs:\n    type: document_retrieval\n"
                   "    options: {ndcg_threshold: 0.9, ground_truth_label_max: 5}\n"
                   "    column_mapping:\n      retrieval_ground_truth: ${data.labels}\n"
                   "      retrieved_documents: ${data.found}\n"
                   "thresholds:\n  - docs.document_retrieval >= 0.5\n")
    r = agent_eval("run", "--config", cfg, "-o", tmp_path / "out")
    assert r.rc == 0, r  # the mean NDCG (1.0 and 0.0) meets the run threshold
    metrics = _summary(tmp_path / "out")
    assert metrics["docs.document_retrieval"] == 0.5 and metrics["docs.pass_rate"] == 0.5
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert {row["outputs.docs.document_retrieval_threshold"] for row in rows} == {0.9}
