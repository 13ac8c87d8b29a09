"""pass^k is a metric a run threshold can name (``-t "ALIAS.pass_hat_K >= X"``), checked before the run."""

from tests.cli.helpers import agent_eval, write_jsonl


def _data(tmp_path):
    return write_jsonl(tmp_path / "d.jsonl", [
        {"id": "a", "response": "Paris is the capital", "ground_truth": "Paris is the capital"},
        {"id": "b", "response": "no idea", "ground_truth": "Paris is the capital"},
    ])


def test_a_pass_hat_k_threshold_is_checked_after_repetitions(tmp_path):
    data = _data(tmp_path)
    ok = agent_eval("run", "--data", data, "-e", "response_match", "--num-runs", "2", "-o", tmp_path / "a",
                    "-t", "response_match.pass_hat_2 >= 0.5")
    assert ok.rc == 0 and "PASS  response_match.pass_hat_2 >= 0.5" in ok.out, ok
    bad = agent_eval("run", "--data", data, "-e", "response_match", "--num-runs", "2", "-o", tmp_path / "b",
                     "-t", "response_match.pass_at_2 >= 0.9")
    assert bad.rc == 1 and "FAIL  response_match.pass_at_2 >= 0.9" in bad.out, bad
