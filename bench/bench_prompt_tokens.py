"""Prompt tokens per verdict: our template vs azure-ai-evaluation 1.18's prompt, metric by metric, same rows.

Both sides run their real classes (``agent_evaluators.azure.X`` and ``azure.ai.evaluation``'s X,
called with the same arguments) against a local judge server of their own (``JudgeServer``, real
HTTP). Each server counts every request's prompt as a chat endpoint does
(:meth:`agent_evaluators.testing.ChatRequest.prompt_tokens`, with the offline tokenizer of
:mod:`agent_evaluators.judge.token_count`), so the figures compare what each side would pay for
its prompts. The rows are the bundled sample agents' OpenAI- and Azure-agent-format runs
(``samples/data/agents.jsonl``, the ADK rows left out; a row one side refuses is left out of
both: azure 1.18.10 refuses the OpenAI-format ones for the agent metrics, ``content: null``);
the quality metrics get those rows' last user text, final answer, ground truth and tool
outputs (as context) as plain strings, as azure's quality evaluators take them.

    PYTHONPATH=. python bench/bench_prompt_tokens.py [--model gpt-4o] [--check] [--long N [--seed S]]
    PYTHONPATH=. python bench/bench_prompt_tokens.py --record docs/evidence/records   # also write the figures

``--long N``: instead of the samples, ``N`` long customer-service conversations from
:mod:`bench.long_conversations` (policy-sized system prompt, 14 tool definitions, 5-15 user turns,
multi-KB JSON tool results), for the eight agent evaluators; the last line is the whole run's
tokens (every request of every evaluator), ours over azure's.

``--check`` exits 1 when any of our prompts costs more tokens per verdict than azure's. Each line
also gives the wall and CPU milliseconds per judged row of each side (one call, its request and
the local judge's reply; the CPU is this process's, the judge server's thread included).
Needs the ``azure`` extra; ``PF_DISABLE_TRACING`` is set here.
"""

import argparse
import importlib
import json
import logging
import os
import sys
import time
from pathlib import Path
from statistics import mean
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

os.environ.setdefault("PF_DISABLE_TRACING", "true")
REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from common import Recorder, add_record_argument  # noqa: E402

from agent_evaluators.judge.token_count import counter_for  # noqa: E402
from agent_evaluators.testing import ChatRequest, JudgeServer, schema_reply  # noqa: E402
from tests.parity.judge_harness import AZURE_CLASS, AZURE_QUALITY_CLASS  # noqa: E402

#: our name -> azure 1.18.10's module and class (the differential tests' own table)
AZURE = {**AZURE_CLASS, **AZURE_QUALITY_CLASS}
#: the agent evaluators (conversation in, no reference answer): what the long conversations are judged by
AGENT = [name for name in AZURE_CLASS if name != "ResponseCompletenessEvaluator"]

#: each metric's arguments from one sample row (``r``: the row as messages, ``t``: as plain texts)
CALLS: Dict[str, Callable[[Dict[str, Any], Dict[str, str]], Dict[str, Any]]] = {
    "IntentResolutionEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                   tool_definitions=r["tool_definitions"]),
    "ResponseCompletenessEvaluator": lambda r, t: dict(response=t["response"], ground_truth=t["ground_truth"]),
    "TaskAdherenceEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                tool_definitions=r["tool_definitions"]),
    "ToolCallAccuracyEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                   tool_definitions=r["tool_definitions"]),
    "TaskCompletionEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                 tool_definitions=r["tool_definitions"]),
    "ToolSelectionEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                tool_definitions=r["tool_definitions"]),
    "ToolInputAccuracyEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                    tool_definitions=r["tool_definitions"]),
    "ToolOutputUtilizationEvaluator": lambda r, t: dict(query=r["query"], response=r["response"],
                                                        tool_definitions=r["tool_definitions"]),
    "ToolCallSuccessEvaluator": lambda r, t: dict(response=r["response"], tool_definitions=r["tool_definitions"]),
    "CoherenceEvaluator": lambda r, t: dict(query=t["query"], response=t["response"]),
    "FluencyEvaluator": lambda r, t: dict(response=t["response"]),
    "RelevanceEvaluator": lambda r, t: dict(query=t["query"], response=t["response"]),
    "GroundednessEvaluator": lambda r, t: dict(query=t["query"], response=t["response"], context=t["context"]),
    "SimilarityEvaluator": lambda r, t: dict(query=t["query"], response=t["response"],
                                             ground_truth=t["ground_truth"]),
    "RetrievalEvaluator": lambda r, t: dict(query=t["query"], context=t["context"]),
}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _texts(row: Dict[str, Any]) -> Dict[str, str]:
    """A row's last user text, final answer, ground truth and tool outputs (the context) as plain strings."""
    user = [_text(m.get("content")) for m in row["query"] if m.get("role") == "user"]
    answers = [_text(m.get("content")) for m in row["response"] if m.get("role") == "assistant"]
    tools = [_text(m.get("content")) or json.dumps(m.get("content")) for m in row["response"] if m.get("role") == "tool"]
    return {"query": user[-1], "response": next(a for a in reversed(answers) if a), "ground_truth": row["ground_truth"],
            "context": "\n".join(tools) or row["ground_truth"]}


def sample_rows() -> List[Dict[str, Any]]:
    rows = [json.loads(line) for line in (REPO / "samples" / "data" / "agents.jsonl").read_text().splitlines()]
    return [r for r in rows if r["format"] in ("openai", "azure_agent")]


def azure_judge(req: ChatRequest) -> Any:
    """A reply azure's parsers accept: its quality prompts' ``<S2>`` tags, else its JSON fields."""
    if "<S2>" in req.text:
        return "<S0>thinking</S0><S1>a placeholder explanation</S1><S2>4</S2>"
    if req.json_schema is not None:
        return schema_reply(req)
    return {"explanation": "placeholder", "reason": "placeholder", "score": 1, "success": True, "status": "completed",
            "properties": {}, "chain_of_thought": "placeholder"}


def long_rows(n: int, seed: int) -> List[Dict[str, Any]]:
    """``n`` long conversations (:mod:`bench.long_conversations`), the same for the same seed."""
    sys.path.insert(0, str(REPO / "bench"))
    from long_conversations import rows

    return rows(n, seed)


def _tokens(server: JudgeServer, count: Callable[[str], int]) -> Tuple[int, float]:
    requests = server.requests
    return len(requests), (mean(r.prompt_tokens(count) for r in requests) if requests else float("nan"))


class Measured(NamedTuple):
    ours: float  #: our mean prompt tokens per request
    theirs: float  #: azure's
    judged: int  #: rows both sides judged
    our_total: int  #: every request's prompt tokens, summed
    their_total: int
    our_ms: float  #: wall milliseconds per judged row (the call, its request and the local judge's reply)
    their_ms: float
    our_cpu_ms: float  #: this process's CPU milliseconds per judged row (the judge server's thread included)
    their_cpu_ms: float


def measure(name: str, rows: List[Dict[str, Any]], model: str) -> Measured:
    """Our mean prompt tokens per request, azure's, and the totals, over the rows both sides judged."""
    import agent_evaluators.azure as ours_pkg

    module, cls_name = AZURE[name]
    theirs_cls = getattr(importlib.import_module(module), cls_name)
    count = counter_for(model)
    with JudgeServer() as ours_server, JudgeServer(azure_judge) as their_server:
        ours = getattr(ours_pkg, name)({**ours_server.openai_config(model), "type": "openai"})
        theirs = theirs_cls({**their_server.openai_config(model), "type": "openai"})
        judged = 0
        spent = [0.0, 0.0, 0.0, 0.0]  # ours wall, ours CPU, theirs wall, theirs CPU
        for row in rows:
            kwargs = CALLS[name](row, {} if name in AGENT else _texts(row))
            before = (len(ours_server.requests), len(their_server.requests))
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                ours(**kwargs)
            except Exception:  # noqa: BLE001 - a row one side refuses is left out of both
                pass
            mid_wall, mid_cpu = time.perf_counter(), time.process_time()
            try:
                theirs(**kwargs)
            except Exception:  # noqa: BLE001
                pass
            if len(ours_server.requests) == before[0] or len(their_server.requests) == before[1]:
                _drop_since(ours_server, before[0])
                _drop_since(their_server, before[1])
                continue
            judged += 1
            spent[0] += mid_wall - wall
            spent[1] += mid_cpu - cpu
            spent[2] += time.perf_counter() - mid_wall
            spent[3] += time.process_time() - mid_cpu
        _, our_mean = _tokens(ours_server, count)
        _, their_mean = _tokens(their_server, count)
        our_total = sum(r.prompt_tokens(count) for r in ours_server.requests)
        their_total = sum(r.prompt_tokens(count) for r in their_server.requests)
    per_row = [1000 * s / judged if judged else float("nan") for s in spent]
    return Measured(our_mean, their_mean, judged, our_total, their_total, per_row[0], per_row[2], per_row[1], per_row[3])


def _drop_since(server: JudgeServer, n: int) -> None:
    """Forget the requests of a row the other side did not judge (so both means cover the same rows)."""
    with server._lock:  # noqa: SLF001 - a benchmark of our own server
        del server._requests[n:]  # noqa: SLF001


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="gpt-4o", help="judge model named in the requests (its tokenizer counts)")
    parser.add_argument("--check", action="store_true", help="exit 1 when one of our prompts is the longer "
                        "(with --long: above 0.9x azure's for an evaluator, or 0.6x for the whole run)")
    parser.add_argument("--long", type=int, default=0, metavar="N",
                        help="judge N long generated conversations with the agent evaluators instead of the samples")
    parser.add_argument("--seed", type=int, default=7, help="the long conversations' seed")
    add_record_argument(parser)
    args = parser.parse_args(argv)
    rec = Recorder("bench_prompt_tokens_long" if args.long else "bench_prompt_tokens", args.record)
    logging.getLogger("azure").setLevel(logging.ERROR)  # "experimental class" notices, one per class
    rows, names, limit = ((long_rows(args.long, args.seed), AGENT, 0.9) if args.long else (sample_rows(), list(AZURE), 1.0))
    kind = f"long conversations (seed {args.seed})" if args.long else "sample rows"
    print(f"prompt tokens per verdict, {len(rows)} {kind}, counted with: {counter_for(args.model).method}\n")
    print(f"{'metric':34} {'ours':>7} {'azure':>7} {'ours/azure':>10} {'rows':>5}   ms/row ours, azure (wall; CPU)")
    rec.table("tokens", f"prompt tokens per verdict, {len(rows)} {kind}, counted with {counter_for(args.model).method}",
              ["metric", "ours", "azure 1.18", "ours / azure", "rows judged", "ms per row, ours / azure (wall)"])
    worse = []
    totals = [0, 0]
    for name in names:
        m = measure(name, rows, args.model)
        ratio = m.ours / m.theirs if m.judged and m.theirs else float("nan")
        if ratio > limit:
            worse.append(name)
        totals[0] += m.our_total
        totals[1] += m.their_total
        print(f"{name:34} {m.ours:7.0f} {m.theirs:7.0f} {ratio:10.2f} {m.judged:5d}   {m.our_ms:6.1f}, {m.their_ms:6.1f}; "
              f"{m.our_cpu_ms:6.1f}, {m.their_cpu_ms:6.1f}")
        rec.row("tokens", name, round(m.ours), round(m.theirs), f"{ratio:.2f}", m.judged,
                f"{m.our_ms:.1f} / {m.their_ms:.1f}")
    whole = totals[0] / totals[1] if totals[1] else float("nan")
    print(f"{'whole run (all requests)':34} {totals[0]:7d} {totals[1]:7d} {whole:10.2f}")
    rec.row("tokens", "whole run (all requests)", totals[0], totals[1], f"{whole:.2f}", "", "")
    rec.write(None if argv is None else [sys.argv[0], *argv])
    if args.long and whole > 0.6:
        worse.append("whole run")
    return 1 if args.check and worse else 0


if __name__ == "__main__":
    sys.exit(main())
