"""Our red-team names against azure-ai-evaluation 1.18.10's own ``azure.ai.evaluation.red_team`` (heavy: needs
azure's ``[redteam]`` extra, which pins PyRIT 0.11.0; our package never imports either at run time).

What this proves, live, with azure's code doing the work on its side:

* the enums: every ``AttackStrategy``, ``RiskCategory`` and ``SupportedLanguages`` member, name for name and value
  for value;
* the strategy groups and names: azure's ``get_flattened_attack_strategies`` and ``get_strategy_name`` against our
  ``expand`` and ``technique_name``, and its ``ATTACK_STRATEGY_COMPLEXITY_MAP`` against our ``complexity``;
* the converters *as azure configures them*: for each strategy, the PyRIT converter object azure's own
  ``strategy_converter_map()`` builds (Caesar's offset, SuffixAppend's suffix, ...) converts fresh strings exactly
  as our ``convert`` does (the seeded ones after ``random.seed(seed)``, ours with ``seed=seed``).

One difference is deliberate, and marked ``DIFFERENCE`` below: azure lists Baseline last, we run it first (the
paired strategies are read against it; the set of attacks is the same). Run it as CI does::

    python3 -m venv /tmp/pyrit-venv
    /tmp/pyrit-venv/bin/pip install pyrit==0.11.0 aiohttp azure-ai-evaluation==1.18.10
    /tmp/pyrit-venv/bin/pip install -e '.[dev,redteam]'
    /tmp/pyrit-venv/bin/python -m pytest -m heavy tests/red_team/test_azure_red_team_live.py
"""

import random

import pytest

from tests.conftest import optional_import

pytestmark = pytest.mark.heavy

optional_import("azure.ai.evaluation")  # the [azure] extra; its red_team module also needs PyRIT, which we never install
try:
    import pyrit  # noqa: F401
except ImportError:
    pytest.skip("needs azure-ai-evaluation 1.18.10 with its [redteam] extra (PyRIT 0.11.0) beside this package: "
                "see this file's docstring", allow_module_level=True)

from azure.ai.evaluation._version import VERSION  # noqa: E402
from azure.ai.evaluation.red_team import AttackStrategy as AzStrategy  # noqa: E402
from azure.ai.evaluation.red_team import RiskCategory as AzRisk  # noqa: E402
from azure.ai.evaluation.red_team import SupportedLanguages as AzLanguages  # noqa: E402
from azure.ai.evaluation.red_team._utils.constants import ATTACK_STRATEGY_COMPLEXITY_MAP  # noqa: E402
from azure.ai.evaluation.red_team._utils.formatting_utils import (  # noqa: E402
    get_flattened_attack_strategies,
    get_strategy_name,
)
from azure.ai.evaluation.red_team._utils.strategy_utils import strategy_converter_map  # noqa: E402

from agent_evaluators.red_team import AttackStrategy, RiskCategory, SupportedLanguages  # noqa: E402
from agent_evaluators.red_team.converters import CONVERTER_STRATEGIES, convert  # noqa: E402
from agent_evaluators.red_team.strategies import complexity, expand, technique_name  # noqa: E402
from tests.reference import make_pyrit_converter_table as ref  # noqa: E402

#: converters whose output depends on Python's ``random`` (PyRIT draws from it; ours from ``seed``)
SEEDED = {"char_swap", "unicode_confusable", "ansi_attack"}
#: AsciiArt draws its font from a set whose order changes with each process's string hashing: its equality
#: with PyRIT, font by font, is test_converters_live_pyrit.py's
NOT_REPLAYABLE = {"ascii_art"}


def test_it_is_azure_1_18_10():
    assert VERSION == "1.18.10"


@pytest.mark.parametrize("ours, theirs", [(AttackStrategy, AzStrategy), (RiskCategory, AzRisk),
                                          (SupportedLanguages, AzLanguages)])
def test_every_enum_member_has_azures_name_and_value(ours, theirs):
    assert [(m.name, m.value) for m in ours] == [(m.name, m.value) for m in theirs]


def _az(strategy):
    return [getattr(AzStrategy, s.name) for s in strategy] if isinstance(strategy, (list, tuple)) \
        else getattr(AzStrategy, strategy.name)


@pytest.mark.parametrize("chosen", [
    [AttackStrategy.EASY], [AttackStrategy.MODERATE], [AttackStrategy.DIFFICULT],
    [AttackStrategy.EASY, AttackStrategy.MODERATE, AttackStrategy.DIFFICULT],
    [AttackStrategy.Base64, AttackStrategy.EASY, AttackStrategy.Jailbreak],
    [AttackStrategy.Compose([AttackStrategy.ROT13, AttackStrategy.Base64]), AttackStrategy.Url,
     AttackStrategy.Compose([AttackStrategy.ROT13, AttackStrategy.Base64])],
    [AttackStrategy.MultiTurn, AttackStrategy.Crescendo, AttackStrategy.IndirectJailbreak, AttackStrategy.Baseline],
])
def test_groups_expand_to_azures_attacks_under_azures_names(chosen):
    theirs = [get_strategy_name(s) for s in get_flattened_attack_strategies([_az(c) for c in chosen])]
    ours = [technique_name(t) for t in expand(chosen)]
    # DIFFERENCE: the same attacks; Baseline first here (azure appends it last), so the paired rates read against it
    assert sorted(ours) == sorted(theirs) and len(ours) == len(set(ours))
    assert ours[0] == "baseline" and theirs[-1] == "baseline"


GROUPS = (AttackStrategy.EASY, AttackStrategy.MODERATE, AttackStrategy.DIFFICULT)  # not attacks: their members are


@pytest.mark.parametrize("strategy", [s for s in AttackStrategy if s not in GROUPS])
def test_each_strategy_has_azures_complexity(strategy):
    assert complexity((strategy,)) == ATTACK_STRATEGY_COMPLEXITY_MAP[strategy.value]


#: strategy value -> the PyRIT converter object azure builds for it (Tense's is a factory of a model-driven one)
AZURE_CONVERTERS = {s.value: c for s, c in strategy_converter_map().items() if hasattr(c, "convert_async")}


def test_the_text_converters_azure_configures_are_ours():
    assert set(AZURE_CONVERTERS) == CONVERTER_STRATEGIES


@pytest.mark.parametrize("strategy", sorted(set(AZURE_CONVERTERS) - NOT_REPLAYABLE))
def test_our_converter_equals_the_one_azure_builds_for_the_strategy(strategy):
    converter = AZURE_CONVERTERS[strategy]
    seed = random.SystemRandom().randrange(2**32)
    bad = []
    for i, text in enumerate(ref.inputs(seed, 300)):
        if strategy in SEEDED:
            random.seed(seed + i)
        try:
            theirs = ref.convert(converter, text)
        except Exception as exc:  # azure's converter refused the text: ours must refuse it too
            theirs = "!" + type(exc).__name__
        try:
            ours = convert(strategy, text, seed=seed + i)
        except ValueError:
            ours = "!ValueError"
        if theirs.startswith("!") and ours == "!ValueError":
            continue
        if strategy == "morse" and theirs == "!KeyError" and ("æ" in text or "Æ" in text):
            continue  # DIFFERENCE (test_converters_live_pyrit.py): PyRIT's table misspells Æ's key; we write its code
        if ours != theirs:
            bad.append((text[:40], ours[:60], theirs[:60]))
    assert not bad, f"seed {seed}: {len(bad)} of 300 differ, e.g. {bad[:3]}"
