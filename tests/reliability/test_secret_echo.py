"""Issue 14.4a: a judge that echoes the key inside a *successful* verdict.

Before, scrubbing ran only on error texts, so the key reached the direct result, rows.jsonl,
report.html and the judge cache. Now every reply text passes the one process-wide scrubber
(``agent_evaluators._util.scrub``) before it is parsed, cached or kept; log records of the package
are scrubbed too. This test fails on the code before that change (the verdict's reason held
the key verbatim).
"""

import json
import logging
import secrets
import sqlite3

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators._util.scrub import ScrubFilter, remember, scrub
from agent_evaluators.report import write_report
from agent_evaluators.testing import JudgeServer, schema_reply

KEY = "sk-echo-" + secrets.token_hex(16)
HEADER = "hdr-echo-" + secrets.token_hex(12)


def leaky_judge(req):
    """A successful verdict whose reason quotes the credentials it was sent."""
    auth = req.headers.get("authorization", "")
    return {**schema_reply(req), "reason": f"graded with {auth} and {req.headers.get('x-team-token', '')}"}


def test_a_key_echoed_in_a_successful_verdict_reaches_no_artifact(tmp_path):
    cache = tmp_path / "cache.sqlite"
    with JudgeServer(leaky_judge) as server:
        config = dict(server.openai_config(), api_key=KEY, extra_headers={"X-Team-Token": HEADER})
        ev = IntentResolutionEvaluator(model_config=config, cache=str(cache))
        direct = ev(query="Cancel my 3pm meeting", response="Done, it is cancelled.")
        result = evaluate(data=[{"query": "Book a room", "response": "Booked room 4."}], evaluators={"intent": ev},
                          output_path=tmp_path / "run")
        assert server.stats()["requests"] == 2
    assert "***" in direct["intent_resolution_reason"]
    report = write_report(tmp_path / "run")
    texts = {
        "direct result": repr(direct),
        "result rows": repr(list(result.rows)),
        "rows.jsonl": (tmp_path / "run" / "rows.jsonl").read_text(),
        "summary.json": (tmp_path / "run" / "summary.json").read_text(),
        "report.html": report.read_text(),
        "cache": repr(sqlite3.connect(cache).execute("select * from replies").fetchall()
                      if _has_table(cache, "replies") else _dump(cache)),
    }
    for where, text in texts.items():
        assert KEY not in text, f"the API key reached the {where}"
        assert HEADER not in text, f"the secret header reached the {where}"


def _has_table(path, name):
    return bool(sqlite3.connect(path).execute("select 1 from sqlite_master where name=?", (name,)).fetchall())


def _dump(path):
    con = sqlite3.connect(path)
    tables = [r[0] for r in con.execute("select name from sqlite_master where type='table'")]
    return [con.execute(f"select * from {t}").fetchall() for t in tables]


def test_log_records_are_scrubbed():
    secret = "sk-log-" + secrets.token_hex(10)
    remember([secret])
    record = logging.LogRecord("agent_evaluators.x", logging.WARNING, __file__, 1, "saw %s in reply", (secret,), None)
    assert ScrubFilter().filter(record) and secret not in record.getMessage() and "***" in record.getMessage()
    assert scrub(f"Authorization: Bearer {secrets.token_hex(12)}") == "Authorization: Bearer ***"


def test_rows_and_summary_on_disk_never_hold_the_run_judges_secret(tmp_path):
    """An evaluator whose error text quotes the run's judge key: masked in rows.jsonl and summary.json.

    Round three (21.1) changed what this test checked: a key that the user's own data quotes stays
    in ``inputs.*`` as written (the scrubber never rewrites the user's input), and only the secrets of
    judge clients the run used are masked (not every key the process ever saw)."""
    key = "sk-rowdata-" + secrets.token_hex(12)

    def leaky(response):
        raise ValueError(f"could not score, saw {key}")

    with JudgeServer() as server:
        judge = IntentResolutionEvaluator(model_config=dict(server.openai_config(), api_key=key))
        result = evaluate(data=[{"query": "q", "response": f"my key is {key}"}],
                          evaluators={"leaky": leaky, "intent": judge}, output_path=tmp_path / "o")
    assert result.metrics["leaky.error_count"] == 1
    (record,) = [json.loads(line) for line in (tmp_path / "o" / "rows.jsonl").read_text().splitlines()]
    assert record["inputs.response"] == f"my key is {key}"
    assert key not in record["outputs.leaky.error"] and "***" in record["outputs.leaky.error"]
    summary = (tmp_path / "o" / "summary.json").read_text()
    assert key not in summary and "***" in summary
