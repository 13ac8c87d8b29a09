"""A scan killed with SIGKILL part-way and run again with the same scan_name finishes every attack and
sends none twice (the send journal, ``sent.jsonl``): an attack in flight at the kill is not resent
but counted as a target error ("interrupted"), apart from the ASR's n."""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from agent_evaluators.testing import schema_reply

from .scan_child import scan

REPO = Path(__file__).resolve().parents[2]
#: the child runs the same function as the resume below (not as __main__, whose code would differ)
CHILD = "import sys; from tests.red_team.scan_child import scan; scan(*sys.argv[1:4])"
N_ATTACKS = 90  # 3 strategies (baseline, base64, rot13) x 3 categories x 10 objectives


def test_sigkill_then_resume_sends_no_attack_twice(judge_server, tmp_path):
    server = judge_server(lambda req: schema_reply(req, score=0))
    base_url, log = server.url + "/v1", tmp_path / "sent_to_agent.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), base_url, str(log)],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    rows = tmp_path / "killed" / "rows.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if rows.exists() and rows.read_bytes().count(b"\n") >= 20:
            break
        if proc.poll() is not None:
            pytest.fail(f"the scan exited before the kill: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    sent_before = log.read_text().splitlines()
    assert 20 <= len(sent_before) < N_ATTACKS

    result = scan(str(tmp_path), base_url, str(log))
    sent = log.read_text().splitlines()
    assert [k for k, v in Counter(sent).items() if v > 1] == []  # no attack reached the agent twice
    details = result.attack_details
    assert len(details) == N_ATTACKS and len({a["attack_id"] for a in details}) == N_ATTACKS
    interrupted = [a for a in details if "interrupted" in (a["attack_success_reason"] or "")]
    assert all(a["outcome"] == "target_error" and a["attack_success"] is None for a in interrupted)
    # every attack sent once, in one run or the other (one killed between journal and agent never arrived)
    assert N_ATTACKS - len(interrupted) <= len(sent) <= N_ATTACKS
    card = result.to_scorecard()
    overall = card["outcome_counts"]["overall"]
    assert overall["target_error"] == len(interrupted) <= 4  # at most the attacks at the target at the kill (max_parallel_tasks)
    assert card["risk_category_summary"][0]["overall_asr_n"] == N_ATTACKS - len(interrupted)
    summary = json.loads((tmp_path / "killed" / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["rows_reused"] >= 20
