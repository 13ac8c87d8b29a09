"""Judge cost in money: ``cost_usd`` per cell, per evaluator and per run (issue 25, item 2).

The fake judge (``JudgeServer``, real HTTP) reports fixed token counts, so every expected
figure below is worked out by hand from the price table: USD per million tokens, cached
prompt tokens at the cached price. An unknown price is ``null`` in files and "unknown" in the
terminal table and the HTML report, never 0. Prices come from a model config's ``price``,
``evaluate(prices=...)`` / a run config's ``prices:`` / ``agent-eval run --price``, then the
shipped table, where a dated snapshot is priced as its family.
"""

import json
from pathlib import Path
from typing import Any, Dict

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.judge.prices import price_for, shipped_prices
from agent_evaluators.run_context import scoped
from agent_evaluators.testing import JudgeServer, Reply
from tests.cli.helpers import agent_eval, write_jsonl

from .distributed.helpers import make_rows, rule_judge

#: what the fake judge reports for every call: 1,000 prompt tokens (400 of them cached), 200 out
USAGE: Dict[str, Any] = {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200,
                         "prompt_tokens_details": {"cached_tokens": 400}}
ROWS = 4
KEY = "outputs.intent.intent_resolution_usage"


def _judge(req: Any) -> Reply:
    return Reply(content=rule_judge(req), usage=USAGE)


def _run(tmp_path: Path, model_config: Dict[str, Any], **kwargs: Any) -> Any:
    ev = IntentResolutionEvaluator(model_config=model_config)
    return evaluate(data=make_rows(ROWS), evaluators={"intent": ev}, output_path=tmp_path / "out",
                    show_progress=False, **kwargs)


def _summary(tmp_path: Path) -> Dict[str, Any]:
    return json.loads((tmp_path / "out" / "summary.json").read_text())


def test_shipped_price_of_a_dated_snapshot_gives_exact_cost_per_cell_and_run(tmp_path):
    # gpt-4o: 2.50 input, 1.25 cached input, 10.00 output per million tokens
    per_call = (600 * 2.50 + 400 * 1.25 + 200 * 10.00) / 1e6  # = 0.004
    with JudgeServer(_judge) as server:
        result = _run(tmp_path, server.openai_config("gpt-4o-2024-08-06"))
        assert server.stats()["requests"] == ROWS
    for row in result.rows:
        assert row[KEY]["model"] == "gpt-4o-2024-08-06"
        assert row[KEY]["cost_usd"] == pytest.approx(per_call, rel=1e-12)
    summary = _summary(tmp_path)
    assert summary["usage"]["intent"]["cost_usd"] == pytest.approx(ROWS * per_call, rel=1e-12)
    assert summary["cost_usd"] == pytest.approx(ROWS * per_call, rel=1e-12)
    stored = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert all(r[KEY]["cost_usd"] == pytest.approx(per_call, rel=1e-12) for r in stored)


def test_unknown_model_is_null_never_zero(tmp_path):
    with JudgeServer(_judge) as server:
        result = _run(tmp_path, server.openai_config("my-own-deployment"))
    assert all(r[KEY]["cost_usd"] is None for r in result.rows)
    summary = _summary(tmp_path)
    assert summary["usage"]["intent"]["cost_usd"] is None and summary["cost_usd"] is None
    assert '"cost_usd": null' in (tmp_path / "out" / "summary.json").read_text()


def test_one_call_without_token_counts_makes_the_total_unknown(tmp_path):
    calls = []

    def judge(req: Any) -> Reply:
        calls.append(1)
        return Reply(content=rule_judge(req), usage=None if len(calls) == 2 else USAGE)

    with JudgeServer(judge) as server:
        result = _run(tmp_path, server.openai_config("gpt-4o"), max_concurrency=1)
    costs = [r[KEY]["cost_usd"] for r in result.rows]
    assert costs.count(None) == 1 and all(c == pytest.approx(0.004) for c in costs if c is not None)
    assert _summary(tmp_path)["usage"]["intent"]["cost_usd"] is None
    assert _summary(tmp_path)["cost_usd"] is None


def test_model_config_price_wins_and_provider_without_cached_counts(tmp_path):
    usage = {"prompt_tokens": 1000, "completion_tokens": 200}  # no prompt_tokens_details: all at the input price
    with JudgeServer(lambda req: Reply(content=rule_judge(req), usage=usage)) as server:
        cfg = {**server.openai_config("gpt-4o"), "price": {"input": 1.0, "cached_input": 0.5, "output": 4.0}}
        result = _run(tmp_path, cfg, prices={"gpt-4o": "9,9"})  # the model config's own price comes first
    assert all(r[KEY]["cost_usd"] == pytest.approx((1000 * 1.0 + 200 * 4.0) / 1e6) for r in result.rows)


def test_run_prices_price_an_azure_deployment(tmp_path):
    with JudgeServer(_judge) as server:
        cfg = server.azure_config(deployment="eval-judge")
        result = _run(tmp_path, cfg, prices={"eval-judge": {"input": 3.0, "output": 12.0}})
    # no cached_input given: cached tokens at the input price
    assert all(r[KEY]["cost_usd"] == pytest.approx((1000 * 3.0 + 200 * 12.0) / 1e6) for r in result.rows)
    assert _summary(tmp_path)["config"]["prices"] == {"eval-judge": {"input": 3.0, "cached_input": 3.0,
                                                                     "output": 12.0}}


def test_bad_prices_are_config_errors_naming_the_key(tmp_path):
    for bad, words in (({"m": "1"}, "IN,OUT"), ({"m": {"input": -1, "output": 2}}, "number >= 0"),
                       ({"m": {"input": 1}}, "needs 'input' and 'output'"), ({"m": {"in": 1, "output": 1}}, "needs"),
                       (["m=1,2"], "must map a model name")):
        with pytest.raises(ConfigError, match=words):
            evaluate(data=make_rows(1), evaluators={"x": lambda **kw: 1}, prices=bad)
    ev = IntentResolutionEvaluator(model_config={"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k",
                                                 "price": "cheap"})
    with pytest.raises(ConfigError, match="model_config 'price'.*IN,OUT"):
        ev(query="q", response="r")


@pytest.mark.parametrize("name, family", [
    ("gpt-4o-2024-08-06", "gpt-4o"), ("gpt-4o-mini-2024-07-18", "gpt-4o-mini"), ("GPT-4.1-2025-04-14", "gpt-4.1"),
    ("azure/gpt-4.1-nano-2025-04-14", "gpt-4.1-nano"), ("o3-2025-04-16", "o3"), ("o4-mini", "o4-mini"),
    ("gpt-5-mini-2025-08-07", "gpt-5-mini"), ("openai/gpt-5", "gpt-5"), ("gpt-35-turbo-0125", "gpt-35-turbo"),
])
def test_dated_snapshots_and_provider_prefixes_map_to_their_family(name, family):
    assert price_for(name) == shipped_prices()["models"][family]


def test_unknown_names_have_no_price_and_the_table_says_when_it_was_taken():
    assert price_for("gpt-4o-turbo-ultra") is None and price_for("llama3") is None and price_for(None) is None
    assert shipped_prices()["taken"] >= "2025-01-01"
    for model in ("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o3", "o4-mini", "gpt-5",
                  "gpt-5-mini", "gpt-5-nano"):
        assert set(shipped_prices()["models"][model]) == {"input", "cached_input", "output"}


def test_a_run_price_wins_over_a_shipped_price_already_looked_up():
    """price_for keeps the shipped table's answers per name (it runs on every judge call): a run's own
    price for the same name must still win, and the shipped one come back after that run."""
    shipped = shipped_prices()["models"]["gpt-4o"]
    assert price_for("gpt-4o", "gpt-4o-2024-08-06") == shipped  # now remembered
    own = {"input": 1.0, "cached_input": 0.5, "output": 2.0}
    with scoped(prices={"gpt-4o": own}):
        assert price_for("gpt-4o", "gpt-4o-2024-08-06") == own
        assert price_for("llama3") is None
    assert price_for("gpt-4o", "gpt-4o-2024-08-06") == shipped
    assert price_for("gpt-4o", explicit=own) == own


# ---------------------------------------------------------------------------- the command line
def _cli_rows(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "d.jsonl", make_rows(3))


def test_cli_price_flag_table_and_report(tmp_path):
    data = _cli_rows(tmp_path)
    with JudgeServer(_judge) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "eval-judge",
                       "--judge-base-url", server.url + "/v1", "--price", "eval-judge=2,8,1",
                       "--price", "other=1,1", "-o", tmp_path / "out", "--no-show-progress")
    assert r.rc in (0, 1), r
    per_call = (600 * 2 + 400 * 1 + 200 * 8) / 1e6  # 0.0032
    summary = _summary(tmp_path)
    assert summary["cost_usd"] == pytest.approx(3 * per_call)
    assert summary["config"]["prices"]["eval-judge"] == {"input": 2.0, "cached_input": 1.0, "output": 8.0}
    assert "$0.0096" in r.out and "judge cost" in r.out, r
    rep = agent_eval("report", tmp_path / "out", "-o", tmp_path / "report.html")
    assert rep.rc == 0, rep
    assert "cost: $0.0096" in (tmp_path / "report.html").read_text()


def test_cli_unknown_price_reads_unknown(tmp_path):
    data = _cli_rows(tmp_path)
    with JudgeServer(_judge) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "eval-judge",
                       "--judge-base-url", server.url + "/v1", "-o", tmp_path / "out", "--no-show-progress")
    assert r.rc in (0, 1), r
    line = next(t for t in r.out.splitlines() if t.startswith("intent "))
    assert "unknown" in line and "$" not in line, r
    rep = agent_eval("report", tmp_path / "out", "-o", tmp_path / "report.html")
    assert rep.rc == 0, rep
    assert "cost: unknown" in (tmp_path / "report.html").read_text()


def test_cli_run_config_prices_and_bad_flag(tmp_path):
    data = _cli_rows(tmp_path)
    with JudgeServer(_judge) as server:
        (tmp_path / "run.yaml").write_text(
            f"data: {data.name}\noutput_path: out\nevaluators:\n  intent: {{type: intent_resolution}}\n"
            f"judge:\n  model: eval-judge\n  base_url: {server.url}/v1\n"
            "prices:\n  eval-judge: {input: 2, cached_input: 1, output: 8}\n")
        r = agent_eval("run", "--config", tmp_path / "run.yaml", "--no-show-progress", cwd=tmp_path)
    assert r.rc in (0, 1), r
    assert _summary(tmp_path)["cost_usd"] == pytest.approx(3 * (600 * 2 + 400 * 1 + 200 * 8) / 1e6)
    bad = agent_eval("run", "--data", data, "-e", "response_match", "--price", "eval-judge=cheap", "-o",
                     tmp_path / "bad")
    assert bad.rc == 2 and "IN,OUT" in bad.err, bad


def test_cli_table_shows_the_cached_prompt_tokens_the_provider_reports(tmp_path):
    # issue 25 item 5: 400 of each call's 1,000 prompt tokens came from the provider's prompt cache
    data = _cli_rows(tmp_path)
    with JudgeServer(_judge) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "gpt-4o",
                       "--judge-base-url", server.url + "/v1", "-o", tmp_path / "out", "--no-show-progress")
    assert r.rc in (0, 1), r
    line = next(t for t in r.out.splitlines() if t.startswith("intent "))
    assert "3,600 (3 calls, 1,200 cached)" in line, r
    assert _summary(tmp_path)["usage"]["intent"]["cached_tokens"] == 1200
    rows = [json.loads(x) for x in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert all(row[KEY]["cached_tokens"] == 400 for row in rows)


@pytest.mark.parametrize("value,shown", [(8.4e-05, "$0.000084"), (0.0042, "$0.0042"), (0.0123, "$0.0123"),
                                         (12.5, "$12.5000"), (0, "$0.0000"), (None, "unknown")])
def test_money_is_shown_in_one_format_never_in_exponent_notation(value, shown):
    """Costs read as dollars and decimals everywhere they are shown (issue 35 item 16: ``$8.4e-05`` in a table)."""
    from agent_evaluators.judge.prices import format_usd

    assert format_usd(value) == shown
    assert "e" not in format_usd(value).replace("unknown", "")
