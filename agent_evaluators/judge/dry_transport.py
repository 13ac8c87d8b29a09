"""The judge of a dry run: every request is answered in process, none reaches the network.

While a dry run's transport is installed (``evaluate(..., dry_run=True)``: the run context's
``dry_transport``; :func:`use_dry_judge` outside a run), every
:class:`~.client.JudgeClient` sends through one :class:`DryRunTransport` instead of its HTTP
pool. Each request gets a placeholder verdict valid for the schema it asked for (the bundled
fake judge's rules, :func:`agent_evaluators.testing.synth.schema_reply`, so the hallucination
segmenter answers with the response's own sentences and the validator's request and verdict
cover each of them), and a usage record counted with the judge model's offline tokenizer
(:mod:`.token_count`). Since the evaluators themselves run, every fan-out (samples,
``num_runs``, per turn, per tool call, panels, segment-then-validate) is the real one,
not re-derived.

The user simulator is the one exception to "as the fake judge answers": its turns never say
the stop signal, so a simulated conversation runs to its turn limit (a dry run estimates
the most it can cost).
"""

import contextlib
import json
from typing import Any, Dict, Iterator, Optional, cast

from ..run_context import current, scoped
from ..testing.requests import ChatRequest
from ..testing.synth import schema_reply
from .prices import cost_usd, price_for
from .token_count import counter_for
from .transport import Transport

#: what the dry run's simulated user says each turn (never the stop signal)
SIMULATED_TURN = "a placeholder user turn of the dry run"

def dry_judge() -> Optional["DryRunTransport"]:
    """The dry run's transport while one is active in this context, else ``None`` (the run
    context's ``dry_transport``)."""
    return cast(Optional[DryRunTransport], current().dry_transport)  # only a dry run installs one


class DryRunTransport(Transport):
    """Answers chat requests in process; ``requests`` counts them and ``methods`` names the token counts used."""

    def __init__(self) -> None:
        self.requests = 0
        self.methods: Dict[str, str] = {}  # model -> how its tokens were counted
        #: every request's usage summed (the run's evaluators record theirs; the rest is the target's own judge)
        self.total: Dict[str, Any] = {"judge_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}

    async def send(self, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int = 0) -> Dict[str, Any]:
        self.requests += 1
        model = str(body.get("model") or "")
        req = ChatRequest(path="/dry-run", headers={}, body=body)
        rf = req.response_format or {}
        schema = rf.get("json_schema") if isinstance(rf, dict) else None
        if isinstance(schema, dict) and schema.get("name") == "SimulatedUserTurn":
            verdict: Any = {"message": SIMULATED_TURN}
        else:
            verdict = schema_reply(req)
        text = json.dumps(verdict)
        counter = counter_for(model)
        self.methods[model] = counter.method
        prompt = req.prompt_tokens(counter)
        completion = counter(text)
        cost = cost_usd({"prompt_tokens": prompt, "completion_tokens": completion}, price_for(model))
        total = self.total
        total["judge_calls"] += 1
        total["prompt_tokens"] += prompt
        total["completion_tokens"] += completion
        total["cost_usd"] = None if cost is None or total["cost_usd"] is None else total["cost_usd"] + cost
        return {"id": f"dry-run-{self.requests}", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                          "total_tokens": prompt + completion}}

    def retire(self) -> None:
        pass


@contextlib.contextmanager
def use_dry_judge(transport: DryRunTransport) -> Iterator[DryRunTransport]:
    """Send every judge request made inside this block (and the tasks it starts) to ``transport``
    (the dry run engine installs it with the rest of the run's context)."""
    with scoped(dry_transport=transport):
        yield transport
