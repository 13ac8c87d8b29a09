"""azure-ai-evaluation's ``azure.ai.evaluation.red_team``: the same names, run offline
(:mod:`agent_evaluators.red_team`).

A package rather than a module so it is a public face (``tests/test_public_surface.py``)."""

from ...red_team import AttackStrategy, RedTeam, RedTeamResult, RiskCategory, SupportedLanguages

__all__ = ["AttackStrategy", "RedTeam", "RedTeamResult", "RiskCategory", "SupportedLanguages"]
