"""``agent-eval compare`` of two runs with no evaluator in common compares nothing: that is bad input
(exit 2 with a message), never a passed regression gate."""

from tests.cli.helpers import agent_eval, write_jsonl

ROWS = [{"id": f"r{i}", "response": f"the answer is {i}", "ground_truth": f"the answer is {i % 3}"} for i in range(6)]


def _run(tmp_path, evaluator, name):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    r = agent_eval("run", "--data", data, "-e", evaluator, "-o", tmp_path / name)
    assert r.rc in (0, 1), r
    return tmp_path / name


def test_runs_with_no_evaluator_in_common_exit_2_and_say_nothing_was_compared(tmp_path):
    a = _run(tmp_path, "f1_score=f1", "a")
    b = _run(tmp_path, "bleu_score=bleu", "b")
    for extra in ((), ("--fail-on-regression",), ("--json", "--fail-on-regression")):
        r = agent_eval("compare", a, b, *extra)
        assert r.rc == 2, r
        assert "nothing to compare" in r.err and "no evaluator metric in common" in r.err, r


def test_runs_with_an_evaluator_in_common_still_compare(tmp_path):
    a = _run(tmp_path, "f1_score=f1", "a")
    r = agent_eval("compare", a, a, "--fail-on-regression")
    assert r.rc == 0 and "f1.f1_score" in r.out, r
