"""``per_turn_user_simulator_quality_v1``: did the simulated user follow its plan, turn by turn?

ADK's definition (``simulation/per_turn_user_simulator_quality_v1.py``), on any judge:

* turn 1 scores 1.0 when the user's text is the scenario's ``starting_prompt`` (stripped),
  else 0.0; no judge call;
* every later turn is judged (``prompty/per_turn_user_simulator_quality_v1.prompty``) against
  the plan and the history before it, ``num_samples`` times, majority vote (ties → 0.0);
* then the stop signal itself is judged as the turn after the last one: if ending there was
  wrong, the last turn's result is replaced by that failure;
* score = the fraction of turns that passed (``score >= threshold`` per turn).

A judge failure leaves the metric unscored: :class:`JudgeError` from the evaluator class,
``FAILED`` marked ``judge_error`` through :meth:`evaluate_scenario_case` (ADK would record the
exception as ``NOT_EVALUATED``, which a case's verdict skips: a false pass).
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple

from pydantic import BaseModel, ConfigDict

from ...agents.simulation import DEFAULT_STOP_SIGNAL, describe_persona
from ...conversation.transcript import Reads, render_messages, render_value
from ...errors import InputError, JudgeError
from ...evaluators.base import Outcome
from ...evaluators.inputs import majority_vote
from ...evaluators.judge_base import JudgeEvaluator, JudgeOptions, Unpack, check_num_samples, check_temperature
from ...judge.usage import merge_usage
from ..results import JUDGE_ERROR
from ._shared import FAILED, NOT_EVALUATED, AdkJudgeResult, criterion_temperature, eval_status


class CriterionCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    reasoning: str
    passes: bool


class TurnVerdict(BaseModel):
    """The judge's verdict on one generated user turn (ADK's ``criteria`` + ``is_valid``)."""

    model_config = ConfigDict(extra="forbid")
    criteria: List[CriterionCheck]
    is_valid: bool


Pair = Tuple[str, str]  # (user text, agent's final text) of one turn


class PerTurnUserSimulatorQualityEvaluator(JudgeEvaluator):
    """Quality of a simulated user, per turn (ADK ``per_turn_user_simulator_quality_v1``).

    Key ``per_turn_user_simulator_quality_v1``; inputs ``messages`` (the simulated
    conversation as a message list; map ``${target.conversation}`` onto it), ``starting_prompt``, ``conversation_plan``, optional
    ``persona``. Score 0–1: the fraction of user turns that passed (see the module
    docstring); default threshold 0.8 (ADK's criteria have none). Per-turn verdicts are in
    details. ``num_samples`` judge samples per turn at ``temperature``, majority vote.
    """

    result_key = "per_turn_user_simulator_quality_v1"
    score_scale = (0.0, 1.0)
    template_name = "per_turn_user_simulator_quality_v1.prompty"
    reads = Reads("a simulated user's next message is judged against the plan and every earlier turn's words "
                  "(the agent's tool calls are not the user's business)", earlier="all", tool_calls=False)
    default_threshold = 0.8

    def __init__(self, model_config: Any = None, *, num_samples: int = 5, temperature: float = 1.0,
                 stop_signal: str = DEFAULT_STOP_SIGNAL, **judge: Unpack[JudgeOptions]) -> None:
        super().__init__(model_config, **judge)
        self.num_samples = check_num_samples(self.name, num_samples)
        self.temperature = check_temperature(self.name, temperature)
        self.stop_signal = stop_signal

    async def _evaluate(self, *, messages: List[Any], starting_prompt: str, conversation_plan: str,
                        persona: Optional[str] = None) -> Outcome:
        pairs = message_pairs(self, messages)
        score, turns, usage = await self._score_turns(pairs, starting_prompt, conversation_plan,
                                                      describe_persona(persona))
        passed = sum(1 for t in turns if t["status"] == "PASSED")
        return Outcome(score, f"{passed} of {len(turns)} simulated user turn(s) passed", {"turns": turns}, usage)

    async def _score_turns(self, pairs: Sequence[Pair], starting_prompt: str, plan: str,
                           persona: str) -> Tuple[float, List[Dict[str, Any]], Optional[Dict[str, Any]]]:
        """(score, per-turn records, usage); raises :class:`JudgeError` when a judge call fails."""
        first = float(pairs[0][0].strip() == starting_prompt.strip())
        turns: List[Dict[str, Any]] = [{
            "turn": 1, "user": pairs[0][0], "score": first, "status": eval_status(first, self.threshold),
            "reason": "the first turn is the starting prompt" if first else "the first turn is not the starting prompt",
        }]
        usages: List[Optional[Dict[str, Any]]] = []
        for i in range(1, len(pairs)):
            score, reason, checks, usage = await self._judge_turn(pairs[:i], pairs[i][0], plan, persona)
            usages.append(usage)
            turns.append({"turn": i + 1, "user": pairs[i][0], "score": score,
                          "status": eval_status(score, self.threshold), "reason": reason, "criteria": checks})
        score, reason, checks, usage = await self._judge_turn(pairs, self.stop_signal, plan, persona)
        usages.append(usage)
        stop = {"turn": len(pairs) + 1, "user": self.stop_signal, "score": score,
                "status": eval_status(score, self.threshold), "reason": reason, "criteria": checks}
        if stop["status"] == FAILED:  # ending there was wrong: that failure replaces the last turn (ADK)
            turns[-1] = {**stop, "replaces_turn": len(pairs)}
        passed = sum(t["score"] for t in turns if t["status"] == "PASSED")
        return passed / len(turns), turns, merge_usage([u for u in usages if u]) if any(usages) else None

    async def _judge_turn(self, history: Sequence[Pair], generated: str, plan: str,
                          persona: str) -> Tuple[float, str, List[Dict[str, Any]], Optional[Dict[str, Any]]]:
        lines: List[Dict[str, str]] = []
        for user, agent in history:
            lines.append({"role": "user", "content": user})
            if agent:
                lines.append({"role": "assistant", "content": agent})
        limit = self.reads.text_limit
        inputs = {"conversation_plan": render_value(plan, limit), "conversation_history": render_messages(lines, self.reads)[0],
                  "generated_user_response": render_value(generated, limit), "stop_signal": self.stop_signal,
                  "persona": render_value(persona, limit)}
        verdicts, usage = await self._ask_samples(TurnVerdict, inputs, num_samples=self.num_samples,
                                                  temperature=self.temperature if self.num_samples > 1 else None)
        score, index = majority_vote([1.0 if v.is_valid else 0.0 for v in verdicts])
        chosen = verdicts[index]
        failed = [c.name for c in chosen.criteria if not c.passes]
        reason = ("valid next user turn" if chosen.is_valid
                  else f"not a valid next user turn{': ' + ', '.join(failed) if failed else ''}")
        return float(score or 0.0), reason, [c.model_dump() for c in chosen.criteria], usage

    # ------------------------------------------------------------------ ADK surface
    @classmethod
    async def evaluate_scenario_case(cls, actual: Sequence[Any], scenario: Any, criterion: Any = None,
                                     model_config: Any = None) -> AdkJudgeResult:
        """Score a simulated case's invocations against its ``conversation_scenario`` (ADK's shape).

        ``criterion``: ADK's ``LlmBackedUserSimulatorCriterion`` (threshold, judge_model_options,
        stop_signal). No scenario (a static case) → ``NOT_EVALUATED``; a judge failure → ``FAILED`` marked ``judge_error``.
        """
        from ..convert import as_invocations, final_response_text, user_text
        from ..eval_config import parse_criterion
        from ..evalsets.criteria import judge_endpoint

        crit = parse_criterion(cls.result_key, criterion, source=f"{cls.result_key} criterion")
        options = crit.judge_model_options
        evaluator = cls(judge_endpoint(model_config, crit), threshold=crit.threshold,
                        num_samples=options.num_samples, temperature=criterion_temperature(crit, 1.0),
                        stop_signal=(crit.model_extra or {}).get("stop_signal") or DEFAULT_STOP_SIGNAL)
        invocations = as_invocations(actual, name="actual") or []
        if scenario is None:
            return _unscored(evaluator, len(invocations), f"{cls.result_key} needs the case's conversation_scenario; "
                                                          "a static conversation has none")
        if not invocations:
            return _unscored(evaluator, 0, "there are no invocations to evaluate")
        data = scenario.model_dump() if hasattr(scenario, "model_dump") else dict(scenario)
        pairs = [(user_text(inv), final_response_text(inv)) for inv in invocations]
        try:
            score, turns, usage = await evaluator._score_turns(pairs, data["starting_prompt"],
                                                               data["conversation_plan"],
                                                               describe_persona(data.get("user_persona")))
        except JudgeError as exc:
            return _unscored(evaluator, len(invocations), f"the judge failed: {exc}", judge_failed=True)
        per = [{"invocation_id": inv.invocation_id, "score": t["score"], "status": t["status"], "reason": t["reason"],
                "details": {k: v for k, v in t.items() if k not in ("score", "status", "reason")}, "error": None}
               for inv, t in zip(invocations, turns)]
        return AdkJudgeResult(
            metric_name=cls.result_key, threshold=evaluator.threshold, score=score,
            status=eval_status(score, evaluator.threshold), per_invocation_scores=[t["score"] for t in turns],
            per_invocation=per, usage=usage,
            details={"reason": f"fraction of {len(turns)} simulated user turn(s) that passed"},
        )


def _unscored(evaluator: PerTurnUserSimulatorQualityEvaluator, n: int, reason: str, *,
              judge_failed: bool = False) -> AdkJudgeResult:
    """No score: ``NOT_EVALUATED`` (nothing to judge), or, when the judge failed, ``FAILED``
    marked :data:`JUDGE_ERROR` (an error, not "does not apply")."""
    status = FAILED if judge_failed else NOT_EVALUATED
    marker = {JUDGE_ERROR: reason} if judge_failed else {}
    return AdkJudgeResult(
        metric_name=evaluator.result_key, threshold=evaluator.threshold, score=None, status=status,
        per_invocation_scores=[None] * n,
        per_invocation=[{"invocation_id": None, "score": None, "status": status, "reason": reason,
                         "details": None, "error": reason, **marker} for _ in range(n)],
        details={"reason": reason, "error": reason, **marker},
    )


def message_pairs(evaluator: JudgeEvaluator, conversation: Any) -> List[Pair]:
    """(user text, the agent's last text before the next user turn) per user turn of a message list."""
    from ...conversation import to_messages

    msgs = to_messages(conversation, input_name="messages", default_role="user")
    pairs: List[List[str]] = []
    for m in msgs:
        text = m.content or ""
        if m.role == "user":
            pairs.append([text, ""])
        elif m.role == "assistant" and pairs and text.strip():
            pairs[-1][1] = text
    if not pairs:
        raise InputError(f"{evaluator.name}: input 'messages' has no user turn", evaluator=evaluator.name,
                         input_name="messages")
    return [(u, a) for u, a in pairs]

