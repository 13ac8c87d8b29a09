"""The bundled fake judge (``python -m agent_evaluators.testing``) gives every shipped judge evaluator a
usable verdict: ``agent-eval calibrate`` against it scores every labelled case of every evaluator."""

import json
import re
import subprocess
import sys
import time

from agent_evaluators import registry
from tests.cli.helpers import clean_env


def test_calibrate_against_the_fake_judge_scores_every_case_of_every_evaluator(fake_judge_process, tmp_path):
    report = tmp_path / "cal.json"
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "agent_evaluators.cli", "calibrate", "--judge-base-url", fake_judge_process + "/v1",
         "--judge-model", "fake", "--quick", "--json", str(report)],
        capture_output=True, text=True, env=clean_env(), timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    data = json.loads(report.read_text())
    text = json.dumps(data)
    stems = {e.calibration.stem for e in registry.calibrated_entries() if e.calibration}
    names = {e.name for e in registry.calibrated_entries() if e.calibration}  # the table's: run's --evaluator names
    for name in ("hallucinations_v1", "answer_similarity", "response_evaluation_score",
                 "per_turn_user_simulator_quality_v1"):
        assert name in text, name
    assert stems <= {c["evaluator"] for c in data}  # the JSON keeps each labelled set's name
    # the summary table's rows: "<name>  <scored>/<total>  <accuracy> ..."
    lines = [x for x in proc.stdout.splitlines() if re.match(r"^\S+\s+\d+/\d+\s", x) and x.split()[0] in names]
    assert len(lines) == len(names), proc.stdout
    for line in lines:
        scored, total = line.split()[1].split("/")
        assert scored == total and int(total) > 0, line
    print(f"calibrate against the fake judge: {time.monotonic() - started:.1f} s")
