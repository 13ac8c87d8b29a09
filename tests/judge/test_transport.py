"""The aiohttp transport over real HTTP: routes and headers, per-loop sessions, clean shutdown."""

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

from agent_evaluators.judge import get_judge_client
from agent_evaluators.judge.transport import chat_url
from agent_evaluators.testing import JudgeServer

from .conftest import MESSAGES, Verdict

REPO = Path(__file__).resolve().parents[2]


def test_openai_route_sends_key_organization_and_extra_headers():
    with JudgeServer() as server:
        cfg = dict(server.openai_config(), organization="org-1", extra_headers={"X-Trace": "t-1"})
        asyncio.run(get_judge_client(cfg).complete(MESSAGES, output_model=Verdict))
        req = server.requests[0]
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer test-key"
    assert req.headers["openai-organization"] == "org-1" and req.headers["x-trace"] == "t-1"


def test_azure_route_uses_api_key_header_and_no_bearer():
    with JudgeServer() as server:
        asyncio.run(get_judge_client(server.azure_config(deployment="dep")).complete(MESSAGES, output_model=Verdict))
        req = server.requests[0]
    assert req.path == "/openai/deployments/dep/chat/completions" and req.query == {"api-version": "2024-10-21"}
    assert req.headers["api-key"] == "test-key" and "authorization" not in req.headers


def test_chat_url_for_azure_base_url_with_and_without_deployment():
    from agent_evaluators.judge.endpoint import EndpointConfig

    plain = EndpointConfig(kind="azure", model="d", base_url="https://r.example/openai", api_version="v", api_key="k")
    deployed = EndpointConfig(kind="azure", model="d", base_url="https://r.example/openai/deployments/d",
                              api_version="v", api_key="k")
    assert chat_url(plain) == chat_url(deployed) == "https://r.example/openai/deployments/d/chat/completions?api-version=v"


def test_one_client_reused_across_loops_including_a_manually_closed_one(recwarn):
    with JudgeServer() as server:
        judge = get_judge_client(server.openai_config())
        loop = asyncio.new_event_loop()
        first = loop.run_until_complete(judge.complete(MESSAGES, output_model=Verdict))
        loop.close()  # no shutdown_asyncgens: its session is dropped quietly on the next loop
        second = asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
        third = asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
    assert first.data.score and second.data.score and third.data.score
    assert not [w for w in recwarn if "Event loop is closed" in str(w.message)]


def test_no_unclosed_session_warnings_at_exit(tmp_path):
    # sync calls (a long-lived background loop) and asyncio.run calls, then interpreter exit
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import asyncio, gc
        from agent_evaluators import IntentResolutionEvaluator
        from agent_evaluators.testing import JudgeServer
        with JudgeServer() as server:
            ev = IntentResolutionEvaluator(model_config=server.openai_config())
            print(ev(query="cancel my meeting", response="Meeting cancelled.")["intent_resolution"])
            out = asyncio.run(ev.acall(query="cancel my meeting", response="Meeting cancelled."))
            print(out["intent_resolution"])
        gc.collect()
    """))
    proc = subprocess.run([sys.executable, "-X", "dev", "-W", "always::ResourceWarning", str(script)],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["4.0", "4.0"], proc.stdout
    for noise in ("Unclosed client session", "Unclosed connector", "Event loop is closed", "unclosed transport"):
        assert noise not in proc.stderr, proc.stderr
