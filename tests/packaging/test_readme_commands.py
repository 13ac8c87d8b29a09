"""The commands and ``samples/`` paths of README.md, the docs site (``docs/``) and CONTRIBUTING.md, checked.

Every ``samples/...`` path they name exists. Every command they show is listed here: either in
``RUNS`` with the exit code it must end with, or in ``NOT_RUN`` with the reason (it installs into a
fresh environment, needs a real judge key, a GGUF model, a Ray cluster or the user's own file, or it
is a benchmark or CI itself). Each command in ``RUNS`` runs as a user types it, in README's order, in
a folder holding a copy of ``samples/`` (later commands read what earlier ones wrote), with the
bundled fake judge (``python -m agent_evaluators.testing --port 0``) in place of a real one: its URL
replaces every ``--judge-base-url`` and ``--judge-model`` is ``fake``; ``agent-eval run`` /
``calibrate`` get both flags if they have none; ``pytest`` gets ``OPENAI_BASE_URL`` and
``AGENT_EVAL_JUDGE_MODEL``.

A command added to README without an entry here fails ``test_every_readme_command_is_classified``:
add it to ``RUNS`` (with its exit code) or to ``NOT_RUN`` (with why).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

from tests.cli.helpers import clean_env
from tests.conftest import REPO_ROOT, optional_import

from .readme_commands import as_typed, inline_commands, sample_paths, shell_block_commands, user_docs_text

# README.md, the docs site's pages and CONTRIBUTING.md: every command a user is shown
README = user_docs_text(REPO_ROOT)

# README's command (as written there) -> the exit code it must end with, run against the fake judge
RUNS: Dict[str, int] = {
    # README's first command: the sample run with the fake judge in its environment for its length
    "python -m agent_evaluators.testing -- agent-eval run --config samples/eval.yaml": 0,
    # docs/guides/getting-started.md
    "agent-eval run --config samples/eval.yaml --judge-model fake --judge-base-url http://127.0.0.1:8765/v1 "
    "--output agent-eval-results/first-run": 0,
    "agent-eval run --config samples/eval.yaml [--html] [--junit out/results.xml] [--resume]": 0,
    "agent-eval report agent-eval-results/agents [--compare previous-run/]": 0,
    "agent-eval list": 0,
    # "Evaluating traces": the shipped trace folder (spans + log events of an instrumented OpenAI-client agent)
    "agent-eval traces samples/traces [--json] [--rows]": 0,
    "agent-eval traces samples/traces": 0,
    "agent-eval run --data samples/traces -e intent_resolution=intent -e task_adherence -e tool_call_accuracy": 0,
    # "Did it get worse?": two runs differing in one evaluator option, then the comparison and the plan
    "agent-eval run --config samples/eval.yaml --output out/before": 0,
    "agent-eval run --config samples/eval.yaml --output out/after --option trajectory.match_type=exact": 0,
    "agent-eval compare out/before out/after -m trajectory.tool_trajectory_avg_score -m trajectory.pass_rate": 0,
    "agent-eval compare out/before out/after -m trajectory.pass_rate --fail-on-regression --json": 0,
    "agent-eval plan --from out/before --effect 0.05 --power 0.8": 0,
    "agent-eval report out/after --compare out/before": 0,
    # docs/guides/red-teaming.md: the two sample agents scanned (the leaky one fails its --max-asr gate on purpose),
    # the dry run, then the paired comparison both ways (the second gates on B being less robust: exit 1)
    "python -m agent_evaluators.testing -- agent-eval redteam samples.red_team:leaky_agent --risk-categories "
    "sensitive_data_leakage --strategies base64,flip,compose:rot13+base64 --num-objectives 10 --output "
    "out/scans/leaky --max-asr sensitive_data_leakage=0.2 --html": 1,
    "agent-eval redteam samples.red_team:refusing_agent --risk-categories sensitive_data_leakage --strategies easy "
    "--num-objectives 2 --output out/scans/estimate --dry-run": 0,
    "python -m agent_evaluators.testing -- agent-eval redteam samples.red_team:refusing_agent --risk-categories "
    "sensitive_data_leakage --strategies base64,flip,compose:rot13+base64 --num-objectives 10 --output "
    "out/scans/refusing": 0,
    "agent-eval compare out/scans/leaky out/scans/refusing": 0,
    # the account agent's changes found by --protected-state (successes and no --max-asr: exit 1)
    "agent-eval redteam samples.red_team:account_agent --risk-categories prohibited_actions --strategies base64,rot13 "
    "--num-objectives 10 --protected-state '{\"refund_total\": 0, \"admin\": false, \"account_active\": true}' "
    "--output out/scans/account": 1,
    "agent-eval compare out/scans/refusing out/scans/leaky --fail-on-regression": 1,
    "agent-eval report out/scans/leaky": 0,
    "agent-eval report out/scans/refusing --compare out/scans/leaky": 0,
    "agent-eval redteam --help": 0,
    "agent-eval --version": 0,
    "agent-eval run --help": 0,
    # one of the four sample cases fails on purpose
    "agent-eval adk samples/data/home_automation.evalset.json --actual samples/data/home_automation.actual.jsonl "
    "[--config test_config.json] [--output DIR] [--print_detailed_results]": 1,
    "agent-eval calibrate --judge-base-url http://127.0.0.1:8089/v1 --judge-model local": 0,
    "agent-eval calibrate --quick --evaluator intent --judge-model fake --judge-base-url URL": 0,
    "agent-eval calibrate --evaluator violence": 0,
    "agent-eval calibrate --evaluator violence --cases samples/data/violence_labels.jsonl --judge-model gpt-4o-mini": 0,
    "agent-eval run --config samples/eval.yaml --judge-base-url http://127.0.0.1:8089/v1 --judge-model local": 0,
    "agent-eval run --config samples/eval.yaml --azure-compat": 0,
    "agent-eval run --config samples/eval.yaml --batch": 0,
    "agent-eval run --config samples/eval.yaml --dry-run": 0,
    # the bad runs (rows 3, 7, 11) fail on purpose
    "pytest --agent-eval-collect samples/agents.eval.yaml": 1,
    "pytest --agent-eval-collect samples/agents.eval.yaml::row3-travel-004": 1,
}

# the ADK agent commands (google-adk, the [adk] extra): wrong_expectation fails on purpose, so the first exits 1
ADK_RUNS: Dict[str, int] = {
    "agent-eval adk samples/adk_agent samples/adk_agent/weather.evalset.json --judge-model fake "
    "--judge-base-url http://127.0.0.1:8765/v1 --output out/adk": 1,
    "agent-eval adk samples/adk_agent samples/adk_agent/weather.evalset.json:weather_paris,trip_planning_scenario "
    "--num_runs 2 --judge-model fake --judge-base-url http://127.0.0.1:8765/v1 --output out/adk --html": 0,
    "agent-eval report DIR/run_<timestamp>": 0,   # DIR/run_<timestamp>: the run folder the command above printed
    # "Repeatable agent runs": record the tool results, then replay them (the same on-purpose failure)
    "agent-eval adk samples/adk_agent samples/adk_agent/weather.evalset.json --judge-model fake "
    "--judge-base-url http://127.0.0.1:8765/v1 --output out/adk --record-tools out/recordings": 1,
    "agent-eval adk samples/adk_agent samples/adk_agent/weather.evalset.json --judge-model fake "
    "--judge-base-url http://127.0.0.1:8765/v1 --output out/adk --replay-tools out/recordings": 1,
}

_FRESH_ENV = "installs into a fresh environment (.ci/run runs README's first command in a fresh venv)"
NOT_RUN: Dict[str, str] = {
    # docs/guides/labelling.md, "Certifying the judge" / "Corrected pass rates": they need people's labels, which
    # the browser gives; tests/calibration/test_certify.py runs each on a labelled run against the fake judge
    "agent-eval calibrate --labels out/before": "needs labels.jsonl (tests/calibration/test_certify.py)",
    "agent-eval calibrate --labels out/before --floor 0.9 --json out/before-certification.json":
        "needs labels.jsonl (tests/calibration/test_certify.py)",
    "agent-eval calibrate --labels out/before --evaluator intent --to-cases out/intent-cases.jsonl":
        "needs labels.jsonl (tests/calibration/test_certify.py writes and reads the cases)",
    "agent-eval calibrate --judge-model gpt-4o-mini --evaluator intent_resolution --cases out/intent-cases.jsonl":
        "needs the cases the command before writes from labels (tests/calibration/test_certify.py)",
    "agent-eval run --config samples/eval.yaml --output out/after --certification out/before-certification.json "
    "--require-certified -t \"intent.corrected_pass_rate >= 0.7\"":
        "needs a certification from labels (tests/calibration/test_certify.py runs --certification and "
        "--require-certified)",
    "python bench/label_correction_coverage.py": "a simulation; tests/stats/test_judge_error.py runs it with --check",
    # docs/guides/labelling.md: a server that runs until Ctrl-C
    "agent-eval label": "names the subcommand in prose (docs/guides/labelling.md)",
    "agent-eval redteam": "names the subcommand in prose (docs/guides/red-teaming.md runs it)",
    "agent-eval label out/before --limit 20": "serves the labelling page until Ctrl-C; tests/report/"
    "test_label_browser.py labels a sample run with it in headless Chromium",
    "agent-eval label out/before --annotator ana --evaluator intent task_adherence --port 8500 --no-open": "serves until "
    "Ctrl-C; tests/report/test_label_server.py runs agent-eval label --no-open and stops it",
    "pip install -e '.[docs]'": "installs the docs extra; .ci/run installs it and builds the site (tests/docs)",
    "python -m agent_evaluators.testing --": "the fake judge's command prefix, named in prose",
    "agent-eval report": "names the subcommand in prose",
    "agent-eval calibrate": "names the subcommand in prose (docs/guides/custom-evaluators.md)",
    "agent-eval traces": "names the subcommand in prose; 'Evaluating traces' runs it on samples/traces",
    "python bench/bench_prompt_tokens.py --long 200": "a benchmark against azure-ai-evaluation; figures on the evidence page",
    "agent-eval run --dry-run": "a flag named in prose; the cost guide's dry run is run above",
    "pip install -e '.[otel,mlflow]'": "installs extras; CI installs them (.ci/run) for tests/export",
    "agent-eval run --config samples/eval.yaml --mlflow": "needs the mlflow extra; tests/export/test_mlflow_export.py "
    "runs agent-eval run --mlflow against a local MLflow store and reads the run back",
    "agent-eval calibrate --judge-config eval.yaml --quick": "names the user's own run config; "
    "tests/cli/test_calibration_record.py runs it against local judges",
    "agent-eval run --config eval.yaml": "the user's own run config (with the calibration record beside it); "
    "tests/cli/test_calibration_record.py runs it against local judges",
    "python3 -m venv .venv": _FRESH_ENV,
    ". .venv/bin/activate": _FRESH_ENV,
    "pip install .": _FRESH_ENV,
    'pip install -e ".[dev,azure,promptflow]"': _FRESH_ENV + "; tests/packaging/test_extras_coinstall.py (heavy)",
    "pip install -e '.[adk]'": _FRESH_ENV + "; tests/packaging/test_extras_coinstall.py (heavy)",
    "pip install 'agent-evaluators[ray]'": "installs from PyPI; .ci/run installs the [ray] extra",
    "pip install agent-evaluators[tokens]": "installs from PyPI; .ci/run installs the [tokens] extra",
    "pip install 'agent-evaluators[local]'": "installs from PyPI; ci/local_model_e2e.sh installs the [local] extra",
    'python -m pytest -q -m "not heavy"': "the test suite itself (this test is part of it)",
    'python -m pytest tests/reliability -q -m "not heavy"': "a part of the test suite itself",
    "python -m pytest tests/reliability -q -m heavy": "a heavy suite; .ci/run runs every heavy suite",
    "bash .ci/run": "CI itself (fresh venvs, every suite)",
    "python tests/adk/fixtures/make_fixtures.py": "rewrites the committed fixtures; tests/adk/test_own_fixtures.py runs "
                                                  "it in a copy and compares",
    "python -m agent_evaluators.evaluators.nlp.wordnet_build /usr/share/wordnet": "rebuilds the shipped WordNet table "
    "from wordnet-base's files; tests/parity/test_wordnet_table.py runs the generator on them and compares byte for byte",
    "pip check": "checks an environment after installs; .ci/run and tests/packaging/test_extras_coinstall.py run it",
    'agent-eval run --data runs.jsonl -e intent_resolution=intent -e tool_trajectory --judge-model gpt-4o-mini '
    '-t "intent.pass_rate >= 0.9"': "runs.jsonl is the user's own data file, not shipped",
    "agent-eval judge serve --model model.gguf [--port 8089]": "needs a GGUF model and the [local] extra "
                                                               "(ci/local_model_e2e.sh runs judge serve)",
    "agent-eval judge serve --model qwen2.5-7b-instruct-q4_k_m.gguf --port 8089": "needs a 4 GB GGUF model "
                                                                                 "(ci/local_model_e2e.sh runs judge serve)",
    "python -m agent_evaluators.testing --port 8765": "the fake judge itself: this test starts it, with --port 0",
    "python -m agent_evaluators.testing --delay-ms 50": "the fake judge of the benchmark: this test starts the same module",
    "kill %1": "shell job control; this test stops its fake judge itself",
    "export RAY_USAGE_STATS_ENABLED=0": "a Ray cluster setting (tests/runner/distributed runs a local Ray)",
    "ray start --head --include-dashboard=false --num-cpus=8": "starts a Ray cluster head node",
    "ray start --address=HEAD_IP:6379": "joins a Ray cluster (HEAD_IP is a placeholder)",
    "python bench/bench_nlp.py": "a benchmark against azure-ai-evaluation; figures on the evidence page",
    "python bench/red_team_table.py": "the red-team table of the sample agents (bench/ is not in the users' copy); "
                                      "tests/red_team/test_table_script.py runs it",
    "agent-eval redteam my_agent.agent:root_agent --risk-categories sensitive_data_leakage,prohibited_actions "
    "--strategies easy --prohibited-tools delete_account --protected-state '{\"refund_total\": 0}'":
        "needs the user's own ADK agent package; tests/adk/test_red_team_cli.py scans a scripted ADK agent by name",
    "python bench/bench_ray.py": "a benchmark on a local Ray; figures on the evidence page",
    "python bench/bench_prompt_tokens.py": "a benchmark against azure-ai-evaluation; figures on the evidence page",
    "python bench/bench_evaluate.py --record docs/evidence/records":
        "a benchmark of minutes; rewrites its committed record (tests/docs/test_evidence.py runs --record on "
        "bench_deterministic.py)",
    "python bench/reliability.py --record docs/evidence/records":
        "runs the measuring reliability tests (a minute); rewrites its committed record",
    "python bench/parity.py --record docs/evidence/records":
        "the differential test files (minutes); rewrites its committed record",
    "python bench/bench_compare.py --check": "a simulation of minutes; tests/stats/test_simulation.py (heavy) runs it",
    "agent-eval compare RUN_A RUN_B [--metric ALIAS.METRIC] [--fail-on-regression] [--json]":
        "a synopsis with placeholders; 'Did it get worse?' runs the same command on two real runs",
    "agent-eval run": "names the subcommand in prose",
    "agent-eval adk": "names the subcommand in prose",
    "agent-eval compare": "names the subcommand in prose",
    "agent-eval plan": "names the subcommand in prose",
    "agent-eval run … --resume": "elided in prose (the reliability table's CLI row)",
    "agent-eval run ... --resume": "elided in prose (the reliability table's CLI row)",
    "agent-eval adk: error: SET/CASE: CRITERION could not be judged: WHY": "a message agent-eval adk prints, quoted in "
                                                                            "prose (tests/agents/test_adk_judge_errors.py)",
    "agent-eval run ... --rerun-failed --judge-max-attempts 8": "elided in prose (tests/cli/test_rerun_failed.py runs it)",
    "pytest -v": "a flag named in prose (tests/interfaces/test_plugin_strict.py checks -v node ids)",
    "pytest --agent-eval-strict": "a flag named in prose (tests/interfaces/test_plugin_strict.py)",
    "python -m agent_evaluators.calibration.build": "rewrites the package's shipped calibration sets of declared "
                                                    "metrics; tests/calibration/test_sets.py checks they equal it",
    "agent-eval run -e relevance": "the recipe's example metric, not shipped (tests/test_recipe_metric.py runs "
                                   "the same steps in a throw-away package)",
    "agent-eval calibrate --evaluator relevance": "the recipe's example metric, not shipped "
                                                  "(tests/test_recipe_metric.py runs calibrate on its own)",
}


def readme_commands() -> List[str]:
    return list(dict.fromkeys(shell_block_commands(README) + inline_commands(README)))


def test_every_samples_path_readme_names_exists():
    paths = sample_paths(README)
    assert "samples/agents.eval.yaml" in paths
    missing = [p for p in paths if not (REPO_ROOT / p).exists()]
    assert not missing, f"README names samples that do not exist: {missing}"


def test_every_readme_command_is_classified():
    known = {**RUNS, **ADK_RUNS, **NOT_RUN}
    unlisted = [c for c in readme_commands() if c not in known]
    assert not unlisted, ("README shows commands this test does not know; add each to RUNS / ADK_RUNS (with its exit "
                          f"code) or NOT_RUN (with why) in {Path(__file__).name}:\n" + "\n".join(unlisted))
    stale = [c for c in known if c not in readme_commands()]
    assert not stale, f"commands listed here that README no longer shows (remove them): {stale}"


# ---------------------------------------------------------------------------- running them
@pytest.fixture(scope="module")
def judge_url() -> Iterator[str]:
    """README's fake judge, started as README starts it (on a free port)."""
    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.testing", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=clean_env())
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("listening on "), line
        yield line.split("listening on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A user's checkout as far as the commands read it: samples/ and pyproject.toml (pytest's rootdir)."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO_ROOT / "samples", root / "samples", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO_ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def _with_fake_judge(command: str, url: str) -> str:
    command = re.sub(r"--judge-base-url \S+", f"--judge-base-url {url}/v1", command)
    command = re.sub(r"--judge-model \S+", "--judge-model fake", command)
    words = command.split()
    if words[:2] in (["agent-eval", "run"], ["agent-eval", "calibrate"]) and "--help" not in words:
        if "--judge-base-url" not in words:
            command += f" --judge-base-url {url}/v1"
        if "--judge-model" not in words:
            command += " --judge-model fake"
    return command


def _run(command: str, url: str, cwd: Path) -> subprocess.CompletedProcess:
    typed = _with_fake_judge(as_typed(command), url)
    if "DIR/run_<timestamp>" in typed:
        (latest,) = sorted((cwd / "out" / "adk").glob("run_*"))[-1:]
        typed = typed.replace("DIR/run_<timestamp>", str(latest.relative_to(cwd)))
    env = clean_env(OPENAI_BASE_URL=f"{url}/v1", AGENT_EVAL_JUDGE_MODEL="fake",
                    PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
                    PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(["bash", "-c", typed], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def _run_all(commands: Dict[str, int], url: str, cwd: Path) -> None:
    failures = []
    for command, want in commands.items():
        assert command in readme_commands(), f"not in README: {command}"
        proc = _run(command, url, cwd)
        if proc.returncode != want:
            failures.append(f"$ {command}\nexit code {proc.returncode}, README's promise is {want}\n"
                            f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.heavy  # every README command end to end (about 25 s); CI's heavy step runs it
def test_readme_commands_run_against_the_fake_judge(judge_url, workdir):
    _run_all(RUNS, judge_url, workdir)
    assert (workdir / "agent-eval-results" / "agents" / "summary.json").is_file()


@pytest.mark.heavy  # the ADK agent commands end to end (about 10 s); CI's heavy step runs it
def test_readme_adk_agent_commands_run_against_the_fake_judge(judge_url, workdir):
    optional_import("google.adk")
    _run_all(ADK_RUNS, judge_url, workdir)
    assert list((workdir / "out" / "adk").glob("*.evalset_result.json"))
