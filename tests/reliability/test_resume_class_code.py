"""Issue 21 "Reliability, round three", item 9: resume after a class evaluator's code changed.

Before the fix the fingerprint hashed a plain function's bytecode but only a class
instance's attributes, so ``resume=True`` reused results after the ``__call__`` body, a
closure value, a module constant or a helper the evaluator calls had changed. Each change
below is made the way a user makes it, by editing the module file and loading it again; the
refusal tests fail on that code. The same code loaded in a new process (another hash seed)
must still be accepted, built-in evaluators included.
"""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError

from .run_support import REPO

MODULE = textwrap.dedent('''
    SCALE = 1

    def _helper(text):
        return len(text)

    def make_bonus(extra):
        def bonus(value):
            return value + extra
        return bonus

    _bonus = make_bonus(0)

    class LengthEvaluator:
        def __init__(self, threshold=3):
            self.threshold = threshold

        def __call__(self, *, response):
            value = _bonus(_helper(response) * SCALE)
            return {"length": value, "length_result": "pass" if value >= self.threshold else "fail"}
''')

EDITS = {
    "__call__ body": ("value = _bonus(_helper(response) * SCALE)", "value = _bonus(_helper(response.strip()) * SCALE)"),
    "module constant": ("SCALE = 1", "SCALE = 2"),
    "helper it calls": ("return len(text)", "return len(text.split())"),
    "closure value": ("_bonus = make_bonus(0)", "_bonus = make_bonus(1)"),
}

ROWS = [{"response": "a b"}, {"response": "ccc"}]


def _load(tmp_path, source: str, name: str = "user_evals"):
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("what", list(EDITS))
def test_resume_refuses_when_the_evaluator_code_changed(tmp_path, what):
    out = tmp_path / "out"
    before = _load(tmp_path, MODULE)
    evaluate(data=ROWS, evaluators={"ev": before.LengthEvaluator()}, output_path=out)
    again = _load(tmp_path, MODULE)  # the same code loaded anew: accepted
    evaluate(data=ROWS, evaluators={"ev": again.LengthEvaluator()}, output_path=out, resume=True)

    old, new = EDITS[what]
    assert old in MODULE
    edited = _load(tmp_path, MODULE.replace(old, new))
    with pytest.raises(ConfigError, match="evaluator 'ev' changed"):
        evaluate(data=ROWS, evaluators={"ev": edited.LengthEvaluator()}, output_path=out, resume=True)


_RESUME = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[2])
    from user_evals import LengthEvaluator
    from agent_evaluators import IntentResolutionEvaluator, ToolTrajectoryEvaluator, evaluate
    from agent_evaluators.runner.fingerprint import build_fingerprint

    MC = {"model": "judge-model", "base_url": "http://127.0.0.1:9/v1", "api_key": "sk-x"}
    evs = {"ev": LengthEvaluator(), "traj": ToolTrajectoryEvaluator(args_match="subset"),
           "intent": IntentResolutionEvaluator(MC)}
    result = evaluate(data=[], evaluators=evs, output_path=sys.argv[1], resume=sys.argv[3] == "1")
    print(json.dumps(result.summary["fingerprint"]["evaluators"]))
""")


def _in_new_process(out, folder, seed: str, resume: bool) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", _RESUME, str(out), str(folder), "1" if resume else "0"], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_same_code_in_a_new_process_has_the_same_fingerprint(tmp_path):
    (tmp_path / "user_evals.py").write_text(MODULE, encoding="utf-8")
    out = tmp_path / "out"
    first = _in_new_process(out, tmp_path, "1", resume=False)
    assert first == _in_new_process(out, tmp_path, "2", resume=True)


def test_resume_refuses_a_bound_method_whose_class_changed(tmp_path):
    out = tmp_path / "out"
    source = MODULE + "\n    def _shape(self, value):\n        return value\n\n    def score(self, *, response):\n"
    source += "        return {\"length\": self._shape(len(response))}\n"
    evaluate(data=ROWS, evaluators={"ev": _load(tmp_path, source).LengthEvaluator().score}, output_path=out)
    evaluate(data=ROWS, evaluators={"ev": _load(tmp_path, source).LengthEvaluator().score}, output_path=out,
             resume=True)
    edited = _load(tmp_path, source.replace("        return value\n", "        return value * 2\n"))
    with pytest.raises(ConfigError, match="evaluator 'ev' changed"):
        evaluate(data=ROWS, evaluators={"ev": edited.LengthEvaluator().score}, output_path=out, resume=True)


def test_pickling_an_instance_does_not_change_its_class_fingerprint():
    """The first pickle of an instance caches ``__slotnames__`` on its class (copyreg): a Ray run
    pickles evaluators, the resume in a fresh driver has not yet, and must still match."""
    import copy

    from agent_evaluators.runner.settings_digest import settings_digest
    from tests.runner.distributed.helpers import Logged

    fresh = type("FreshLogged", (Logged,), {})  # a class no earlier test has pickled
    before = settings_digest(fresh("calls.txt"))
    copy.copy(fresh("calls.txt"))  # the same __reduce_ex__ path as pickle: caches __slotnames__
    assert "__slotnames__" in vars(fresh)
    assert settings_digest(fresh("calls.txt")) == before
