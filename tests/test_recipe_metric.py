"""CONTRIBUTING.md's "Adding an evaluator", followed to the letter in a throw-away package.

The package holds what the recipe says a judge metric is: a ``.prompty`` template and a
class of class attributes on :class:`DeclaredJudgeEvaluator`, named under the
``agent_evaluators.evaluators`` entry-point group (what ``pip install`` of the package
writes, here written by hand into a ``.dist-info`` folder on ``PYTHONPATH``). Every
surface is driven the way a user drives it: ``agent-eval list``, ``evaluate()`` in a fresh
interpreter, ``agent-eval run -e NAME``, a YAML config's ``type: NAME``, ``agent-eval
calibrate --quick`` against the bundled judge, and ``summary.json`` with its fingerprint.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict

import pytest

from agent_evaluators.testing import JudgeServer

from .cli.helpers import agent_eval, clean_env
from .conftest import REPO_ROOT

METRIC = '''
"""A throw-away judge metric, written as CONTRIBUTING.md's "Adding an evaluator" says."""

from typing import List

from agent_evaluators.evaluators.declared import CalibrationCases, DeclaredJudgeEvaluator, Messages


class PolitenessEvaluator(DeclaredJudgeEvaluator):
    """How polite the agent's response is to the user (1-5)."""

    template_name = "politeness.prompty"
    result_key = "politeness"
    inputs = (Messages("query", "user"), Messages("response", "assistant"))
    score_scale = (1.0, 5.0)
    default_threshold = 4
    verdict_fields = {"rude_phrases": (List[str], "Phrases of the response that are rude")}
    calibration_cases = CalibrationCases(
        good={"query": "query", "response": "answer"},
        bad={"query": "query", "response": "off_topic"},
        why_bad="the response brushes the user off")


class OwnCasesEvaluator(DeclaredJudgeEvaluator):
    """A metric whose set is a data file its author wrote."""

    template_name = "politeness.prompty"
    result_key = "own_cases"
    inputs = (Messages("query", "user"), Messages("response", "assistant"))
    score_scale = (1.0, 5.0)
    calibration_file = "own_cases.jsonl"


class UncalibratedEvaluator(DeclaredJudgeEvaluator):
    """A metric whose author forgot its calibration set."""

    template_name = "politeness.prompty"
    result_key = "uncalibrated"
    inputs = (Messages("query", "user"), Messages("response", "assistant"))
    score_scale = (1.0, 5.0)
'''

TEMPLATE = """---
name: Politeness
description: Judges how polite a response is.
model:
  api: chat
  parameters:
    temperature: 0.0
inputs:
  query:
    type: list
  response:
    type: list
---
system:
You grade how POLITE-MARKER an agent's response is to the user, from 1 (rude) to 5 (courteous).
Reply with {"rude_phrases": [...], "reason": "...", "score": <integer 1-5>}.
user:
<query>
{{query}}
</query>
<response>
{{response}}
</response>
"""

ENTRY_POINTS = """[agent_evaluators.evaluators]
politeness = recipe_metrics:PolitenessEvaluator
uncalibrated = recipe_metrics:UncalibratedEvaluator
own_cases = recipe_metrics:OwnCasesEvaluator
"""

OWN_CASES = [
    {"id": "thanks/good", "label": "good", "why": "courteous", "inputs": {"query": "Thanks!", "response": "You are welcome."}},
    {"id": "thanks/bad", "label": "bad", "why": "rude", "inputs": {"query": "Thanks!", "response": "Whatever."}},
    {"id": "help/good", "label": "good", "why": "courteous", "inputs": {"query": "Help?", "response": "Gladly: what for?"}},
]

ROWS = [
    {"query": "Where is my order 48213?", "response": "It ships tomorrow; thank you for waiting."},
    {"query": "Can I change my seat?", "response": "Of course, seat 14C is now yours."},
]


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> Path:
    """The throw-away package, as an installed distribution on a path of its own."""
    root = tmp_path_factory.mktemp("site")
    pkg = root / "recipe_metrics"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(METRIC, encoding="utf-8")
    (pkg / "politeness.prompty").write_text(TEMPLATE, encoding="utf-8")
    (pkg / "own_cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in OWN_CASES), encoding="utf-8")
    dist = root / "recipe_metrics-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: recipe-metrics\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    return root


def _env(plugin: Path) -> Dict[str, str]:
    return clean_env(PYTHONPATH=os.pathsep.join([str(plugin), str(REPO_ROOT)]))


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def test_agent_eval_list_shows_the_new_metric(plugin):
    r = agent_eval("list", env=_env(plugin))
    assert r.rc == 0, r
    assert "politeness  [judge]  PolitenessEvaluator, key politeness, default threshold 4" in r.out, r
    assert "inputs:  query, response" in r.out.split("politeness  [judge]")[1]
    listed = json.loads(agent_eval("list", "--json", env=_env(plugin)).out)
    assert listed["politeness"]["key"] == "politeness" and listed["politeness"]["judge"] is True


def test_evaluate_runs_it_through_the_judge(plugin, tmp_path):
    code = textwrap.dedent(f"""
        import json, sys
        from agent_evaluators import evaluate
        from recipe_metrics import PolitenessEvaluator
        judge = {{"model": "fake", "base_url": sys.argv[1]}}
        result = evaluate(data={str(_data(tmp_path))!r}, evaluators={{"polite": PolitenessEvaluator(model_config=judge)}},
                          output_path={str(tmp_path / "out")!r})
        row = list(result.rows)[0]
        print(json.dumps({{"metrics": result.metrics, "row": row}}))
    """)
    with JudgeServer() as server:
        proc = subprocess.run([sys.executable, "-c", code, server.url + "/v1"], capture_output=True, text=True,
                              env=_env(plugin), timeout=120)
        prompts = [req.text for req in server.requests]
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["metrics"]["polite.n"] == 2 and out["metrics"]["polite.error_count"] == 0
    assert out["row"]["outputs.polite.politeness_result"] in ("pass", "fail")
    assert isinstance(out["row"]["outputs.polite.politeness_details"]["rude_phrases"], list)
    assert len(prompts) == 2 and all("POLITE-MARKER" in p for p in prompts)  # the author's template was sent
    assert any("order 48213" in p for p in prompts)


def test_cli_run_and_yaml_type_reach_it_and_summary_records_it(plugin, tmp_path):
    data = _data(tmp_path)
    config = tmp_path / "eval.yaml"
    with JudgeServer() as server:
        judge = ["--judge-model", "fake", "--judge-base-url", server.url + "/v1"]
        cli = agent_eval("run", "--data", data, "-e", "politeness=polite", "-o", tmp_path / "cli", *judge,
                         env=_env(plugin))
        config.write_text(textwrap.dedent(f"""
            data: {data}
            output: {tmp_path / "yaml"}
            judge: {{model: fake, base_url: {server.url}/v1}}
            evaluators:
              polite: {{type: politeness}}
        """), encoding="utf-8")
        yaml_run = agent_eval("run", "--config", config, env=_env(plugin))
        assert server.stats()["requests"] == 4
    for run, folder in ((cli, "cli"), (yaml_run, "yaml")):
        assert run.rc in (0, 1), run
        summary = json.loads((tmp_path / folder / "summary.json").read_text(encoding="utf-8"))
        assert summary["metrics"]["polite.n"] == 2, summary["metrics"]
        assert "polite.politeness" in summary["metrics"]
        assert "PolitenessEvaluator" in json.dumps(summary["config"]), summary["config"]
        assert summary["fingerprint"]


def test_the_fingerprint_covers_the_metric_s_template(plugin, tmp_path):
    """Editing the metric's template changes what a score means: --resume refuses it."""
    data = _data(tmp_path)
    site = tmp_path / "site"
    subprocess.run(["cp", "-r", str(plugin), str(site)], check=True)
    with JudgeServer() as server:
        judge = ["--judge-model", "fake", "--judge-base-url", server.url + "/v1"]
        first = agent_eval("run", "--data", data, "-e", "politeness", "-o", tmp_path / "out", *judge, env=_env(site))
        assert first.rc in (0, 1), first
        same = agent_eval("run", "--data", data, "-e", "politeness", "-o", tmp_path / "out", "--resume", *judge,
                          env=_env(site))
        assert same.rc in (0, 1), same
        template = site / "recipe_metrics" / "politeness.prompty"
        template.write_text(template.read_text(encoding="utf-8").replace("POLITE-MARKER", "COURTEOUS"),
                            encoding="utf-8")
        changed = agent_eval("run", "--data", data, "-e", "politeness", "-o", tmp_path / "out", "--resume", *judge,
                             env=_env(site))
    assert changed.rc == 2, changed
    assert "--resume" in changed.err and "--force" in changed.err, changed


def test_calibrate_quick_runs_its_declared_set_against_the_bundled_judge(plugin, tmp_path):
    report = tmp_path / "cal.json"
    with JudgeServer() as server:
        r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick",
                       "--evaluator", "politeness", "--json", report, env=_env(plugin))
    assert r.rc == 0, r
    (cal,) = json.loads(report.read_text(encoding="utf-8"))
    assert cal["evaluator"] == "politeness"
    assert cal["total"] == 24 and cal["scored"] == 24  # a good and a bad case per shared scenario
    assert "politeness" in agent_eval("calibrate", "--help", env=_env(plugin)).out


def test_a_metric_without_a_calibration_set_says_what_to_add(plugin):
    with JudgeServer() as server:
        r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick",
                       "--evaluator", "uncalibrated", env=_env(plugin))
    assert r.rc == 2, r
    assert "UncalibratedEvaluator has no calibration set" in r.err, r
    assert "calibration_cases = CalibrationCases(" in r.err and "calibration_file = 'uncalibrated.jsonl'" in r.err


def test_calibrate_reads_the_data_file_the_author_wrote(plugin, tmp_path):
    report = tmp_path / "cal.json"
    with JudgeServer() as server:
        r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick",
                       "--evaluator", "own_cases", "--json", report, env=_env(plugin))
        prompts = [req.text for req in server.requests]
    assert r.rc == 0, r
    (cal,) = json.loads(report.read_text(encoding="utf-8"))
    assert (cal["evaluator"], cal["total"], cal["scored"]) == ("own_cases", 3, 3)
    assert any("Whatever." in p for p in prompts)
