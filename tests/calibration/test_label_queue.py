"""The labelling queue: which cells a person is asked, in what order (agent_evaluators.calibration.label_queue)."""

import random

import pytest

from agent_evaluators.calibration.label_queue import Candidate, order_queue


def _cells(n_pass, n_fail, alias="intent", start=0, **kw):
    out = [Candidate(start + i, alias, "pass", **kw) for i in range(n_pass)]
    return out + [Candidate(start + n_pass + i, alias, "fail", **kw) for i in range(n_fail)]


def test_cells_without_a_verdict_and_cells_labelled_before_are_left_out_and_counted():
    cells = _cells(3, 2) + [Candidate(10, "intent", "error"), Candidate(11, "intent", "not_applicable"),
                            Candidate(12, "intent", "not_run"), Candidate(13, "intent", "none"),
                            Candidate(14, "intent", "error")]
    q = order_queue(cells, labelled=[(0, "intent"), (4, "intent"), (99, "other")])
    assert sorted(q.cells) == [(1, "intent"), (2, "intent"), (3, "intent")]
    assert q.left_out == {"error": 2, "not_applicable": 1, "not_run": 1, "no_verdict": 1, "already_labelled": 2}
    assert q.strata == {"pass": 2, "fail": 1}


def test_both_verdicts_come_early_and_every_prefix_keeps_the_runs_mix():
    q = order_queue(_cells(80, 20))
    verdicts = ["pass" if line < 80 else "fail" for line, _ in q.cells]
    assert set(verdicts[:2]) == {"pass", "fail"}
    for k in range(2, len(verdicts) + 1):  # at the run's 20% share, give or take the one pulled forward
        assert abs(verdicts[:k].count("fail") - 0.2 * k) <= 1.0, (k, verdicts[:k])
    assert len(q.cells) == 100 and len(set(q.cells)) == 100


def test_limit_takes_the_head_of_the_whole_order():
    whole = order_queue(_cells(30, 10))
    head = order_queue(_cells(30, 10), limit=8)
    assert head.cells == whole.cells[:8]
    assert head.strata == {"pass": 6, "fail": 2}
    with pytest.raises(ValueError, match="at least 1"):
        order_queue(_cells(1, 1), limit=0)


def test_a_panel_split_then_the_scores_nearest_the_threshold_come_first_in_a_stratum():
    cells = [Candidate(i, "intent", "pass", score=s, threshold=3.0, span=4.0) for i, s in
             enumerate([5, 4, 3, 5, 4, 3, 5])]
    cells[6] = Candidate(6, "intent", "pass", score=5, threshold=3.0, span=4.0, disagreement=True)
    q = order_queue(cells)
    assert q.cells[0] == (6, "intent")  # the panel split, though its score is far from the threshold
    assert sorted(q.cells[1:3]) == [(2, "intent"), (5, "intent")]  # at the threshold (within a tenth of the scale)
    assert sorted(q.cells[3:]) == [(0, "intent"), (1, "intent"), (3, "intent"), (4, "intent")]


def test_a_borderline_score_is_ordered_by_its_distance_on_a_continuous_scale():
    scores = [0.9, 0.52, 0.2, 0.58, 0.5, 0.75, 0.61]
    cells = [Candidate(i, "sim", "pass" if s >= 0.5 else "fail", score=s, threshold=0.5, span=1.0)
             for i, s in enumerate(scores)]
    q = order_queue(cells)
    passing = [line for line, _ in q.cells if scores[line] >= 0.5]
    assert passing[:3] == [4, 1, 3]  # 0.5, 0.52, 0.58: within 0.1 of the threshold, nearest first
    assert set(passing[3:]) == {0, 5, 6}  # 0.61 is past the tenth: in the fixed order with the rest


def test_binary_scores_have_no_borderline_tier():
    # scores 0/1 with threshold 1: every pass sits "at" the threshold; the fixed order decides, not the score
    cells = [Candidate(i, "exact", "pass" if i % 2 else "fail", score=float(i % 2), threshold=1.0, span=1.0)
             for i in range(40)]
    plain = [Candidate(c.line_number, c.evaluator, c.status) for c in cells]
    assert order_queue(cells).cells == order_queue(plain).cells


def test_the_order_is_fixed_whatever_order_the_cells_come_in_and_the_seed_changes_it():
    cells = _cells(25, 15) + _cells(25, 15, alias="task")
    shuffled = cells[:]
    random.Random(7).shuffle(shuffled)
    assert order_queue(cells).cells == order_queue(shuffled).cells
    assert order_queue(cells, seed=1).cells != order_queue(cells).cells
    lines = [line for line, _ in order_queue(cells).cells[:20]]
    assert lines != sorted(lines)  # not the file's order: the fixed pseudo-random one


def test_every_evaluators_passes_and_fails_are_asked_early_and_in_proportion():
    # intent: 45 pass, 5 fail; task: 30 pass, 20 fail -> the first four picks hold one of each stratum
    cells = _cells(45, 5) + _cells(30, 20, alias="task", start=100)
    q = order_queue(cells, limit=20)
    head = [(alias, "pass" if (line < 45 or 100 <= line < 130) else "fail") for line, alias in q.cells]
    assert set(head[:4]) == {("intent", "pass"), ("intent", "fail"), ("task", "pass"), ("task", "fail")}
    assert [head.count(s) for s in [("intent", "pass"), ("intent", "fail"), ("task", "pass"), ("task", "fail")]] \
        == [9, 1, 6, 4]  # 20 picks at shares 45/100, 5/100, 30/100, 20/100
    assert q.strata == {"pass": 15, "fail": 5}
