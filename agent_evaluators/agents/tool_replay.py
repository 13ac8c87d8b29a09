"""Record a Python agent's tool calls, or replay them, without changing the agent.

::

    from agent_evaluators.agents import ToolRecorder

    recorder = ToolRecorder("recordings/", mode="record")      # later: mode="replay"
    get_weather = recorder.tool(get_weather)                   # or @recorder.tool on the definition

    with recorder.case("paris"):                               # one recording file per case
        my_agent(messages)                                     # its get_weather calls are recorded

In replay a wrapped tool is never executed: each call is served the recorded result (JSON, as
the file holds it) of a matching recorded call, and a call with no match raises
:class:`~agent_evaluators.errors.InputError` naming the case, the tool and the arguments; the
case still ends in that error when the agent caught it. The recording format, the argument
matching (``match=``, ``ignore_args``) and the files are those of ``agent-eval adk
--record-tools/--replay-tools`` (:mod:`.tool_recording`): one mechanism.

The current case travels in the run context (its ``tool_session``, :mod:`agent_evaluators.run_context`),
so a wrapped tool finds it in the agent's coroutines and in ``asyncio.to_thread`` (which copies the
context), not in threads the agent starts itself without copying the context.
:func:`~agent_evaluators.agents.simulated_conversation_target` takes ``tool_recorder=`` and runs
each row inside ``recorder.case(row["case_id"])``.
"""

import functools
import inspect
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, TypeVar, Union

from ..errors import ConfigError, InputError
from ..run_context import current, scoped
from .recordings import RECORD, REPLAY, MatchRules, ToolSession

F = TypeVar("F", bound=Callable[..., Any])

def current_tool_session() -> Optional[ToolSession]:
    """The tool session of the case running in this context (``None`` outside ``recorder.case``)."""
    session: Optional[ToolSession] = current().tool_session
    return session


class ToolRecorder:
    """Where a run's tool recordings live, whether it records or replays them, and how calls match.

    Args:
        directory: the recordings folder (one JSON file per case).
        mode: ``"record"`` (execute the tools, write what they returned) or ``"replay"``
            (execute nothing, serve the recording).
        match: argument-matching rules for replay, ``{tool or "*": {"ignore_args": true | [names]}}``
            (a recording file's own ``"match"`` wins tool by tool).
    """

    def __init__(self, directory: Union[str, Path], mode: str = RECORD, *,
                 match: Union[None, MatchRules, Mapping[str, Any]] = None) -> None:
        if mode not in (RECORD, REPLAY):
            raise ConfigError(f"ToolRecorder: mode must be {RECORD!r} or {REPLAY!r}, got {mode!r}")
        self.directory = Path(directory)
        if mode == REPLAY and not self.directory.is_dir():
            raise ConfigError(f"ToolRecorder: {self.directory} is not a folder of tool recordings; "
                              "record them first (mode='record', or agent-eval adk ... --record-tools DIR)")
        self.mode = mode
        self.match = match if isinstance(match, MatchRules) else MatchRules(match)

    def __repr__(self) -> str:
        return f"ToolRecorder({str(self.directory)!r}, mode={self.mode!r})"

    def session(self, case_id: str, *, eval_set_id: Optional[str] = None) -> ToolSession:
        """A new session for one run of ``case_id`` (replay: :class:`InputError` when it was never recorded)."""
        if not isinstance(case_id, str) or not case_id:
            raise InputError(f"{self!r}: a case id must be a non-empty string, got {case_id!r}", input_name="case_id")
        return ToolSession.start(self.mode, self.directory, case_id, eval_set_id=eval_set_id, match=self.match)

    @contextmanager
    def case(self, case_id: str, *, eval_set_id: Optional[str] = None) -> Iterator[ToolSession]:
        """Run one case inside: wrapped tools record into, or replay from, its file.

        On a clean exit a recording is written and a replay with an unmatched call raises; when the
        body raises, an unmatched call is the error reported, and a recording is not kept.
        """
        session = self.session(case_id, eval_set_id=eval_set_id)
        with activated(session), session.guard():
            yield session

    def tool(self, fn: F, *, name: Optional[str] = None) -> F:
        """``fn`` (sync or async) recorded or replayed under its name (or ``name``) in the current case."""
        if not callable(fn):
            raise ConfigError(f"{self!r}.tool: expected a function, got {type(fn).__name__}")
        tool_name = name or getattr(fn, "__name__", None)
        if not tool_name:
            raise ConfigError(f"{self!r}.tool: {fn!r} has no __name__; pass name=")
        signature = inspect.signature(fn)

        def arguments(args: Any, kwargs: Any) -> Dict[str, Any]:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise InputError(f"tool {tool_name}: {exc}", input_name=tool_name) from None
            return dict(bound.arguments)

        def session() -> ToolSession:
            found: Optional[ToolSession] = current().tool_session
            if found is None:
                raise ConfigError(f"tool {tool_name} was called outside a case: run the agent inside "
                                  f"`with recorder.case(case_id):` so its calls are {self.mode}ed")
            return found

        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                current, call_args = session(), arguments(args, kwargs)
                if current.replaying:
                    return current.serve(tool_name, call_args)
                result = await fn(*args, **kwargs)
                current.record(tool_name, call_args, result)
                return result

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            current, call_args = session(), arguments(args, kwargs)
            if current.replaying:
                return current.serve(tool_name, call_args)
            result = fn(*args, **kwargs)
            current.record(tool_name, call_args, result)
            return result

        return wrapper  # type: ignore[return-value]


@contextmanager
def activated(session: ToolSession) -> Iterator[ToolSession]:
    """Make ``session`` the current one in this context for the body's duration."""
    with scoped(tool_session=session):
        yield session
