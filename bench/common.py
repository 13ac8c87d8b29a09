"""What the benchmarks share: the local judge server in its own process, and judge data.

The judge runs as ``python -m agent_evaluators.testing`` in a separate process so its
CPU does not count against the client being measured; ``/stats`` gives requests and
the maximum in flight.
"""

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any, Dict

REPO = Path(__file__).resolve().parent.parent


class Server:
    def __init__(self, delay_ms: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "agent_evaluators.testing", "--port", "0", "--delay-ms", str(delay_ms), "--score", "4"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        m = re.search(r"listening on (http://\S+)", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"judge server did not start: {line!r}")
        self.url = m.group(1)

    def reset(self) -> None:
        urllib.request.urlopen(urllib.request.Request(self.url + "/reset", method="POST", data=b"")).read()

    def stats(self) -> Dict[str, Any]:
        return json.loads(urllib.request.urlopen(self.url + "/stats").read())

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def write_judge_data(path: Path, n: int) -> Path:
    """``n`` rows of ``query``/``response`` for IntentResolution."""
    with open(path, "w") as f:
        for i in range(n):
            f.write(json.dumps({"query": f"Please cancel my meeting number {i} tomorrow.",
                                "response": f"Meeting {i} is cancelled."}) + "\n")
    return path
