"""``evaluate(output_path="results.json")`` as azure-ai-evaluation users write it: azure's file plus our folder."""

import json
import subprocess
import sys
import textwrap

from tests.cli.helpers import AGENTS, clean_env

SCRIPT = textwrap.dedent(
    """\
    from agent_evaluators import evaluate
    from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator

    result = evaluate(data={data!r}, evaluators={{"match": ResponseMatchEvaluator()}}, output_path="results.json")
    print(len(result["rows"]), result["metrics"]["match.response_match_score"])
    """
)


def test_a_json_output_path_gets_azures_result_file_and_our_run_folder(tmp_path):
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(data=str(AGENTS))], capture_output=True, text=True,
                          env=clean_env(), cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    n, mean = proc.stdout.split()
    doc = json.loads((tmp_path / "results.json").read_text())
    assert set(doc) == {"rows", "metrics", "studio_url"} and doc["studio_url"] is None
    assert len(doc["rows"]) == int(n) == 12
    assert doc["metrics"]["match.response_match_score"] == float(mean)
    assert "outputs.match.response_match_score" in doc["rows"][0] and "inputs.query" in doc["rows"][0]
    assert (tmp_path / "results" / "summary.json").is_file() and (tmp_path / "results" / "rows.jsonl").is_file()


def test_cli_output_json_writes_the_same_pair(tmp_path):
    from tests.cli.helpers import agent_eval

    r = agent_eval("run", "--data", AGENTS, "-e", "response_match", "-o", tmp_path / "results.json", "--html")
    assert r.rc in (0, 1), r
    assert set(json.loads((tmp_path / "results.json").read_text())) == {"rows", "metrics", "studio_url"}
    for name in ("rows.jsonl", "summary.json", "checks.json", "report.html"):
        assert (tmp_path / "results" / name).is_file(), name
