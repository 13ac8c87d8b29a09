"""The one matching core behind every trajectory mode.

Everything reduces to one compatibility relation between an actual call and an
expected call (same name, case-sensitive, and the argument matcher for that tool
says yes) and two optimal searches over it:

* **maximum bipartite matching** (augmenting paths) for the order-free modes
  ``any_order`` / ``unordered`` / ``subset`` / ``superset``. ADK and openevals
  both match greedily (first fit). With exact arguments that is already optimal,
  but with ``subset`` / ``superset`` arguments, key-path or callable overrides a
  greedy pass can use up the one actual call a later expected call needed, and
  report a false negative (openevals' golden case ``greedy_matching``). We never
  do: if an assignment exists, we find it.
* **longest common subsequence** under the same relation for the ordered modes
  ``exact`` / ``in_order`` (and a message-level variant for ``strict``). For the
  pass/fail test of ``in_order`` this equals ADK's greedy subsequence walk (greedy
  earliest match is optimal for a subsequence test); the LCS also gives the
  partial credit.

The verdict per mode (a = actual calls, e = expected calls, M = matching size):

==========  ===============================================================
exact       ``len(a) == len(e)`` and the calls match pairwise in order
in_order    every expected call appears in actual, in order (extras allowed);
            empty expected passes
any_order   every expected call appears in actual, each actual call used once
            (a sub-multiset; extras allowed); empty expected passes
strict      message lists: same length, same role and same presence of tool
            calls at each index, and the calls of each message match as a
            multiset (order inside a message is free). Content and tool results
            are never compared. Without messages on both sides: ``exact``
unordered   ``M == len(a) == len(e)`` (same multiset of calls)
subset      ``M == len(a)`` (every actual call is in expected)
superset    ``M == len(e)`` (every expected call is in actual)
==========  ===============================================================

The result also carries the matched pairs, the missing expected calls, the extra
actual calls and precision / recall / F1 of the matching (partial credit; an empty
side counts as fully precise / fully recalled).
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..conversation.models import Message, ToolCall
from .args import ArgsPolicy
from .modes import TrajectoryMode, parse_trajectory_mode

Trajectory = Union[Sequence[ToolCall], Sequence[Message]]


@dataclass
class TrajectoryMatch:
    """The verdict and the evidence for one actual-vs-expected comparison."""

    mode: TrajectoryMode
    passed: bool
    actual: List[ToolCall]
    expected: List[ToolCall]
    pairs: List[Tuple[int, int]]  # (actual index, expected index), indices into the flattened call lists
    structure_error: Optional[str] = None  # strict mode: why the message structure differs
    missing: List[int] = field(init=False)
    extra: List[int] = field(init=False)

    def __post_init__(self) -> None:
        used_a = {a for a, _ in self.pairs}
        used_e = {e for _, e in self.pairs}
        self.missing = [j for j in range(len(self.expected)) if j not in used_e]
        self.extra = [i for i in range(len(self.actual)) if i not in used_a]

    @property
    def score(self) -> float:
        return 1.0 if self.passed else 0.0

    @property
    def precision(self) -> float:
        return len(self.pairs) / len(self.actual) if self.actual else 1.0

    @property
    def recall(self) -> float:
        return len(self.pairs) / len(self.expected) if self.expected else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def reason(self) -> str:
        """One readable sentence on why it passed or failed."""
        head = f"{self.mode.value}: {'match' if self.passed else 'no match'}"
        parts = [f"{len(self.pairs)} of {len(self.expected)} expected call(s) matched"]
        if self.structure_error:
            parts.insert(0, self.structure_error)
        if self.missing:
            parts.append("missing " + ", ".join(_show(self.expected[j]) for j in self.missing))
        if self.extra:
            parts.append("extra " + ", ".join(_show(self.actual[i]) for i in self.extra))
        return f"{head} ({'; '.join(parts)})"

    def details(self) -> Dict[str, Any]:
        """JSON-friendly evidence for ``<key>_details``."""
        out: Dict[str, Any] = {
            "match_type": self.mode.value,
            "passed": self.passed,
            "actual_calls": len(self.actual),
            "expected_calls": len(self.expected),
            "matched": [
                {"actual_index": a, "expected_index": e, "name": self.expected[e].name} for a, e in self.pairs
            ],
            "missing": [_call_dict(self.expected[j], "expected_index", j) for j in self.missing],
            "extra": [_call_dict(self.actual[i], "actual_index", i) for i in self.extra],
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }
        if self.structure_error:
            out["structure_error"] = self.structure_error
        return out


def _call_dict(call: ToolCall, index_key: str, index: int) -> Dict[str, Any]:
    return {index_key: index, "name": call.name, "arguments": call.arguments}


def _show(call: ToolCall) -> str:
    if not call.arguments:
        return f"{call.name}()"
    args = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
    return f"{call.name}({args})"


# ---------------------------------------------------------------------------- algorithms


def maximum_matching(adjacency: Sequence[Sequence[int]]) -> Dict[int, int]:
    """Maximum bipartite matching by augmenting paths (Kuhn); returns ``{left: right}``.

    ``adjacency[u]`` lists the right vertices left vertex ``u`` may take. The DFS is
    iterative so long trajectories cannot hit Python's recursion limit. Left vertices
    and their candidates are tried in index order, so the result is deterministic and
    equals first-fit whenever first-fit is already optimal.
    """
    owner: Dict[int, int] = {}  # right -> left
    for root in range(len(adjacency)):
        seen: set = set()
        # each frame: [left vertex, next candidate position, right taken when descending]
        stack: List[List[int]] = [[root, 0, -1]]
        while stack:
            frame = stack[-1]
            u, pos = frame[0], frame[1]
            if pos == len(adjacency[u]):
                stack.pop()
                continue
            frame[1] += 1
            r = adjacency[u][pos]
            if r in seen:
                continue
            seen.add(r)
            frame[2] = r
            if r in owner:
                stack.append([owner[r], 0, -1])
                continue
            for left, _, right in stack:  # augment along the path
                owner[right] = left
            break
    return {left: right for right, left in owner.items()}


def _longest_common_subsequence(compatible: List[List[bool]], n_actual: int, n_expected: int) -> List[Tuple[int, int]]:
    """Largest order-preserving set of compatible (actual, expected) pairs."""
    weights = [[1 if compatible[i][j] else 0 for j in range(n_expected)] for i in range(n_actual)]
    return _weighted_alignment(weights, n_actual, n_expected)


def _weighted_alignment(weights: List[List[int]], n_a: int, n_e: int) -> List[Tuple[int, int]]:
    """Order-preserving alignment of rows to columns maximising the summed weight (zero-weight pairs unused)."""
    best = [[0] * (n_e + 1) for _ in range(n_a + 1)]
    for i in range(n_a - 1, -1, -1):
        row, below = best[i], best[i + 1]
        for j in range(n_e - 1, -1, -1):
            w = weights[i][j]
            take = below[j + 1] + w if w else -1
            row[j] = max(below[j], row[j + 1], take)
    pairs: List[Tuple[int, int]] = []
    i = j = 0
    while i < n_a and j < n_e:
        w = weights[i][j]
        if w and best[i][j] == best[i + 1][j + 1] + w:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


# ---------------------------------------------------------------------------- the core


class _Relation:
    """Which actual call may stand for which expected call, computed once per comparison."""

    def __init__(self, actual: List[ToolCall], expected: List[ToolCall], mode: TrajectoryMode, policy: ArgsPolicy):
        keep_none = mode.is_adk  # ADK compares args with ==, so None != {}; openevals parses to dicts
        self.ok = [
            [
                a.name == e.name
                and policy.matcher_for(e.name)(
                    a.arguments if keep_none or a.arguments is not None else {},
                    e.arguments if keep_none or e.arguments is not None else {},
                )
                for e in expected
            ]
            for a in actual
        ]

    def adjacency_of_expected(self, actual_idx: Sequence[int], expected_idx: Sequence[int]) -> List[List[int]]:
        return [[k for k, a in enumerate(actual_idx) if self.ok[a][e]] for e in expected_idx]


def _max_pairs(rel: _Relation, actual_idx: Sequence[int], expected_idx: Sequence[int]) -> List[Tuple[int, int]]:
    found = maximum_matching(rel.adjacency_of_expected(actual_idx, expected_idx))
    return sorted((actual_idx[a], expected_idx[e]) for e, a in found.items())


def _flatten(items: Trajectory) -> List[ToolCall]:
    calls: List[ToolCall] = []
    for item in items:
        if isinstance(item, Message):
            calls.extend(item.tool_calls)
        else:
            calls.append(item)
    return calls


def _both_message_lists(actual: Trajectory, expected: Trajectory) -> bool:
    """Both sides carry message structure (an empty list fits either reading; two empty ones need none)."""
    if not actual and not expected:
        return False
    return all(isinstance(m, Message) for m in actual) and all(isinstance(m, Message) for m in expected)


def match_trajectory(
    actual: Trajectory,
    expected: Trajectory,
    *,
    mode: Union[str, int, TrajectoryMode] = TrajectoryMode.EXACT,
    args: Optional[ArgsPolicy] = None,
) -> TrajectoryMatch:
    """Compare one actual trajectory with one expected trajectory.

    ``actual`` / ``expected`` are lists of :class:`ToolCall` or of :class:`Message`
    (then the tool calls are read in message order, then in-message order). Only
    ``strict`` looks at message structure, and only when both sides are messages.
    """
    mode = parse_trajectory_mode(mode)
    policy = args if args is not None else ArgsPolicy()
    a_calls, e_calls = _flatten(actual), _flatten(expected)
    rel = _Relation(a_calls, e_calls, mode, policy)
    n_a, n_e = len(a_calls), len(e_calls)
    every_a, every_e = list(range(n_a)), list(range(n_e))

    if mode is TrajectoryMode.STRICT and _both_message_lists(actual, expected):
        return _strict_messages(list(actual), list(expected), a_calls, e_calls, rel)  # type: ignore[arg-type]

    if mode in (TrajectoryMode.EXACT, TrajectoryMode.STRICT, TrajectoryMode.IN_ORDER):
        pairs = _longest_common_subsequence(rel.ok, n_a, n_e)
        if mode is TrajectoryMode.IN_ORDER:
            passed = len(pairs) == n_e
        else:
            passed = n_a == n_e and len(pairs) == n_e
        return TrajectoryMatch(mode, passed, a_calls, e_calls, pairs)

    pairs = _max_pairs(rel, every_a, every_e)
    m = len(pairs)
    if mode in (TrajectoryMode.ANY_ORDER, TrajectoryMode.SUPERSET):
        passed = m == n_e
    elif mode is TrajectoryMode.SUBSET:
        passed = m == n_a
    else:  # UNORDERED
        passed = m == n_a == n_e
    return TrajectoryMatch(mode, passed, a_calls, e_calls, pairs)


def _strict_messages(
    actual: List[Message],
    expected: List[Message],
    a_calls: List[ToolCall],
    e_calls: List[ToolCall],
    rel: _Relation,
) -> TrajectoryMatch:
    """openevals ``strict``: per-index roles and tool-call presence; calls per message as a multiset."""
    a_groups = _call_index_groups(actual)
    e_groups = _call_index_groups(expected)

    # Evidence: best order-preserving alignment of messages, weighted by how many calls match.
    weights = [
        [
            len(_max_pairs(rel, ag, eg)) if am.role == em.role and ag and eg else 0
            for em, eg in zip(expected, e_groups)
        ]
        for am, ag in zip(actual, a_groups)
    ]
    pairs: List[Tuple[int, int]] = []
    for i, j in _weighted_alignment(weights, len(actual), len(expected)):
        pairs.extend(_max_pairs(rel, a_groups[i], e_groups[j]))
    pairs.sort()

    error = _strict_structure_error(actual, expected, a_groups, e_groups, rel)
    return TrajectoryMatch(TrajectoryMode.STRICT, error is None, a_calls, e_calls, pairs, structure_error=error)


def _call_index_groups(messages: List[Message]) -> List[List[int]]:
    groups, k = [], 0
    for m in messages:
        groups.append(list(range(k, k + len(m.tool_calls))))
        k += len(m.tool_calls)
    return groups


def _strict_structure_error(
    actual: List[Message],
    expected: List[Message],
    a_groups: List[List[int]],
    e_groups: List[List[int]],
    rel: _Relation,
) -> Optional[str]:
    if len(actual) != len(expected):
        return f"{len(actual)} actual message(s) vs {len(expected)} expected"
    for idx, (am, em, ag, eg) in enumerate(zip(actual, expected, a_groups, e_groups)):
        if am.role != em.role:
            return f"message {idx}: role {am.role!r} vs expected {em.role!r}"
        if bool(ag) != bool(eg):
            has = "has" if ag else "has no"
            return f"message {idx}: actual {has} tool calls, expected {'has' if eg else 'has no'}"
        if len(ag) != len(eg):
            return f"message {idx}: {len(ag)} tool call(s) vs {len(eg)} expected"
        if ag and len(_max_pairs(rel, ag, eg)) != len(eg):
            return f"message {idx}: tool calls differ"
    return None
