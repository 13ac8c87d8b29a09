"""The sample runs whose bytes must not change when the code is only moved.

Each run goes through one user-facing entry point against the bundled fake judge
(``agent_evaluators.testing.JudgeServer``, in this process, so every request body it
received is recorded): ``evaluate()`` from Python, ``agent-eval run`` (our meaning and
``--azure-compat``), ``agent-eval adk`` on the recorded ADK sample, ``agent_evaluators.azure.evaluate``
and the pytest plugin collecting ``samples/agents.eval.yaml``. What each run produced is
reduced to a JSON document: the request bodies (sorted, since rows finish in any order),
``rows.jsonl`` (by line number), ``summary.json``, ``checks.json``, ADK's result file and
what the command printed, with the fields that measure time masked (latencies, durations,
timestamps) and the temporary folder and the judge's port replaced by placeholders.

``python -m tests.golden.runs --write`` rewrites ``tests/golden/*.json``; the files in the
repository were written on commit 2de82d2, before the package was laid out as core and
wings, and ``tests/golden/test_sample_runs.py`` holds every later commit to them.
"""

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List

from agent_evaluators.testing import JudgeServer

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
GOLDEN = Path(__file__).resolve().parent
JUDGE_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "AGENT_EVAL_JUDGE_MODEL", "AZURE_OPENAI_ENDPOINT",
             "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_DEPLOYMENT", "OPENAI_API_VERSION", "AZURE_OPENAI_API_VERSION",
             "CI", "AGENT_EVAL_STRICT")

#: keys whose values measure time (wall clock, latency) and so differ between any two runs
_TIMING_KEY = re.compile(r"(latency|duration|elapsed|seconds|wall|timestamp|_at$|_time$|^time$|_s$|_ms$)")
_TIMING_TEXT = re.compile(r"\b\d+(\.\d+)?\s?(s|ms|sec|seconds|rows/s)\b")
#: values that name a moment or a random draw: ADK's result ids (epoch seconds), run folders, ADK's call ids
_VOLATILE = [(re.compile(r"(?<!\d)1\d{9}\.\d+"), "<epoch>"), (re.compile(r"run_\d{8}-\d{6}"), "run_<stamp>"),
             (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<uuid>"),
             (re.compile(r"/tmp/[\w./-]*"), "<tmp>")]
#: the fake judge listens on a fixed port outside Linux's ephemeral range (32768-60999), so the judge
#: evaluators' fingerprints in summary.json, which hash the judge's URL, are the same in every run
PORT = 23917


def _mask(value: Any, replace: Callable[[str], str]) -> Any:
    if isinstance(value, dict) and _TIMING_KEY.search(str(value.get("metric_name", ""))):
        value = {**value, "score": "<time>"}  # ADK's invocation_duration_v1 measures wall time
    if isinstance(value, dict):
        return {replace(str(k)): ("<time>" if _TIMING_KEY.search(str(k)) else _mask(v, replace)) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(v, replace) for v in value]
    if isinstance(value, str):
        return replace(value)
    return value


def _replacer(*pairs: Any) -> Callable[[str], str]:
    def replace(text: str) -> str:
        for old, new in pairs:
            text = text.replace(str(old), new)
        for pattern, mark in _VOLATILE:
            text = pattern.sub(mark, text)
        return text

    return replace


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _rows(path: Path) -> List[Any]:
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return sorted(rows, key=lambda r: r.get("line_number", 0))


def _bodies(server: JudgeServer) -> List[str]:
    return sorted(json.dumps(r.body, ensure_ascii=False) for r in server.requests)


def _env(url: str) -> Dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k not in JUDGE_ENV}
    env.update(OPENAI_BASE_URL=f"{url}/v1", AGENT_EVAL_JUDGE_MODEL="fake", OPENAI_API_KEY="test-key",
               PYTHONHASHSEED="0")
    return env


def _cli(args: List[str], url: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent_evaluators.cli", *args], capture_output=True, text=True,
                          env=_env(url), cwd=cwd, timeout=300)


def _printed(text: str) -> List[str]:
    return [_TIMING_TEXT.sub("<t>", line.rstrip()) for line in text.splitlines()]


def _folder(out: Path) -> Dict[str, Any]:
    return {"rows": _rows(out / "rows.jsonl"), "summary": _read_json(out / "summary.json"),
            "checks": _read_json(out / "checks.json")}


def run_python_evaluate(tmp: Path) -> Dict[str, Any]:
    """``evaluate()`` from Python with the sample's evaluators, deterministic and judged."""
    from agent_evaluators import (
        IntentResolutionEvaluator,
        ResponseCompletenessEvaluator,
        TaskAdherenceEvaluator,
        ToolCallAccuracyEvaluator,
        ToolTrajectoryEvaluator,
        evaluate,
    )
    from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator

    with JudgeServer(port=PORT) as server:
        judge = {"model": "fake", "base_url": f"{server.url}/v1", "api_key": "test-key"}
        evaluate(
            data=str(SAMPLES / "data" / "agents.jsonl"),
            evaluators={
                "trajectory": ToolTrajectoryEvaluator(match_type="in_order"),
                "response_match": ResponseMatchEvaluator(threshold=0.5),
                "intent": IntentResolutionEvaluator(model_config=judge),
                "task_adherence": TaskAdherenceEvaluator(model_config=judge),
                "tool_calls": ToolCallAccuracyEvaluator(model_config=judge),
                "completeness": ResponseCompletenessEvaluator(model_config=judge),
            },
            evaluator_config={"trajectory": {"column_mapping": {"ground_truth": "${data.expected_tool_calls}"}}},
            output_path=str(tmp / "out"),
            show_progress=False,
        )
        doc = {"requests": _bodies(server), **_folder(tmp / "out")}
        return _mask(doc, _replacer((tmp, "<tmp>"), (server.url, "<judge>"), (REPO, "<repo>")))


def _run_cli(tmp: Path, args: List[str]) -> Dict[str, Any]:
    with JudgeServer(port=PORT) as server:
        proc = _cli([*args, "--judge-base-url", f"{server.url}/v1", "--judge-model", "fake", "-o", str(tmp / "out")],
                    server.url, tmp)
        doc = {"exit_code": proc.returncode, "stdout": _printed(proc.stdout), "stderr": _printed(proc.stderr),
               "requests": _bodies(server), **_folder(tmp / "out")}
        return _mask(doc, _replacer((tmp, "<tmp>"), (server.url, "<judge>"), (REPO, "<repo>")))


def run_cli(tmp: Path) -> Dict[str, Any]:
    """``agent-eval run --config samples/eval.yaml`` on the fake judge."""
    return _run_cli(tmp, ["run", "--config", str(SAMPLES / "eval.yaml")])


def run_cli_azure_compat(tmp: Path) -> Dict[str, Any]:
    """The same run with azure-ai-evaluation 1.18's meaning (``--azure-compat``)."""
    return _run_cli(tmp, ["run", "--config", str(SAMPLES / "eval.yaml"), "--azure-compat"])


def run_cli_adk(tmp: Path) -> Dict[str, Any]:
    """``agent-eval adk`` on the recorded home-automation eval set with ADK's criteria."""
    data = SAMPLES / "data"
    with JudgeServer(port=PORT) as server:
        proc = _cli(["adk", str(data / "home_automation.evalset.json"), "--actual",
                     str(data / "home_automation.actual.jsonl"), "--config", str(data / "test_config.json"),
                     "--judge-base-url", f"{server.url}/v1", "--judge-model", "fake", "--output", str(tmp / "out")],
                    server.url, tmp)
        results = {p.name: _read_json(p) for p in sorted((tmp / "out").glob("*.json"))}
        doc = {"exit_code": proc.returncode, "stdout": _printed(proc.stdout), "stderr": _printed(proc.stderr),
               "requests": _bodies(server), "results": results}
        return _mask(doc, _replacer((tmp, "<tmp>"), (server.url, "<judge>"), (REPO, "<repo>")))


def run_cli_adk_agent(tmp: Path) -> Dict[str, Any]:
    """``agent-eval adk AGENT_DIR EVALSET``: the sample ADK agent run by google-adk, judged by ADK's criteria."""
    agent = SAMPLES / "adk_agent"
    with JudgeServer(port=PORT) as server:
        proc = _cli(["adk", str(agent), str(agent / "weather.evalset.json"), "--judge-base-url", f"{server.url}/v1",
                     "--judge-model", "fake", "--output", str(tmp / "out")], server.url, tmp)
        results = {p.name: _read_json(p) for p in sorted((tmp / "out").glob("*.json"))}
        doc = {"exit_code": proc.returncode, "stdout": _printed(proc.stdout), "stderr": _printed(proc.stderr),
               "requests": _bodies(server), "results": results}
        return _mask(doc, _replacer((tmp, "<tmp>"), (server.url, "<judge>"), (REPO, "<repo>")))


def run_azure_evaluate(tmp: Path) -> Dict[str, Any]:
    """``agent_evaluators.azure.evaluate`` (1.18's call shape and result) with azure's judges."""
    from agent_evaluators import azure

    with JudgeServer(port=PORT) as server:
        judge = {"model": "fake", "base_url": f"{server.url}/v1", "api_key": "test-key"}
        result = azure.evaluate(
            data=str(SAMPLES / "data" / "agents.jsonl"),
            evaluators={"intent": azure.IntentResolutionEvaluator(model_config=judge),
                        "task_adherence": azure.TaskAdherenceEvaluator(model_config=judge),
                        "tool_calls": azure.ToolCallAccuracyEvaluator(model_config=judge),
                        "f1": azure.F1ScoreEvaluator()},
            evaluator_config={"f1": {"column_mapping": {"response": "${data.issue}", "ground_truth": "${data.label}"}}},
            output_path=str(tmp / "results.json"),
        )
        doc = {"requests": _bodies(server), "result": json.loads(json.dumps(result, default=str)),
               "file": _read_json(tmp / "results.json")}
        return _mask(doc, _replacer((tmp, "<tmp>"), (server.url, "<judge>"), (REPO, "<repo>")))


def run_pytest_plugin(tmp: Path) -> Dict[str, Any]:
    """The pytest plugin collecting ``samples/agents.eval.yaml``: one test per row and the thresholds."""
    import shutil

    shutil.copytree(SAMPLES / "data", tmp / "data")
    shutil.copy(SAMPLES / "agents.eval.yaml", tmp / "agents.eval.yaml")
    with JudgeServer(port=PORT) as server:
        env = _env(server.url)
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "agent_evaluators.pytest_plugin", "--agent-eval-collect", "-q",
             "-rA", "--no-header", "-p", "no:cacheprovider", "agents.eval.yaml"],
            capture_output=True, text=True, env=env, cwd=tmp, timeout=300)
        doc = {"exit_code": proc.returncode, "stdout": _printed(proc.stdout), "requests": _bodies(server)}
        return _mask(doc, _replacer((tmp, "<tmp>"), (server.url, "<judge>"), (REPO, "<repo>")))


RUNS: Dict[str, Callable[[Path], Dict[str, Any]]] = {
    "python_evaluate": run_python_evaluate,
    "cli_run": run_cli,
    "cli_run_azure_compat": run_cli_azure_compat,
    "cli_adk": run_cli_adk,
    "cli_adk_agent": run_cli_adk_agent,
    "azure_evaluate": run_azure_evaluate,
    "pytest_plugin": run_pytest_plugin,
}


def golden_path(name: str) -> Path:
    return GOLDEN / f"{name}.json"


def dumps(doc: Any) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: List[str]) -> int:
    import tempfile

    names = [a for a in argv if not a.startswith("--")] or list(RUNS)
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            doc = RUNS[name](Path(tmp))
        if "--write" in argv:
            golden_path(name).write_text(dumps(doc), encoding="utf-8")
        print(name, len(dumps(doc)), "bytes", f"{len(doc.get('requests', []))} requests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
