"""``--judge-mode batch`` / ``--batch`` on the other commands that ask a judge: ``calibrate`` and ``adk``
(they share the judge flags of ``run``), against the fake judge's Batch API over real HTTP."""

import json
from pathlib import Path

from agent_evaluators.testing import JudgeServer

from .helpers import SAMPLES, agent_eval


def _batch_lines(server: JudgeServer) -> int:
    return sum(1 for r in server.requests if "x-batch-custom-id" in r.headers)


def test_calibrate_in_batch_mode_gives_the_direct_report(tmp_path):
    with JudgeServer() as server:
        judge = ["--judge-model", "fake", "--judge-base-url", server.openai_config()["base_url"]]
        direct = agent_eval("calibrate", "--quick", "--evaluator", "intent", *judge, "--json", tmp_path / "d.json")
        calls = server.stats()["requests"]
        server.reset()
        batch = agent_eval("calibrate", "--quick", "--evaluator", "intent", *judge, "--json", tmp_path / "b.json",
                           "--batch")
        assert direct.rc == batch.rc == 0, (direct, batch)
        assert len(server.batches.batches) == 1 and _batch_lines(server) == calls == server.stats()["requests"]

    def cases(path: Path) -> list:
        text = path.read_text()
        return [(c["id"], c["predicted"], c["score"]) for c in json.loads(text)[0]["cases"]]

    assert cases(tmp_path / "b.json") == cases(tmp_path / "d.json") and len(cases(tmp_path / "d.json")) > 5


def test_adk_in_batch_mode_gives_the_direct_results(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"criteria": {"final_response_match_v2": 0.5}}))
    data = SAMPLES / "data"
    with JudgeServer() as server:
        def run(*extra: str) -> object:
            return agent_eval("adk", data / "home_automation.evalset.json", "--actual", data / "home_automation.actual.jsonl",
                              "--config", tmp_path / "config.json", "--judge-model", "fake", "--judge-base-url",
                              server.openai_config()["base_url"], "--output", tmp_path / extra[-1], *extra[:-1])
        direct = run("direct")
        calls = server.stats()["requests"]
        server.reset()
        batch = run("--judge-mode", "batch", "batch")
        assert calls > 0 and _batch_lines(server) == calls == server.stats()["requests"], (direct, batch)
        assert len(server.batches.batches) >= 1
    assert direct.rc == batch.rc == 0, (direct, batch)
    assert _summaries(tmp_path / "direct") == _summaries(tmp_path / "batch") != []


def _summaries(folder: Path) -> list:
    out = []
    for path in sorted(folder.rglob("*.evalset_result.json")):
        result = json.loads(path.read_text())
        for case in result.get("eval_case_results", []):
            out.append((case.get("eval_id"), case.get("final_eval_status"),
                        [(m.get("metric_name"), m.get("score")) for m in case.get("overall_eval_metric_results", [])]))
    return out


def test_a_run_in_batch_mode_says_so_in_the_terminal_and_summary(tmp_path):
    with JudgeServer() as server:
        judge = ["--judge-model", "fake", "--judge-base-url", server.openai_config()["base_url"]]
        runs = {mode: agent_eval("run", "--data", SAMPLES / "data" / "agents.jsonl", "-e", "intent_resolution",
                                 "-o", tmp_path / mode, *judge, *extra)
                for mode, extra in (("direct", []), ("batch", ["--batch"]))}
    assert runs["direct"].rc == runs["batch"].rc == 0, runs
    used = json.loads((tmp_path / "batch" / "summary.json").read_text())["judge_batches"]
    assert used == {"batches": 1, "batched_requests": 12, "direct_requests": 0}
    assert "Judge mode: batch: 12 judge request(s) answered from 1 batch(es)" in runs["batch"].out, runs["batch"]
    assert "judge_batches" not in json.loads((tmp_path / "direct" / "summary.json").read_text())
    assert "Judge mode" not in runs["direct"].out
