"""Tool recordings: what an agent's tools returned in one case, kept as plain JSON and served back.

An agent run that executes its tools against live systems cannot be repeated: a weather
service changes, a booking exists or not, a CI job depends on that system being up. A
recording keeps, per case, every tool call (tool name, arguments, result, order, the user
turn it came in) so a later run can be served the same results without executing any tool.
This module is the one format and the one matcher behind both ways of running an agent:
the ADK plugin (:mod:`.adk_tool_plugin`, ``agent-eval adk --record-tools/--replay-tools``)
and the wrapper for a Python agent's tool functions (:mod:`.tool_recorder`).

One file per case, ``DIR/<eval set>/<case>.json`` (``DIR/<case>.json`` without an eval set), where
each name is the id's file-safe characters and a hash of the whole id (``weather_paris-1f2e...json``),
so ids that differ only in characters a file name cannot hold get files of their own. The file names
the case it belongs to, and a replay refuses a recording of another case. It is readable and editable::

    {"format": "agent-evaluators/tool-recording", "version": 1,
     "eval_set_id": "weather", "case_id": "weather_paris",
     "match": {"get_weather": {"ignore_args": ["date"]}},        # optional, see MatchRules
     "calls": [{"index": 0, "turn": 0, "tool": "get_weather",
                "args": {"city": "Paris"}, "result": {"status": "ok", ...}}]}

Replay serves a call the first unused recorded call of the same tool whose arguments match
(exact by default), preferring one recorded in the same turn: repeated identical calls get
their results in recorded order. A call with no match is never executed and never passes: it
raises :class:`~agent_evaluators.errors.InputError` naming the case, the tool and the
arguments, and the session remembers it (:attr:`ToolSession.misses`), so a case whose agent
swallowed that error is still an error case.
"""

import hashlib
import json
import re
import threading
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Deque, Dict, Iterator, List, Mapping, Optional, Union

from ..errors import ConfigError, InputError
from ..trajectory.args import values_equal
from ..wording import Text

FORMAT = "agent-evaluators/tool-recording"
VERSION = 1
RECORD = "record"
REPLAY = "replay"
#: the ``match`` key that applies to every tool without its own rule
ANY_TOOL = "*"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def plain_json(value: Any) -> Any:
    """``value`` as plain JSON data (a pydantic model dumped, tuples as lists, anything else as text),
    so what is recorded, compared and served back is what the file holds."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json", exclude_none=True)
    return json.loads(json.dumps(value, default=str))


def _safe(name: str) -> str:
    return _UNSAFE.sub("_", name).strip(".") or "_"


def _file_name(name: str) -> str:
    """A file name unique to ``name``: its safe characters (readable, cut short) and a hash of the whole
    id, so ids that differ only in characters a file name cannot hold (``Zürich`` and ``Zérich``) differ."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{_safe(name)[:60].rstrip('.')}-{digest}"


def recording_path(directory: Union[str, Path], case_id: str, eval_set_id: Optional[str] = None) -> Path:
    """Where one case's recording lives: ``<readable prefix>-<hash of the id>.json`` (a folder named so
    per eval set), one file per case id."""
    folder = Path(directory)
    if eval_set_id:
        folder = folder / _file_name(eval_set_id)
    return folder / f"{_file_name(case_id)}.json"


def _legacy_path(directory: Union[str, Path], case_id: str, eval_set_id: Optional[str] = None) -> Path:
    """Where recordings made before file names held a hash live (``<safe id>.json``): still read in
    replay, the case id inside checked."""
    folder = Path(directory)
    if eval_set_id:
        folder = folder / _safe(eval_set_id)
    return folder / f"{_safe(case_id)}.json"


# ----------------------------------------------------------------------------- matching


@dataclass(frozen=True)
class _Rule:
    ignore_all: bool = False
    ignored: tuple = ()  # dotted key paths left out of the comparison


def _drop_path(args: Any, path: List[str]) -> Any:
    if not isinstance(args, Mapping) or path[0] not in args:
        return args
    out = dict(args)
    if len(path) == 1:
        del out[path[0]]
    else:
        out[path[0]] = _drop_path(out[path[0]], path[1:])
    return out


class MatchRules:
    """How a live call's arguments are compared with a recorded call's: exact by default.

    ``{"get_weather": {"ignore_args": ["date", "filters.since"]}, "search": {"ignore_args": true},
    "*": {"ignore_args": ["request_id"]}}``: per tool, ``ignore_args`` is ``true`` (ADK's
    ``ignore_args``: the tool name alone matches) or a list of (dotted) argument names left out
    of the comparison; ``"*"`` applies to every tool without its own rule. Values compare as the
    trajectory matchers do (``1 == 1.0``, a bool is not a number, nested values deep).
    """

    def __init__(self, rules: Optional[Mapping[str, Any]] = None, *, where: str = "match") -> None:
        self.raw: Dict[str, Any] = {}
        self._rules: Dict[str, _Rule] = {}
        if rules is None:
            return
        if not isinstance(rules, Mapping):
            raise ConfigError(f"{where} must map tool names (or \"*\") to {{\"ignore_args\": ...}}, "
                              f"got {type(rules).__name__}")
        for tool, rule in rules.items():
            self._rules[str(tool)] = self._parse(f"{where}[{tool!r}]", rule)
            self.raw[str(tool)] = rule

    @staticmethod
    def _parse(where: str, rule: Any) -> _Rule:
        if not isinstance(rule, Mapping) or set(rule) - {"ignore_args"}:
            raise ConfigError(f"{where} must be {{\"ignore_args\": true}} or {{\"ignore_args\": [\"arg\", ...]}}, "
                              f"got {rule!r}")
        ignore = rule.get("ignore_args", False)
        if isinstance(ignore, bool):
            return _Rule(ignore_all=ignore)
        if isinstance(ignore, list) and all(isinstance(p, str) and p for p in ignore):
            return _Rule(ignored=tuple(ignore))
        raise ConfigError(f"{where}: ignore_args must be true, false or a list of argument names, got {ignore!r}")

    def merged(self, other: "MatchRules") -> "MatchRules":
        """These rules with ``other``'s on top, tool by tool (a recording's own rules win over the run's)."""
        out = MatchRules()
        out.raw = {**self.raw, **other.raw}
        out._rules = {**self._rules, **other._rules}
        return out

    def _rule(self, tool: str) -> _Rule:
        return self._rules.get(tool) or self._rules.get(ANY_TOOL) or _Rule()

    def matches(self, tool: str, recorded: Any, actual: Any) -> bool:
        rule = self._rule(tool)
        if rule.ignore_all:
            return True
        for path in rule.ignored:
            recorded = _drop_path(recorded, path.split("."))
            actual = _drop_path(actual, path.split("."))
        if recorded is None or actual is None:
            return recorded is None and actual is None
        return values_equal(recorded, actual)

    def key(self, tool: str, args: Any) -> Any:
        """A hashable stand-in for ``args`` under this tool's rule: two argument values have the same key
        exactly when :meth:`matches` holds between them (JSON data: numbers by value, a bool no number)."""
        rule = self._rule(tool)
        if rule.ignore_all:
            return None
        for path in rule.ignored:
            args = _drop_path(args, path.split("."))
        return _value_key(args)


def _value_key(value: Any) -> Any:
    """:func:`~agent_evaluators.trajectory.args.values_equal` as a hashable key (``1`` and ``1.0`` are one
    key, ``True`` is not; NaN matches nothing, here as there, since it equals nothing)."""
    if isinstance(value, bool) or value is None:
        return ("const", value)
    if isinstance(value, (int, float)):
        return ("number", value)  # Python's own int/float equality and hash agree: 1 == 1.0
    if isinstance(value, Mapping):
        return ("object", frozenset((k, _value_key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("list", tuple(_value_key(v) for v in value))
    if isinstance(value, str):
        return ("text", value)
    return ("other", repr(value))


class _Bucket:
    """The unserved recorded calls with one tool and one argument key: in recorded order, and per turn.
    Served ones are dropped from the front as they are met, so each is passed over at most twice."""

    __slots__ = ("order", "by_turn")

    def __init__(self) -> None:
        self.order: Deque[int] = deque()
        self.by_turn: Dict[Any, Deque[int]] = {}

    def add(self, index: int, turn: Any) -> None:
        self.order.append(index)
        self.by_turn.setdefault(_turn_key(turn), deque()).append(index)

    def take(self, turn: int, used: set) -> Optional[int]:
        """The first unserved call of this turn, else the first unserved call (``None``: all served)."""
        for queue in (self.by_turn.get(_turn_key(turn)), self.order):
            while queue and queue[0] in used:
                queue.popleft()
            if queue:
                return queue[0]
        return None


def _turn_key(turn: Any) -> Any:
    """``turn`` as a dict key that is equal where the turns are (an edited file may hold anything)."""
    try:
        hash(turn)
    except TypeError:
        return ("unhashable", repr(turn))
    return turn


def load_match_rules(text_or_path: Optional[str]) -> MatchRules:
    """``--replay-match``: inline JSON, or a ``.json`` / ``.yaml`` file holding the rules
    (either the rules themselves or ``{"match": {...}}``)."""
    if not text_or_path:
        return MatchRules()
    source = text_or_path
    if not text_or_path.lstrip().startswith("{"):
        path = Path(text_or_path)
        if not path.is_file():
            raise ConfigError(f"--replay-match {text_or_path}: no such file (give a JSON/YAML file or inline JSON)")
        source = path.read_text(encoding="utf-8")
    try:
        if text_or_path.endswith((".yaml", ".yml")):
            import yaml

            data = yaml.safe_load(source)
        else:
            data = json.loads(source)
    except Exception as exc:  # noqa: BLE001 - json and yaml raise different errors
        raise ConfigError(f"--replay-match {text_or_path}: not valid JSON/YAML: {exc}") from None
    if isinstance(data, Mapping) and set(data) == {"match"}:
        data = data["match"]
    return MatchRules(data, where="--replay-match")


# ----------------------------------------------------------------------------- one case


@dataclass
class ToolSession:
    """One case's tool calls in one run: recorded as they happen, or served from its recording.

    ``turn`` is the user turn (0-based invocation index) the agent is answering; the runner
    moves it on before each turn. ``finish()`` ends the session: a recording is written, a
    replay with an unmatched call raises.
    """

    mode: str
    path: Path
    case_id: str
    eval_set_id: Optional[str] = None
    match: MatchRules = field(default_factory=MatchRules)
    calls: List[Dict[str, Any]] = field(default_factory=list)
    turn: int = 0
    misses: List[str] = field(default_factory=list)
    served: int = 0
    _used: set = field(default_factory=set, repr=False)
    _index: Optional[Dict[Any, "_Bucket"]] = field(default=None, repr=False)
    #: where this case's recording was written before file names held a hash
    _legacy: Optional[Path] = field(default=None, repr=False)
    #: a Python agent may call its tools from several threads at once
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def start(cls, mode: str, directory: Union[str, Path], case_id: str, *, eval_set_id: Optional[str] = None,
              match: Optional[MatchRules] = None) -> "ToolSession":
        """A session for ``case_id``; in replay its recording must exist (else :class:`InputError`)."""
        if mode not in (RECORD, REPLAY):
            raise ConfigError(f"tool recording mode must be {RECORD!r} or {REPLAY!r}, got {mode!r}")
        path = recording_path(directory, case_id, eval_set_id)
        legacy = _legacy_path(directory, case_id, eval_set_id)
        if mode == REPLAY and not path.exists() and legacy.is_file():
            path = legacy
        session = cls(mode, path, case_id, eval_set_id, match or MatchRules())
        session._legacy = legacy
        if mode == REPLAY:
            session._load()
        return session

    @property
    def replaying(self) -> bool:
        return self.mode == REPLAY

    @property
    def label(self) -> str:
        return f"eval case {self.case_id!r}" + (f" of eval set {self.eval_set_id!r}" if self.eval_set_id else "")

    def _load(self) -> None:
        if not self.path.is_file():
            raise InputError(Text("{label} has no tool recording ({path} does not exist): record it first ({how})",
                                  label=self.label, path=self.path,
                                  how=Text.keyed("record-first", "{python}", python="agent-eval adk ... --record-tools "
                                                                                     "DIR, or ToolRecorder(DIR, mode='record')")),
                             input_name="replay-tools")
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{self.path}: the tool recording of {self.label} is not readable JSON: {exc}",
                             input_name="replay-tools") from None
        if not isinstance(data, Mapping):
            raise InputError(f"{self.path}: a tool recording is a JSON object, this file holds {type(data).__name__}",
                             input_name="replay-tools")
        owner = (data.get("case_id"), data.get("eval_set_id") or None)
        if owner != (self.case_id, self.eval_set_id or None):
            named = f"case {owner[0]!r}" + (f" of eval set {owner[1]!r}" if owner[1] else "")
            raise InputError(f"{self.path}: this tool recording belongs to {named}, not to {self.label}; a replay "
                             "never serves one case another's results. Re-record the case (--record-tools)",
                             input_name="replay-tools")
        calls = data.get("calls")
        if not isinstance(calls, list) or not all(isinstance(c, Mapping) and isinstance(c.get("tool"), str)
                                                  and isinstance(c.get("state_delta") or {}, Mapping) for c in calls):
            raise InputError(f"{self.path}: a tool recording needs \"calls\": a list of "
                             "{\"tool\": ..., \"args\": ..., \"result\": ...}", input_name="replay-tools")
        self.calls = [dict(c) for c in calls]
        self.match = self.match.merged(MatchRules(data.get("match"), where=f"{self.path}: match"))

    # ------------------------------------------------------------------ record

    def record(self, tool: str, args: Any, result: Any, *, invocation_id: Optional[str] = None,
               state_delta: Optional[Mapping[str, Any]] = None) -> None:
        """Keep one call; ``state_delta``: the session-state keys the tool set (an ADK tool's
        ``tool_context.state`` writes), which a replay sets again, since the tool will not run."""
        call: Dict[str, Any] = {"turn": self.turn}
        if invocation_id:
            call["invocation_id"] = invocation_id
        call.update(tool=tool, args=plain_json(args), result=plain_json(result))
        if state_delta:
            call["state_delta"] = plain_json(dict(state_delta))
        with self._lock:
            self.calls.append({"index": len(self.calls), **call})

    # ------------------------------------------------------------------ replay

    def serve(self, tool: str, args: Any) -> Any:
        """The recorded result for this call; :class:`InputError` (and a miss kept) when none matches."""
        return self.serve_call(tool, args).get("result")

    def serve_call(self, tool: str, args: Any) -> Dict[str, Any]:
        """The recorded call (result, and the ``state_delta`` it made) matching this one; as :meth:`serve`."""
        wanted = plain_json(args)
        with self._lock:
            if self._index is None:
                self._index = self._build_index()
            bucket = self._index.get((tool, self.match.key(tool, wanted)))
            at = None if bucket is None else bucket.take(self.turn, self._used)
            if at is None:
                message = self._miss_message(tool, wanted)
                self.misses.append(message)
                raise InputError(message, input_name="replay-tools")
            self._used.add(at)
            self.served += 1
            return self.calls[at]

    def _build_index(self) -> Dict[Any, "_Bucket"]:
        """The recorded calls grouped by tool and matching arguments, each group in recorded order: a
        served call is found in one look-up, so a replay is linear in the calls, not quadratic."""
        index: Dict[Any, _Bucket] = {}
        for i, call in enumerate(self.calls):
            tool = call["tool"]
            index.setdefault((tool, self.match.key(tool, call.get("args"))), _Bucket()).add(i, call.get("turn"))
        return index

    def _miss_message(self, tool: str, args: Any) -> str:
        shown = json.dumps(args, sort_keys=True)
        same_tool = [c for c in self.calls if c["tool"] == tool]
        served = [c for c in same_tool if self.match.matches(tool, c.get("args"), args)]
        if not same_tool:
            why = f"the recording has no call of {tool!r}"
        elif served:
            why = f"its {len(served)} recorded call(s) of {tool!r} with these arguments were already served"
        else:
            recorded = "; ".join(json.dumps(c.get("args"), sort_keys=True) for c in same_tool[:3])
            why = f"its recorded calls of {tool!r} have other arguments ({recorded})"
        return (f"{self.label}: tool call {tool}({shown}) in turn {self.turn + 1} is not in the recording "
                f"{self.path} ({why}); it was not executed. Re-record the case (--record-tools), or relax the "
                "argument matching (\"match\": {\"" + tool + "\": {\"ignore_args\": [...]}})")

    # ------------------------------------------------------------------ end

    def document(self) -> Dict[str, Any]:
        doc: Dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.eval_set_id:
            doc["eval_set_id"] = self.eval_set_id
        doc["case_id"] = self.case_id
        if self.match.raw:
            doc["match"] = self.match.raw
        doc["calls"] = self.calls
        return doc

    def finish(self) -> None:
        """Record: write the case's file. Replay: raise the first miss, if the agent swallowed it."""
        if self.replaying:
            if self.misses:
                raise InputError(self.misses[0], input_name="replay-tools")
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.document(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    def abandon(self) -> None:
        """A recording run that failed: remove the case's old file, so no replay serves stale results."""
        if not self.replaying:
            self.path.unlink(missing_ok=True)
            if self._legacy is not None and self._legacy.is_file() and self._legacy_case() == self.case_id:
                self._legacy.unlink(missing_ok=True)  # the same case under its old name would be served next

    def _legacy_case(self) -> Any:
        try:
            data = json.loads(self._legacy.read_text(encoding="utf-8")) if self._legacy else None
        except (OSError, ValueError):
            return None
        return data.get("case_id") if isinstance(data, Mapping) else None

    @contextmanager
    def guard(self) -> Iterator["ToolSession"]:
        """Run the case's agent inside: a clean end finishes the session (:meth:`finish`); on an error
        an unmatched replayed call is what is raised (in place of whatever the agent or ADK made of
        it), and a failed recording is abandoned (:meth:`abandon`)."""
        try:
            yield self
        except BaseException as exc:
            if self.misses:
                raise InputError(self.misses[0], input_name="replay-tools") from exc
            self.abandon()
            raise
        self.finish()
