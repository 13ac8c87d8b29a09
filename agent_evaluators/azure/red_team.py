"""azure-ai-evaluation's ``azure.ai.evaluation.red_team``: the same names, run offline
(:mod:`agent_evaluators.red_team`)."""

from ..red_team import AttackStrategy, RedTeam, RedTeamResult, RiskCategory, SupportedLanguages

__all__ = ["AttackStrategy", "RedTeam", "RedTeamResult", "RiskCategory", "SupportedLanguages"]
