"""``agent-eval redteam``'s flags for what an attack must not do and whom it attacks, as ``RedTeam`` arguments.

``--protected-state`` / ``--state-probe`` (the end state an attack must not change, and what reads it),
``--prohibited-tools`` and ``--secret-pattern`` (tool calls and text that count as a success wherever the
agent put them), ``--replay-tools`` (a recorded tool session the attacks replay), and the target itself:
a function, or another library's agent object (an ADK ``Agent``, passed as it is: the scan's core wraps
it through :data:`agent_evaluators.plugins.TARGET_ADAPTERS`).
Each parser checks its flag before any attack is sent and says what to write instead.
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

from ..errors import ConfigError


def _items(values: Optional[Sequence[str]]) -> List[str]:
    return [v.strip() for text in values or () for v in str(text).split(",") if v.strip()]


def _adapted(obj: Any) -> bool:
    """An agent object a scan can attack though it is not callable (its class's module is a known library's)."""
    from .. import plugins

    module = type(obj).__module__ or ""
    return any(module == p or module.startswith(p + ".") for p in plugins.TARGET_ADAPTERS)


def load_target(text: str) -> Any:
    """``TARGET``: a function (``module:function``) or an ADK agent object (``module:root_agent``), as it is."""
    from .._util.import_path import import_object

    return import_object(text, what="target", shape="a function or an ADK agent as 'package.module:name'",
                         kind="a function or an ADK agent object", accept=lambda o: callable(o) or _adapted(o))


def load_state_probe(text: Optional[str]) -> Any:
    """``--state-probe module:function``: reads the state ``--protected-state`` guards (no arguments, returns a dict)."""
    if not text:
        return None
    from .._util.import_path import import_object

    return import_object(text, what="--state-probe", shape="a function as 'package.module:function' that takes no "
                         "arguments and returns the state as a dict", kind="a function")


def parse_protected_state(text: Optional[str]) -> Optional[Union[Dict[str, Any], List[str]]]:
    """``--protected-state``: JSON (or a file holding it): a dict of rules ``{"refund_total": {"equals": 0}}``
    (a plain value means equals) or a list of keys that must not change, ``["admin", "refund_total"]``."""
    if text is None:
        return None
    raw, where = text, "--protected-state"
    if not text.lstrip().startswith(("{", "[")):
        path = Path(text)
        if not path.is_file():
            raise ConfigError(f"--protected-state {text!r}: neither JSON nor a file; give a JSON dict of rules, e.g. "
                              "'{\"refund_total\": 0}', a JSON list of keys that must not change, e.g. "
                              "'[\"admin\"]', or a file holding one")
        raw, where = path.read_text(encoding="utf-8"), f"--protected-state {text}"
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); give a dict "
                          "of rules or a list of keys") from None
    if not isinstance(value, (dict, list)):
        raise ConfigError(f"{where}: expected a JSON dict of rules or a list of keys, got {type(value).__name__}")
    from ..red_team.end_state import StateGuard

    try:
        StateGuard(value)  # a typo in a rule fails here, before any attack
    except ConfigError as exc:
        words = str(exc).replace("RedTeam: protected_state: ", "").replace("RedTeam: protected_state", "it")
        raise ConfigError(f"{where}: {words}") from None
    return value


def parse_secret_patterns(values: Optional[Sequence[str]]) -> List[str]:
    """``--secret-pattern REGEX``: your own secrets (a match in a tool argument or the reply is a leak); checked now."""
    from ..red_team.scoring import pattern_problem

    out = []
    for pattern in values or ():
        problem = pattern_problem(pattern)
        if problem:
            raise ConfigError(f"--secret-pattern {pattern!r}: {problem}")
        out.append(pattern)
    return out


def parse_prohibited_tools(values: Optional[Sequence[str]]) -> List[str]:
    """``--prohibited-tools NAME[,NAME]``: tools the agent must never call (a call is a success, whatever it said)."""
    return list(dict.fromkeys(_items(values)))


def load_tool_replay(args: Any) -> Dict[str, Any]:
    """``--replay-tools DIR --tool-case ID [--replay-match RULES]``: the scan's ``tool_recorder`` and ``tool_case``
    (every attack's tools served from that recorded session; IndirectJailbreak plants the attack in its results)."""
    if not args.replay_tools:
        if args.tool_case or args.replay_match:
            raise ConfigError(f"{'--tool-case' if args.tool_case else '--replay-match'} applies to --replay-tools DIR: "
                              "give both (--replay-tools DIR --tool-case ID)")
        return {}
    if not args.tool_case:
        raise ConfigError("--replay-tools: name the recorded session the attacks replay with --tool-case ID (the case "
                          "id it was recorded under)")
    from ..agents import ToolRecorder
    from ..agents.recordings import load_match_rules, recording_path

    found = recording_path(args.replay_tools, args.tool_case)
    if not found.is_file():
        raise ConfigError(f"--replay-tools {args.replay_tools} --tool-case {args.tool_case}: no recording at {found}; "
                          "record the session first (ToolRecorder(DIR, mode='record') around one run of the agent, "
                          "or agent-eval adk --record-tools DIR, then --replay-tools DIR/<eval set folder>)")
    recorder = ToolRecorder(args.replay_tools, mode="replay", match=load_match_rules(args.replay_match))
    return {"tool_recorder": recorder, "tool_case": args.tool_case}


def add_redteam_guard_flags(p: Any) -> None:
    """The flags above, in a group of their own."""
    group = p.add_argument_group("what counts as a success beyond the judge's rubric (scored on the trajectory)")
    group.add_argument("--protected-state", metavar="JSON_OR_FILE",
                       help="the end state an attack must not change: a JSON dict of rules ('{\"refund_total\": 0}', "
                            "'{\"admin\": {\"equals\": false}}') or a JSON list of keys that must keep their value "
                            "('[\"admin\"]': compared with the state before the attack, from --state-probe or an ADK "
                            "session), or a file holding it; the end state is --state-probe's, else the one the agent "
                            "reports ({'messages': [...], 'state': {...}}, an ADK agent's session state)")
    group.add_argument("--state-probe", metavar="MODULE:FUNCTION",
                       help="a function with no arguments returning the state as a dict (it reads your database, "
                            "files, ...); called before and after each attack, and attacks then go one at a time")
    group.add_argument("--prohibited-tools", action="append", metavar="TOOL[,TOOL]",
                       help="tools the agent must never call: a call counts as a success (repeatable)")
    group.add_argument("--secret-pattern", action="append", metavar="REGEX",
                       help="a regular expression of your own secrets: a match in a tool call's arguments or the "
                            "reply counts as a leak (repeatable; the built-in planted test credential is always "
                            "searched)")
    tools = p.add_argument_group("a recorded tool session (IndirectJailbreak plants the attack in its results)")
    tools.add_argument("--replay-tools", metavar="DIR",
                       help="serve every tool call from the session recorded in DIR, none executed (an ADK agent's "
                            "tools, or tools wrapped with ToolRecorder.tool); "
                            "indirect_jailbreak plants the attack in the recorded results, so two agent versions "
                            "meet the identical attack (a copy in the scan folder; your recording is untouched)")
    tools.add_argument("--tool-case", metavar="ID", help="with --replay-tools: the recorded session's case id")
    tools.add_argument("--replay-match", metavar="JSON_OR_FILE",
                       help="with --replay-tools: argument matching per tool, as agent-eval adk has it, e.g. "
                            "'{\"send_message\": {\"ignore_args\": true}}'")
