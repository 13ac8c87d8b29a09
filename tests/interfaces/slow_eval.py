"""An importable slow evaluator for CLI subprocess tests (``-e tests.interfaces.slow_eval:Slow``)."""

import asyncio


class Slow:
    """Async: 0.2 s per row, scores the response length."""

    async def __call__(self, response: str) -> dict:
        await asyncio.sleep(0.2)
        return {"length": len(response)}


class SlowSync:
    """Sync (run inline, no task per row): ``AGENT_EVAL_TEST_ROW_S`` seconds per row (default 0.1)."""

    def __init__(self) -> None:
        import os

        self.delay = float(os.environ.get("AGENT_EVAL_TEST_ROW_S", "0.1"))

    def __call__(self, response: str) -> dict:
        import time

        time.sleep(self.delay)
        return {"length": len(response)}
