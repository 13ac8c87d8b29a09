"""An ADK Runner plugin that records every tool call of a case, or answers it from the recording.

ADK lets a plugin's ``before_tool_callback`` return a tool's result, and then the tool is not
executed; ``after_tool_callback`` sees what a tool returned. So the user's agent stays as it
is: the runner puts this plugin first among the App's plugins for the case's run.

* record: after each tool call, the tool name, its arguments, the raw result it returned
  (before other plugins or the agent's own callbacks change it: they run again on replay) and
  the session-state keys it set (``state_delta``) go into the case's
  :class:`~.tool_recording.ToolSession`;
* replay: before each call, the session serves the recorded result and sets the recorded
  state keys again, so the case's end state is the live run's (a recorded ``None``
  becomes ``{"result": None}``, which is what ADK makes of a tool returning ``None``); a
  call with no match raises, so the tool never runs and the case ends in that error.

A sub-agent called as a tool (``AgentTool``) is not recorded or replayed itself: it runs,
so its own model and tools take part in the run as they would live.
"""

from typing import Any, Optional

from ..agents.recordings import ToolSession

PLUGIN_NAME = "agent_evaluators_tool_recording"


def _is_sub_agent(tool: Any) -> bool:
    from google.adk.tools.agent_tool import AgentTool

    return isinstance(tool, AgentTool)


def tool_recording_plugin(session: ToolSession) -> Any:
    """The plugin for one case's run (google-adk is imported here, inside the ``adk`` extra)."""
    from google.adk.plugins.base_plugin import BasePlugin

    class _ToolRecordingPlugin(BasePlugin):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(name=PLUGIN_NAME)

        async def before_tool_callback(self, *, tool: Any, tool_args: Any, tool_context: Any) -> Optional[Any]:
            if not session.replaying or _is_sub_agent(tool):
                return None
            call = session.serve_call(tool.name, dict(tool_args or {}))
            for key, value in (call.get("state_delta") or {}).items():
                tool_context.state[key] = value  # what the tool wrote to the session state, written again
            result = call.get("result")
            return {"result": None} if result is None else result

        async def after_tool_callback(self, *, tool: Any, tool_args: Any, tool_context: Any,
                                      result: Any) -> Optional[Any]:
            if not session.replaying and not _is_sub_agent(tool):
                actions = getattr(tool_context, "actions", None)
                session.record(tool.name, dict(tool_args or {}), result,
                               invocation_id=getattr(tool_context, "invocation_id", None),
                               state_delta=getattr(actions, "state_delta", None))
            return None

    return _ToolRecordingPlugin()
