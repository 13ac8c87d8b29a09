"""azure-ai-evaluation 1.18.10's enums and strategy expansion, by name and value.

The tables below were read from the 1.18.10 wheel
(``pip download --no-deps azure-ai-evaluation==1.18.10``; ``azure/ai/evaluation/red_team/_attack_strategy.py``,
``_attack_objective_generator.py``, ``_utils/constants.py``, ``_utils/formatting_utils.py``)."""

import pytest

from agent_evaluators.azure import red_team as azure_red_team
from agent_evaluators.errors import ConfigError
from agent_evaluators.red_team import AttackStrategy, RiskCategory, SupportedLanguages
from agent_evaluators.red_team.strategies import complexity, expand, technique_name

AZURE_STRATEGIES = {
    "EASY": "easy", "MODERATE": "moderate", "DIFFICULT": "difficult", "AnsiAttack": "ansi_attack",
    "AsciiArt": "ascii_art", "AsciiSmuggler": "ascii_smuggler", "Atbash": "atbash", "Base64": "base64",
    "Binary": "binary", "Caesar": "caesar", "CharacterSpace": "character_space", "CharSwap": "char_swap",
    "Diacritic": "diacritic", "Flip": "flip", "Leetspeak": "leetspeak", "Morse": "morse", "ROT13": "rot13",
    "SuffixAppend": "suffix_append", "StringJoin": "string_join", "Tense": "tense",
    "UnicodeConfusable": "unicode_confusable", "UnicodeSubstitution": "unicode_substitution", "Url": "url",
    "Baseline": "baseline", "Jailbreak": "jailbreak", "MultiTurn": "multi_turn", "Crescendo": "crescendo",
    "IndirectJailbreak": "indirect_jailbreak",
}
AZURE_RISKS = {"HateUnfairness": "hate_unfairness", "Violence": "violence", "Sexual": "sexual",
               "SelfHarm": "self_harm", "ProtectedMaterial": "protected_material",
               "CodeVulnerability": "code_vulnerability", "UngroundedAttributes": "ungrounded_attributes",
               "SensitiveDataLeakage": "sensitive_data_leakage", "TaskAdherence": "task_adherence",
               "ProhibitedActions": "prohibited_actions"}
AZURE_LANGUAGES = {"Spanish": "es", "Italian": "it", "French": "fr", "German": "de", "SimplifiedChinese": "zh-cn",
                   "Portuguese": "pt", "Japanese": "ja", "English": "en", "Korean": "ko"}


def test_the_enums_are_azures_member_for_member():
    assert {s.name: s.value for s in AttackStrategy} == AZURE_STRATEGIES and len(AttackStrategy) == 28
    assert {r.name: r.value for r in RiskCategory} == AZURE_RISKS and RiskCategory("violence") == "violence"
    assert {lang.name: lang.value for lang in SupportedLanguages} == AZURE_LANGUAGES
    assert azure_red_team.AttackStrategy is AttackStrategy and azure_red_team.RiskCategory is RiskCategory


def test_compose_takes_at_most_two_strategies():
    assert AttackStrategy.Compose([AttackStrategy.Base64, AttackStrategy.ROT13]) == [AttackStrategy.Base64,
                                                                                     AttackStrategy.ROT13]
    with pytest.raises(ValueError, match="at most 2"):
        AttackStrategy.Compose([AttackStrategy.Base64, AttackStrategy.ROT13, AttackStrategy.Flip])
    with pytest.raises(ValueError, match="instances of AttackStrategy"):
        AttackStrategy.Compose(["base64"])


def test_groups_expand_as_azures_and_baseline_always_runs_first():
    got = [(technique_name(t), complexity(t)) for t in
           expand([AttackStrategy.EASY, AttackStrategy.MODERATE, AttackStrategy.DIFFICULT, AttackStrategy.Base64,
                   AttackStrategy.Jailbreak, AttackStrategy.MultiTurn, "rot13"])]
    assert got == [("baseline", "baseline"), ("base64", "easy"), ("flip", "easy"), ("morse", "easy"),
                   ("tense", "moderate"), ("tense_base64", "difficult"), ("jailbreak", "easy"),
                   ("multi_turn", "difficult"), ("rot13", "easy")]
    assert complexity([AttackStrategy.IndirectJailbreak]) == "easy"  # azure's map says so
    assert complexity([AttackStrategy.Base64, AttackStrategy.ROT13]) == "difficult"  # azure's default for a pair


def test_an_unknown_strategy_is_a_config_error_naming_the_choices():
    with pytest.raises(ConfigError, match="unknown strategy 'base65'.*base64") as err:
        expand(["base65"])
    assert err.value.option == "attack_strategies"
