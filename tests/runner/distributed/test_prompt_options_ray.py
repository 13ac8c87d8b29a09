"""``max_prompt_tokens`` and ``terminal_tools`` reach the judge calls a Ray worker makes, as the local engine's."""

import pytest

from agent_evaluators import TaskAdherenceEvaluator, TaskCompletionEvaluator
from agent_evaluators.testing import JudgeServer, schema_reply

from ...evaluators.test_handoff_and_prompt_budget import QUERY, _ends_with_call, _long_conversation

pytestmark = [pytest.mark.heavy, pytest.mark.ray]


def test_ray_workers_install_the_prompt_budget_and_the_terminal_tools(ray_cluster, tmp_path):
    from agent_evaluators.ray_engine import evaluate_ray

    rows = [{"query": QUERY, "response": _ends_with_call("close_case", "closed")},
            {"query": _long_conversation(200), "response": "FINAL ANSWER: done."}]
    with JudgeServer(lambda req: schema_reply(req, score=1)) as server:
        result = evaluate_ray(data=rows, evaluators={"done": TaskCompletionEvaluator(server.openai_config()),
                                                     "adh": TaskAdherenceEvaluator(server.openai_config())},
                              terminal_tools=["close_case"], max_prompt_tokens=4000, output_path=tmp_path / "ray",
                              show_progress=False)
    first, long = result.rows
    assert first["outputs.done.task_completion_result"] in ("pass", "fail")  # the named tool ended it: judged
    assert "left out to fit the prompt budget" in long["outputs.adh.task_adherence_details"]["prompt_elided"]
