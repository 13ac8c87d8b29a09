"""A noisy judge for simulations: every verdict a random draw around a true value the row carries.

Why: "is that drop real or judge noise?" can only be tested against a judge whose noise is known.
The row's text carries its true score as ``true=3.4`` (anywhere in what the judge is shown); each
request draws ``round(true + shift + N(0, sd))`` clamped into the scale. ``shift`` depends on the
judge model asked for (``shifts={"judge-b": -0.5}``), so two runs that differ only in an evaluator's
judge model differ by a known amount, and two runs with the same model differ by noise alone.

Draws are reproducible whatever order requests arrive in: the generator for a request is seeded by
``(seed, model, prompt, how many times this prompt was asked before)``.

    from agent_evaluators.testing import JudgeServer
    from agent_evaluators.testing.noisy import NoisyJudge

    with JudgeServer(NoisyJudge(sd=0.8, shifts={"judge-b": -0.5})) as server:
        ...  # agent-eval run --judge-model judge-a / judge-b, then agent-eval compare
"""

import hashlib
import random
import re
import threading
from typing import Any, Dict, Mapping, Optional, Tuple

from .requests import ChatRequest
from .synth import schema_reply

#: how a row says its true score: ``true=3.4``
TRUE_VALUE = re.compile(r"true=(-?\d+(?:\.\d+)?)")


class NoisyJudge:
    """A :class:`~agent_evaluators.testing.JudgeServer` responder with a known, seeded noise."""

    def __init__(self, sd: float = 0.8, *, seed: int = 0, shifts: Optional[Mapping[str, float]] = None,
                 scale: Tuple[int, int] = (1, 5), default_true: float = 3.0) -> None:
        self.sd = sd
        self.seed = seed
        self.shifts = dict(shifts or {})
        self.scale = scale
        self.default_true = default_true
        self._seen: Dict[str, int] = {}
        self._lock = threading.Lock()

    def draw(self, true: float, shift: float = 0.0, rng: Optional[random.Random] = None) -> int:
        """One verdict: ``round(true + shift + N(0, sd))`` clamped into the scale."""
        rng = rng or random.Random()
        low, high = self.scale
        return int(max(low, min(high, round(true + shift + rng.gauss(0.0, self.sd)))))

    def __call__(self, req: ChatRequest) -> Any:
        text = req.text
        match = TRUE_VALUE.search(text)
        true = float(match.group(1)) if match else self.default_true
        model = req.model or ""
        key = f"{self.seed}\0{model}\0{text}"
        with self._lock:
            n = self._seen.get(key, 0)
            self._seen[key] = n + 1
        digest = hashlib.sha256(f"{key}\0{n}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        return schema_reply(req, score=self.draw(true, self.shifts.get(model, 0.0), rng))
