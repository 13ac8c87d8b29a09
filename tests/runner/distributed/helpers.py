"""Evaluators and data for the Ray engine tests (importable by Ray workers: `tests.runner.distributed.helpers`)."""

import asyncio
import json
import os
import re
import time
from pathlib import Path
from typing import Any, Dict, List

from agent_evaluators.evaluators.base import Evaluator, Outcome


def expected_score(i: int) -> int:
    return i % 5 + 1


def rule_judge(req: Any) -> Dict[str, Any]:
    """Judge reply derived from the query it was shown, so wrong content -> wrong score."""
    m = re.search(r"\[score=(\d)\]", req.text)
    assert m, "query did not reach the judge"
    return {"user_intent": "help with a task", "reason": f"rule {m.group(1)}", "score": int(m.group(1))}


def make_rows(n: int) -> List[Dict[str, Any]]:
    return [
        {
            "query": f"Please help with task {i} [score={expected_score(i)}]",
            "response": f"Done task {i}." if i % 7 else "n/a",
            "ground_truth": f"Done task {i}." if i % 3 else "something else",
            "row_id": i,
        }
        for i in range(n)
    ]


def write_data(path: Path, rows: List[Any]) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")
    return path


#: wall-clock fields: a judge call's latency, a simulated conversation's message times and turn durations
_CLOCK_KEYS = frozenset({"latency_s", "timestamp", "duration"})


def _no_latency(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _no_latency(v) for k, v in value.items() if k not in _CLOCK_KEYS}
    if isinstance(value, list):
        return [_no_latency(v) for v in value]
    return value


def comparable(rows: Any) -> Dict[int, Dict[str, Any]]:
    """Rows by line number, without the wall-clock fields (judge latency, message times, turn durations)."""
    return {r["line_number"]: _no_latency(dict(r)) for r in rows}


def record_lines(rows_file: Path) -> List[int]:
    return [json.loads(l)["line_number"] for l in Path(rows_file).read_text().splitlines() if l.strip()]


def _log(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


class Logged(Evaluator):
    """Async: logs ``row_id`` per call to ``calls_file``, waits ``delay`` s, scores len(response).

    On row ``hang_row`` (until ``pid_file`` exists) it writes its process id to ``pid_file``
    and hangs, so a test can kill that worker process mid-shard.
    """

    result_key = "logged"
    default_threshold = 1

    def __init__(self, calls_file: str, delay: float = 0.02, hang_row: int = -1, pid_file: str = "") -> None:
        super().__init__()
        self.calls_file = calls_file
        self.delay = delay
        self.hang_row = hang_row
        self.pid_file = pid_file

    async def _evaluate(self, *, response: str, row_id: int) -> Outcome:
        _log(self.calls_file, f"{row_id}\n")
        if row_id == self.hang_row and not os.path.exists(self.pid_file):
            _log(self.pid_file + ".tmp", str(os.getpid()))
            os.replace(self.pid_file + ".tmp", self.pid_file)
            await asyncio.sleep(600)
        await asyncio.sleep(self.delay)
        return Outcome(float(len(response)), "length")


def calls(path: Path) -> List[int]:
    return [int(x) for x in Path(path).read_text().split()] if Path(path).exists() else []


def driver_main() -> None:
    """A separate driver process (killed by the resume test): argv = address data out calls."""
    import sys

    address, data, out, calls_file = sys.argv[1:5]
    from agent_evaluators.ray_engine import evaluate_ray

    evaluate_ray(
        data=data,
        evaluators={"logged": Logged(calls_file, delay=0.05)},
        output_path=out,
        max_concurrency=4,
        ray_address=address,
        num_workers=2,
        shard_size=10,
    )



class LoopBlocker(Evaluator):
    """Async, but on row ``block_row`` it blocks its event loop (``time.sleep``) for ``block_s``:
    what a CPU-bound step inside an async evaluator does to a worker."""

    result_key = "blocker"
    default_threshold = 0

    def __init__(self, block_row: int, block_s: float) -> None:
        super().__init__()
        self.block_row = block_row
        self.block_s = block_s

    async def _evaluate(self, *, response: str, row_id: int) -> Outcome:
        if row_id == self.block_row:
            time.sleep(self.block_s)
        return Outcome(1.0, "ok")
