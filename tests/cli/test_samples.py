"""The sample scripts run as a newcomer would run them (no judge configured)."""

import subprocess
import sys

from .helpers import SAMPLES, clean_env


def _run(*args, cwd):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, env=clean_env(),
                          cwd=cwd, timeout=120)


def test_direct_calls_sample(tmp_path):
    proc = _run(SAMPLES / "direct_calls.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "travel-001: trajectory 1.0 (pass)" in proc.stdout and "travel-004: trajectory 0.0 (fail)" in proc.stdout
    assert "intent resolution skipped: No judge model configured" in proc.stdout


def test_batch_evaluate_sample(tmp_path):
    proc = _run(SAMPLES / "batch_evaluate.py", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "rows with a wrong trajectory: travel-004, support-004, home-004" in proc.stdout
    assert (tmp_path / "out" / "report.html").is_file()


def test_sample_data_is_what_the_builder_writes(tmp_path):
    # agents.jsonl and the ADK files are generated; a hand edit would drift from build_samples.py
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_samples", SAMPLES / "data" / "build_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = tmp_path
    module.main()
    for name in ("agents.jsonl", "home_automation.evalset.json", "home_automation.actual.jsonl", "test_config.json"):
        assert (tmp_path / name).read_text() == (SAMPLES / "data" / name).read_text(), name
