"""A run's transcript, rebuilt from its model calls in start order, in time linear in what they hold.

Each model call's input usually replays the conversation so far; only what the transcript does
not hold yet is new, then the call's output is appended. Messages are matched by position, never
by text: a user who says "yes" twice said it twice. How a call's input lines up with the
transcript, tried in this order:

1. it starts with the whole transcript (the usual replay): what follows is new;
2. it is the start of the transcript (a retry, or a side call on the same history): nothing is new;
3. it holds the transcript's last messages as a block (a sliding window, a summary followed by
   the recent turns, an input of only the new messages that repeats the last answer): what
   follows the block is new;
4. otherwise what follows the part it shares with the transcript's start (all of it, for a
   framework that sends only new messages) is new.

The leading system (or developer) messages of each input are not part of that matching: a system
prompt that changes between calls (a timestamp in it) would otherwise make every call look like
a new conversation. The transcript keeps one system prompt, at the start: the latest one sent.

Why linear: a run of 4,000 model calls compared every message of the transcript at every call
(65 s); messages are now reduced to small integers once, and the block search is KMP.
"""

import bisect
import json
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .convention_messages import as_json_text

_SYSTEM_ROLES = ("system", "developer")


def _key(message: Dict[str, Any]) -> str:
    """A message compared without what only our transcript adds (usage)."""
    return json.dumps({k: v for k, v in message.items() if k != "usage"}, sort_keys=True)


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _after_block(transcript: Sequence[int], given: Sequence[int]) -> int:
    """Where the longest block of the transcript's last messages ends in ``given`` (its first
    place), or 0 when ``given`` holds not even the last message. KMP over both reversed."""
    m = min(len(transcript), len(given))
    if m == 0:
        return 0
    pattern = [transcript[len(transcript) - 1 - i] for i in range(m)]
    fail = [0] * m
    k = 0
    for i in range(1, m):
        while k and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    best = best_at = 0
    q = 0
    for i in range(len(given)):
        item = given[len(given) - 1 - i]
        while q and pattern[q] != item:
            q = fail[q - 1]
        if pattern[q] == item:
            q += 1
        if q and q >= best:
            best, best_at = q, i
        if q == m:
            q = fail[q - 1]
    if best == 0:
        return 0
    return len(given) - best_at + best - 1


class Transcript:
    """The transcript being rebuilt: the latest system prompt and the conversation after it."""

    def __init__(self) -> None:
        self.system: List[Dict[str, Any]] = []
        self.messages: List[Dict[str, Any]] = []
        self._codes: List[int] = []
        self._known: Dict[str, int] = {}

    def _code(self, message: Dict[str, Any]) -> int:
        return self._known.setdefault(_key(message), len(self._known))

    def _append(self, message: Dict[str, Any], code: Optional[int] = None) -> None:
        self.messages.append(message)
        self._codes.append(self._code(message) if code is None else code)

    def add_call(self, inputs: List[Dict[str, Any]], outputs: List[Dict[str, Any]], usage: Dict[str, int]) -> None:
        """One model call: what its input holds beyond the transcript, then its output (with its usage)."""
        lead = 0
        while lead < len(inputs) and inputs[lead].get("role") in _SYSTEM_ROLES:
            lead += 1
        if lead:
            self.system = list(inputs[:lead])
        given = inputs[lead:]
        codes = [self._code(m) for m in given]
        start = self._new_from(codes)
        for message, code in zip(given[start:], codes[start:]):
            self._append(message, code)
        for message in outputs:
            message = dict(message)
            if message.get("role") == "assistant" and usage:
                message["usage"] = dict(usage)
            self._append(message)

    def _new_from(self, given: List[int]) -> int:
        """Where the new messages of an input start (the module docstring's four cases)."""
        have = self._codes
        shared = _common_prefix(have, given)
        if shared == len(have) or shared == len(given):
            return shared
        block_end = _after_block(have, given)
        return block_end if block_end else shared

    def result(self) -> List[Dict[str, Any]]:
        return self.system + self.messages


def fill_tool_results(transcript: List[Dict[str, Any]], tools: List[Any]) -> List[Dict[str, Any]]:
    """``transcript`` with a tool message for each executed call whose result no message carries yet.

    Each tool run answers the first message (in transcript order) holding an unanswered call with
    its call id or, failing that, its tool name; its result goes after that message's tool
    results. Indexed once, so a run of thousands of tool calls is not a scan per call."""
    answered: Set[str] = {str(m.get("tool_call_id")) for m in transcript if m.get("role") == "tool"}
    by_id: Dict[str, List[Tuple[int, int]]] = {}
    by_name: Dict[str, List[Tuple[int, int]]] = {}
    calls: List[Dict[str, Any]] = []
    for index, message in enumerate(transcript):
        for call in message.get("tool_calls") or []:
            at = (index, len(calls))
            calls.append(call)
            by_id.setdefault(call["id"], []).append(at)
            by_name.setdefault(call["function"]["name"], []).append(at)
    cursor: Dict[str, int] = {}

    def first(places: List[Tuple[int, int]], key: Optional[str] = None) -> Optional[Tuple[int, int]]:
        """The first place whose call is still unanswered (a cursor skips the answered ones for good)."""
        i = cursor.get(key, 0) if key is not None else 0
        while i < len(places) and calls[places[i][1]]["id"] in answered:
            i += 1
        if key is not None:
            cursor[key] = i
        return places[i] if i < len(places) else None

    inserted: Dict[int, List[Dict[str, Any]]] = {}
    for run in tools:
        if run.result is None:
            continue
        by_call = first(by_id.get(run.call_id, []), "id:" + run.call_id) if run.call_id else None
        by_tool = first(by_name.get(run.name, []), "name:" + run.name)
        # the earlier message wins; within one message the call id beats the name (as the scan did)
        pick = by_call if by_call and (by_tool is None or by_call[0] <= by_tool[0]) else by_tool
        if pick is None:
            continue
        call = calls[pick[1]]
        end = pick[0]
        while end + 1 < len(transcript) and transcript[end + 1].get("role") == "tool":
            end += 1
        inserted.setdefault(end, []).append({"role": "tool", "tool_call_id": call["id"],
                                             "content": as_json_text(run.result)})
        answered.add(call["id"])
    if not inserted:
        return transcript
    out: List[Dict[str, Any]] = []
    for index, message in enumerate(transcript):
        out.append(message)
        out.extend(inserted.get(index, ()))
    return out


def tools_inside(tools: List[Any], trace_id: str, start_ns: int, end_ns: int,
                 by_trace: Dict[str, Tuple[List[int], List[Any]]]) -> List[Any]:
    """The tool runs of ``trace_id`` that started within ``[start_ns, end_ns]``, in their order.
    ``by_trace`` caches each trace's runs with their start times (``tools`` is in start order)."""
    if trace_id not in by_trace:
        runs = [t for t in tools if t.span.trace_id == trace_id]
        by_trace[trace_id] = ([t.span.start_ns for t in runs], runs)
    starts, runs = by_trace[trace_id]
    return runs[bisect.bisect_left(starts, start_ns):bisect.bisect_right(starts, end_ns)]
