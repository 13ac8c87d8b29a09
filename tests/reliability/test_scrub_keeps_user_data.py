"""Issue 21.1 / 21.15: the scrubber masks secrets without rewriting the user's data.

Before, every API key, header value and URL query value joined one process-wide set and was
replaced by ``***`` as bytes in the encoded ``rows.jsonl`` lines, ``summary.json`` and judge
replies. A placeholder key (``"EMPTY"``, ``"null"``, ``"pass"``, ``"1234"``) or a header
``X-Env: prod`` rewrote inputs, reasons and statuses, and ``"null"`` / ``"1234"`` made the run's
files invalid JSON (resume then raised a raw ``JSONDecodeError``); a later judge-free run in the
same process still masked the key. And a key spelled with JSON ``\\u`` escapes in a verdict was
missed (the reply was scrubbed before parsing decoded it).

Now only plausible secrets are masked, only in string values, never in ``inputs.*``, and only
for the judge clients a run used. Every test here goes through :class:`JudgeServer` over HTTP.
"""

import json
import re
import secrets

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.report import write_report
from agent_evaluators.testing import JudgeServer, Reply, schema_reply

#: what a user's data may say; each was rewritten by some placeholder key or header before
ROWS = [
    {"query": "Is the product in stock?", "response": "The product prod-1234 is in stock; status: pass."},
    {"query": "What is in my cart?", "response": "Your cart is EMPTY. Ask ollama, or test none of it: null."},
]
PLACEHOLDER_KEYS = ["EMPTY", "null", "1234", "pass", "ollama", "none", "test"]
TIMING = {"latency_s", "started_at", "finished_at", "duration_s"}


def quoting_judge(req):
    """A verdict whose reason quotes the row it graded (so the user's words reach the outputs too)."""
    return {**schema_reply(req), "reason": "graded: " + req.last_user_text[-160:]}


def _untimed(value):
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _untimed_report(text, out):
    """The report without the run's folder and its timing (timestamps, duration, latencies)."""
    text = text.replace(str(out), "RUN")
    text = re.sub(r"\d{4}-\d\d-\d\dT[0-9:.+]+", "TIME", text)
    text = re.sub(r"(latency_s&quot;: )[0-9.e-]+", r"\1X", text)
    return re.sub(r"(Duration</dt><dd>)[0-9.]+ s", r"\1X", text)


def _run(server, tmp_path, name, key):
    out = tmp_path / name / "run"
    config = dict(server.openai_config(), api_key=key, extra_headers={"X-Env": "prod"})
    result = evaluate(data=ROWS, evaluators={"intent": IntentResolutionEvaluator(model_config=config)}, output_path=out)
    lines = (out / "rows.jsonl").read_text().splitlines()
    rows = sorted((json.loads(line) for line in lines), key=lambda r: r["line_number"])  # every line valid JSON
    summary = json.loads((out / "summary.json").read_text())
    summary.pop("output_path", None)
    report = _untimed_report(write_report(out).read_text(), out)
    return result, _untimed(rows), _untimed(summary), report


def test_placeholder_keys_and_headers_leave_every_artifact_as_a_random_key_does(tmp_path):
    with JudgeServer(quoting_judge) as server:
        _, rows, summary, report = _run(server, tmp_path, "random", "sk-" + secrets.token_hex(24))
        assert [r["inputs.response"] for r in rows] == [r["response"] for r in ROWS]
        assert "***" not in json.dumps(rows) and "pass" in {r["outputs.intent.intent_resolution_result"] for r in rows}
        for key in PLACEHOLDER_KEYS:
            _, rows_k, summary_k, report_k = _run(server, tmp_path, key, key)
            assert rows_k == rows, f"key {key!r} changed rows.jsonl"
            assert summary_k == summary, f"key {key!r} changed summary.json"
            assert report_k == report, f"key {key!r} changed the report"
        assert "product prod-1234" in report and "Your cart is EMPTY." in report


@pytest.mark.parametrize("key", ["null", "1234"])
def test_a_run_with_a_placeholder_key_can_be_resumed(tmp_path, key):
    with JudgeServer(quoting_judge) as server:
        config = dict(server.openai_config(), api_key=key)
        evaluators = {"intent": IntentResolutionEvaluator(model_config=config)}
        evaluate(data=ROWS, evaluators=evaluators, output_path=tmp_path / "o")
        sent = server.stats()["requests"]
        again = evaluate(data=ROWS, evaluators=evaluators, output_path=tmp_path / "o", resume=True)
        assert server.stats()["requests"] == sent  # every row reused, none judged again
    assert again.summary["rows_reused"] == len(ROWS) and again.metrics["intent.error_count"] == 0


def test_a_judge_free_run_after_a_judge_run_masks_nothing(tmp_path):
    key = "sk-" + secrets.token_hex(20)
    with JudgeServer(quoting_judge) as server:
        judge = IntentResolutionEvaluator(model_config=dict(server.openai_config(), api_key=key))
        evaluate(data=ROWS, evaluators={"intent": judge}, output_path=tmp_path / "judged")

    def note(response):
        return {"note": f"Your cart is {key}."}

    evaluate(data=ROWS, evaluators={"note": note}, output_path=tmp_path / "plain")  # the judge client still lives
    rows = [json.loads(line) for line in (tmp_path / "plain" / "rows.jsonl").read_text().splitlines()]
    assert rows[0]["outputs.note.note"] == f"Your cart is {key}."


def test_an_echoed_real_key_is_still_masked_in_outputs_but_not_in_inputs(tmp_path):
    key = "sk-" + secrets.token_hex(20)

    def echo(req):
        return {**schema_reply(req), "reason": f"sent with {req.headers.get('authorization')} and {key}"}

    data = [{"query": "q", "response": f"my key is {key}"}]
    with JudgeServer(echo) as server:
        judge = IntentResolutionEvaluator(model_config=dict(server.openai_config(), api_key=key))
        direct = judge(query="q", response="r")
        evaluate(data=data, evaluators={"intent": judge}, output_path=tmp_path / "o")
    assert key not in repr(direct) and "***" in direct["intent_resolution_reason"]
    (row,) = [json.loads(line) for line in (tmp_path / "o" / "rows.jsonl").read_text().splitlines()]
    assert row["inputs.response"] == f"my key is {key}"
    assert key not in row["outputs.intent.intent_resolution_reason"]
    assert key not in (tmp_path / "o" / "summary.json").read_text()


def test_a_unicode_escaped_key_in_a_verdict_is_masked(tmp_path):
    """21.15: ``\\u0073k-...`` is the key once the JSON is parsed."""
    key = "sk-" + secrets.token_hex(20)
    escaped = "".join(f"\\u{ord(c):04x}" for c in key)

    def echo(req):
        verdict = json.dumps({**schema_reply(req), "reason": "KEY"})
        return Reply(content=verdict.replace('"KEY"', f'"the key is {escaped}"'))

    with JudgeServer(echo) as server:
        judge = IntentResolutionEvaluator(model_config=dict(server.openai_config(), api_key=key))
        direct = judge(query="q", response="r")
        evaluate(data=[{"query": "q", "response": "r"}], evaluators={"intent": judge}, output_path=tmp_path / "o")
    assert direct["intent_resolution_reason"] == "the key is ***"
    assert key not in (tmp_path / "o" / "rows.jsonl").read_text()
    assert escaped not in (tmp_path / "o" / "rows.jsonl").read_text()
