"""ToolTrajectoryEvaluator against openevals 0.2.2 on every case × trajectory mode × args mode.

How the expected values were produced (not at test time; only the JSON is read here):

    python3.11 -m venv /work/refvenvs/openevals
    /work/refvenvs/openevals/bin/pip install openevals==0.2.2 agentevals==0.0.9 langchain-core   # langchain-core 1.7.2
    /work/refvenvs/openevals/bin/python tests/reference/gen_trajectory_openevals.py

which runs ``openevals.trajectory.match.create_trajectory_match_evaluator`` on each case of
``tests/reference/gen_trajectory_openevals.py`` and writes ``tests/reference/trajectory_openevals.json``
(versions in its ``meta``). Callable overrides are resolved by name from
``tests/reference/override_callables.py`` on both sides.

Every entry must equal openevals' verdict, except where openevals' greedy first-fit
search misses an assignment that exists (``GREEDY_FALSE_NEGATIVES``): there we must say
True, openevals says False, and a brute-force search over all assignments, independent
of our code, confirms that an assignment exists.
"""

import itertools
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from agent_evaluators.conversation import to_tool_calls
from agent_evaluators.evaluators.trajectory import ToolTrajectoryEvaluator
from agent_evaluators.trajectory import ArgsPolicy
from tests.reference.override_callables import resolve_overrides

TABLE = json.loads((Path(__file__).resolve().parents[1] / "reference" / "trajectory_openevals.json").read_text("utf-8"))
MODES: List[str] = TABLE["meta"]["modes"]
ARGS_MODES: List[str] = TABLE["meta"]["args_modes"]
CASES: Dict[str, Dict[str, Any]] = {c["name"]: c for c in TABLE["cases"]}

# (case, trajectory mode, args mode) where openevals' first-fit search answers False
# although a valid assignment exists.
GREEDY_FALSE_NEGATIVES = {
    ("greedy_matching", "unordered", "superset"),
    ("greedy_matching", "subset", "superset"),
    ("greedy_matching", "superset", "superset"),
    ("greedy_matching_reverse", "unordered", "subset"),
    ("greedy_matching_reverse", "subset", "subset"),
    ("greedy_matching_reverse", "superset", "subset"),
}

ALL_ENTRIES: List[Tuple[str, str, str]] = [(c, m, a) for c in CASES for m in MODES for a in ARGS_MODES]
ENTRIES = [e for e in ALL_ENTRIES if e not in GREEDY_FALSE_NEGATIVES]


def ours(case: Dict[str, Any], mode: str, args_mode: str) -> bool:
    evaluator = ToolTrajectoryEvaluator(
        match_type=mode, args_match=args_mode, args_match_overrides=resolve_overrides(case["overrides"])
    )
    result = evaluator(response=case["outputs"], ground_truth=case["reference_outputs"])
    assert result["tool_trajectory_avg_score"] in (0.0, 1.0)
    return result["tool_trajectory_avg_score"] == 1.0


def test_table_covers_what_the_brief_asks_for() -> None:
    assert TABLE["meta"]["versions"]["openevals"] == "0.2.2"
    for name in [
        "identical", "reversed_order", "missing_call", "extra_call", "duplicate_call", "parallel_calls_one_message",
        "different_args", "output_args_superset", "output_args_subset", "nested_args", "override_key_paths",
        "override_callable", "empty_outputs", "both_empty", "langchain_role_dicts", "langchain_objects", "greedy_matching",
    ]:
        assert name in CASES
    assert len(ALL_ENTRIES) == len(CASES) * 16
    assert GREEDY_FALSE_NEGATIVES <= set(ALL_ENTRIES)


@pytest.mark.parametrize("case_name, mode, args_mode", ENTRIES)
def test_matches_openevals(case_name: str, mode: str, args_mode: str) -> None:
    case = CASES[case_name]
    theirs = case["openevals"][mode][args_mode]
    assert isinstance(theirs, bool), f"the reference run failed: {theirs}"
    assert ours(case, mode, args_mode) is theirs


def _assignment_exists(out_calls: list, ref_calls: list, args_mode: str, mode: str) -> bool:
    """Brute force over all injective assignments (no code shared with the core)."""
    matcher = ArgsPolicy(args_mode).matcher_for("any")
    ok = lambda o, r: o.name == r.name and matcher(o.arguments or {}, r.arguments or {})  # noqa: E731
    if mode == "superset":  # every reference call gets its own output call
        return any(all(ok(out_calls[p], r) for p, r in zip(perm, ref_calls)) for perm in itertools.permutations(range(len(out_calls)), len(ref_calls)))
    if mode == "subset":  # every output call gets its own reference call
        return any(all(ok(o, ref_calls[p]) for o, p in zip(out_calls, perm)) for perm in itertools.permutations(range(len(ref_calls)), len(out_calls)))
    return len(out_calls) == len(ref_calls) and _assignment_exists(out_calls, ref_calls, args_mode, "superset")


@pytest.mark.parametrize("case_name, mode, args_mode", sorted(GREEDY_FALSE_NEGATIVES))
def test_optimal_where_openevals_is_greedy(case_name: str, mode: str, args_mode: str) -> None:
    case = CASES[case_name]
    assert case["openevals"][mode][args_mode] is False
    out_calls = to_tool_calls(case["outputs"])
    ref_calls = to_tool_calls(case["reference_outputs"])
    assert _assignment_exists(out_calls, ref_calls, args_mode, mode)
    assert ours(case, mode, args_mode) is True


def test_agentevals_differences_are_recorded_but_not_followed() -> None:
    # agentevals 0.0.9 swaps the matcher's arguments in subset/unordered and treats a key
    # path missing on both sides as equal; openevals 0.2.2 fixed both, and we follow it.
    diff = CASES["override_key_path_missing_both_sides"]["agentevals_0_0_9"]
    assert diff["strict"]["exact"] is True
    assert ours(CASES["override_key_path_missing_both_sides"], "strict", "exact") is False
    assert CASES["output_args_subset"]["agentevals_0_0_9"]["subset"]["superset"] is True
    assert ours(CASES["output_args_subset"], "subset", "superset") is False
