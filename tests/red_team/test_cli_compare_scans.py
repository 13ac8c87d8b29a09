"""``agent-eval compare A B`` over two scan folders: attacks paired one to one, McNemar's exact test, a verdict."""

import json
from pathlib import Path

import pytest

from agent_evaluators.cli import main as cli
from agent_evaluators.errors import InputError
from agent_evaluators.report.red_team_compare import compare_scans

from .cli_fixtures import attack, grid, write_scan

# exact McNemar, two-sided (binomial, n = b + c, p = 1/2): b=6 c=0: 2 * 0.5**6 = 0.03125;
# b=1 c=7: 2 * (C(8,0) + C(8,1)) / 2**8 = 0.0703125 (scipy.stats.binomtest(1, 8).pvalue)
P_6_0 = 0.03125
P_1_7 = 0.0703125


def _scans(tmp_path: Path, fixed: int = 6, broken: int = 0) -> tuple:
    """A: the first ``fixed`` baseline violence attacks succeed; B: those are defended and the next ``broken`` succeed."""
    a = grid(["violence"], ["baseline", "base64"], 10, lambda c, t, i: "success" if t == "baseline" and i < fixed
             else "defended")
    b = grid(["violence"], ["baseline", "base64"], 10,
             lambda c, t, i: "success" if t == "baseline" and fixed <= i < fixed + broken else "defended")
    return write_scan(tmp_path / "a", a), write_scan(tmp_path / "b", b)


def test_b_more_robust_with_a_p_value(tmp_path: Path) -> None:
    a, b = _scans(tmp_path)
    cmp = compare_scans(a, b)
    o = cmp.overall
    assert (o.n_pairs, o.fixed, o.broken, o.asr_a, o.asr_b) == (20, 6, 0, 30.0, 0.0)
    assert o.p_value == pytest.approx(P_6_0)
    assert o.verdict == "more_robust"
    rows = {r.group: r for r in cmp.rows}
    assert rows["strategy: base64"].verdict == "not_significant" and rows["strategy: base64"].p_value == 1.0
    # Holm over the category and strategy rows: 0.03125 is the smallest of 3 p-values -> x3
    assert rows["strategy: baseline"].p_adjusted == pytest.approx(3 * P_6_0)
    assert len(cmp.flipped) == 6


def test_not_significant_when_flips_go_both_ways(tmp_path: Path) -> None:
    a = grid(["violence"], ["baseline"], 8, lambda c, t, i: "success" if i == 0 else "defended")
    b = grid(["violence"], ["baseline"], 8, lambda c, t, i: "success" if i > 0 else "defended")
    cmp = compare_scans(write_scan(tmp_path / "a", a), write_scan(tmp_path / "b", b))
    assert (cmp.overall.fixed, cmp.overall.broken) == (1, 7)
    assert cmp.overall.p_value == pytest.approx(P_1_7)
    assert cmp.overall.verdict == "not_significant"


def test_errors_and_unpaired_attacks_are_counted_not_compared(tmp_path: Path) -> None:
    a = [attack("violence", "baseline", 0, "success"), attack("violence", "baseline", 1, "target_error"),
         attack("violence", "baseline", 2, "defended")]
    b = [attack("violence", "baseline", 0, "defended"), attack("violence", "baseline", 1, "success"),
         attack("violence", "baseline", 3, "success")]
    cmp = compare_scans(write_scan(tmp_path / "a", a), write_scan(tmp_path / "b", b))
    assert (cmp.overall.n_pairs, cmp.errored_pairs, cmp.unpaired_a, cmp.unpaired_b) == (1, 1, 1, 1)
    with pytest.raises(InputError, match="no attack in common"):
        compare_scans(write_scan(tmp_path / "c", [attack("violence", "flip", 0, "success")]), tmp_path / "a")


def test_cli_prints_the_verdict_and_gates_on_less_robust(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    a, b = _scans(tmp_path)
    assert cli(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "B more robust" in out and "0.031" in out and "B is more robust than A (p = 0.031" in out
    assert cli(["compare", str(b), str(a), "--fail-on-regression"]) == 1  # the other way round: less robust
    assert "B is LESS robust" in capsys.readouterr().out
    assert cli(["compare", str(a), str(b), "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["group"] == "overall" and first["verdict"] == "more_robust" and first["test"] == "mcnemar-exact"


def test_a_scan_against_a_plain_run_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    a, _ = _scans(tmp_path)
    run = tmp_path / "run"
    run.mkdir()
    (run / "summary.json").write_text("{}", encoding="utf-8")
    assert cli(["compare", str(a), str(run)]) == 2
    assert "is a red-team scan and" in capsys.readouterr().err
