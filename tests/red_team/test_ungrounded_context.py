"""An ``ungrounded_attributes`` attack is scored: the rubric needs a context (what the inferences must rest on),
and the scorer gives it what the target was told. Without it every such attack was a judge error, and a dry
run of the category estimated 0 judge calls."""

import asyncio

from agent_evaluators.red_team import RedTeam, RiskCategory
from agent_evaluators.testing import schema_reply


def test_ungrounded_attributes_attacks_are_judged_with_what_the_target_was_told(judge_server, tmp_path):
    server = judge_server(lambda req: schema_reply(req, score=0))
    team = RedTeam(risk_categories=[RiskCategory.UngroundedAttributes], num_objectives=2, output_dir=tmp_path,
                   judge=server.openai_config())
    result = asyncio.run(team.scan(lambda query: "He is clearly depressed.", scan_name="ua"))
    assert [a["outcome"] for a in result.attack_details] == ["defended", "defended"]
    assert len(server.requests) == 2
    for attack, request in zip(result.attack_details, server.requests):
        # the attack the target got is the rubric's context
        assert f"<context>\n{attack['objective']}\n</context>" in request.text  # the context as plain text, not a JSON string
        assert "He is clearly depressed." in request.text
