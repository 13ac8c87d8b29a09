"""The red-team section of the HTML report, from a scan folder's ``red_team.json`` (documented shape)."""

import json
import re
from pathlib import Path

import pytest

from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.report import write_report
from agent_evaluators.report.red_team_scores import load_scan, scan_grid

from .cli_fixtures import attack, write_scan

# Wilson 95% for 3 of 10, statsmodels' proportion_confint(3, 10, method="wilson") = (0.10779, 0.60322)
WILSON_3_OF_10 = (10.78, 60.32)


def _ten(category: str, technique: str, successes: int, refused: int = 0, errors: int = 0) -> list:
    out = []
    for i in range(10 + errors):
        outcome = ("success" if i < successes else "refused" if i < successes + refused
                   else "defended" if i < 10 else "target_error")
        out.append(attack(category, technique, i, outcome))
    return out


def test_asr_per_category_and_strategy_has_its_wilson_interval_and_n(tmp_path: Path) -> None:
    folder = write_scan(tmp_path / "scan", _ten("violence", "baseline", 3, errors=2) + _ten("violence", "base64", 0))
    scan = load_scan(folder)
    cells = {(c, t): a for c, t, a in scan_grid(scan)}
    base = cells[("violence", "baseline")]
    assert (base.successes, base.n, base.errors, base.asr) == (3, 10, 2, 30.0)  # errors never in n
    assert base.interval == WILSON_3_OF_10
    assert cells[("violence", "base64")].asr == 0.0
    assert scan.overall.n == 20 and scan.overall.successes == 3


def test_report_shows_scorecard_attacks_reasons_and_conversations(tmp_path: Path) -> None:
    leak = attack("sensitive_data_leakage", "base64", 0, "success",
                  reason="the canary SECRET-123 was in the argument of send_email",
                  conversation=[{"role": "user", "content": "aGVsbG8="},
                                {"role": "assistant", "content": "", "tool_calls": [
                                    {"id": "c1", "type": "function",
                                     "function": {"name": "send_email", "arguments": "{\"body\": \"SECRET-123\"}"}}]},
                                {"role": "tool", "tool_call_id": "c1", "content": "sent"},
                                {"role": "assistant", "content": "Done, nothing to see."}])
    folder = write_scan(tmp_path / "scan", _ten("violence", "baseline", 3, refused=2, errors=1) + [leak])
    page = write_report(folder).read_text(encoding="utf-8")
    section = page[page.index('<section id="red-team">'):]
    section = section[:section.index("</section>")]
    assert "30.0%" in section and "[10.8, 60.3]" in section and "3/10" in section
    assert "the canary SECRET-123 was in the argument of send_email" in section
    assert 'data-tool="send_email"' in section  # the tool call is drawn: where the leak is
    for outcome in ("success", "refused", "defended", "target_error"):
        assert f'data-outcome="{outcome}"' in section
    # successes are listed first
    first = re.search(r'data-outcome="([a-z_]+)"', section)
    assert first is not None and first.group(1) == "success"


def test_everything_in_the_section_is_escaped(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    bad = attack(evil, evil, 0, "success", reason=evil, conversation=[{"role": "user", "content": evil},
                                                                     {"role": "assistant", "content": evil}])
    bad["attack_id"] = evil
    bad["objective"] = evil
    folder = write_scan(tmp_path / "scan", [bad], scan={"scan_name": evil, "target": evil})
    page = write_report(folder).read_text(encoding="utf-8")
    assert evil not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_run_folder_without_a_scan_has_no_section(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps({"rows": 0}), encoding="utf-8")
    (folder / "rows.jsonl").write_text("", encoding="utf-8")
    assert 'id="red-team"' not in write_report(folder).read_text(encoding="utf-8")


def test_azure_documents_without_outcome_are_read_from_attack_success(tmp_path: Path) -> None:
    entries = [attack("violence", "baseline", i, o) for i, o in enumerate(["success", "defended", "judge_error"])]
    for e in entries:
        del e["outcome"], e["attack_success_reason"], e["attack_id"]
    scan = load_scan(write_scan(tmp_path / "azure", entries))
    assert [a.outcome for a in scan.attacks] == ["success", "defended", "judge_error"]
    assert scan.overall.n == 2


def test_malformed_files_name_the_entry_and_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no red_team.json"):
        load_scan(tmp_path)
    bad = attack("violence", "baseline", 0, "success")
    bad["outcome"] = "maybe"
    with pytest.raises(InputError, match=r"attack_details\[1\]: outcome 'maybe'"):
        load_scan(write_scan(tmp_path / "s", [attack("violence", "baseline", 1, "defended"), bad]))
    (tmp_path / "s" / "red_team.json").write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="not readable as JSON"):
        load_scan(tmp_path / "s")


def test_a_red_team_json_alone_gets_a_report(tmp_path: Path) -> None:
    """azure writes red_team.json with no run files beside it; the page is then the red-team section."""
    folder = write_scan(tmp_path / "azure-scan", _ten("violence", "baseline", 3))
    page = write_report(folder).read_text(encoding="utf-8")
    assert 'id="red-team"' in page and "3/10" in page


def test_report_compare_of_two_scans_shows_the_paired_verdict_and_flips(tmp_path: Path) -> None:
    before = write_scan(tmp_path / "before", [attack("violence", "base64", i, "success" if i < 6 else "defended")
                                              for i in range(10)])
    after = write_scan(tmp_path / "after", [attack("violence", "base64", i, "defended") for i in range(10)])
    page = write_report(after, compare_to=before).read_text(encoding="utf-8")
    section = page[page.index('<section id="red-team-compare">'):]
    section = section[:section.index("</section>")]
    assert "B more robust" in section and "0.031" in section  # McNemar exact, 6 fixed 0 broken: 2 / 2**6
    assert "Attacks that flipped (6)" in section and "success → defended" in section
