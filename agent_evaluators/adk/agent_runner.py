"""Run an ADK agent the way ``adk eval`` does, and record what it did as our ``Invocation`` models.

* :func:`load_agent`: an agent package folder (``AGENT_DIR`` with ``__init__.py`` importing
  ``agent``, whose ``root_agent`` is the agent), a dotted module name (``AgentEvaluator``'s
  ``agent_module``), or a module object. An ``app`` (ADK ``App``) in the module wins, as in ADK.
* :func:`run_invocations`: one session (ADK's ``Runner`` + ``InMemorySessionService``,
  seeded with the case's ``session_input``: app name, user id, state), user turns from any
  :class:`~agent_evaluators.agents.simulation.SimulatedUser`; each turn is recorded as an
  ``Invocation`` with ``user_content``, ``final_response`` and ``invocation_events`` (tool
  calls, tool responses and intermediate texts: ADK's own ``InvocationEvents`` form) and
  ``app_details`` (each agent's instructions and tool declarations, as ADK's request interceptor).
  Synchronous tools run on ADK's tool thread pool (``RunConfig.tool_thread_pool_config``), not on
  the event loop: a tool that blocks stalls only its own case, which its deadline then ends.
* :func:`run_case`: a static case's user turns (a :class:`ScriptedUser`) or a scenario case's
  :class:`LlmSimulatedUser`, ``num_runs`` times.
* tool recording and replay: with ``tool_recorder=`` (a
  :class:`~agent_evaluators.agents.tool_replay.ToolRecorder`), :func:`run_case` and
  :func:`agent_producer` put a Runner plugin first among the App's plugins that records each tool
  call of the case, or answers it from the recording so no tool runs (:mod:`.adk_tool_plugin`);
* :func:`agent_producer`: :func:`run_case` as the eval-set runner's producer
  (``run_eval_sets(producer=...)``): the engine runs the agent once per case and run, under
  its concurrency, and keeps the simulated user's records in the row.

google-adk is imported only inside these functions (the ``adk`` extra); without it a
:class:`ConfigError` says how to install it.
"""

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Awaitable, Dict, List, Mapping, Optional, Tuple, Union

from .._util.install_hint import install_hint
from .._util.validators import positive_int
from ..agents.recordings import RECORD, ToolSession
from ..agents.simulation import LlmSimulatedUser, ScriptedUser, SimulatedUser
from ..agents.tool_replay import ToolRecorder
from ..errors import ConfigError
from ..run_context import current
from ..wording import Option, Text
from .tool_plugin import tool_recording_plugin

DEFAULT_APP_NAME = "EvaluationGenerator"  # ADK's defaults when a case has no session_input
DEFAULT_USER_ID = "test_user_id"
#: threads for synchronous tools, shared by the cases running at once (ADK's default is 4)
TOOL_THREADS = 16
INSTALL_HINT = install_hint("adk")


def require_adk() -> None:
    """Raise :class:`ConfigError` with the install command when google-adk is missing."""
    try:
        importlib.import_module("google.adk.runners")
    except ImportError as exc:
        raise ConfigError(f"running ADK agents needs google-adk: {INSTALL_HINT} ({exc})") from None


def load_agent(agent: Union[str, Path, ModuleType, Any]) -> Tuple[Any, Any]:
    """(root agent, App or ``None``) from a package folder, a dotted module name, a module or an agent."""
    require_adk()
    from google.adk.agents import BaseAgent

    if isinstance(agent, BaseAgent):
        return agent, None
    module: Any
    if isinstance(agent, ModuleType):
        module = agent
    elif isinstance(agent, Path) or (isinstance(agent, str) and (Path(agent).is_dir() or "/" in agent)):
        folder = Path(agent).resolve()
        if not (folder / "__init__.py").is_file() and not (folder / "agent.py").is_file():
            raise ConfigError(f"{folder}: not an ADK agent package (no __init__.py or agent.py); "
                              "point at the folder whose agent.py defines root_agent")
        if str(folder.parent) not in sys.path:
            sys.path.insert(0, str(folder.parent))
        module = importlib.import_module(folder.name)
    elif isinstance(agent, str):
        module = importlib.import_module(agent)
    else:
        raise ConfigError(f"agent must be an agent package folder, a module name or a module, got {type(agent).__name__}")
    holder = getattr(module, "agent", None)
    if not isinstance(holder, ModuleType):
        try:
            holder = importlib.import_module(f"{module.__name__}.agent")
        except ImportError:
            holder = module
    app = getattr(holder, "app", None)
    from google.adk.apps import App

    if isinstance(app, App):
        return app.root_agent, app
    root = getattr(holder, "root_agent", None)
    if root is None:
        raise ConfigError(f"{module.__name__}: no root_agent in {holder.__name__} (ADK loads <package>.agent.root_agent)")
    return root, None


class CaseRun(list):  # type: ignore[type-arg]
    """One run of a case: its invocations (it *is* that list), plus ``simulator_records``: what the
    simulated user did per turn (text, source, stop status, judge usage; empty for a static case),
    so a result file or report can show the whole simulated conversation and its cost, and
    ``final_state``: the session state the agent left (``final_state_match`` compares it with the
    case's ``final_session_state``)."""

    def __init__(self, invocations: List[Any], simulator_records: Optional[List[Dict[str, Any]]] = None,
                 final_state: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(invocations)
        self.simulator_records: List[Dict[str, Any]] = list(simulator_records or [])
        self.final_state = final_state


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json", exclude_none=True) if hasattr(value, "model_dump") else value


def _details_plugin() -> Any:
    """A plugin that records, per invocation, each agent's instructions and tool declarations."""
    from google.adk.plugins.base_plugin import BasePlugin

    class _AppDetailsPlugin(BasePlugin):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(name="agent_evaluators_app_details")
            self.by_invocation: Dict[str, Dict[str, Any]] = {}

        async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
            agents = self.by_invocation.setdefault(callback_context.invocation_id, {})
            name = callback_context.agent_name
            if name not in agents:
                instructions = llm_request.config.system_instruction if llm_request.config else None
                if not isinstance(instructions, str):
                    instructions = " ".join(p.text for p in getattr(instructions, "parts", None) or [] if p.text)
                tools = [_plain(t) for t in (llm_request.config.tools or [])] if llm_request.config else []
                agents[name] = {"name": name, "instructions": instructions or "", "tool_declarations": tools}
            return None

    return _AppDetailsPlugin()


def _to_invocation(invocation_id: str, user_content: Any, events: List[Any], details: Optional[Dict[str, Any]],
                   timing: Optional[Dict[str, Optional[float]]] = None) -> Any:
    """ADK's ``convert_events_to_eval_invocations`` for one invocation, into our models: each kept
    event with its ``usage_metadata`` and ``model_version`` (what the efficiency metrics count),
    and the turn's ``timing`` (``duration``, ``model_duration``, ``tool_duration``)."""
    from .models import Invocation

    final: Any = None
    final_event: Any = None
    kept = []
    for event in events:
        content = event.content
        if not content or not content.parts:
            continue
        if event.is_final_response():
            final, final_event = content, event
        if any(p.function_call or p.function_response or p.text for p in content.parts):
            kept.append(event)
    recorded = [{"author": e.author,
                 "content": _plain(e.content) if e is not final_event or e.get_function_calls() else None,
                 "usage_metadata": _plain(e.usage_metadata) if e.usage_metadata is not None else None,
                 "model_version": e.model_version}
                for e in kept]
    data: Dict[str, Any] = {
        "invocation_id": invocation_id,
        "user_content": _plain(user_content),
        "final_response": _plain(final) if final is not None else None,
        "intermediate_data": {"invocation_events": recorded},
    }
    if details:
        data["app_details"] = {"agent_details": details}
    data.update({k: v for k, v in (timing or {}).items() if v is not None})
    return Invocation.model_validate(data)


def _busy_intervals() -> Any:
    """ADK's own collector of the time a turn spent awaiting models and inside tools (what its
    eval runner measures ``model_duration`` / ``tool_duration`` with); a no-op where this
    google-adk has none, leaving the split unmeasured (``None``), never 0."""
    import contextlib

    try:
        from google.adk.telemetry import _instrumentation

        return _instrumentation.collect_busy_intervals()
    except (ImportError, AttributeError):
        return contextlib.nullcontext(None)


async def _timed_turn(runner: Any, run_config: Any, user_id: str, session_id: str, content: Any
                      ) -> Tuple[List[Any], Optional[str], Dict[str, Optional[float]]]:
    """One turn's events, its invocation id and its timing, measured as ADK's eval runner does:
    wall-clock seconds of the agent's work (the simulated user's turnaround stays outside),
    split into model and tool time, rounded to milliseconds."""
    import time

    events: List[Any] = []
    invocation_id = None
    started = time.monotonic()
    with _busy_intervals() as busy:
        async for event in runner.run_async(user_id=user_id, session_id=session_id, new_message=content,
                                            run_config=run_config):
            invocation_id = invocation_id or event.invocation_id
            events.append(event)
    timing: Dict[str, Optional[float]] = {"duration": round(time.monotonic() - started, 3)}
    if busy is not None:
        timing["model_duration"] = round(busy.model_seconds(), 3)
        timing["tool_duration"] = round(busy.tool_seconds(), 3)
    return events, invocation_id, timing


def _history(invocations: List[Any]) -> List[Dict[str, Any]]:
    """The invocations so far as messages, for the simulated user."""
    from .convert import final_response_text, user_text

    out: List[Dict[str, Any]] = []
    for inv in invocations:
        out.append({"role": "user", "content": user_text(inv)})
        out.append({"role": "assistant", "content": final_response_text(inv)})
    return out


async def run_invocations(root_agent: Any, user: SimulatedUser, *, session_input: Any = None, app: Any = None,
                          tools: Optional[ToolSession] = None) -> "CaseRun":
    """Run ``root_agent`` with ADK's ``Runner`` for every turn ``user`` gives; one ``Invocation`` per
    turn, in a :class:`CaseRun` whose ``final_state`` is the session state after the last turn.

    ``tools``: a case's tool session; its plugin (first among the App's) records every tool call
    or serves it from the recording (:mod:`.adk_tool_plugin`).
    """
    require_adk()
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    session_data: Mapping[str, Any] = _plain(session_input) if session_input is not None else {}
    app_name = session_data.get("app_name") or DEFAULT_APP_NAME
    user_id = session_data.get("user_id") or DEFAULT_USER_ID
    sessions = InMemorySessionService()
    session = await sessions.create_session(app_name=app_name, user_id=user_id,
                                            state=dict(session_data.get("state") or {}),
                                            session_id=session_data.get("session_id"))
    plugin = _details_plugin()
    # the tool plugin goes first: it answers a replayed call before any other plugin, and records
    # the tool's own result before any other after-tool callback changes it
    first = [tool_recording_plugin(tools)] if tools is not None else []
    if app is not None:  # as ADK: a copy of the App (its plugins and settings kept) running root_agent
        app = app.model_copy(update={"plugins": first + list(app.plugins or []) + [plugin], "root_agent": root_agent})
        runner = Runner(app=app, app_name=app_name, session_service=sessions)
    else:  # an App carries the plugin (Runner's plugins= is deprecated); the session keeps the case's app name
        from google.adk.apps import App

        app = App(name="agent_evaluators_run", root_agent=root_agent, plugins=first + [plugin])
        runner = Runner(app=app, app_name=app_name, session_service=sessions)
    from google.adk.agents.run_config import RunConfig, ToolThreadPoolConfig

    run_config = RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=TOOL_THREADS))
    invocations: List[Any] = []
    async with runner:
        while True:
            turn = await user.next_turn(_history(invocations))
            if not turn.is_message:
                break
            if tools is not None:
                tools.turn = len(invocations)
            content = types.Content(role="user", parts=[types.Part(text=turn.text)])
            events, invocation_id, timing = await _timed_turn(runner, run_config, user_id, session.id, content)
            invocation_id = invocation_id or f"turn-{len(invocations) + 1}"
            invocations.append(_to_invocation(invocation_id, content, events, plugin.by_invocation.get(invocation_id),
                                              timing))
        final = await sessions.get_session(app_name=app_name, user_id=user_id, session_id=session.id)
    return CaseRun(invocations, final_state=_plain_state(final.state if final is not None else session.state))


def _plain_state(state: Any) -> Dict[str, Any]:
    """The session state as JSON data (ADK keeps ``temp:`` keys out of a stored session)."""
    import json

    return {str(k): json.loads(json.dumps(v, default=str)) for k, v in dict(state or {}).items()}


async def run_case(agent: Any, case: Any, *, simulator_model_config: Any = None,
                   user_simulator_config: Optional[Mapping[str, Any]] = None, num_runs: int = 1,
                   tool_recorder: Optional[ToolRecorder] = None, eval_set_id: Optional[str] = None) -> List[CaseRun]:
    """What the agent does for ``case``, ``num_runs`` times: a list of runs, each a list of invocations
    (a :class:`CaseRun`, which also carries the simulated user's per-turn records).

    ``agent``: anything :func:`load_agent` takes, or a ``(root_agent, app)`` pair. A static case
    sends its conversation's user turns in order; a ``conversation_scenario`` case is driven by
    an :class:`LlmSimulatedUser` on ``simulator_model_config`` with ``user_simulator_config``
    (its ``model`` and ``max_allowed_invocations``). A failing agent or simulator turn raises.

    ``tool_recorder``: record every tool call of the case into its file
    (``<dir>/<eval_set_id>/<eval_id>.json``), or serve them from it without running any tool;
    a call that is not in the recording raises :class:`InputError` naming the case and the call.
    """
    positive_int("num_runs", num_runs)
    if tool_recorder is not None and tool_recorder.mode == RECORD and num_runs > 1:
        raise ConfigError(Text("a tool recording keeps one run per case: record with {one}, then replay any number "
                               "of runs", one=Option("num_runs", 1)))
    root, app = agent if isinstance(agent, tuple) else load_agent(agent)
    runs = []
    for _ in range(num_runs):
        user: SimulatedUser
        if case.conversation_scenario is not None:
            user = LlmSimulatedUser.from_scenario(case.conversation_scenario, model_config=simulator_model_config,
                                                  user_simulator_config=user_simulator_config)
        else:
            from .convert import user_text

            user = ScriptedUser([user_text(inv) for inv in case.conversation])
        tools = tool_recorder.session(case.eval_id, eval_set_id=eval_set_id) if tool_recorder else None
        invocations = await _run_with_tools(tools, run_invocations(root, user, session_input=case.session_input,
                                                                   app=app, tools=tools))
        runs.append(CaseRun(invocations, getattr(user, "records", None), getattr(invocations, "final_state", None)))
    return runs


async def _run_with_tools(tools: Optional[ToolSession], run: Awaitable["CaseRun"]) -> "CaseRun":
    """``run`` inside the case's tool session (see :meth:`ToolSession.guard`)."""
    if tools is None:
        return await run
    with tools.guard():
        return await run


def agent_producer(agent: Any, *, simulator_model_config: Any = None, agent_name: Optional[str] = None,
                   tool_recorder: Optional[ToolRecorder] = None) -> Any:
    """A producer (``async (case, config) -> invocations``) running ``agent`` on each case.

    The agent is loaded once, here, so a broken agent package fails before any case runs.
    ``agent_name`` runs that sub-agent of the root agent instead (ADK's ``agent_name``).
    Scenario cases use the eval set's ``user_simulator_config`` (model, turn limit) and
    ``simulator_model_config`` (the judge, unless the config names another model). The result
    of each call is a :class:`CaseRun`, so the runner keeps ``simulator_records`` in the row.
    ``tool_recorder`` records or replays every case's tool calls (see :func:`run_case`), each
    case's file under its eval set's id.
    """
    root, app = agent if isinstance(agent, tuple) else load_agent(agent)
    if agent_name:
        found = root.find_agent(agent_name)
        if found is None:
            raise ConfigError(f"Sub-Agent {agent_name!r} not found in {root.name!r}")
        root, app = found, None

    async def produce(case: Any, config: Any) -> CaseRun:
        (run,) = await run_case((root, app), case, simulator_model_config=simulator_model_config,
                                user_simulator_config=config.user_simulator_config, num_runs=1,
                                tool_recorder=tool_recorder, eval_set_id=current().eval_set_id)
        return run

    produce.runs_agent = True  # type: ignore[attr-defined]  # the runner appends ADK's efficiency metrics
    return produce
