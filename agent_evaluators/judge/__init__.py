"""The judge client shared by every judge-backed evaluator.

::

    from agent_evaluators.judge import get_judge_client

    judge = get_judge_client({"model": "gpt-4o-mini", "api_key": "..."})
    reply = await judge.complete(messages, output_model=Verdict, params={"temperature": 0, "max_tokens": 800})
    reply.data      # a validated Verdict
    reply.usage     # tokens, attempts, response format used, latency

Importing this package does not import ``openai`` or ``aiohttp``; they are loaded on first use.
``public_url`` / ``public_headers`` mask a judge URL's credentials and query values and every
non-public header value, for anything shown or stored (summaries, CLI output).
"""

from .client import JudgeClient, JudgeReply, get_judge_client, is_reasoning_model_name
from .endpoint import DEFAULT_AZURE_API_VERSION, EndpointConfig, public_headers, public_url
from .parsing import JudgeReplyParseError, parse_json_reply

__all__ = [
    "get_judge_client",
    "JudgeClient",
    "JudgeReply",
    "parse_json_reply",
    "JudgeReplyParseError",
    "EndpointConfig",
    "DEFAULT_AZURE_API_VERSION",
    "is_reasoning_model_name",
    "public_url",
    "public_headers",
]
