"""``ToolTrajectoryEvaluator``: did the agent call the expected tools (ADK / openevals / Mastra checks)?

Key ``tool_trajectory_avg_score`` (ADK's metric name), inputs ``response`` (what the
agent did) and ``ground_truth`` (what it should have done), score 0–1, default
threshold 1.0. The matching itself lives in :mod:`agent_evaluators.trajectory`.
"""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ..conversation.models import ToolCall
from ..conversation.recorded_turns import RecordedTurn
from ..errors import ConfigError, InputError
from ..trajectory.args import ArgsOverride, ArgsPolicy
from ..trajectory.matching import TrajectoryMatch, match_trajectory
from ..trajectory.modes import ArgsMode, TrajectoryMode, parse_args_mode, parse_trajectory_mode
from ..trajectory.read_input import ReadInput, read_trajectory_input
from .base import Evaluator, Outcome

TrajectoryInput = Union[List[Any], Dict[str, Any]]


class ToolTrajectoryEvaluator(Evaluator):
    """Compare the tool calls an agent made with the expected ones.

    Key ``tool_trajectory_avg_score``; inputs ``response`` and ``ground_truth``; score in
    [0, 1]; default threshold 1.0.

    Each input may independently be a message list (OpenAI, Responses, Azure agent,
    LangChain), ``{"messages": [...]}``, a list of tool calls, or a list of ADK
    invocation dicts. When *both* are ADK invocation lists they are compared
    invocation by invocation and the score is the mean of the per-invocation 1/0
    (ADK's ``tool_trajectory_avg_score``); different lengths are an ``InputError``
    (ADK ≥ 2.6 raises ``ValueError``). Otherwise the whole trajectories are compared
    once and the score is 1.0 or 0.0.

    Args:
        match_type: ``exact`` (default), ``in_order``, ``any_order`` (ADK semantics),
            ``strict``, ``unordered``, ``subset``, ``superset`` (openevals 0.2.2
            semantics). Case-insensitive; ADK spellings (``"IN_ORDER"``, ``"in-order"``,
            ``0``/``1``/``2``) accepted. ``strict`` compares message roles and
            tool-call presence per message when both inputs are message lists; for
            bare tool-call lists or ADK invocations it equals ``exact``.
        args_match: ``exact`` (default), ``ignore``, ``subset`` (actual args ⊆
            expected), ``superset`` (actual args ⊇ expected).
        args_match_overrides: tool name → a mode string, a list of dotted key paths to
            compare, or a callable ``(actual_args, expected_args) -> bool``.
        ignore_args: ADK's spelling of ``args_match="ignore"``. Combined with
            ``args_match="subset"``/``"superset"`` it is contradictory: ``ConfigError``.
        threshold: pass when the score is at least this.

    Repeated tools are matched optimally (maximum bipartite matching), so a valid
    assignment is never missed where ADK's or openevals' first-fit search gives up.
    Details hold the matched pairs, missing expected calls, extra actual calls and
    precision / recall / F1 (per invocation for ADK invocations).
    """

    result_key = "tool_trajectory_avg_score"
    score_scale = (0.0, 1.0)
    default_threshold = 1.0

    def __init__(
        self,
        match_type: Union[str, int, TrajectoryMode] = "exact",
        args_match: Union[str, ArgsMode] = "exact",
        args_match_overrides: Optional[Mapping[str, ArgsOverride]] = None,
        ignore_args: bool = False,
        threshold: float = 1.0,
    ) -> None:
        super().__init__(threshold=threshold)
        self.match_type = parse_trajectory_mode(match_type)
        mode = parse_args_mode(args_match)
        if not isinstance(ignore_args, bool):
            raise ConfigError(f"{self.name}: ignore_args must be True or False, got {ignore_args!r}")
        if ignore_args:
            if mode not in (ArgsMode.EXACT, ArgsMode.IGNORE):
                raise ConfigError(
                    f"{self.name}: ignore_args=True means args_match='ignore', but args_match={mode.value!r} "
                    "was also given; pass only one of them"
                )
            mode = ArgsMode.IGNORE
        self.args_policy = ArgsPolicy(mode, args_match_overrides)

    # ------------------------------------------------------------------ Mastra presets
    @classmethod
    def expecting_tool(cls, name: str, strict: bool = False, *, threshold: float = 1.0) -> "ToolTrajectoryEvaluator":
        """Mastra's code tool-call check with ``expectedTool``: no ``ground_truth`` needed.

        Lenient (default): 1.0 when ``name`` was called at least once, other calls
        allowed. ``strict=True``: 1.0 only when exactly one call was made and it was
        ``name``. Arguments are never checked. No calls at all scores 0.0 (Mastra
        throws on an empty run output; we score it).
        """
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{cls.__name__}.expecting_tool: name must be a non-empty string, got {name!r}")
        return _ToolCheckEvaluator(
            [name], match_type="exact" if strict else "any_order", threshold=threshold,
            preset={"expected_tool": name, "strict": bool(strict)},
        )

    @classmethod
    def expecting_order(
        cls, names: Sequence[str], strict: bool = False, *, threshold: float = 1.0
    ) -> "ToolTrajectoryEvaluator":
        """Mastra's code tool-call check with ``expectedToolOrder``: no ``ground_truth`` needed.

        ``strict=True``: the tool names called must equal ``names`` exactly (no extras,
        no repeats). Lenient (default): ``names`` must appear in that order, other calls
        anywhere in between.

        Where this differs from Mastra: Mastra's lenient check takes the *first*
        occurrence of each name (``indexOf``) and requires those positions to
        increase, so ``[hotel, flight, hotel]`` against ``[flight, hotel]`` and
        ``[flight, flight]`` against ``[flight, flight]`` score 0 although the order
        is there. We test for an in-order subsequence, which scores both 1.
        Arguments are never checked.
        """
        if isinstance(names, str) or not names or not all(isinstance(n, str) and n for n in names):
            raise ConfigError(
                f"{cls.__name__}.expecting_order: names must be a non-empty list of tool names, got {names!r}"
            )
        return _ToolCheckEvaluator(
            list(names), match_type="exact" if strict else "in_order", threshold=threshold,
            preset={"expected_tool_order": list(names), "strict": bool(strict)},
        )

    # ------------------------------------------------------------------ evaluation
    def _evaluate(self, *, response: TrajectoryInput, ground_truth: TrajectoryInput) -> Outcome:
        actual = read_trajectory_input(response, input_name="response", evaluator=self.name)
        expected = read_trajectory_input(ground_truth, input_name="ground_truth", evaluator=self.name)
        return self._compare(actual, expected)

    def _compare(self, actual: ReadInput, expected: ReadInput) -> Outcome:
        if actual.turns is not None and expected.turns is not None:
            return self._per_invocation(actual.turns, expected.turns)
        match = match_trajectory(actual.trajectory, expected.trajectory, mode=self.match_type, args=self.args_policy)
        details = match.details()
        details["args_match"] = self.args_policy.describe()
        return Outcome(match.score, match.reason(), details)

    def _per_invocation(self, a_inv: List[RecordedTurn], e_inv: List[RecordedTurn]) -> Outcome:
        if len(a_inv) != len(e_inv):
            raise InputError(
                f"{self.name}: response has {len(a_inv)} invocation(s) but ground_truth has {len(e_inv)}; "
                "ADK compares invocations pairwise, so the lists must have the same length",
                evaluator=self.name,
                input_name="ground_truth",
            )
        matches: List[TrajectoryMatch] = [
            match_trajectory(a.tool_calls, e.tool_calls, mode=self.match_type, args=self.args_policy)
            for a, e in zip(a_inv, e_inv)
        ]
        score = sum(m.score for m in matches) / len(matches)
        n_pairs = sum(len(m.pairs) for m in matches)
        n_actual = sum(len(m.actual) for m in matches)
        n_expected = sum(len(m.expected) for m in matches)
        precision = n_pairs / n_actual if n_actual else 1.0
        recall = n_pairs / n_expected if n_expected else 1.0
        details: Dict[str, Any] = {
            "match_type": self.match_type.value,
            "args_match": self.args_policy.describe(),
            "per_invocation": [
                dict(m.details(), invocation_id=turn.turn_id) for m, turn in zip(matches, a_inv)
            ],
            "per_invocation_scores": [m.score for m in matches],
            "precision": precision,
            "recall": recall,
            "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
        }
        failed = [i for i, m in enumerate(matches) if not m.passed]
        reason = f"{len(matches) - len(failed)} of {len(matches)} invocation(s) matched ({self.match_type.value})"
        if failed:
            first = failed[0]
            reason += f"; invocation {first}: {matches[first].reason()}"
        return Outcome(score, reason, details)


class _ToolCheckEvaluator(ToolTrajectoryEvaluator):
    """A Mastra-style check with its expectation built in: ``ground_truth`` is optional and ignored.

    Built by :meth:`ToolTrajectoryEvaluator.expecting_tool` / ``.expecting_order``; it
    is the same matching core with name-only expected calls and arguments ignored.
    """

    def __init__(self, names: List[str], *, match_type: str, threshold: float, preset: Dict[str, Any]) -> None:
        super().__init__(match_type=match_type, args_match="ignore", threshold=threshold)
        self._expected = ReadInput(calls=[ToolCall(name=n) for n in names])
        self.preset = preset

    @property
    def name(self) -> str:
        return "ToolTrajectoryEvaluator"

    def _evaluate(self, *, response: TrajectoryInput, ground_truth: Optional[TrajectoryInput] = None) -> Outcome:
        actual = read_trajectory_input(response, input_name="response", evaluator=self.name)
        # Mastra counts every call of the run, so ADK invocations are read as one trajectory.
        actual = ReadInput(calls=actual.calls)
        outcome = self._compare(actual, self._expected)
        outcome.details["preset"] = dict(self.preset)
        if not actual.calls:
            outcome.reason = "no tool calls were made; " + outcome.reason
        return outcome
