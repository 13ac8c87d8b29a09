"""Issue "Reliability, round two", item 3: resume must not reuse results after a config change.

Before the fix the fingerprint rendered non-primitive attributes as placeholders
("<ArgsPolicy>", "<AnswerSimilarityOptions>", "<Rubric>") and skipped private ones, so
``resume=True`` accepted (and reused old results after) a change of rubric text,
``args_match``, ``args_match_overrides``, AnswerSimilarity options, ``is_reasoning_model``
or a plain function's code; and resume over reordered list data let row 0 carry another
row's result. The refusal tests and the reorder test fail on that code.
"""

import json

import pytest

from agent_evaluators import (
    AnswerSimilarityEvaluator,
    IntentResolutionEvaluator,
    RubricEvaluator,
    ToolTrajectoryEvaluator,
    evaluate,
)
from agent_evaluators.errors import ConfigError

MC = {"model": "judge-model", "base_url": "http://127.0.0.1:9/v1", "api_key": "sk-first-SECRET"}


def _code(value: int):
    scope: dict = {}
    exec(f"def metric(response):\n    return {{'value': {value}}}\n", scope)  # same name, other code
    return scope["metric"]


CHANGES = {
    "rubric text": (lambda: RubricEvaluator(["be polite", "be brief"], MC),
                    lambda: RubricEvaluator(["be polite", "be exhaustive"], MC)),
    "args_match": (lambda: ToolTrajectoryEvaluator(args_match="exact"),
                   lambda: ToolTrajectoryEvaluator(args_match="subset")),
    "args_match_overrides": (lambda: ToolTrajectoryEvaluator(args_match_overrides={"search": "ignore"}),
                             lambda: ToolTrajectoryEvaluator(args_match_overrides={"search": "exact"})),
    "AnswerSimilarity options": (lambda: AnswerSimilarityEvaluator(MC, missing_penalty=0.15),
                                 lambda: AnswerSimilarityEvaluator(MC, missing_penalty=0.5)),
    "is_reasoning_model": (lambda: IntentResolutionEvaluator(MC),
                           lambda: IntentResolutionEvaluator(MC, is_reasoning_model=True)),
    "function code": (lambda: _code(1), lambda: _code(2)),
}


@pytest.mark.parametrize("what", list(CHANGES))
def test_resume_refuses_a_changed_configuration(tmp_path, what):
    before, after = CHANGES[what]
    out = tmp_path / "out"
    evaluate(data=[], evaluators={"ev": before()}, output_path=out)
    # the same configuration, rebuilt: accepted
    evaluate(data=[], evaluators={"ev": before()}, output_path=out, resume=True)
    with pytest.raises(ConfigError, match="evaluator 'ev' changed"):
        evaluate(data=[], evaluators={"ev": after()}, output_path=out, resume=True)
    evaluate(data=[], evaluators={"ev": after()}, output_path=out, resume=True, force=True)  # force overrides


def test_secrets_do_not_enter_the_fingerprint(tmp_path):
    out = tmp_path / "out"
    mc = dict(MC, extra_headers={"X-Tenant-Key": "header-SECRET-1"})
    evaluate(data=[], evaluators={"ev": IntentResolutionEvaluator(mc)}, output_path=out)
    text = (out / "summary.json").read_text()
    assert "SECRET" not in text
    rotated = dict(MC, api_key="sk-second-SECRET", extra_headers={"X-Tenant-Key": "header-SECRET-2"})
    evaluate(data=[], evaluators={"ev": IntentResolutionEvaluator(rotated)}, output_path=out, resume=True)
    assert "SECRET" not in (out / "summary.json").read_text()


def _length(response: str) -> dict:
    return {"length": len(response)}


def test_resume_over_reordered_rows_reevaluates_the_moved_rows(tmp_path):
    out = tmp_path / "out"
    rows = [{"response": "a"}, {"response": "bb"}, {"response": "ccc"}]
    evaluate(data=rows, evaluators={"len": _length}, output_path=out)
    result = evaluate(data=list(reversed(rows)), evaluators={"len": _length}, output_path=out, resume=True)
    assert [(r["inputs.response"], r["outputs.len.length"]) for r in result.rows] == [("ccc", 3), ("bb", 2), ("a", 1)]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_changed"] == 2 and summary["rows_reused"] == 1


def test_a_shared_object_is_rendered_once_not_once_per_path():
    """Every ADK case slot refers to its eval-set job, which holds every case: rendering the job again
    under each slot made a 1,000-case run's fingerprint 17 GB and 400 s. An object met again in one
    walk is a ``same_as`` reference, so the rendering grows with the objects, not the paths."""
    import json

    from agent_evaluators.runner.settings_digest import settings_digest, settings_value

    class Job:
        def __init__(self, n: int) -> None:
            self.cases = [{"eval_id": f"case_{i}", "text": "x" * 20} for i in range(n)]

    class Slot:
        def __init__(self, job: Job, i: int) -> None:
            self.job, self.i = job, i

    job = Job(1000)
    slots = [Slot(job, i) for i in range(1000)]
    text = json.dumps(settings_value(slots))
    assert len(text) < 4 * len(json.dumps(settings_value(job))) + 100_000
    assert settings_digest(slots) == settings_digest([Slot(job, i) for i in range(1000)])  # still decides equality
    other = Job(1000)
    other.cases[5]["text"] = "changed"
    assert settings_digest(slots) != settings_digest([Slot(other, i) for i in range(1000)])
