"""Red teaming on any judge: azure-ai-evaluation 1.18.10's ``RedTeam`` offline, with attacks judged on
the whole trajectory (what the agent did with its tools, not only what it said).

::

    from agent_evaluators.red_team import AttackStrategy, RedTeam, RiskCategory

    team = RedTeam(risk_categories=[RiskCategory.Violence, RiskCategory.SensitiveDataLeakage], num_objectives=5,
                   judge={"model": "gpt-4o-mini", "base_url": "...", "api_key": "..."})
    result = await team.scan(my_agent, scan_name="v1", attack_strategies=[AttackStrategy.EASY, AttackStrategy.Jailbreak])
    result.to_scorecard()["risk_category_summary"][0]["overall_asr"]   # with _asr_interval and _asr_n

The run folder and ``red_team.json`` are described in :mod:`.result`. Names load lazily.
"""

from .._util.lazy import lazy_exports

_LAZY = {
    "AttackStrategy": "strategies", "RiskCategory": "strategies", "SupportedLanguages": "strategies",
    "RedTeam": "scan", "RedTeamResult": "result", "AttackSuccess": "scoring", "Objective": "objectives",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
