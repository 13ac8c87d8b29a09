"""A run whose evaluator leaves a 1 MB reference cycle per row; prints the process's peak RSS.

``python -m tests.runner.cycle_child ROWS sync|async|overlap`` prints ``{"peak_mb": ..., "rows": ...}``.
"""

import asyncio
import json
import sys

from tests.peak_memory import peak_mb


class _Leaf:
    """Holds a megabyte and itself: freed only by the cycle collector."""

    def __init__(self) -> None:
        self.me = self
        self.blob = bytearray(1 << 20)


def leaves_a_cycle(response: str) -> dict:
    _Leaf()
    return {"length": len(response)}


async def leaves_a_cycle_async(response: str) -> dict:
    leaf = _Leaf()
    await asyncio.sleep(0)
    return {"length": len(response) + 0 * len(leaf.blob)}


async def leaves_a_cycle_overlapping(response: str) -> dict:
    """As an evaluator awaiting I/O: rows overlap, so some hold a live cycle at every collection."""
    leaf = _Leaf()
    await asyncio.sleep(0.001 * (int(response[1:]) % 3))
    return {"length": len(response) + 0 * len(leaf.blob)}


def main() -> None:
    rows, kind = int(sys.argv[1]), sys.argv[2]
    from agent_evaluators import evaluate

    evaluator = {"sync": leaves_a_cycle, "async": leaves_a_cycle_async, "overlap": leaves_a_cycle_overlapping}[kind]
    result = evaluate(data=[{"response": f"r{i}"} for i in range(rows)], evaluators={"c": evaluator},
                      show_progress=False)
    print(json.dumps({"peak_mb": peak_mb(), "rows": len(result.rows)}))


if __name__ == "__main__":
    main()
