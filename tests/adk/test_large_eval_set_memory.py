"""Issue 21.16: a 10,000-case eval set through ``agent-eval adk`` stays within a memory bound.

Measured on the round-three branch (``--actual``, tool trajectory + ROUGE, 2 cores): peak RSS
501 MB before (every engine row held in memory next to every case result, and the result
file built as one string), 318 MB after (rows read back from ``rows.jsonl`` one at a time,
the result file written one case at a time). The bound leaves room for other machines.
"""

import json
import subprocess
import sys

import pytest

CASES = 10_000
BOUND_MB = 420

_MEASURE = """
import sys
from agent_evaluators.cli.eval_sets import main
code = main(sys.argv[1:])
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM")).split()[1]
print("PEAK_KB", hwm, "EXIT", code)
"""


def _write_eval_set(folder):
    cases, actual = [], []
    for i in range(CASES):
        inv = {"invocation_id": f"c{i}-1",
               "user_content": {"role": "user", "parts": [{"text": f"What is the weather in city number {i}?"}]},
               "final_response": {"role": "model", "parts": [{"text": f"It is sunny and {i % 30} degrees in city {i}."}]},
               "intermediate_data": {"tool_uses": [{"name": "get_weather", "args": {"city": f"city {i}"}}]}}
        cases.append({"eval_id": f"case_{i}", "conversation": [inv]})
        actual.append(json.dumps({"eval_id": f"case_{i}", "invocations": [inv]}))
    (folder / "big.evalset.json").write_text(json.dumps({"eval_set_id": "big", "eval_cases": cases}))
    (folder / "big.actual.jsonl").write_text("\n".join(actual) + "\n")
    (folder / "test_config.json").write_text(json.dumps(
        {"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}}))


@pytest.mark.heavy
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmHWM from /proc")
def test_ten_thousand_cases_stay_under_the_memory_bound(tmp_path):
    _write_eval_set(tmp_path)
    proc = subprocess.run([sys.executable, "-c", _MEASURE, "big.evalset.json", "--actual", "big.actual.jsonl",
                           "--output", "out"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    line = next(x for x in proc.stdout.splitlines() if x.startswith("PEAK_KB"))
    peak_mb, code = int(line.split()[1]) / 1024, int(line.split()[3])
    assert code == 0, proc.stderr[-2000:]
    assert "Tests passed: 10000" in proc.stdout
    assert peak_mb < BOUND_MB, f"peak RSS {peak_mb:.0f} MB"
