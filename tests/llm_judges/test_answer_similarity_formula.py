"""Mastra's answer-similarity formula, on hand-built analyses (no judge).

Every expected number is worked out by hand in the comment next to it, from the
formula in ``reference/trajectory_mastra.md`` §3.2 (``@mastra/evals`` 1.10.2):

    raw   = Σ exact: 1 + bonus | semantic: st | partial: st × 0.5 | missing: −mp
    score = raw / (n × (1 + bonus)) − contradictions × cp − min(extra × ep, 0.2)
    round2(clamp(score, 0, 1) × scale)      (round2 = JS Math.round((x + EPSILON) × 100) / 100)

Defaults: st 0.8, bonus 0.2, mp 0.15, cp 1.0, ep 0.05, scale 1. The cases marked
"Mastra golden" are the ones the reference lists as results of running the real
scorer (mocked judge); the hand computation agrees with each.

``test_matches_real_mastra`` also checks every case against
``tests/reference/mastra_answer_similarity.json``, produced by running the real
``@mastra/evals`` 1.10.2 scorer with a mock judge model that returns each analysis
(``node tests/reference/gen_mastra_answer_similarity.mjs``; see its header).
"""

import json
import re
from pathlib import Path

import pytest

from agent_evaluators.evaluators.answer_similarity import AnswerSimilarityOptions, SimilarityAnalysis, answer_similarity_score


def analysis(*kinds, extra=0, contradictions=0):
    """Our snake_case analysis with the given match types."""
    return {
        "matches": [{"ground_truth_unit": f"g{i}", "output_unit": None if k == "missing" else f"o{i}",
                     "match_type": k, "explanation": ""} for i, k in enumerate(kinds)],
        "extra_in_output": [f"x{i}" for i in range(extra)],
        "contradictions": [{"output_unit": "o", "ground_truth_unit": "g", "explanation": ""}] * contradictions,
    }


CASES = [
    # (analysis, options, expected, how)
    (analysis("exact"), {}, 1.0, "1.2 / (1 × 1.2) = 1 (Mastra golden)"),
    (analysis("semantic", "semantic"), {}, 0.67, "1.6 / 2.4 = 0.6667 → 0.67 (Mastra golden)"),
    (analysis("exact", "semantic", "partial", "missing"), {}, 0.47,
     "(1.2 + 0.8 + 0.4 − 0.15) / 4.8 = 2.25 / 4.8 = 0.46875 → 0.47 (Mastra golden)"),
    (analysis("exact", "missing", contradictions=1), {}, 0.0,
     "(1.2 − 0.15) / 2.4 = 0.4375; − 1 × 1.0 = −0.5625 → clamped 0 (Mastra golden)"),
    (analysis("exact", "exact", "exact", extra=5), {}, 0.8,
     "3.6 / 3.6 = 1; extra 5 × 0.05 = 0.25 capped at 0.2 → 0.8 (Mastra golden: the cap)"),
    (analysis("exact", "exact", extra=1), {}, 0.95, "1 − 1 × 0.05 = 0.95 (Mastra golden)"),
    (analysis("missing", "missing"), {}, 0.0, "−0.3 / 2.4 = −0.125 → clamped 0 (Mastra golden)"),
    (analysis(), {}, 0.0, "no matches → 0 (Mastra golden)"),
    (analysis("partial"), {}, 0.33, "0.4 / 1.2 = 0.3333 → 0.33 (Mastra golden)"),
    (analysis("exact", "semantic", contradictions=1), {"contradiction_penalty": 0.3, "scale": 10}, 5.33,
     "(1.2 + 0.8) / 2.4 = 0.8333; − 0.3 = 0.5333; × 10 = 5.333 → 5.33 (Mastra golden)"),
    (analysis("semantic", "semantic"), {"semantic_threshold": 0.9, "exact_match_bonus": 0}, 0.9,
     "1.8 / (2 × 1) = 0.9 (Mastra golden)"),
    (analysis("exact", "missing"), {"missing_penalty": 0}, 0.5, "1.2 / 2.4 = 0.5 (Mastra golden)"),
    # Beyond the golden list:
    (analysis("exact", "exact", contradictions=1), {"contradiction_penalty": 0.25}, 0.75,
     "2.4 / 2.4 = 1; − 1 × 0.25 = 0.75: one contradiction with a custom penalty"),
    (analysis("exact", "exact", contradictions=2), {"contradiction_penalty": 0.25}, 0.5,
     "1 − 2 × 0.25 = 0.5: the penalty is per contradiction"),
    (analysis("exact", extra=10), {"extra_info_penalty": 0.5}, 0.8,
     "1 − min(10 × 0.5, 0.2) = 0.8: the cap is a fixed 0.2 whatever the per-unit penalty"),
    (analysis("exact", extra=10), {"extra_info_penalty": 0.5, "scale": 5}, 4.0,
     "(1 − 0.2) × 5 = 4.0: the cap is applied before scaling, and is not scaled"),
    (analysis("exact", extra=3), {"extra_info_penalty": 0.01}, 0.97, "1 − 3 × 0.01 = 0.97: below the cap"),
    (analysis("exact", "missing"), {"scale": 100}, 43.75,
     "(1.2 − 0.15) / 2.4 = 0.4375; × 100 = 43.75"),
    (analysis("exact", "exact"), {"scale": 3}, 3.0, "1 × 3 = 3: clamping to 1 happens before scaling"),
    (analysis("partial"), {"semantic_threshold": 0.25, "exact_match_bonus": 0}, 0.13,
     "0.125 / 1 = 0.125 → 0.13: halves round up as JS Math.round does (Python round would give 0.12)"),
    (analysis("semantic", "partial", "missing"), {}, 0.29,
     "(0.8 + 0.4 − 0.15) / 3.6 = 1.05 / 3.6 = 0.29167 → 0.29"),
]


@pytest.mark.parametrize("data, options, expected, how", CASES, ids=[c[3][:40] for c in CASES])
def test_formula(data, options, expected, how):
    assert answer_similarity_score(data, options) == pytest.approx(expected, abs=1e-12), how


MASTRA_GOLDEN = Path(__file__).resolve().parent.parent / "reference" / "mastra_answer_similarity.json"


def _snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.mark.parametrize("entry", json.loads(MASTRA_GOLDEN.read_text())["entries"], ids=lambda e: e["name"])
def test_matches_real_mastra(entry):
    options = {_snake(k): v for k, v in entry["options"].items()}
    assert answer_similarity_score(entry["analysis"], options) == pytest.approx(entry["score"], abs=1e-12)


def _shape(data, options):
    kinds = tuple(m.get("match_type", m.get("matchType")) for m in data["matches"])
    extra = len(data.get("extra_in_output", data.get("extraInOutput", [])))
    return kinds, extra, len(data["contradictions"]), tuple(sorted(options.items()))


def test_every_hand_computed_case_agrees_with_real_mastra():
    golden = {}
    for e in json.loads(MASTRA_GOLDEN.read_text())["entries"]:
        golden[_shape(e["analysis"], {_snake(k): v for k, v in e["options"].items()})] = e["score"]
    for data, options, expected, how in CASES:
        key = _shape(data, options)
        assert key in golden, f"no Mastra run for {how}; add the case to gen_mastra_answer_similarity.mjs"
        assert golden[key] == pytest.approx(expected, abs=1e-12), how


def test_accepts_mastra_camel_case_and_models():
    mastra = {
        "matches": [
            {"groundTruthUnit": "Paris is the capital", "outputUnit": "Paris is the capital", "matchType": "exact",
             "explanation": ""},
            {"groundTruthUnit": "of France", "outputUnit": None, "matchType": "missing", "explanation": ""},
        ],
        "extraInOutput": ["It has the Eiffel Tower"],
        "contradictions": [],
    }
    # (1.2 − 0.15) / 2.4 = 0.4375; − 0.05 = 0.3875 → 0.39
    assert answer_similarity_score(mastra) == 0.39
    model = SimilarityAnalysis(**analysis("exact", "missing", extra=1))
    assert answer_similarity_score(model) == 0.39
    assert answer_similarity_score(model, AnswerSimilarityOptions(scale=2)) == 0.78  # 0.3875 × 2 = 0.775 → 0.78


def test_unknown_match_type_is_rejected():
    with pytest.raises(ValueError, match="unknown match type 'contradiction'"):
        answer_similarity_score({"matches": [{"match_type": "contradiction"}], "extra_in_output": [], "contradictions": []})


def test_defaults_are_mastras():
    o = AnswerSimilarityOptions()
    assert (o.require_ground_truth, o.semantic_threshold, o.exact_match_bonus, o.missing_penalty,
            o.contradiction_penalty, o.extra_info_penalty, o.scale) == (True, 0.8, 0.2, 0.15, 1.0, 0.05, 1)
