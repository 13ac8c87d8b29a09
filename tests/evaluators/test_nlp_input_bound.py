"""The NLP metrics' memory is bounded by their input: the C count sizes its tables by the tokens a
text has, not by its bytes (one 200 MB token needed 4.3 GB), and a text over ``max_input_chars``
is refused before anything is counted, as the judge metrics refuse an oversized prompt."""

import json
import random
import subprocess
import sys

import pytest

from agent_evaluators import F1ScoreEvaluator, InputError, RougeScoreEvaluator
from agent_evaluators.evaluators.nlp import grams
from tests.conftest import REPO_ROOT

try:
    from agent_evaluators.evaluators.nlp._overlap import shared_grams as compiled
except ImportError:  # built without a compiler, or a source tree not built in place
    compiled = None

DEFAULT_MAX_INPUT_CHARS = 400_000  # the judge metrics' default prompt limit, the NLP metrics' too

#: peak memory of one count over a text of ``SIZE`` bytes, in a fresh process: (before, after) in MB
CHILD = """
import json, sys
from tests.peak_memory import peak_mb
from agent_evaluators.evaluators.nlp._overlap import shared_grams
size, shape = int(sys.argv[1]), sys.argv[2]
text = b"x" * size if shape == "one-token" else b"ab " * (size // 3)
before = peak_mb()
for n in (1, 2):
    shared_grams(text, b"x y", n, True)
print(json.dumps({"before": before, "after": peak_mb()}))
"""


def _peak(size: int, shape: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(size), shape], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.heavy
@pytest.mark.skipif(compiled is None, reason="the C extension is not built here (no compiler, or not installed)")
@pytest.mark.parametrize("size_mb", [20, 200])
def test_one_huge_token_costs_no_memory_beyond_the_text(size_mb):
    peak = _peak(size_mb * 1024 * 1024, "one-token")
    assert peak["after"] - peak["before"] < 16, peak  # a handful of tokens: the tables are tiny


@pytest.mark.heavy
@pytest.mark.skipif(compiled is None, reason="the C extension is not built here (no compiler, or not installed)")
def test_many_tokens_cost_memory_in_proportion_to_the_tokens():
    small, large = _peak(3 * 1024 * 1024, "many"), _peak(30 * 1024 * 1024, "many")
    grow_small, grow_large = small["after"] - small["before"], large["after"] - large["before"]
    assert grow_large < 12 * max(grow_small, 8), (small, large)  # linear, with room for page rounding


@pytest.mark.skipif(compiled is None, reason="the C extension is not built here (no compiler, or not installed)")
def test_long_texts_sized_by_their_counted_tokens_give_the_python_numbers():
    rng = random.Random(7)
    words = [b"the", b"a", b"an", b"x", b"yy", b"zzz" * 50, b"\xc3\xa9t\xc3\xa9"]
    for _ in range(3):
        a, b = (b"".join(rng.choice(words) + rng.choice([b" ", b"\t", b"\n  "]) for _ in range(40_000)) for _ in "ab")
        for n in (1, 2, 3):
            for drop in (True, False):
                assert compiled(a, b, n, drop) == grams.shared_grams_python(a, b, n, drop)


def test_a_huge_token_is_counted_right():
    assert grams.shared_grams(b"x" * 5_000_000, b"x" * 5_000_000 + b" y", 1, False) == (1, 1, 2)
    assert grams.shared_grams(b"x" * 5_000_000 + b" y", b"y " + b"x" * 5_000_000, 2, False) == (0, 2, 2)


@pytest.mark.parametrize("make", [F1ScoreEvaluator, RougeScoreEvaluator])
@pytest.mark.parametrize("name", ["response", "ground_truth"])
def test_a_text_over_max_input_chars_is_refused_before_counting(make, name, monkeypatch):
    counted = []
    monkeypatch.setattr(grams, "shared_grams", lambda *a: counted.append(a) or (0, 0, 0))
    evaluator = make()
    inputs = {"response": "short text", "ground_truth": "short text", name: "x " * (DEFAULT_MAX_INPUT_CHARS // 2 + 1)}
    with pytest.raises(InputError, match=f"input '{name}' is 400,002 characters, over the limit of 400,000 "
                                         r"\(max_input_chars\)") as caught:
        evaluator(**inputs)
    assert caught.value.input_name == name and counted == []
    evaluator.max_input_chars = 10 ** 6  # raised for this evaluator: counted
    assert evaluator(**inputs)[evaluator.result_key] is not None
