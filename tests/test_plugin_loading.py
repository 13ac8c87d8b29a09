"""Installed evaluator plugins load lazily: ``list``, ``report``, ``compare`` and a run of built-in
evaluators work beside a broken plugin, import no plugin they do not name (``list`` shows them all,
so it imports them), say which package is broken in a warning, and naming the broken one is an error
naming its package."""

import json
import os
from pathlib import Path
from typing import Dict

import pytest

from .cli.helpers import agent_eval, clean_env, write_jsonl
from .conftest import REPO_ROOT

GOOD = '''
import os
from pathlib import Path
Path(os.environ["PLUGIN_MARKER"]).write_text("imported")
from agent_evaluators.evaluators.nlp.f1 import F1ScoreEvaluator


class ShoutEvaluator(F1ScoreEvaluator):
    """A plugin's own metric."""
'''

ENTRY_POINTS = """[agent_evaluators.evaluators]
shout = good_metrics:ShoutEvaluator
broken_metric = broken_metrics.sub:BrokenEvaluator
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "good_metrics.py").write_text(GOOD, encoding="utf-8")
    (root / "broken_metrics").mkdir()
    (root / "broken_metrics" / "__init__.py").write_text("raise ImportError('needs libfoo 9')\n", encoding="utf-8")
    for name, points in (("good_metrics", ENTRY_POINTS.splitlines()[1]), ("broken_metrics", ENTRY_POINTS.splitlines()[2])):
        dist = root / f"{name}-0.1.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n",
                                       encoding="utf-8")
        (dist / "entry_points.txt").write_text(f"[agent_evaluators.evaluators]\n{points}\n", encoding="utf-8")
    return root


def _env(site: Path, marker: Path) -> Dict[str, str]:
    return clean_env(PYTHONPATH=os.pathsep.join([str(site), str(REPO_ROOT)]), PLUGIN_MARKER=str(marker))


@pytest.fixture(scope="module")
def run_folder(site, tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("runs")
    data = write_jsonl(tmp / "data.jsonl", [{"id": f"r{i}", "response": f"a {i}", "ground_truth": "a 1"} for i in range(3)])
    r = agent_eval("run", "--data", data, "-e", "f1_score=f1", "-o", tmp / "run", env=_env(site, tmp / "marker"))
    assert r.rc in (0, 1), r
    assert not (tmp / "marker").exists()  # a run of built-in evaluators imports no plugin
    assert "broken-metrics" not in r.err, r
    return tmp / "run"


def test_report_and_compare_work_beside_a_broken_plugin_and_import_none(site, run_folder, tmp_path):
    marker = tmp_path / "marker"
    for args in (("report", run_folder, "--output", tmp_path / "report.html"), ("compare", run_folder, run_folder),
                 ("compare", run_folder, run_folder, "--json", "--fail-on-regression")):
        r = agent_eval(*args, env=_env(site, marker))
        assert r.rc == 0, r
        assert "Traceback" not in r.err and "broken" not in r.err, r
    assert not marker.exists()  # the good plugin was not imported either: nothing named it


def test_list_shows_the_working_plugin_and_warns_naming_the_broken_package(site, tmp_path):
    marker = tmp_path / "marker"
    r = agent_eval("list", env=_env(site, marker))
    assert r.rc == 0, r
    assert "shout  [deterministic]  ShoutEvaluator" in r.out and "f1_score" in r.out, r
    assert "broken-metrics" in r.err and "needs libfoo 9" in r.err and "Traceback" not in r.err, r
    listed = json.loads(agent_eval("list", "--json", env=_env(site, marker)).out)
    assert "shout" in listed and "broken_metric" not in listed


def test_naming_the_broken_plugin_is_an_error_naming_its_package(site, run_folder, tmp_path):
    data = run_folder.parent / "data.jsonl"
    r = agent_eval("run", "--data", data, "-e", "broken_metric=b", "-o", tmp_path / "out",
                   env=_env(site, tmp_path / "marker"))
    assert r.rc == 2, r
    assert "broken-metrics" in r.err and "needs libfoo 9" in r.err and "Traceback" not in r.err, r


def test_naming_the_working_plugin_imports_it_alone(site, run_folder, tmp_path):
    data = run_folder.parent / "data.jsonl"
    marker = tmp_path / "marker"
    r = agent_eval("run", "--data", data, "-e", "shout=s", "-o", tmp_path / "out", env=_env(site, marker))
    assert r.rc in (0, 1), r
    assert marker.exists() and "broken" not in r.err, r
