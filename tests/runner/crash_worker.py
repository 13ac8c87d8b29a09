"""An evaluator that logs every call to a side-channel file, and a main() to run it in a subprocess.

The resume tests kill that subprocess part-way and count, from the side channel,
which rows the resumed run evaluates again.
"""

import asyncio
import os
import sys

from agent_evaluators.evaluators.base import Evaluator, Outcome


class SlowLogged(Evaluator):
    """Scores len(response) after ``delay`` seconds; appends the row id to ``calls_file`` per call.

    A response starting with "flaky" raises until the file ``heal_file`` exists.
    """

    result_key = "slow"
    default_threshold = 1

    def __init__(self, calls_file: str, heal_file: str, delay: float = 0.05) -> None:
        super().__init__()
        self.calls_file = calls_file
        self.heal_file = heal_file
        self.delay = delay

    async def _evaluate(self, *, response: str, row_id: int) -> Outcome:
        fd = os.open(self.calls_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, f"{row_id}\n".encode())
        finally:
            os.close(fd)
        await asyncio.sleep(self.delay)
        if response.startswith("flaky") and not os.path.exists(self.heal_file):
            raise RuntimeError(f"flaky failure on {row_id}")
        return Outcome(float(len(response)), "length")


def main() -> None:
    data, out, calls, heal, delay = sys.argv[1:6]
    from agent_evaluators import evaluate

    evaluate(
        data=data,
        evaluators={"slow": SlowLogged(calls, heal, float(delay))},
        output_path=out,
        max_concurrency=2,
    )


if __name__ == "__main__":
    main()
