"""One huge row (20.18): its run's peak memory stays a small multiple of the row, and its report stays small.

Before: a 50 MB row peaked at about 1 GB RSS (ROUGE built a list of its ten million words; the
reader kept the line's bytes alive through the whole row; the row hash encoded a second copy)
and was embedded whole into report.html. The run goes in a fresh subprocess so that ``VmHWM``
(the process's peak resident memory) measures this run alone.
"""

import json
import subprocess
import sys
from collections import Counter

import pytest

from agent_evaluators.evaluators import response_match

from .figures import record

CHILD = r"""
import json, sys
from agent_evaluators import evaluate
from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator
from agent_evaluators.report import write_report

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) * 1024

def run(data, out):
    evaluate(data=data, evaluators={"match": ResponseMatchEvaluator()}, output_path=out,
             evaluator_config={"match": {"column_mapping": {"ground_truth": "${data.expected}"}}})

data, out = sys.argv[1], sys.argv[2]
run([{"id": "warm-up", "response": "Paris", "expected": "Paris"}], None)  # imports (nltk, ...) are not the row's
before = hwm()
run(data, out)
run = hwm()
report = write_report(out)
print(json.dumps({"before": before, "run": run, "report_bytes": report.stat().st_size}))
"""


def _write_data(path, size):
    words = "the agent called the weather tool for Paris and answered "  # 58 characters, 10 words
    big = words * (size // len(words))
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"id": "small", "response": "Paris is sunny", "expected": "Paris is sunny"}) + "\n")
        f.write(json.dumps({"id": "big", "response": big, "expected": "Paris is sunny"}) + "\n")
    return len(big)


@pytest.mark.parametrize("size_mb", [pytest.param(8, id="8MB"), pytest.param(50, id="50MB", marks=pytest.mark.heavy)])
def test_one_huge_row_costs_a_few_times_its_size_and_is_cut_in_the_report(tmp_path, size_mb):
    size = _write_data(tmp_path / "data.jsonl", size_mb * 1_000_000)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "data.jsonl"), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    fig = json.loads(proc.stdout.strip().splitlines()[-1])
    growth = fig["run"] - fig["before"]
    record("large_row", {"row_mb": size_mb, "peak_growth_mb": round(growth / 2**20, 1),
                         "peak_rss_mb": round(fig["run"] / 2**20, 1), "report_kb": fig["report_bytes"] // 1024})
    # the row, its parsed text and one encoded copy at a time, plus a fixed allowance; before: ~19x the row
    assert growth < 5 * size + 32 * 2**20, f"peak RSS grew {growth / 2**20:.0f} MB for a {size / 2**20:.0f} MB row"
    assert fig["report_bytes"] < 200_000  # the value is cut, not embedded whole
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["inputs.id"] for r in sorted(rows, key=lambda r: r["line_number"])] == ["small", "big"]
    assert len(rows[0]["inputs.response"]) == size or len(rows[1]["inputs.response"]) == size  # nothing lost


def test_rouge_counts_of_a_long_text_equal_its_token_list():
    # the chunked word count must give exactly the tokens of the one-list path, across chunk edges
    text = ("Flights from Paris, 東京 and ไทย — running runners ran; " * 60_000)[:3_000_007]
    assert response_match._token_counts(text) == Counter(response_match._tokens(text))
