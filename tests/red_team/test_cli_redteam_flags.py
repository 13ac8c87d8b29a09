"""``agent-eval redteam``'s flags, thresholds and exit codes, on scan folders built in the documented shape."""

import io
from pathlib import Path

import pytest

from agent_evaluators.cli import main as cli
from agent_evaluators.cli.redteam import asr_checks, parse_max_asr, parse_strategies, scan_outcome
from agent_evaluators.cli.redteam_output import print_scorecard
from agent_evaluators.cli.run_outcome import exit_code
from agent_evaluators.errors import ConfigError
from agent_evaluators.report.red_team_scores import load_scan

from .cli_fixtures import grid, write_scan


def test_help_lists_the_flags_and_exit_codes(capsys: pytest.CaptureFixture) -> None:
    assert cli(["redteam", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the description at the terminal's width
    for flag in ("--risk-categories", "--strategies", "--num-objectives", "--seeds", "--scenario", "--output",
                 "--dry-run", "--max-cost", "--max-judge-calls", "--max-asr", "--judge-model", "--resume"):
        assert flag in text, flag
    assert "Exit codes: 2" in text and "upper bound" in text
    assert cli(["--help"]) == 0
    assert "redteam" in capsys.readouterr().out


def test_strategies_values_groups_and_compositions() -> None:
    assert parse_strategies(["easy,base64", "compose:tense+base64", " flip "]) == [
        "easy", "base64", ["tense", "base64"], "flip"]
    with pytest.raises(ConfigError, match="compose:tense\\+base64"):
        parse_strategies(["compose:tense+base64+rot13"])


def test_max_asr_fractions_percents_and_bad_input() -> None:
    cats = ["violence", "sexual"]
    assert parse_max_asr(["violence=0.2", "overall=5%"], cats) == {"violence": 0.2, "overall": 0.05}
    for bad, words in (("violence", "CATEGORY=LIMIT"), ("violence=lots", "not a number"), ("violence=1.5", "between 0"),
                       ("self_harm=0.1", "not scanned")):
        with pytest.raises(ConfigError, match=words):
            parse_max_asr([bad], cats)


def _scan(tmp_path: Path, successes: int, errors: int = 0) -> object:
    def outcome(c: str, t: str, i: int) -> str:
        if c == "violence" and i < successes:
            return "success"
        return "target_error" if c == "sexual" and i < errors else "defended"
    return load_scan(write_scan(tmp_path / f"s{successes}-{errors}", grid(["violence", "sexual"], ["baseline"], 10,
                                                                         outcome)))


def test_exit_code_from_the_asr_upper_bound(tmp_path: Path) -> None:
    scan = _scan(tmp_path, 1)  # violence 1/10: Wilson upper bound 40.4% (statsmodels: (0.01788, 0.40415))
    checks = asr_checks(scan, {"violence": 0.5})
    assert checks[0]["status"] == "pass" and checks[0]["value"] == pytest.approx(0.4042, abs=1e-4)
    assert exit_code(scan_outcome(scan, {"violence": 0.5}, None)) == 0
    assert exit_code(scan_outcome(scan, {"violence": 0.2}, None)) == 1  # 10% observed, but 40% is not ruled out
    assert exit_code(scan_outcome(scan, {}, None)) == 1  # no limits: any success fails, as run's failing cells
    assert exit_code(scan_outcome(_scan(tmp_path, 0), {}, None)) == 0
    assert exit_code(scan_outcome(scan, {"violence": 0.5}, {"stopped": True})) == 2  # the budget stopped it


def test_errors_are_exit_2_and_never_counted_as_defended(tmp_path: Path) -> None:
    scan = _scan(tmp_path, 0, errors=10)
    by_cat = scan.asr_by("risk_category")
    assert by_cat[("sexual",)].n == 0 and by_cat[("sexual",)].errors == 10
    checks = asr_checks(scan, {"sexual": 0.2})
    assert checks[0]["status"] == "error" and "no attack scored" in checks[0]["note"]
    assert exit_code(scan_outcome(scan, {"sexual": 0.2}, None)) == 2


def test_scorecard_table_has_category_strategy_asr_interval_and_n(tmp_path: Path) -> None:
    scan = load_scan(write_scan(tmp_path / "s", grid(["violence"], ["baseline", "base64"], 10,
                                                       lambda c, t, i: "success" if t == "base64" and i < 3 else
                                                       "defended")))
    buf = io.StringIO()
    print_scorecard(scan, buf)
    lines = buf.getvalue().splitlines()
    assert lines[0].split()[:4] == ["risk", "category", "strategy", "ASR"]
    row = next(line for line in lines if "base64" in line)
    assert row.split() == ["violence", "base64", "30.0%", "[10.8,", "60.3]", "3/10", "0", "0"]
    assert any(line.startswith("overall") and "15.0%" in line and "3/20" in line for line in lines)
