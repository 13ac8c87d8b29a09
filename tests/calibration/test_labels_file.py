"""labels.jsonl: append-only, each annotator's last word per cell wins, torn lines skipped."""

import json
import multiprocessing
import os

import pytest

from agent_evaluators.calibration.labels import (
    LABELS_FILE,
    Label,
    append_label,
    iter_labels,
    labels_by_cell,
    latest_labels,
)


def test_the_last_label_of_an_annotator_wins_and_an_undo_is_a_new_line(tmp_path):
    append_label(tmp_path, Label(1, "task_adherence", "pass", "ana"))
    append_label(tmp_path, Label(1, "task_adherence", "fail", "ana", reason="ignored the refund rule"))
    append_label(tmp_path, Label(2, "task_adherence", "pass", "ana"))
    append_label(tmp_path, Label(2, "task_adherence", "unlabelled", "ana"))  # undo back to nothing
    append_label(tmp_path, Label(1, "task_adherence", "pass", "bo"))

    lines = (tmp_path / LABELS_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5, "nothing is rewritten: every answer is a new line"
    first = json.loads(lines[0])
    assert set(first) == {"line_number", "evaluator", "label", "annotator", "reason", "time"}
    assert first["time"].endswith("+00:00")

    latest = latest_labels(tmp_path)
    assert set(latest) == {("ana", 1, "task_adherence"), ("bo", 1, "task_adherence")}
    assert latest[("ana", 1, "task_adherence")].label == "fail"
    assert latest[("ana", 1, "task_adherence")].reason == "ignored the refund rule"
    assert set(latest_labels(tmp_path, annotator="bo")) == {("bo", 1, "task_adherence")}
    assert [x.annotator for x in labels_by_cell(tmp_path)[(1, "task_adherence")]] == ["ana", "bo"]


def test_a_torn_last_line_is_skipped_not_fatal(tmp_path):
    append_label(tmp_path, Label(3, "coherence", "skip", "ana"))
    with open(tmp_path / LABELS_FILE, "ab") as f:
        f.write(b'{"line_number": 4, "evaluator": "coh')  # a crash mid-write
    assert [(x.line_number, x.label) for x in iter_labels(tmp_path)] == [(3, "skip")]


@pytest.mark.parametrize("bad", [dict(label="maybe"), dict(annotator="")])
def test_a_label_outside_the_vocabulary_is_refused(bad):
    with pytest.raises(ValueError):
        Label(**{**dict(line_number=1, evaluator="a", label="pass", annotator="ana"), **bad})


def _label_many(folder: str, name: str) -> None:
    for line in range(200):
        append_label(folder, Label(line, "a", "pass", name, reason="x" * 300))


def test_two_people_labelling_at_once_leave_only_whole_lines(tmp_path):
    procs = [multiprocessing.Process(target=_label_many, args=(str(tmp_path), n)) for n in ("ana", "bo")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    raw = (tmp_path / LABELS_FILE).read_bytes().splitlines()
    assert len(raw) == 400 and all(json.loads(x)["reason"] == "x" * 300 for x in raw)
    assert len(latest_labels(tmp_path)) == 400
    assert os.path.getsize(tmp_path / LABELS_FILE) == sum(len(x) + 1 for x in raw)
