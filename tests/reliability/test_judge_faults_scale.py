"""Judge faults at scale: rows × 3 judge-backed evaluators against a local server injecting
20% 429, 5% 500, 5% replies slower than the timeout, 5% malformed JSON, 2% truncated
(``finish_reason: length``) and 2% dropped connections.

What must hold, whatever the faults:

* the run finishes; every cell is either scored with the row's own score or is an error
  cell with a reason naming the row and evaluator; at least 85% of cells are scored;
* no error is a number: error cells have score ``None``, result ``"error"``, and the
  metrics are the mean / pass rate over scored cells only;
* each truncated reply ends its cell as an error (never a half-parsed score): the number
  of "cut off at the token limit" errors equals the number of ``length`` faults served;
* the HTTP requests the server saw equal the judge calls plus retries the run reports
  (``usage.attempts``), and no cell used more than its retry budget (on a CPU-starved
  machine a client timeout can fire before the server reads a request; only such
  timeouts may explain a difference, see the assertion);
* the wall time stays bounded (the server's ``retry-after-ms`` keeps the waits short).

Three 429 variants: ``retry-after-ms``, ``Retry-After`` in seconds, and no header at all
(the client's own exponential backoff). The default suite runs 100 rows with the first
two; ``heavy`` runs 1,000 rows with all three.
"""

import json
import math
import time
from pathlib import Path
from typing import Any, Dict

import pytest

from agent_evaluators import evaluate
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import Faults, JudgeServer

from .figures import record
from .support import JUDGE_EVALUATORS, AttemptFailures, expected_score, judge_evaluators, judge_rows, rule_judge, settled_stats

TIMEOUT_S = 1.0  # per HTTP attempt; slow replies take SLOW_S, so they always time out (and CPU starvation never does)
SLOW_S = 3.0
MAX_ATTEMPTS = 5
#: one request plus at most one repair request, each with its own retry budget
MAX_ATTEMPTS_PER_CELL = 2 * MAX_ATTEMPTS

HEADER_VARIANTS = {
    "retry-after-ms": dict(retry_after_ms=20, retry_after_s=None),
    "retry-after-s": dict(retry_after_ms=None, retry_after_s=0.02),
    "no-header": dict(retry_after_ms=None, retry_after_s=None),
}


def _faults(variant: str, seed: int) -> Faults:
    return Faults(rate_429=0.20, rate_500=0.05, rate_slow=0.05, slow_s=SLOW_S, rate_malformed=0.05,
                  rate_length=0.02, rate_reset=0.02, seed=seed, **HEADER_VARIANTS[variant])


def run_faulty(tmp_path: Path, n_rows: int, variant: str, seed: int, wall_limit_s: float) -> Dict[str, Any]:
    with JudgeServer(rule_judge, faults=_faults(variant, seed), delay_s=0.002, keep_requests=False) as server:
        client = get_judge_client(server.openai_config(), timeout=TIMEOUT_S, max_attempts=MAX_ATTEMPTS)
        started = time.perf_counter()
        with AttemptFailures() as failed:
            result = evaluate(data=judge_rows(n_rows), evaluators=judge_evaluators(client),
                              output_path=tmp_path / "run", max_concurrency=16)
        wall = time.perf_counter() - started
        stats = settled_stats(server, limit_s=SLOW_S + 2.0)
    faults = stats["faults"]
    cells = n_rows * len(JUDGE_EVALUATORS)

    # ------------------------------------------------------------ every cell: scored right, or an error with a reason
    scored = errors = 0
    per_alias_scores: Dict[str, list] = {a: [] for a in JUDGE_EVALUATORS}
    reasons = {"length": 0, "retries exhausted": 0, "unusable reply": 0}
    seen_lines = []
    for row in result.rows:
        i = row["line_number"]
        seen_lines.append(i)
        for alias, (_, key) in JUDGE_EVALUATORS.items():
            score = row[f"outputs.{alias}.{key}"]
            status = row["cell_status"][alias]
            usage = row.get(f"outputs.{alias}.{key}_usage") or {}
            assert 1 <= (usage.get("attempts") or 0) <= MAX_ATTEMPTS_PER_CELL, (i, alias, usage)
            if status == "ok":
                scored += 1
                assert score == expected_score(i), f"row {i} {alias}: scored {score!r}, expected {expected_score(i)}"
                assert row[f"outputs.{alias}.{key}_result"] in ("pass", "fail")
                per_alias_scores[alias].append(score)
                continue
            errors += 1
            assert status == "error"
            assert score is None, f"row {i} {alias}: an error cell carries the number {score!r}"
            assert row[f"outputs.{alias}.{key}_result"] == "error"
            message = row[f"outputs.{alias}.{key}_error"]
            assert message.startswith(f"row {i}: evaluator {alias!r}"), message
            if "finish_reason 'length'" in message:
                reasons["length"] += 1
            elif "failed after" in message and "attempts" in message:
                reasons["retries exhausted"] += 1
            elif "could not be used" in message:
                reasons["unusable reply"] += 1
            else:
                pytest.fail(f"row {i} {alias}: error without a recognised reason: {message}")
    assert sorted(seen_lines) == list(range(n_rows)), "every row exactly once"
    assert scored + errors == cells
    assert scored >= 0.85 * cells, f"only {scored}/{cells} cells scored"
    assert reasons["length"] == faults.get("length", 0), (reasons, faults)

    # ------------------------------------------------------------ metrics count errors as errors, never as scores
    for alias, (_, key) in JUDGE_EVALUATORS.items():
        values = per_alias_scores[alias]
        m = result.metrics
        assert m[f"{alias}.n"] == len(values)
        assert m[f"{alias}.error_count"] == n_rows - len(values)
        assert m[f"{alias}.{key}"] == pytest.approx(sum(values) / len(values))
        assert m[f"{alias}.pass_rate"] == pytest.approx(sum(v >= 3 for v in values) / len(values))
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["error_count"] == errors
    assert all(not (isinstance(v, float) and math.isnan(v)) for v in summary["metrics"].values())

    # ------------------------------------------------------------ every request the server saw is accounted for
    attempts = sum(result.usage[a]["attempts"] for a in JUDGE_EVALUATORS)
    calls = sum(result.usage[a]["judge_calls"] for a in JUDGE_EVALUATORS)
    assert faults.get("responder_error", 0) == 0, "a request reached the judge without its row's content"
    # Every attempt the client reports reached the server, except those whose timeout fired before the
    # server thread read them (CPU starvation on a loaded machine): only a timeout that was not an
    # injected slow reply may explain a request the server never saw. Unloaded, this is equality.
    unseen = attempts - stats["requests"]
    spurious_timeouts = failed.timeouts - faults.get("slow", 0)
    assert 0 <= unseen <= max(0, spurious_timeouts), (attempts, stats, failed.timeouts)
    assert calls <= attempts <= cells * MAX_ATTEMPTS_PER_CELL
    for kind in ("429", "500", "slow", "malformed", "length", "reset"):
        assert faults.get(kind, 0) > 0, f"no {kind} fault was injected: {faults}"
    assert wall < wall_limit_s, f"{n_rows} rows took {wall:.1f} s"

    figures = {
        "rows": n_rows, "variant": variant, "seed": seed, "cells": cells, "scored": scored,
        "scored_pct": round(100 * scored / cells, 2), "error_pct": round(100 * errors / cells, 2),
        "error_reasons": reasons, "server_requests": stats["requests"], "reported_judge_calls": calls,
        "reported_attempts": attempts, "reported_retries": attempts - calls, "faults_served": faults,
        "client_timeouts": failed.timeouts, "attempts_unseen_by_server": unseen,
        "max_in_flight": stats["max_in_flight"], "wall_s": round(wall, 2),
    }
    record(f"judge_faults[{n_rows}-{variant}]", figures)
    return figures


@pytest.mark.parametrize("variant", ["retry-after-ms", "retry-after-s"])
def test_faulty_judge_small(tmp_path, variant):
    run_faulty(tmp_path, n_rows=100, variant=variant, seed=11, wall_limit_s=60)


@pytest.mark.heavy
@pytest.mark.parametrize("variant", list(HEADER_VARIANTS))
def test_faulty_judge_1000_rows(tmp_path, variant):
    run_faulty(tmp_path, n_rows=1000, variant=variant, seed=3, wall_limit_s=300)
