"""Our converters against PyRIT 0.11.0 itself, on strings drawn fresh each run (heavy: needs PyRIT installed).

The committed table (``test_converters_match_pyrit.py``) fixes 1,600 inputs; this draws new ones with a random
seed (printed on failure: rerun with ``AGENT_EVAL_CONVERTER_SEED=<seed>``) and asks PyRIT directly. PyRIT is not a
dependency of this package; run it in an environment that has both::

    python3 -m venv /tmp/pyrit-venv
    /tmp/pyrit-venv/bin/pip install pyrit==0.11.0 aiohttp
    /tmp/pyrit-venv/bin/pip install -e '.[dev,redteam]'
    /tmp/pyrit-venv/bin/python -m pytest -m heavy tests/red_team/test_converters_live_pyrit.py
"""

import os
import random

import pytest

pytestmark = pytest.mark.heavy

try:
    import pyrit

    from tests.reference import make_pyrit_converter_table as ref
except ImportError:
    pytest.skip(
        "needs PyRIT 0.11.0 beside this package: /tmp/pyrit-venv/bin/pip install pyrit==0.11.0 aiohttp, then "
        "pip install -e '.[dev,redteam]' into the same venv (see this file's docstring)",
        allow_module_level=True,
    )

from agent_evaluators.red_team.converters import convert, perturbations  # noqa: E402

SEED = int(os.environ.get("AGENT_EVAL_CONVERTER_SEED") or random.SystemRandom().randrange(2**32))
COUNT = 400


def pyrit_outcome(converter, text: str) -> str:
    try:
        return ref.convert(converter, text)
    except Exception as exc:
        return "!" + type(exc).__name__


def our_outcome(strategy: str, text: str, seed: int = 0) -> str:
    try:
        return convert(strategy, text, seed=seed)
    except ValueError:
        return "!ValueError"


def test_it_is_pyrit_0_11_0():
    assert pyrit.__version__ == "0.11.0"


@pytest.mark.parametrize("strategy", sorted(ref.DETERMINISTIC))
def test_deterministic_converter_equals_pyrit_on_fresh_strings(strategy):
    converter = ref.DETERMINISTIC[strategy]
    bad = []
    for text in ref.inputs(SEED, COUNT):
        theirs = pyrit_outcome(converter, text)
        if strategy == "morse" and theirs == "!KeyError" and "Æ" in text.upper():
            theirs = pyrit_outcome(converter, text.replace("æ", "ä").replace("Æ", "Ä"))  # the code PyRIT meant
        ours = our_outcome(strategy, text)
        if ours != theirs:
            bad.append(f"{text[:60]!r}: PyRIT {theirs[:80]!r}, ours {ours[:80]!r}")
    assert not bad, f"seed {SEED}: {len(bad)} of {COUNT} differ:\n" + "\n".join(bad[:5])


@pytest.mark.parametrize("strategy", sorted(ref.SEEDED))
def test_seeded_converter_equals_pyrit_after_random_seed_on_fresh_strings(strategy):
    converter = ref.SEEDED[strategy]
    bad = []
    for i, text in enumerate(ref.inputs(SEED, COUNT)):
        random.seed(SEED + i)
        theirs = pyrit_outcome(converter, text)
        ours = our_outcome(strategy, text, seed=SEED + i)
        if ours != theirs:
            bad.append(f"{text[:60]!r}: PyRIT {theirs[:80]!r}, ours {ours[:80]!r}")
    assert not bad, f"seed {SEED}: {len(bad)} of {COUNT} differ:\n" + "\n".join(bad[:5])


def test_ascii_art_in_a_random_font_equals_pyrit_on_fresh_strings():
    rng = random.Random(SEED)
    fonts = perturbations.ascii_art_fonts()
    bad = []
    for text in ref.inputs(SEED, COUNT):
        font = rng.choice(fonts)
        theirs = pyrit_outcome(ref.AsciiArtConverter(font=font), text)
        ours = perturbations.render_ascii_art(text, font)
        if ours != theirs:
            bad.append(f"{text[:60]!r} in {font}")
    assert not bad, f"seed {SEED}: {len(bad)} of {COUNT} differ:\n" + "\n".join(bad[:5])


def test_shipped_confusables_equal_pyrits_for_every_code_point():
    assert perturbations.confusable_table() == ref.confusable_table()
