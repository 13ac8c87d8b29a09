"""Every keyword of ``evaluate()`` is a flag of ``agent-eval run`` and a run-config key (issue 22, point 1).

The keywords come from one table (``agent_evaluators/runner/option_table.py``); these tests
hold the written-out signatures of ``evaluate`` / ``evaluate_async`` equal to it, and drive
the derived flags and keys the way a user does: ``agent-eval run --help``, a run with
``--target module:function``, ``--tag``, ``--evaluation-name``, ``--num-runs``,
``--no-show-progress``, and a run config holding every key.
"""

import inspect
import json
import re
from pathlib import Path

import pytest

from agent_evaluators import evaluate, evaluate_async
from agent_evaluators.cli.messages import for_cli
from agent_evaluators.config.run_config import load_config
from agent_evaluators.config.yaml_vocabulary import RUN_CONFIG
from agent_evaluators.errors import ConfigError
from agent_evaluators.runner.option_table import OWN_FORM_ARGUMENTS, RUN_OPTIONS
from agent_evaluators.wording import Option, Text
from tests.conftest import optional_import

from .helpers import agent_eval, write_jsonl

AGENT = '''\
CALLS = []


def answer(query):
    """The agent under test: answers every query with its last word."""
    return {"response": query.split()[-1]}
'''

ROWS = [{"query": "say Paris", "ground_truth": "Paris"}, {"query": "say Lyon", "ground_truth": "Nice"},
        {"query": "say Rome", "ground_truth": "Rome"}]


def _keywords(fn):
    return [p for p in inspect.signature(fn).parameters]


def test_evaluate_signatures_equal_the_table():
    table = [o.name for o in RUN_OPTIONS]
    assert sorted(_keywords(evaluate)) == sorted([*OWN_FORM_ARGUMENTS, *table])
    assert sorted(_keywords(evaluate_async)) == sorted([*OWN_FORM_ARGUMENTS, *(o.name for o in RUN_OPTIONS
                                                                               if o.async_too)])
    for fn in (evaluate, evaluate_async):
        params = inspect.signature(fn).parameters
        for o in RUN_OPTIONS:
            if o.name in params:
                assert params[o.name].default == o.default, (fn.__name__, o.name)
                assert params[o.name].kind is inspect.Parameter.KEYWORD_ONLY


def test_every_keyword_has_a_flag_in_run_help():
    help_text = agent_eval("run", "--help").out
    flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", help_text))
    for o in RUN_OPTIONS:
        assert o.flag in flags, o.name
        expected = "--output" if o.name == "output_path" else "--tag" if o.name == "tags" else \
            "--" + o.name.replace("_", "-")
        assert o.flag == expected
    assert "--no-show-progress" in flags


def test_a_run_config_accepts_every_keyword(tmp_path):
    (tmp_path / "myagent.py").write_text(AGENT)
    values = {"target": "myagent:answer", "output_path": "out", "fail_on_evaluator_errors": False,
              "max_concurrency": 3, "resume": False, "rerun_failed": False, "force": False, "num_runs": 2,
              "show_progress": False, "timeout": 30, "evaluation_name": "nightly", "tags": {"team": "search"},
              "max_rows": 2, "min_agreement": 0.667, "engine": "ray", "ray_address": "auto", "num_workers": 2,
              "azure_compat": True, "data_format": "otlp",
              "prices": {"my-deploy": {"input": 1.0, "cached_input": 0.5, "output": 2.0}},
              "judge_mode": "batch", "batch_poll_s": 5.0, "batch_max_requests": 1000, "batch_max_bytes": 1_000_000,
              "batch_timeout_s": 600.0,
              "dry_run": True, "max_cost": 2.5, "max_judge_calls": 100, "otel": False, "mlflow": False,
              "max_prompt_tokens": 8000, "terminal_tools": "close_case,end_chat",
              "certification": "labelled", "require_certified": True}
    (tmp_path / "labelled").mkdir()
    assert set(values) == {o.name for o in RUN_OPTIONS}  # a new option needs a value here: it is a key too
    import yaml

    (tmp_path / "all.yaml").write_text(yaml.safe_dump({"data": "d.jsonl", "evaluators": ["response_match"], **values}))
    cfg = load_config(tmp_path / "all.yaml")
    assert cfg.run_options["output_path"] == tmp_path / "out"
    assert cfg.run_options["target"].__name__ == "answer"
    assert str(cfg.run_options["certification"]) == str(tmp_path / "labelled")  # relative to the file, as paths are
    checked = {**values, "terminal_tools": ("close_case", "end_chat")}  # a comma-separated text is read as names
    own = ("target", "output_path", "certification")
    assert {k: v for k, v in cfg.run_options.items() if k not in own} == {k: v for k, v in checked.items() if k not in own}


def test_a_run_config_switches_on_the_otel_and_mlflow_sinks(tmp_path):
    """``otel: true`` and ``mlflow: true`` are read as they are written where their extras are installed
    (without them the config is refused: the next test)."""
    optional_import("opentelemetry.exporter.otlp.proto.http")
    optional_import("mlflow")
    (tmp_path / "sinks.yaml").write_text("data: d.jsonl\nevaluators: [response_match]\notel: true\nmlflow: true\n")
    assert load_config(tmp_path / "sinks.yaml").run_options == {"otel": True, "mlflow": True}


@pytest.mark.parametrize("sink", ["otel", "mlflow"])
def test_a_sink_whose_extra_is_missing_is_refused_naming_it(tmp_path, monkeypatch, sink):
    """Checked on every machine (``tests/export`` runs only where the extras are installed)."""
    import agent_evaluators._util.validators as validators

    monkeypatch.setattr(validators, "_installed", lambda module: False)
    (tmp_path / "sink.yaml").write_text(f"data: d.jsonl\nevaluators: [response_match]\n{sink}: true\n")
    with pytest.raises(ConfigError, match=re.escape(f"needs the '{sink}' extra, which is not installed: "
                                                    f"pip install 'agent-evaluators[{sink}]'")):
        load_config(tmp_path / "sink.yaml")


def test_older_spellings_stay_and_may_not_be_doubled(tmp_path):
    (tmp_path / "old.yaml").write_text("data: d.jsonl\nconcurrency: 4\noutput: res\nevaluators: [response_match]\n")
    cfg = load_config(tmp_path / "old.yaml")
    assert cfg.run_options == {"max_concurrency": 4, "output_path": tmp_path / "res"}
    (tmp_path / "both.yaml").write_text("data: d.jsonl\nconcurrency: 4\nmax_concurrency: 5\nevaluators: [exact]\n")
    with pytest.raises(ConfigError, match="'max_concurrency' and 'concurrency' set the same option"):
        load_config(tmp_path / "both.yaml")


def test_run_flags_reach_evaluate_and_summary(tmp_path):
    (tmp_path / "myagent.py").write_text(AGENT)
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    r = agent_eval("run", "--data", data, "-e", "response_match", "--target", "myagent:answer",
                   "--tag", "team=search", "--tag", "build=42", "--evaluation-name", "nightly", "--num-runs", "2",
                   "--no-show-progress", "--timeout", "30", "-o", tmp_path / "out", cwd=tmp_path)
    assert r.rc == 1, r  # the Lyon row fails its threshold
    assert "evaluate:" not in r.err, r  # --no-show-progress
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    config = summary["config"]
    assert config["target"] == "myagent.answer"
    assert config["tags"] == {"team": "search", "build": "42"}
    assert config["evaluation_name"] == "nightly" and config["num_runs"] == 2 and config["timeout"] == 30
    assert summary["fingerprint"]["num_runs"] == 2
    rows = sorted((json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()),
                  key=lambda row: row["line_number"])  # written as they finish
    assert [row["outputs.response_match.response_match_score"] for row in rows] == [1.0, 0.0, 1.0]


def test_run_config_keys_reach_evaluate(tmp_path):
    (tmp_path / "myagent.py").write_text(AGENT)
    write_jsonl(tmp_path / "d.jsonl", ROWS)
    (tmp_path / "run.yaml").write_text(
        "data: d.jsonl\noutput_path: res\ntarget: myagent:answer\nevaluation_name: weekly\n"
        "tags: {team: search}\nnum_runs: 3\nshow_progress: false\nevaluators: [response_match]\n")
    r = agent_eval("run", "--config", tmp_path / "run.yaml", cwd=Path("/"))  # the module sits beside the config
    assert r.rc == 1, r
    config = json.loads((tmp_path / "res" / "summary.json").read_text())["config"]
    assert (config["target"], config["evaluation_name"], config["tags"], config["num_runs"]) == \
        ("myagent.answer", "weekly", {"team": "search"}, 3)


def test_bad_flag_values_are_named_in_flag_words(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    r = agent_eval("run", "--data", data, "-e", "response_match", "--target", "nomodule_here:answer")
    assert r.rc == 2 and "target 'nomodule_here:answer': no module named 'nomodule_here'" in r.err, r
    r = agent_eval("run", "--data", data, "-e", "response_match", "--tag", "novalue")
    assert r.rc == 2 and "--tag 'novalue': write --tag KEY=VALUE" in r.err, r
    r = agent_eval("run", "--data", data, "-e", "response_match", "--ray-address", "auto")
    assert r.rc == 2 and "--ray-address / --num-workers apply to --engine ray only" in r.err, r


def test_every_option_is_named_in_each_readers_words():
    """A message names a run option by reference (``Option``), and each reader says it from the table:
    Python's keyword, ``agent-eval run``'s flag, the run config's key. Plain text is never rewritten."""
    for o in RUN_OPTIONS:
        err = ConfigError(Text("{option} must be a positive integer", option=Option(o.name)))
        assert err.option == o.name
        assert str(err) == f"{o.name} must be a positive integer"
        assert for_cli(err) == f"{o.flag} must be a positive integer"
        assert RUN_CONFIG.render(err) == f"{o.name}: must be a positive integer"
        if o.kind == "flag":
            on = ConfigError(Text("pass {option}", option=Option(o.name, True)))
            assert (str(on), for_cli(on), RUN_CONFIG.render(on)) == (f"pass {o.name}=True", f"pass {o.flag}",
                                                                       f"pass {o.name}: true")
            off = Text("or {option}", option=Option(o.name, False))
            assert (str(off), for_cli(off)) == (f"or {o.name}=False", f"or run without {o.flag}")
        if o.kind == "choice":
            value = o.choices[-1]
            chosen = Text("{option} is set", option=Option(o.name, value))
            assert (str(chosen), for_cli(chosen), RUN_CONFIG.render(chosen)) == (
                f"{o.name}={value!r} is set", f"{o.flag} {value} is set", f"{o.name}: {value} is set")
    assert for_cli("'num_runs' in run.yaml; pass force=True") == "'num_runs' in run.yaml; pass force=True"
