"""Standalone local judge server for demos and benchmarks: ``python -m agent_evaluators.testing``.

Prints ``listening on http://127.0.0.1:PORT`` (flushed) once it accepts connections,
then serves until interrupted. Replies conform to each request's ``json_schema``
(score fields get ``--score``), or ``{"score": N, "reason": ...}`` without one.

``python -m agent_evaluators.testing -- COMMAND ...`` serves only while COMMAND runs, with the
judge in COMMAND's environment (``OPENAI_BASE_URL``, ``AGENT_EVAL_JUDGE_MODEL=fake``, a placeholder
``OPENAI_API_KEY``; the Azure OpenAI variables removed, so no real key is sent anywhere), and exits
with COMMAND's exit code: one command that shows judge metrics scored, with no key and no race
between starting a server and using it.
"""

import argparse
import functools
import os
import subprocess
import sys
import threading
from typing import Dict, List, Optional

from .judge_server import Faults, JudgeServer
from .requests import ChatRequest
from .synth import schema_reply


def _reply(req: ChatRequest, *, score: int) -> dict:
    return schema_reply(req, score=score)


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m agent_evaluators.testing", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    p.add_argument("--delay-ms", type=float, default=0.0, help="delay of every successful reply")
    p.add_argument("--score", type=int, default=4, help="value for score fields")
    p.add_argument("--seed", type=int, default=0)
    for name in ("429", "500", "slow", "malformed", "length", "reset"):
        p.add_argument(f"--rate-{name}", type=float, default=0.0, help=f"fraction of requests answered with {name}")
    p.add_argument("--retry-after-ms", type=int, default=50)
    p.add_argument("--slow-s", type=float, default=2.0)
    p.add_argument("--reject-json-schema", action="store_true")
    p.add_argument("--require-api-key", metavar="KEY", default=None,
                   help="answer 401 (invalid_api_key) unless a request carries this key, as a real endpoint does")
    p.add_argument("command", nargs=argparse.REMAINDER,
                   help="-- COMMAND ...: run COMMAND against this judge, then stop (exit code: COMMAND's)")
    args = p.parse_args(argv)
    faults = Faults(rate_429=args.rate_429, rate_500=args.rate_500, rate_slow=args.rate_slow,
                    rate_malformed=args.rate_malformed, rate_length=args.rate_length, rate_reset=args.rate_reset,
                    retry_after_ms=args.retry_after_ms, slow_s=args.slow_s,
                    reject_json_schema=args.reject_json_schema, seed=args.seed)
    server = JudgeServer(functools.partial(_reply, score=args.score), faults=faults,
                         delay_s=args.delay_ms / 1000.0, seed=args.seed, host=args.host, port=args.port, keep_requests=False,
                         require_api_key=args.require_api_key)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    with server:
        if command:
            return _run_with_judge(command, server.url)
        sys.stdout.write(f"listening on {server.url}\n")
        sys.stdout.flush()
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


def judge_environment(url: str, env: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """``env`` (default: this process's) pointed at the fake judge at ``url``, with no real key left in it."""
    out = {k: v for k, v in (os.environ if env is None else env).items() if not k.startswith("AZURE_OPENAI_")}
    out.update(OPENAI_BASE_URL=f"{url}/v1", AGENT_EVAL_JUDGE_MODEL="fake", OPENAI_API_KEY="fake-judge")
    return out


def _run_with_judge(command: List[str], url: str) -> int:
    try:
        return subprocess.call(command, env=judge_environment(url))
    except FileNotFoundError:
        sys.stderr.write(f"python -m agent_evaluators.testing: no such command: {command[0]}\n")
        return 127
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
