"""What an agent run cost: ADK's informational efficiency metrics (tool calls, model calls,
tokens, time per turn), from ADK invocations or chat messages. See :mod:`.metrics`."""

from .metrics import (
    EFFICIENCY_METRICS,
    INFERENCE_CALL_COUNT,
    INVOCATION_DURATION,
    TOKEN_USAGE,
    TOOL_CALL_COUNT,
    EfficiencyResult,
    TurnUsage,
    compute,
    reject_threshold,
)
from .sources import from_any, from_invocations, from_messages

__all__ = ["EFFICIENCY_METRICS", "TOOL_CALL_COUNT", "INFERENCE_CALL_COUNT", "TOKEN_USAGE", "INVOCATION_DURATION",
           "EfficiencyResult", "TurnUsage", "compute", "reject_threshold", "from_any", "from_invocations",
           "from_messages"]
