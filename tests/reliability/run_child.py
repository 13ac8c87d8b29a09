"""A slow run in its own process, for the lock and interrupt tests.

``python -m tests.reliability.run_child DATA OUT DELAY RESUME``: one async evaluator that
sleeps ``DELAY`` seconds per row, ``max_concurrency=1``. Prints ``started`` once its first
row is on disk; on Ctrl-C prints the :class:`RunInterrupted` as JSON and exits 130 (what
the CLI is to do).
"""

import asyncio
import json
import sys


def main() -> None:
    data, out, delay, resume = sys.argv[1:5]
    from agent_evaluators import evaluate

    try:
        from agent_evaluators.runner import RunInterrupted
    except ImportError:  # the code before the fix (so the tests can show they fail there)
        RunInterrupted = None

    async def slow(response: str) -> dict:
        await asyncio.sleep(float(delay))
        return {"length": len(response)}

    try:
        result = evaluate(data=data, evaluators={"slow": slow}, output_path=out, max_concurrency=1,
                          resume=resume == "1")
    except KeyboardInterrupt as exc:
        if RunInterrupted is None or not isinstance(exc, RunInterrupted):
            raise
        print(json.dumps({"interrupted": exc.message, "rows_done": exc.rows_done, "total": exc.total,
                          "output_path": str(exc.output_path)}), flush=True)
        sys.exit(130)
    print(json.dumps({"rows": len(result.rows)}), flush=True)


if __name__ == "__main__":
    main()
