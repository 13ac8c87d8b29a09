"""A judge evaluator resolves its model config and builds its JudgeClient once, not per request.

Counted with real subclasses/wrappers of the real classes (no monkeypatched HTTP):
every request still goes over real HTTP to a local JudgeServer.
"""

import pickle

from agent_evaluators import IntentResolutionEvaluator, ResponseCompletenessEvaluator, evaluate
from agent_evaluators.judge import client as client_module

ROWS = 20


def responder(req):
    if "missing_information" in str(req.body.get("response_format", "")) or "ground_truth" in req.text.lower():
        return {"missing_information": [], "reason": "complete", "score": 5}
    return {"user_intent": "asks", "reason": "resolved", "score": 5}


class Counts:
    def __init__(self, monkeypatch):
        self.clients = 0
        self.resolutions = 0
        original_init = client_module.JudgeClient.__init__
        original_resolve = client_module.resolve_config

        def counting_init(client, *args, **kwargs):
            self.clients += 1
            original_init(client, *args, **kwargs)

        def counting_resolve(*args, **kwargs):
            self.resolutions += 1
            return original_resolve(*args, **kwargs)

        monkeypatch.setattr(client_module.JudgeClient, "__init__", counting_init)
        monkeypatch.setattr(client_module, "resolve_config", counting_resolve)


def test_twenty_rows_two_judges_build_two_clients(judge_server, monkeypatch, tmp_path):
    server = judge_server(responder)
    config = server.openai_config()
    counts = Counts(monkeypatch)
    evaluators = {
        "intent": IntentResolutionEvaluator(model_config=config),
        "complete": ResponseCompletenessEvaluator(model_config=config),
    }
    rows = [{"query": f"question {i}", "response": f"answer {i}", "ground_truth": f"answer {i}"} for i in range(ROWS)]
    result = evaluate(
        data=rows,
        evaluators=evaluators,
        evaluator_config={"intent": {"column_mapping": {"query": "${data.query}", "response": "${data.response}"}}},
        output_path=tmp_path / "out",
    )
    assert result.metrics["intent.n"] == ROWS and result.metrics["complete.n"] == ROWS, result.errors
    assert server.stats()["requests"] >= 2 * ROWS
    # one per evaluator (check_ready builds it; every row reuses it)
    assert counts.clients <= 2, counts.clients
    assert counts.resolutions <= 2, counts.resolutions


def test_the_client_is_not_pickled_and_is_rebuilt_after(judge_server, monkeypatch):
    server = judge_server(responder)
    evaluator = IntentResolutionEvaluator(model_config=server.openai_config())
    counts = Counts(monkeypatch)
    assert evaluator(query="q", response="a")["intent_resolution"] == 5
    assert evaluator(query="q", response="a")["intent_resolution"] == 5
    assert counts.clients == 1
    blob = pickle.dumps(evaluator)
    assert b"JudgeClient" not in blob
    copy = pickle.loads(blob)
    assert copy(query="q", response="a")["intent_resolution"] == 5
    assert counts.clients == 2


def test_the_hallucination_segmenter_shares_the_validators_client(judge_server, monkeypatch, tmp_path):
    from agent_evaluators import HallucinationEvaluator

    def two_step(req):
        if "<agent_text>" in req.text:
            return {"sentences": ["Paris is in France."]}
        return {"sentences": [{"index": 0, "rationale": "r", "supporting_excerpt": "", "contradicting_excerpt": "",
                               "label": "supported"}]}

    server = judge_server(two_step)
    counts = Counts(monkeypatch)
    result = evaluate(data=[{"response": f"Paris is in France ({i})."} for i in range(5)],
                      evaluators={"h": HallucinationEvaluator(model_config=server.openai_config())},
                      output_path=tmp_path / "out")
    assert result.metrics["h.n"] == 5, result.errors
    assert server.stats()["requests"] == 10  # a segmenter and a validator request per row
    assert counts.clients == 1, counts.clients
