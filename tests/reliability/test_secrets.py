"""Secrets: API keys and bearer tokens never appear in results, summaries, logs, exceptions or the cache.

A run with a distinctive API key (OpenAI-style config) or an Entra ID credential (Azure-style
config), plus a secret extra header, against a judge server that misbehaves on purpose: it
echoes the ``Authorization`` header, the bare token and the secret header back in error
messages and in reply text, and fails 20% of requests with a 500. Then every artifact is
grepped for each secret: every file under ``output_path``, the sqlite cache, a DEBUG log of
every logger, ``repr``/``str`` of the result, its errors and summary, the evaluator and the
judge client, and the full traceback, ``raw_text`` and usage of each exception raised by
direct calls.
"""

import json
import logging
import secrets
import traceback
from typing import Any, Dict

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import Faults, JudgeServer, Reply, schema_reply

KEY = "sk-live-" + secrets.token_hex(16)
TOKEN = "eyJ0eXAi" + secrets.token_hex(20)
HEADER = "hdr-" + secrets.token_hex(14)
SECRETS = {"api key": KEY, "bearer token": TOKEN, "secret header": HEADER}

TAGS = ["plain", "echo-auth", "echo-bare", "echo-header", "echo-in-reply", "echo-truncated", "plain"]


def echoing_judge(req):
    """A judge that leaks whatever credentials it received, in as many ways as it can."""
    auth = req.headers.get("authorization") or req.headers.get("api-key") or ""
    bare = auth.split()[-1] if auth else ""
    header = req.headers.get("x-client-secret", "")
    text = req.text
    if "echo-auth" in text:
        return Reply(status=401, content={"message": f"Incorrect API key provided: {auth}"})
    if "echo-bare" in text:
        return Reply(status=403, content={"message": f"token {bare} has no access"})
    if "echo-header" in text:
        return Reply(status=400, content={"message": f"bad client secret {header}"})
    if "echo-in-reply" in text:
        return f"I cannot grade this. Debug: auth={auth} bare={bare} secret={header}"
    if "echo-truncated" in text:
        return Reply(content=f'{{"reason": "auth={auth} {bare} {header}", "sco', finish_reason="length")
    return {**schema_reply(req), "reason": "fine"}


class FakeCredential:
    """An Entra ID credential whose token is a known secret."""

    def get_token(self, *scopes: str) -> Any:
        class AccessToken:
            token = TOKEN
            expires_on = 2 ** 31

        return AccessToken()


def _configs(server: JudgeServer) -> Dict[str, Dict[str, Any]]:
    headers = {"X-Client-Secret": HEADER}
    return {
        "openai": {"model": "judge-model", "base_url": server.url + "/v1", "api_key": KEY, "extra_headers": headers},
        "azure": {"azure_endpoint": server.url, "azure_deployment": "judge", "credential": FakeCredential(),
                  "extra_headers": headers},
    }


def _leaks(texts: Dict[str, str]) -> list:
    return [f"{what} in {where}" for where, text in texts.items() for what, s in SECRETS.items() if s in text]


@pytest.mark.parametrize("kind", ["openai", "azure"])
def test_no_secret_in_any_artifact(tmp_path, kind, monkeypatch):
    # This judge answers 401/403 by row content, not by key, to reach every echo path; a real
    # endpoint's 401 is the same for every request with the key, so the client stops sending after
    # the first one (item 20.6). Keep it sending here, or later rows never meet their echo path.
    from agent_evaluators.judge.circuit import Circuit

    monkeypatch.setattr(Circuit, "reject", lambda self, config, message, status: None)
    rows = [{"query": f"question {i} {tag}", "response": "an answer"} for i, tag in enumerate(TAGS)]
    log_file = tmp_path / "debug.log"
    handler = logging.FileHandler(log_file, encoding="utf-8")
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    texts: Dict[str, str] = {}
    try:
        with JudgeServer(echoing_judge, faults=Faults(rate_500=0.2, retry_after_ms=1, seed=5)) as server:
            config = _configs(server)[kind]
            evaluator = IntentResolutionEvaluator(model_config=config, cache=str(tmp_path / "cache.sqlite"))
            result = evaluate(data=rows, evaluators={"intent": evaluator}, output_path=tmp_path / "out")
            # the same rows through direct calls, whose failures are exceptions
            raised = 0
            for row in rows:
                try:
                    evaluator(**row)
                except Exception as exc:  # noqa: BLE001 - every exception is inspected
                    raised += 1
                    texts[f"exception on {row['query']!r}"] = "".join(traceback.format_exception(exc)) + "\n".join(
                        [repr(exc), str(getattr(exc, "raw_text", "")), json.dumps(getattr(exc, "usage", None), default=str)])
            client = get_judge_client(config)
            texts["repr(evaluator)"] = repr(evaluator) + repr(evaluator.__dict__.get("_prompty"))
            texts["repr(judge client)"] = repr(client) + repr(client.config)
            texts["evaluator.judge_config"] = json.dumps(evaluator.judge_config, default=str)
            seen = server.stats()["requests"]
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()

    # the run did meet every leak path: errors from each echo, a cached success, exceptions
    assert seen > len(rows)
    assert result.metrics["intent.error_count"] == 5 and result.metrics["intent.n"] == 2, result.errors
    assert raised == 5
    texts["repr(result)"] = repr(result)
    texts["result.errors"] = json.dumps(result.errors, default=str)
    texts["result.summary"] = json.dumps(result.summary, default=str)
    texts["result.rows"] = json.dumps(list(result.rows), default=str)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {"rows.jsonl", "summary.json", "cache.sqlite", "debug.log"} <= {p.name for p in files}
    for p in files:
        texts[str(p.relative_to(tmp_path))] = p.read_bytes().decode("utf-8", "replace")
    assert KEY in json.dumps(_configs(server)["openai"])  # (the secrets are real strings the grep can find)
    assert not _leaks(texts), _leaks(texts)


def test_common_secret_header_names_are_masked_in_summary(tmp_path):
    headers = {"api-key": HEADER + "1", "x-api-key": HEADER + "2", "Ocp-Apim-Subscription-Key": HEADER + "3"}
    with JudgeServer() as server:
        config = {**server.openai_config(), "extra_headers": headers}
        evaluate(data=[{"query": "q", "response": "r"}], evaluators={"intent": IntentResolutionEvaluator(model_config=config)},
                 output_path=tmp_path / "out")
    summary = (tmp_path / "out" / "summary.json").read_text()
    leaked = [name for name, value in headers.items() if value in summary]
    assert not leaked, f"secret header values in summary.json: {leaked}"


def test_no_secret_in_the_batch_record(tmp_path):
    """Batch mode with a key in the judge URL's query string: batches.jsonl (and every other file) names
    the endpoint without it."""
    from agent_evaluators.testing import BatchFaults

    code = "code-" + secrets.token_hex(16)
    rows = [{"query": f"question {i}", "response": "an answer"} for i in range(3)]
    with JudgeServer(batch=BatchFaults(line_error_rate=0.5, seed=1)) as server:
        config = {"model": "judge-model", "base_url": f"{server.url}/v1?code={code}", "api_key": KEY}
        result = evaluate(data=rows, evaluators={"intent": IntentResolutionEvaluator(model_config=config)},
                          output_path=tmp_path / "out", judge_mode="batch", batch_poll_s=0.05)
        assert server.batches.batches and all(b["_query"].get("code") == code for b in server.batches.batches.values())
    assert result.metrics["intent.error_count"] == 0
    files = {p.name: p.read_text(encoding="utf-8", errors="replace") for p in (tmp_path / "out").iterdir() if p.is_file()}
    assert "batches.jsonl" in files and "submitted" in files["batches.jsonl"]
    leaked = [name for name, text in files.items() if code in text or KEY in text]
    assert not leaked, leaked
