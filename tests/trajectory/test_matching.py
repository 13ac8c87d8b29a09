"""The matching core: optimality against brute force, mode rules, argument rules, evidence.

The brute-force oracles below enumerate every assignment / subsequence, so they share
no code with the core they check.
"""

import itertools
from typing import Any, Callable, List, Optional, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_evaluators.conversation.models import Message, ToolCall
from agent_evaluators.errors import ConfigError
from agent_evaluators.trajectory import (
    ArgsMode,
    ArgsPolicy,
    TrajectoryMode,
    match_trajectory,
    maximum_matching,
    parse_args_mode,
    parse_trajectory_mode,
    values_equal,
)


def tc(name: str, **args: Any) -> ToolCall:
    return ToolCall(name=name, arguments=dict(args))


def ai(*calls: ToolCall, content: Optional[str] = None) -> Message:
    return Message(role="assistant", content=content, tool_calls=list(calls))


def user(text: str = "q") -> Message:
    return Message(role="user", content=text)


def tool_msg() -> Message:
    return Message(role="tool", content="ok", tool_call_id="x")


# ---------------------------------------------------------------------------- oracles
def brute_max_matching(adjacency: Sequence[Sequence[int]], n_right: int) -> int:
    """Largest matching by trying every injective assignment of left vertices (tiny graphs only)."""
    best = 0
    lefts = range(len(adjacency))
    for k in range(len(adjacency), 0, -1):
        for chosen in itertools.combinations(lefts, k):
            for rights in itertools.permutations(range(n_right), k):
                if all(r in adjacency[u] for u, r in zip(chosen, rights)):
                    return k
    return best


def brute_in_order(actual: List[ToolCall], expected: List[ToolCall], ok: Callable[[ToolCall, ToolCall], bool]) -> bool:
    """Is there an increasing choice of actual positions matching expected in order?"""
    for positions in itertools.combinations(range(len(actual)), len(expected)):
        if all(ok(actual[p], e) for p, e in zip(positions, expected)):
            return True
    return False


def adk_greedy_in_order(actual: List[ToolCall], expected: List[ToolCall], ok: Callable[[ToolCall, ToolCall], bool]) -> bool:
    """ADK 2.13's IN_ORDER walk, transcribed from reference/adk.md §4.1."""
    if not expected:
        return True
    if not actual:
        return False
    it = iter(expected)
    current = next(it)
    try:
        for a in actual:
            if ok(a, current):
                current = next(it)
    except StopIteration:
        return True
    return False


# ---------------------------------------------------------------------------- maximum matching
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 5).flatmap(lambda n_right: st.tuples(
    st.just(n_right),
    st.lists(st.lists(st.integers(0, max(n_right - 1, 0)), max_size=n_right, unique=True) if n_right else st.just([]), max_size=5),
)))
def test_maximum_matching_is_as_large_as_brute_force(case: Any) -> None:
    n_right, adjacency = case
    found = maximum_matching(adjacency)
    assert len(set(found.values())) == len(found), "a right vertex was used twice"
    assert all(r in adjacency[u] for u, r in found.items()), "a pair is not an edge"
    assert len(found) == brute_max_matching(adjacency, n_right)


def test_maximum_matching_long_chain_needs_no_recursion() -> None:
    # left u may take u or u+1; first-fit assigns u -> u, and the last left vertex, which
    # may only take 0, then needs an augmenting path through every earlier vertex.
    n = 3000
    adjacency = [[u, u + 1] for u in range(n - 1)] + [[0]]
    assert len(maximum_matching(adjacency)) == n


# ---------------------------------------------------------------------------- order-free modes are optimal
NAMES = st.sampled_from(["f", "g"])
ARGS = st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 1), max_size=2)
CALLS = st.lists(st.builds(lambda n, a: ToolCall(name=n, arguments=a), NAMES, ARGS), max_size=4)


@settings(max_examples=300, deadline=None)
@given(CALLS, CALLS, st.sampled_from(list(ArgsMode)))
def test_order_free_modes_agree_with_brute_force(actual: List[ToolCall], expected: List[ToolCall], args_mode: ArgsMode) -> None:
    policy = ArgsPolicy(args_mode)
    ok = lambda a, e: a.name == e.name and policy.matcher_for(e.name)(a.arguments, e.arguments)  # noqa: E731
    adjacency = [[i for i, a in enumerate(actual) if ok(a, e)] for e in expected]
    m = brute_max_matching(adjacency, len(actual))
    assert match_trajectory(actual, expected, mode="superset", args=policy).passed == (m == len(expected))
    assert match_trajectory(actual, expected, mode="any_order", args=policy).passed == (m == len(expected))
    assert match_trajectory(actual, expected, mode="subset", args=policy).passed == (m == len(actual))
    assert match_trajectory(actual, expected, mode="unordered", args=policy).passed == (m == len(actual) == len(expected))
    assert len(match_trajectory(actual, expected, mode="unordered", args=policy).pairs) == m


@settings(max_examples=300, deadline=None)
@given(CALLS, CALLS, st.sampled_from(list(ArgsMode)))
def test_in_order_is_an_optimal_subsequence_test_and_equals_adks_walk(
    actual: List[ToolCall], expected: List[ToolCall], args_mode: ArgsMode
) -> None:
    policy = ArgsPolicy(args_mode)
    ok = lambda a, e: a.name == e.name and policy.matcher_for(e.name)(a.arguments, e.arguments)  # noqa: E731
    result = match_trajectory(actual, expected, mode="in_order", args=policy)
    assert result.passed == brute_in_order(actual, expected, ok)
    assert result.passed == adk_greedy_in_order(actual, expected, ok)
    pairs = result.pairs
    assert [a for a, _ in pairs] == sorted(a for a, _ in pairs) and [e for _, e in pairs] == sorted(e for _, e in pairs)


def test_any_order_finds_the_assignment_adks_first_fit_misses() -> None:
    # With superset argument matching, first-fit gives the first expected call the
    # richer actual call and then cannot place the second expected call.
    actual = [tc("f", a=1, b=2), tc("f", a=1)]
    expected = [tc("f", a=1), tc("f", a=1, b=2)]
    result = match_trajectory(actual, expected, mode="any_order", args=ArgsPolicy("superset"))
    assert result.passed
    assert result.pairs == [(0, 1), (1, 0)]


# ---------------------------------------------------------------------------- ADK rules
@pytest.mark.parametrize(
    "mode, actual, expected, passed",
    [
        ("in_order", [tc("a")], [], True),  # empty expected passes even with calls
        ("any_order", [tc("a")], [], True),
        ("exact", [tc("a")], [], False),
        ("in_order", [], [tc("a")], False),
        ("any_order", [], [tc("a")], False),
        ("exact", [], [], True),
        ("any_order", [tc("a")], [tc("a"), tc("a")], False),  # each expected occurrence needs its own call
        ("in_order", [tc("a"), tc("b"), tc("a")], [tc("a"), tc("a"), tc("b")], False),
        ("any_order", [tc("a"), tc("b"), tc("a")], [tc("a"), tc("a"), tc("b")], True),
    ],
)
def test_adk_mode_rules(mode: str, actual: List[ToolCall], expected: List[ToolCall], passed: bool) -> None:
    assert match_trajectory(actual, expected, mode=mode).passed is passed


def test_adk_modes_keep_none_args_distinct_from_empty_but_openevals_modes_do_not() -> None:
    none_args, empty_args = [ToolCall(name="ping")], [ToolCall(name="ping", arguments={})]
    for mode in ("exact", "in_order", "any_order"):
        assert not match_trajectory(none_args, empty_args, mode=mode).passed
        assert match_trajectory(none_args, none_args, mode=mode).passed
    for mode in ("strict", "unordered", "subset", "superset"):
        assert match_trajectory(none_args, empty_args, mode=mode).passed


# ---------------------------------------------------------------------------- strict on messages
def test_strict_compares_roles_and_call_presence_not_content() -> None:
    ref = [user("a"), ai(tc("f")), tool_msg(), ai(content="answer one")]
    same_shape = [user("different question"), ai(tc("f")), tool_msg(), ai(content="another answer")]
    assert match_trajectory(same_shape, ref, mode="strict").passed

    without_tool_result = [user("a"), ai(tc("f")), ai(content="answer one")]
    result = match_trajectory(without_tool_result, ref, mode="strict")
    assert not result.passed and "3 actual message(s) vs 4 expected" in (result.structure_error or "")

    text_instead_of_call = [user("a"), ai(content="no call"), tool_msg(), ai(content="x")]
    result = match_trajectory(text_instead_of_call, ref, mode="strict")
    assert not result.passed and "message 1" in (result.structure_error or "")


def test_strict_treats_calls_in_one_message_as_a_multiset_but_orders_messages() -> None:
    ref = [user(), ai(tc("f"), tc("g"))]
    assert match_trajectory([user(), ai(tc("g"), tc("f"))], ref, mode="strict").passed
    split = [user(), ai(tc("f")), ai(tc("g"))]
    assert not match_trajectory(split, [user(), ai(tc("g")), ai(tc("f"))], mode="strict").passed


def test_strict_on_bare_calls_equals_exact() -> None:
    calls = [tc("f"), tc("g")]
    assert match_trajectory(calls, calls, mode="strict").passed
    assert not match_trajectory(list(reversed(calls)), calls, mode="strict").passed
    assert not match_trajectory(calls + [tc("h")], calls, mode="strict").passed


def test_strict_evidence_aligns_messages_even_when_structure_differs() -> None:
    ref = [user(), ai(tc("f")), tool_msg(), ai(tc("g")), tool_msg()]
    actual = [user(), ai(tc("f")), ai(tc("g"))]
    result = match_trajectory(actual, ref, mode="strict")
    assert not result.passed
    assert result.pairs == [(0, 0), (1, 1)]
    assert result.missing == [] and result.extra == []


# ---------------------------------------------------------------------------- evidence
def test_details_report_matched_missing_extra_and_f1() -> None:
    actual = [tc("search", q="x"), tc("weather"), tc("book", id=1)]
    expected = [tc("search", q="x"), tc("book", id=2), tc("book", id=1)]
    result = match_trajectory(actual, expected, mode="in_order")
    assert not result.passed
    assert result.pairs == [(0, 0), (2, 2)]
    assert result.missing == [1] and result.extra == [1]
    assert result.precision == pytest.approx(2 / 3) and result.recall == pytest.approx(2 / 3)
    assert result.f1 == pytest.approx(2 / 3)
    details = result.details()
    assert details["missing"] == [{"expected_index": 1, "name": "book", "arguments": {"id": 2}}]
    assert details["extra"] == [{"actual_index": 1, "name": "weather", "arguments": {}}]
    assert "missing book(id=2)" in result.reason() and "extra weather()" in result.reason()


def test_empty_sides_count_as_fully_precise_or_recalled() -> None:
    nothing = match_trajectory([], [tc("f")], mode="exact")
    assert (nothing.precision, nothing.recall, nothing.f1) == (1.0, 0.0, 0.0)
    both = match_trajectory([], [], mode="exact")
    assert (both.precision, both.recall, both.f1, both.score) == (1.0, 1.0, 1.0, 1.0)


def test_exact_gives_partial_credit_through_the_longest_ordered_match() -> None:
    result = match_trajectory([tc("a"), tc("x"), tc("b")], [tc("a"), tc("b")], mode="exact")
    assert not result.passed
    assert result.recall == 1.0 and result.precision == pytest.approx(2 / 3)


# ---------------------------------------------------------------------------- arguments
@pytest.mark.parametrize(
    "a, b, equal",
    [
        (1, 1.0, True),
        (True, 1, False),
        (False, 0, False),
        (True, True, True),
        ({"x": [1, {"y": 2.0}]}, {"x": [1, {"y": 2}]}, True),
        ([1, 2], [2, 1], False),
        ("1", 1, False),
        ({"a": 1}, {"a": 1, "b": None}, False),
        (None, None, True),
        ({}, None, False),
    ],
)
def test_values_compare_by_value_and_bool_is_not_a_number(a: Any, b: Any, equal: bool) -> None:
    assert values_equal(a, b) is equal
    assert values_equal(b, a) is equal


def test_args_modes_direction() -> None:
    small, big = {"to": "JFK"}, {"to": "JFK", "date": "2025-01-01"}
    policy = lambda mode: ArgsPolicy(mode).matcher_for("t")  # noqa: E731
    assert policy("subset")(small, big) and not policy("subset")(big, small)  # actual ⊆ expected
    assert policy("superset")(big, small) and not policy("superset")(small, big)  # actual ⊇ expected
    assert policy("ignore")({"x": 1}, {"y": 2})
    assert policy("subset")(None, {"a": 1}) and policy("superset")({"a": 1}, None)


def test_key_path_override_needs_the_path_on_both_sides() -> None:
    match = ArgsPolicy("exact", {"t": ["filters.stars", "q"]}).matcher_for("t")
    assert match({"q": 1, "filters": {"stars": 5, "x": 1}}, {"q": 1.0, "filters": {"stars": 5}})
    assert not match({"q": 1, "filters": {"stars": 4}}, {"q": 1, "filters": {"stars": 5}})
    assert not match({"q": 1}, {"q": 1})  # missing on both sides is a mismatch (openevals 0.2.2)


def test_overrides_apply_per_tool_and_falsy_ones_are_ignored() -> None:
    policy = ArgsPolicy("exact", {"loose": "ignore", "blank": "", "fn": lambda a, e: a["n"] % 2 == e["n"] % 2})
    assert policy.matcher_for("loose")({"a": 1}, {"a": 2})
    assert not policy.matcher_for("blank")({"a": 1}, {"a": 2})
    assert not policy.matcher_for("other")({"a": 1}, {"a": 2})
    assert policy.matcher_for("fn")({"n": 3}, {"n": 5})
    assert policy.describe()["overrides"]["loose"] == "ignore" and "blank" not in policy.describe()["overrides"]


def test_a_failing_user_matcher_names_its_tool() -> None:
    policy = ArgsPolicy("exact", {"search": lambda a, e: a["missing_key"] == e["missing_key"]})
    with pytest.raises(ConfigError, match=r"args_match_overrides\['search'\].*KeyError"):
        match_trajectory([tc("search", q=1)], [tc("search", q=1)], mode="exact", args=policy)


@pytest.mark.parametrize("override", [42, {"mode": "exact"}, "fuzzy", ["ok", ""]])
def test_invalid_overrides_are_refused_at_construction(override: Any) -> None:
    with pytest.raises(ConfigError):
        ArgsPolicy("exact", {"t": override})


# ---------------------------------------------------------------------------- mode parsing
@pytest.mark.parametrize(
    "given, mode",
    [
        ("IN_ORDER", TrajectoryMode.IN_ORDER),
        ("in-order", TrajectoryMode.IN_ORDER),
        ("Any Order", TrajectoryMode.ANY_ORDER),
        (" exact ", TrajectoryMode.EXACT),
        (0, TrajectoryMode.EXACT),
        (1, TrajectoryMode.IN_ORDER),
        (2, TrajectoryMode.ANY_ORDER),
        ("SUPERSET", TrajectoryMode.SUPERSET),
        ("Strict", TrajectoryMode.STRICT),
    ],
)
def test_match_type_spellings(given: Any, mode: TrajectoryMode) -> None:
    assert parse_trajectory_mode(given) is mode


def test_adk_enum_members_are_read_by_name() -> None:
    import enum

    class MatchType(enum.Enum):  # shaped like google.adk's ToolTrajectoryCriterion.MatchType
        EXACT = 0
        IN_ORDER = 1
        ANY_ORDER = 2

    assert parse_trajectory_mode(MatchType.ANY_ORDER) is TrajectoryMode.ANY_ORDER


@pytest.mark.parametrize("bad", ["fuzzy", 3, -1, True, None, 1.5])
def test_unknown_match_types_are_config_errors(bad: Any) -> None:
    with pytest.raises(ConfigError, match="match_type"):
        parse_trajectory_mode(bad)


def test_args_mode_spellings() -> None:
    assert parse_args_mode("SUPERSET") is ArgsMode.SUPERSET
    with pytest.raises(ConfigError, match="args_match"):
        parse_args_mode("partial")
