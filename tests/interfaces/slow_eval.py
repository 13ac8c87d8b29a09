"""An importable slow evaluator for CLI subprocess tests (``-e tests.interfaces.slow_eval:Slow``)."""

import asyncio


class Slow:
    """Async: 0.2 s per row, scores the response length."""

    async def __call__(self, response: str) -> dict:
        await asyncio.sleep(0.2)
        return {"length": len(response)}
