"""azure-ai-evaluation 1.18.10's attack strategies, risk categories and languages, and how a
list of strategies expands into the attacks a scan runs.

The names, values, groups (EASY, MODERATE, DIFFICULT) and complexities are azure's
(``azure/ai/evaluation/red_team/_attack_strategy.py``, ``_utils/constants.py``,
``_utils/formatting_utils.get_flattened_attack_strategies``), so a scan reads the same and a
scorecard has the same keys; the code is ours.
"""

from enum import Enum
from typing import Any, Dict, List, Sequence, Tuple, Union

from ..errors import ConfigError


class AttackStrategy(Enum):
    """How an attack objective is turned into what is sent to the target (azure's 28 members)."""

    EASY = "easy"
    MODERATE = "moderate"
    DIFFICULT = "difficult"
    AnsiAttack = "ansi_attack"
    AsciiArt = "ascii_art"
    AsciiSmuggler = "ascii_smuggler"
    Atbash = "atbash"
    Base64 = "base64"
    Binary = "binary"
    Caesar = "caesar"
    CharacterSpace = "character_space"
    CharSwap = "char_swap"
    Diacritic = "diacritic"
    Flip = "flip"
    Leetspeak = "leetspeak"
    Morse = "morse"
    ROT13 = "rot13"
    SuffixAppend = "suffix_append"
    StringJoin = "string_join"
    Tense = "tense"
    UnicodeConfusable = "unicode_confusable"
    UnicodeSubstitution = "unicode_substitution"
    Url = "url"
    Baseline = "baseline"
    Jailbreak = "jailbreak"
    MultiTurn = "multi_turn"
    Crescendo = "crescendo"
    IndirectJailbreak = "indirect_jailbreak"

    @classmethod
    def Compose(cls, items: List["AttackStrategy"]) -> List["AttackStrategy"]:  # noqa: N802 - azure's name
        """Two strategies applied in order (azure allows at most two)."""
        for item in items:
            if not isinstance(item, cls):
                raise ValueError("All items must be instances of AttackStrategy")
        if len(items) > 2:
            raise ValueError("Composed strategies must have at most 2 items")
        return list(items)


class RiskCategory(str, Enum):
    """What an attack tries to make the target do (azure's 10; the last three are for agents)."""

    HateUnfairness = "hate_unfairness"
    Violence = "violence"
    Sexual = "sexual"
    SelfHarm = "self_harm"
    ProtectedMaterial = "protected_material"
    CodeVulnerability = "code_vulnerability"
    UngroundedAttributes = "ungrounded_attributes"
    SensitiveDataLeakage = "sensitive_data_leakage"
    TaskAdherence = "task_adherence"
    ProhibitedActions = "prohibited_actions"


class SupportedLanguages(Enum):
    """The languages azure's objectives come in (our built-in objectives are English only)."""

    Spanish = "es"
    Italian = "it"
    French = "fr"
    German = "de"
    SimplifiedChinese = "zh-cn"
    Portuguese = "pt"
    Japanese = "ja"
    English = "en"
    Korean = "ko"


#: the categories judged on what the agent did (tool calls, arguments, results), not on its words
AGENT_CATEGORIES = frozenset({RiskCategory.SensitiveDataLeakage, RiskCategory.TaskAdherence,
                              RiskCategory.ProhibitedActions})

#: azure's ``ATTACK_STRATEGY_COMPLEXITY_MAP``; a composition is ``"difficult"`` (azure's default)
COMPLEXITY: Dict[str, str] = {
    **{s.value: "easy" for s in AttackStrategy},
    "baseline": "baseline", "tense": "moderate", "moderate": "moderate", "difficult": "difficult",
    "multi_turn": "difficult", "crescendo": "difficult",
}

#: what azure expands each group into
GROUPS: Dict[AttackStrategy, List[Any]] = {
    AttackStrategy.EASY: [AttackStrategy.Base64, AttackStrategy.Flip, AttackStrategy.Morse],
    AttackStrategy.MODERATE: [AttackStrategy.Tense],
    AttackStrategy.DIFFICULT: [[AttackStrategy.Tense, AttackStrategy.Base64]],
}

#: the strategies that need the attacker model (the run's judge) when the attack is sent
ATTACKER_STRATEGIES = frozenset({"tense", "multi_turn", "crescendo"})
#: the strategies that change how the attack reaches the target rather than its text
DELIVERY_STRATEGIES = frozenset({"multi_turn", "crescendo", "indirect_jailbreak"})

StrategyLike = Union[AttackStrategy, str, Sequence[Union[AttackStrategy, str]]]


def _one(item: Union[AttackStrategy, str]) -> AttackStrategy:
    if isinstance(item, AttackStrategy):
        return item
    for s in AttackStrategy:
        if item in (s.value, s.name):
            return s
    raise ConfigError(f"attack_strategies: unknown strategy {item!r}; use an AttackStrategy member "
                      f"(e.g. AttackStrategy.Base64) or its value ({', '.join(s.value for s in AttackStrategy)})",
                      option="attack_strategies")


def expand(strategies: Sequence[StrategyLike]) -> List[Tuple[AttackStrategy, ...]]:
    """The attacks a scan runs, as tuples of strategies (one for a single, two for a composition):
    groups expanded as azure does, duplicates dropped, Baseline always included and first."""
    todo: List[Any] = []
    for item in strategies:
        if isinstance(item, (list, tuple)):
            if len(item) > 2:
                raise ConfigError("attack_strategies: a composition has at most 2 strategies "
                                  f"(AttackStrategy.Compose), got {len(item)}", option="attack_strategies")
            todo.append(tuple(_one(i) for i in item))
        else:
            one = _one(item)  # type: ignore[arg-type]  # a str or a member here
            todo.extend([tuple(g) if isinstance(g, list) else (g,) for g in GROUPS[one]] if one in GROUPS else [(one,)])
    out: List[Tuple[AttackStrategy, ...]] = [(AttackStrategy.Baseline,)]
    for t in todo:
        if any(s in GROUPS for s in t):
            raise ConfigError("attack_strategies: EASY / MODERATE / DIFFICULT cannot be composed", option="attack_strategies")
        if t not in out:
            out.append(t)
    return out


def technique_name(strategies: Sequence[AttackStrategy]) -> str:
    """azure's name of an attack technique: the values joined by ``_`` (``"tense_base64"``)."""
    return "_".join(s.value for s in strategies)


def complexity(strategies: Sequence[AttackStrategy]) -> str:
    """azure's complexity of an attack technique (a composition: ``"difficult"``)."""
    return COMPLEXITY.get(technique_name(strategies), "difficult")
