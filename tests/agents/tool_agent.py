"""A tiny ADK agent package, written into a test's folder, whose tools misbehave on request.

The scripted model calls the tool named by the user's message (``block``: a sync tool that
sleeps, ``hang``: an async tool that never returns, ``crash``: a tool that raises, ``object``:
a tool returning something that is not JSON) and then says "done"; any other message gets
"hello". No LLM service is needed, and every tool call is a real ADK event.
"""

import json
from pathlib import Path
from typing import Dict, List, Optional, Tuple

AGENT_CODE = '''
import asyncio
import time

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.genai import types


def block_tool() -> dict:
    """Blocks its thread (a sync tool stuck in I/O)."""
    time.sleep(BLOCK_S)
    return {"status": "ok"}


async def hang_tool() -> dict:
    """Never returns."""
    await asyncio.sleep(3600)
    return {"status": "ok"}


def crash_tool() -> dict:
    """Raises."""
    raise RuntimeError("the crash tool fell over")


def object_tool() -> dict:
    """Returns something that is not JSON."""
    return {"value": object()}


def _reply(part):
    usage = types.GenerateContentResponseUsageMetadata(prompt_token_count=0, candidates_token_count=0,
                                                       total_token_count=0)
    return LlmResponse(content=types.Content(role="model", parts=[part]), usage_metadata=usage)


class ToolModel(BaseLlm):
    model: str = "tool-model"

    async def generate_content_async(self, llm_request, stream=False):
        last = llm_request.contents[-1]
        if any(p.function_response for p in last.parts or []):
            yield _reply(types.Part(text="done"))
            return
        asked = " ".join(p.text for p in last.parts or [] if p.text).strip()
        if asked in ("block", "hang", "crash", "object"):
            yield _reply(types.Part(function_call=types.FunctionCall(name=asked + "_tool", args={})))
            return
        yield _reply(types.Part(text="hello"))


root_agent = LlmAgent(name="tool_agent", model=ToolModel(), instruction="Call the tool you are asked for.",
                      tools=[block_tool, hang_tool, crash_tool, object_tool])
'''


def write_agent(folder: Path, *, block_s: float = 30.0) -> Path:
    """The agent package ``folder/tool_agent`` (its own package name, so tests do not share a module)."""
    agent = folder / "tool_agent"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "__init__.py").write_text("from . import agent  # noqa: F401\n")
    (agent / "agent.py").write_text(AGENT_CODE.replace("BLOCK_S", repr(block_s)))
    return agent


def _invocation(case: str, text: str, answer: str, tool: Optional[str]) -> Dict[str, object]:
    return {"invocation_id": f"{case}-1",
            "user_content": {"role": "user", "parts": [{"text": text}]},
            "final_response": {"role": "model", "parts": [{"text": answer}]},
            "intermediate_data": {"tool_uses": [{"name": tool, "args": {}}] if tool else []}}


def write_eval_set(folder: Path, cases: List[Tuple[str, str]], *, extra: Optional[List[dict]] = None) -> Path:
    """An eval set with one single-turn case per ``(eval_id, user text)``, scored by trajectory only."""
    eval_cases = [{"eval_id": case, "conversation": [
        _invocation(case, text, "done" if text in ("block", "hang", "crash", "object") else "hello",
                    f"{text}_tool" if text in ("block", "hang", "crash", "object") else None)]}
        for case, text in cases]
    path = folder / "tools.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "tools", "eval_cases": eval_cases + list(extra or [])}))
    (folder / "test_config.json").write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": 1.0}}))
    return path
