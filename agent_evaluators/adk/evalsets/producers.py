"""Where a case's actual invocations come from: a *producer*, ``async (case, config) -> invocations``.

The eval-set runner asks one producer per run for each case's invocations, inside the
run engine (as its target), so producing and scoring overlap across cases. Three kinds:

* :func:`from_actual`: recorded invocations (``actual=`` / ``--actual``), looked up by
  eval id (and eval-set id where the file names it);
* :func:`from_target`: a per-turn ``target`` callable, called once per expected
  invocation, in order. It receives the keyword arguments it declares among ``query``
  (user text), ``user_content`` (genai Content dict), ``session_input`` (dict or
  ``None``), ``history`` (this case's earlier actual invocations, as dicts), ``eval_id``
  and ``invocation_id``, and returns the final text or an Invocation-like dict
  (``final_response``, ``intermediate_data`` ...; ``user_content`` and ``invocation_id``
  are filled in from the expected one). It may be async. It cannot drive a
  ``conversation_scenario`` case (there are no expected turns to replay);
* any ``producer=`` given to :func:`~agent_evaluators.adk.evalsets.runner.run_eval_sets`:
  the hook for a live agent runner, such as
  :func:`agent_evaluators.adk.agent_runner.agent_producer` (an ADK agent, with a simulated
  user on ``conversation_scenario`` cases per ``config.user_simulator_config``). It gets the
  :class:`~agent_evaluators.adk.models.EvalCase` and the eval set's
  :class:`~agent_evaluators.adk.eval_config.EvalConfig` and returns the invocations (ADK
  Invocation models or dicts); raising fails that case, as ADK fails a case whose
  inference failed. :func:`~agent_evaluators.adk.evalsets.runner.run_eval_sets` checks the
  count against the expected invocations for static cases. A returned list with a
  ``simulator_records`` attribute (:class:`agent_evaluators.adk.agent_runner.CaseRun`) keeps
  the simulated user's turns in the run's row.
"""

import asyncio
import inspect
from typing import Any, Awaitable, Callable, List, Mapping, Optional, Sequence, Tuple

from pydantic import ValidationError

from ...errors import ConfigError, InputError
from ...run_context import current, set_for_task
from ..actual import ActualMap, lookup_actual
from ..convert import InvocationLike, as_invocation, content_text
from ..eval_config import EvalConfig
from ..loading import validation_message
from ..models import Content, EvalCase, Invocation, Part

#: ``async producer(case, config) -> invocations``: see the module docstring.
Producer = Callable[[EvalCase, EvalConfig], Awaitable[Sequence[InvocationLike]]]

def current_eval_set_id() -> Optional[str]:
    """The id of the eval set whose case the running producer was called for (``None`` outside a run).

    A producer's signature names only the case; producers that keep files per eval set read it here
    (the run context's ``eval_set_id``)."""
    return current().eval_set_id


def producing_for(eval_set_id: str) -> None:
    """Mark the current task as producing a case of ``eval_set_id`` (the runner, before each producer call)."""
    set_for_task(eval_set_id=eval_set_id)


TARGET_ARGUMENTS = ("query", "user_content", "session_input", "history", "eval_id", "invocation_id")


def from_actual(actual: ActualMap, eval_set_id: str) -> Producer:
    """A producer reading one eval set's cases from recorded invocations."""

    async def produce(case: EvalCase, config: EvalConfig) -> Sequence[InvocationLike]:
        given = lookup_actual(actual, eval_set_id, case.eval_id)
        if given is None:
            raise InputError(f"the actual invocations have no entry for eval case {case.eval_id!r}", input_name="actual")
        return [as_invocation(v, where=f"actual[{case.eval_id!r}][{i}]") for i, v in enumerate(given)]

    return produce


def has_actual(actual: ActualMap, eval_set_id: str, case: EvalCase) -> bool:
    """Whether recorded invocations name this case."""
    return lookup_actual(actual, eval_set_id, case.eval_id) is not None


def from_target(target: Callable[..., Any]) -> Producer:
    """A producer replaying each expected user turn through a per-turn ``target``."""
    accepted = _target_arguments(target)

    async def produce(case: EvalCase, config: EvalConfig) -> Sequence[InvocationLike]:
        return await _infer(target, accepted, case)

    return produce


def check_target(target: Any) -> None:
    """Fail before any case runs when ``target`` cannot be called as a per-turn target."""
    if not callable(target):
        raise ConfigError(f"target must be callable, got {type(target).__name__}")
    _target_arguments(target)


def _target_arguments(target: Callable[..., Any]) -> Optional[Tuple[str, ...]]:
    """The keyword arguments ``target`` takes among ours; ``None`` means it takes ``**kwargs``."""
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return None
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    names = tuple(n for n in TARGET_ARGUMENTS if n in params)
    if not names:
        raise ConfigError(
            f"target {getattr(target, '__name__', target)!r} takes none of the arguments it would be given: "
            f"{', '.join(TARGET_ARGUMENTS)}"
        )
    return names


async def _infer(target: Callable[..., Any], accepted: Optional[Tuple[str, ...]], case: EvalCase) -> List[Invocation]:
    history: List[Invocation] = []
    for expected in case.conversation or []:
        offered = {
            "query": content_text(expected.user_content),
            "user_content": expected.user_content.to_json_dict(),
            "session_input": case.session_input.to_json_dict() if case.session_input else None,
            "history": [h.to_json_dict() for h in history],
            "eval_id": case.eval_id,
            "invocation_id": expected.invocation_id,
        }
        kwargs = offered if accepted is None else {k: offered[k] for k in accepted}
        if inspect.iscoroutinefunction(target):
            reply = await target(**kwargs)
        else:
            reply = await asyncio.to_thread(target, **kwargs)
            if inspect.isawaitable(reply):
                reply = await reply
        history.append(_as_actual(reply, expected))
    return history


def _as_actual(reply: Any, expected: Invocation) -> Invocation:
    if isinstance(reply, str):
        return Invocation(
            invocation_id=expected.invocation_id,
            user_content=expected.user_content,
            final_response=Content(role="model", parts=[Part(text=reply)]),
        )
    if isinstance(reply, Invocation):
        return reply
    if isinstance(reply, Mapping):
        data = dict(reply)
        if "user_content" not in data and "userContent" not in data:
            data["user_content"] = expected.user_content.to_json_dict()
        if not data.get("invocation_id") and not data.get("invocationId"):
            data["invocation_id"] = expected.invocation_id
        try:
            return Invocation.model_validate(data)
        except ValidationError as exc:
            raise InputError(f"target returned an invalid invocation:\n{validation_message(exc)}") from None
    raise InputError(f"target must return the final text or an invocation dict, got {type(reply).__name__}")
