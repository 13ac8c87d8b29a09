"""A local OpenAI-compatible judge server for tests, CI and benchmarks.

::

    from agent_evaluators.testing import JudgeServer, Faults, ChatRequest, Reply, schema_reply

    def responder(req: ChatRequest):
        return {"score": 5 if "refund" in req.last_user_text else 2, "reason": "rule"}

    with JudgeServer(responder, faults=Faults(rate_429=0.1), delay_s=0.05) as server:
        evaluator = IntentResolutionEvaluator(model_config=server.openai_config())
        ...
        server.stats()   # {"requests": ..., "max_in_flight": ..., "in_flight": ..., "faults": {...}}

``python -m agent_evaluators.testing --port 0 --delay-ms 50 --score 4`` runs one standalone.
"""

from ..conversation.transcript_reader import read_transcript
from .batches import BatchFaults
from .judge_server import Faults, JudgeServer, Responder
from .requests import AUTO, ChatRequest, Reply
from .synth import schema_reply

__all__ = ["JudgeServer", "Faults", "BatchFaults", "ChatRequest", "Reply", "Responder", "schema_reply", "AUTO",
           "read_transcript"]
