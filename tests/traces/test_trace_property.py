"""The same conversation given as messages and as its trace gets the same scores and judge requests.

For every real producer's fixture (ADK; the OpenAI client under opentelemetry-instrumentation-openai-v2
in three convention generations; OpenInference), each agent run read from the trace is compared with
the same run written out as OpenAI messages (``conversations.py``): every deterministic evaluator
that reads a transcript gives the same cell, and the judge evaluators send the bundled fake judge
the same request bodies and get the same verdicts.
"""

import json
import shutil
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import evaluate, registry
from agent_evaluators.runner.readers import RowError, iter_input
from agent_evaluators.testing import JudgeServer

from .conversations import FIXTURES, LOOP_TOOLS, PRODUCER_FILES, message_row, runs_of

#: every deterministic evaluator that reads an agent's transcript (DocumentRetrieval reads retrieval
#: labels, which a trace does not hold), with the ground-truth column it is given
DETERMINISTIC = {
    "tool_trajectory": "expected_calls", "task_navigation_efficiency": "expected_names", "response_match": "answer",
    "f1_score": "answer", "bleu_score": "answer", "gleu_score": "answer", "meteor_score": "answer", "rouge": "answer",
}
OPTIONS: Dict[str, Dict[str, Any]] = {"rouge": {"rouge_type": "rouge1"}}
#: judge evaluators whose inputs a transcript gives (query, response, tool calls and definitions, conversation)
JUDGED = ["intent_resolution", "task_adherence", "tool_call_accuracy", "task_completion", "tool_selection",
          "tool_input_accuracy", "tool_output_utilization", "tool_call_success", "relevance", "coherence", "fluency",
          "response_completeness", "similarity", "response_evaluation", "hallucinations", "safety",
          "trajectory_judge", "violence", "protected_material", "code_vulnerability"]


def trace_folder(tmp_path: Path, producer: str) -> Path:
    folder = tmp_path / producer
    folder.mkdir()
    for name in PRODUCER_FILES[producer]:
        shutil.copy(FIXTURES / name, folder / name)
    return folder


def read_trace_rows(folder: Path) -> List[Dict[str, Any]]:
    rows = list(iter_input(folder))
    assert not [r for r in rows if isinstance(r, RowError)], rows
    return rows  # type: ignore[return-value]


def with_ground_truth(row: Dict[str, Any], reference: Dict[str, Any]) -> Dict[str, Any]:
    """The row plus ground truths made from the run itself (so the scores are the interesting 1.0s)."""
    calls = [c for m in reference["response"] for c in m.get("tool_calls") or []]
    final = reference["response"][-1]["content"]
    return {**row, "answer": final, "ground_truth": final,
            "expected_calls": [{"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}
                               for c in calls],
            "expected_names": [c["function"]["name"] for c in calls]}


def evaluators(judge: Dict[str, Any]) -> Dict[str, Any]:
    made = {}
    for name in DETERMINISTIC:
        made[name] = registry.get(name).load()(**OPTIONS.get(name, {}))
    for name in JUDGED:
        made[name] = registry.get(name).load()(model_config=judge)
    return made


def config() -> Dict[str, Any]:
    return {name: {"column_mapping": {"ground_truth": "${data." + column + "}", "response": "${data.response}"}}
            for name, column in DETERMINISTIC.items()}


def cells(result: Any) -> List[Dict[str, Any]]:
    """Each row's evaluator outputs, without what differs between any two runs (usage, latency)."""
    return [{k: v for k, v in row.items() if k.startswith("outputs.") and not k.endswith("_usage")}
            for row in result.rows]


def bodies(server: JudgeServer) -> List[str]:
    return sorted(json.dumps(r.body, sort_keys=True) for r in server.requests)


@pytest.mark.parametrize("producer", list(PRODUCER_FILES))
def test_a_trace_and_its_messages_get_the_same_scores_and_judge_requests(producer, tmp_path):
    trace_rows = read_trace_rows(trace_folder(tmp_path, producer))
    runs = runs_of(producer)
    assert len(trace_rows) == len(runs)
    tools = LOOP_TOOLS if producer != "adk" else trace_rows[0]["tool_definitions"]  # ADK's own declarations
    message_rows = [message_row(run, tools) for run in runs]
    trace_rows = [with_ground_truth(t, m) for t, m in zip(trace_rows, message_rows)]
    message_rows = [with_ground_truth(m, m) for m in message_rows]
    with JudgeServer() as server:
        judge = server.openai_config()
        from_messages = evaluate(data=message_rows, evaluators=evaluators(judge), evaluator_config=config(),
                                 show_progress=False)
        sent_for_messages = bodies(server)
        server.reset()
        from_trace = evaluate(data=trace_rows, evaluators=evaluators(judge), evaluator_config=config(),
                              show_progress=False)
        sent_for_trace = bodies(server)
    # the one error both forms share: TaskNavigationEfficiency refuses an empty expected path (the joke run)
    assert [e["message"] for e in from_trace.errors] == [e["message"] for e in from_messages.errors]
    assert {e["alias"] for e in from_trace.errors} <= {"task_navigation_efficiency"}, from_trace.errors
    assert cells(from_trace) == cells(from_messages)
    assert sent_for_trace == sent_for_messages
    # every judge evaluator asked about every run (the tool metrics have nothing to judge in a run without tools)
    assert len(sent_for_trace) >= len(JUDGED) * (len(runs) - 1)
    scores = cells(from_trace)
    assert all(row["outputs.tool_trajectory.tool_trajectory_avg_score"] == 1.0 for row in scores)
    assert all(row["outputs.response_match.response_match_score"] == 1.0 for row in scores)
