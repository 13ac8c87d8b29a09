"""What the budget tests of both engines share (``test_budget.py``, ``distributed/test_caps_ray.py``):
a fake judge's reply with fixed token counts (1,000 in, 200 out at 1 / 5 USD per million: 0.002 USD a
call) and readers of a run's cells and summary."""

import json
from pathlib import Path
from typing import Any, Dict, List

from agent_evaluators.judge.caps import estimated_cost
from agent_evaluators.testing import JudgeServer, Reply

from .distributed.helpers import comparable, rule_judge

USAGE: Dict[str, Any] = {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200}
PRICE = {"input": 1.0, "output": 5.0}
PER_CALL = (1000 * 1.0 + 200 * 5.0) / 1e6  # 0.002 USD
KEY = "outputs.intent.intent_resolution"


def priced_judge(req: Any) -> Reply:
    """The rule judge's verdict with :data:`USAGE`, so every call costs :data:`PER_CALL`."""
    return Reply(content=rule_judge(req), usage=USAGE)


def cell_results(result: Any) -> List[Any]:
    return [row.get(f"{KEY}_result") for row in result.rows]


def read_summary(out: Path) -> Dict[str, Any]:
    return json.loads((out / "summary.json").read_text())


def comparable_cells(rows: Any) -> Dict[int, Dict[str, Any]]:
    """The rows without usage (a resumed cell's usage is its own run's) and latency."""
    return {line: {k: v for k, v in row.items() if not k.endswith("_usage")} for line, row in comparable(rows).items()}


def reservations(server: JudgeServer) -> List[float]:
    """What each request the judge received reserved under a money cap: its own prompt and maximum output."""
    price = {"input": PRICE["input"], "cached_input": PRICE["input"], "output": PRICE["output"]}
    return [estimated_cost(r.messages, r.params, price, "judge-m") for r in server.requests]
