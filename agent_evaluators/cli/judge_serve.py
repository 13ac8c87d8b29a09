"""``agent-eval judge serve``: keep a local llama.cpp judge server running in the foreground.

Prints where it listens and how to point evaluators at it, then serves until
Ctrl-C or SIGTERM. The main CLI dispatches ``agent-eval judge serve ...`` here.
"""

import argparse
import json
import signal
import sys
import threading
from typing import TYPE_CHECKING, List, Optional, Sequence

from .._util.install_hint import install_hint
from ..errors import ConfigError

if TYPE_CHECKING:
    from ..local_judge.llama_server import LocalJudge

TINY_MODEL_WARNING = (
    "Scores are only as good as the model: use a capable instruct model (7B class or larger). Tiny models "
    "(e.g. SmolLM2-135M) produce well-formed but meaningless verdicts. Check yours with: agent-eval calibrate"
)


def build_serve_parser(prog: str = "agent-eval judge serve") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Serve a local GGUF model through llama.cpp's OpenAI-compatible server (needs the 'local' "
                    f"extra: {install_hint('local')}) so evaluators can judge offline.",
        epilog=TINY_MODEL_WARNING,
    )
    p.add_argument("--model", required=True, metavar="FILE.gguf", help="the GGUF model file to serve")
    p.add_argument("--port", type=int, default=8080, help="TCP port (default 8080; 0 picks a free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; the server has no authentication)")
    p.add_argument("--name", default=None, help="model name the server reports (default: the file name)")
    p.add_argument("--parallel", type=int, default=None,
                   help="requests decoded at once (default 2); match your evaluate(max_concurrency=...)")
    p.add_argument("--ctx", type=int, default=None, help="total context tokens shared by the slots")
    p.add_argument("--threads", type=int, default=None, help="CPU threads (default: physical cores)")
    p.add_argument("--gpu-layers", type=int, default=None, help="layers to offload with a GPU build of xllamacpp")
    p.add_argument("--verbose", action="store_true", help="show llama.cpp's own log")
    return p


def _wait_for_signal(stop: threading.Event) -> None:
    def handler(signum: int, frame: object) -> None:  # noqa: ARG001 - signal handler signature
        stop.set()

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, handler)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def serve_main(argv: Optional[Sequence[str]] = None, *, stop: Optional[threading.Event] = None) -> int:
    """Entry point of ``agent-eval judge serve``; returns the process exit code.

    ``stop``: an event that ends the server when set (for embedding; the CLI uses signals).
    Exit codes: 0 after a clean stop, 2 for a configuration problem (missing file,
    missing ``xllamacpp``, server failed to start).
    """
    from ..local_judge.llama_server import DEFAULT_PARALLEL, start_local_judge

    args = build_serve_parser().parse_args(list(argv) if argv is not None else None)
    try:
        judge = start_local_judge(
            args.model, args.port, host=args.host, model_name=args.name,
            n_parallel=args.parallel if args.parallel is not None else DEFAULT_PARALLEL,
            n_ctx=args.ctx, n_threads=args.threads, n_gpu_layers=args.gpu_layers, verbose=args.verbose,
        )
    except ConfigError as exc:
        print(f"agent-eval judge serve: error: {exc}", file=sys.stderr)
        return 2
    try:
        _serve(judge, stop or threading.Event())
    except KeyboardInterrupt:  # Ctrl-C before the wait loop began
        judge.stop()
    print("Local judge stopped.", flush=True)
    return 0


def _serve(judge: "LocalJudge", stop: threading.Event) -> None:
    with judge:
        lines: List[str] = [
            f"Local judge {judge.model!r} listening on {judge.url}",
            f"model_config = {json.dumps(judge.model_config)}",
            "or in the environment:",
            f"  export OPENAI_BASE_URL={judge.base_url} AGENT_EVAL_JUDGE_MODEL={judge.model}",
            TINY_MODEL_WARNING,
            "Press Ctrl-C to stop.",
        ]
        print("\n".join(lines), flush=True)
        _wait_for_signal(stop)


if __name__ == "__main__":  # pragma: no cover - manual use: python -m agent_evaluators.cli.judge_serve --model X.gguf
    sys.exit(serve_main())
