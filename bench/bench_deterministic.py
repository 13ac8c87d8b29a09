"""Benchmark: our ROUGE-1 (``response_match_score``) against rouge-score's own scorer, same texts.

    python bench/bench_deterministic.py            # 2,000 rows of ~150-word answer/reference pairs
    python bench/bench_deterministic.py --rows 500
    python bench/bench_deterministic.py --check    # exit 1 when the 10x target is missed or a score differs
    python bench/bench_deterministic.py --record docs/evidence/records   # also write the figures for the docs

Reference: ``rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score(reference, answer)``,
what google-adk computes. Ours is timed twice: ``rouge1()`` (the metric) and the whole
``ResponseMatchEvaluator()(response=..., ground_truth=...)`` call (input checks and the
result dict included). The target is on the whole evaluator call: >= 10x faster per row.

Texts are English: words drawn with a Zipf-like law from the repository's README and the
shipped ``prompty/`` templates (a real vocabulary with inflections, so the Porter stemmer
does real work), with punctuation, digits and capitals. Our memo of word stems starts
empty; the first pass over the rows (cold) is reported separately from the steady state.
Every row's F-measure, precision and recall must be bit-identical to the reference.

Also printed (no target): ``Prompty.render`` µs/call and ``load_prompty`` ms/call for the
shipped ``intent_resolution`` template (templates compile once per distinct text).
"""

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from common import Recorder, add_record_argument, figure  # noqa: E402
from texts import text_pairs, vocabulary  # noqa: E402

TARGET = 10.0
WORDS_PER_TEXT = 150


def texts(rows: int, seed: int = 7) -> List[Tuple[str, str]]:
    return text_pairs(rows, WORDS_PER_TEXT, seed, fresh_replacements=True)


def per_row_ms(fn: Callable[[str, str], object], pairs: List[Tuple[str, str]]) -> float:
    start = time.perf_counter()
    for answer, reference in pairs:
        fn(answer, reference)
    return (time.perf_counter() - start) * 1000 / len(pairs)


def template_figures() -> Tuple[float, float]:
    """µs per ``render`` call and ms per repeated ``load_prompty`` of a shipped template."""
    import timeit

    from agent_evaluators.templates import find_template, load_prompty

    path = find_template("intent_resolution")
    template = load_prompty(path)
    query = "What is the weather in Paris? " * 5
    response = [{"role": "assistant", "content": "It is sunny in Paris today. " * 10}]
    template.render(query=query, response=response)
    render_us = min(timeit.repeat(lambda: template.render(query=query, response=response), number=2000, repeat=5))
    load_ms = min(timeit.repeat(lambda: load_prompty(path), number=50, repeat=3))
    return render_us / 2000 * 1e6, load_ms / 50 * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed or a score differs")
    add_record_argument(parser)
    args = parser.parse_args()

    sys.path.insert(0, str(REPO))
    from rouge_score import rouge_scorer

    from agent_evaluators.evaluators.response_match import ResponseMatchEvaluator, rouge1

    pairs = texts(args.rows)
    reference = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    evaluator = ResponseMatchEvaluator()

    def theirs(answer: str, ref: str) -> object:
        return reference.score(ref, answer)["rouge1"]

    def ours_evaluator(answer: str, ref: str) -> object:
        return evaluator(response=answer, ground_truth=ref)

    cold_ms = per_row_ms(rouge1, pairs)  # first sight of every word: stems computed, then memoized
    ours_ms = min(per_row_ms(rouge1, pairs) for _ in range(3))
    ours_eval_ms = min(per_row_ms(ours_evaluator, pairs) for _ in range(3))
    theirs_ms = min(per_row_ms(theirs, pairs) for _ in range(2))

    mismatches = 0
    for answer, ref in pairs:
        want = reference.score(ref, answer)["rouge1"]
        got = rouge1(answer, ref)
        score = dict(evaluator(response=answer, ground_truth=ref))["response_match_score"]
        if (got["precision"], got["recall"], got["fmeasure"], score) != (
            want.precision,
            want.recall,
            want.fmeasure,
            want.fmeasure,
        ):
            mismatches += 1

    ratio = theirs_ms / ours_eval_ms
    print(f"rows: {len(pairs)} pairs of {WORDS_PER_TEXT}-word texts (vocabulary {len(vocabulary())} words)")
    print(f"rouge-score RougeScorer(['rouge1'], use_stemmer=True).score: {theirs_ms:.3f} ms/row")
    print(f"ours rouge1(), first pass (empty stem memo):                 {cold_ms:.3f} ms/row")
    print(f"ours rouge1(), steady state:                                  {ours_ms:.3f} ms/row")
    print(f"ours ResponseMatchEvaluator() call, steady state:             {ours_eval_ms:.3f} ms/row")
    print(
        f"speed-up (evaluator call vs rouge-score): {ratio:.1f}x (target >= {TARGET:.0f}x) "
        f"{'OK' if ratio >= TARGET else 'MISSED'}"
    )
    print(
        f"scores identical (precision, recall, F, exact float ==): {len(pairs) - mismatches}/{len(pairs)} "
        f"{'OK' if not mismatches else 'MISMATCH'}"
    )
    render_us, load_ms = template_figures()
    print(f"template intent_resolution: render {render_us:.1f} us/call, load_prompty again {load_ms:.3f} ms/call")
    from importlib.metadata import version

    rec = Recorder("bench_deterministic", args.record)
    rec.table("rouge", f"ROUGE-1: {len(pairs):,} pairs of {WORDS_PER_TEXT}-word texts, rouge-score "
              f"{version('rouge-score')} against ours", ["figure", "value", "target"])
    rec.row("rouge", "rouge-score `RougeScorer([\"rouge1\"], use_stemmer=True).score`", f"{theirs_ms:.3f} ms/row", "")
    rec.row("rouge", "ours `rouge1()`, first pass (empty stem memo)", f"{cold_ms:.3f} ms/row", "")
    rec.row("rouge", "ours `rouge1()`, steady state", f"{ours_ms:.3f} ms/row", "")
    rec.row("rouge", "ours `ResponseMatchEvaluator()` call, steady state", f"{ours_eval_ms:.3f} ms/row", "")
    rec.row("rouge", "speed-up of the evaluator call", f"{figure(ratio)}×", f"≥ {TARGET:.0f}×")
    rec.row("rouge", "scores identical (precision, recall, F; exact float equality)",
            f"{len(pairs) - mismatches:,} of {len(pairs):,}", "all")
    rec.row("rouge", "template `intent_resolution`: render / load again",
            f"{render_us:.1f} µs / {load_ms:.3f} ms per call", "")
    rec.write()
    if args.check and (ratio < TARGET or mismatches):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
