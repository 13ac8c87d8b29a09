"""Attack rows and sending them: what the scan's engine target does with one row.

Building a row (before the run) applies the text strategies -- the converters
(:mod:`.converters`) and the Jailbreak wrappers -- in the order given, so
``attacks.jsonl`` holds the exact text of every attack that needs no model. Sending one (the
engine's target, :class:`SendAttack`) applies what needs the attacker model (Tense, MultiTurn,
Crescendo) and the delivery (IndirectJailbreak: the attack inside a tool result), drives the
user's target through :class:`~.targets.TargetDriver`, and returns the conversation. A target that
raises is an outcome (``target_status: "error"``), not a crashed row.
"""

import asyncio
import json
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import ConfigError, JudgeError
from . import attacker
from .converters import convert
from .end_state import as_state
from .jailbreaks import INDIRECT_DOCUMENT, INDIRECT_TASK, wrap
from .journal import SendSession
from .strategies import ATTACKER_STRATEGIES, DELIVERY_STRATEGIES
from .targets import CALLBACK, MESSAGES, TargetDriver, assistant_text, maybe_async

#: what the send step returns (and the journal keeps for a resume)
OUTPUT_KEYS = ("objective", "conversation", "response", "target_status", "target_problem", "initial_state", "final_state")

#: turns of a MultiTurn / Crescendo attack (the attacker writes every user turn)
MAX_TURNS = 3


def build_prompt(strategies: Sequence[str], objective: str, *, index: int) -> str:
    """The attack text after every strategy that needs no model, in order."""
    text = objective
    for s in strategies:
        if s == "tense":
            break  # the attacker model rewrites when the attack is sent (SendAttack), then the rest apply
        if s == "baseline" or s in ATTACKER_STRATEGIES or s in DELIVERY_STRATEGIES:
            continue
        text = wrap(text, index) if s == "jailbreak" else convert(s, text, seed=index)
    return text


def _inject(result: Any, attack: str) -> Any:
    """A recorded tool result with the attack planted in it."""
    planted = INDIRECT_DOCUMENT.format(prompt=attack)
    if isinstance(result, str):
        return f"{result}\n{planted}"
    if isinstance(result, dict):
        return {**result, "note": planted}
    return {"result": result, "note": planted}


class SendAttack:
    """The engine's target: sends one attack row to the user's target, at most once per scan."""

    def __init__(self, target: Any, *, judge: Any, journal: SendSession, run_folder: Path,
                 tool_recorder: Any = None, tool_case: Optional[str] = None, max_parallel: int = 5,
                 state_probe: Optional[Callable[[], Any]] = None, objectives: Any = None) -> None:
        self.driver = TargetDriver(target)
        #: reads the world's state before and after each attack (:mod:`.end_state`); ``None``: the target's own report
        self.state_probe = state_probe
        #: :class:`~.objectives.ObjectiveSession` for rows whose objective is generated as the run goes
        self.objectives = objectives
        self._states: Dict[int, Any] = {}  # per attack in flight (its history's id): the last state reported
        if state_probe is not None:
            max_parallel = 1  # a probe reads shared state: one attack at a time, so no change is read as another's
        #: at most ``max_parallel`` attacks at the target at once (the engine keeps more rows in flight)
        self._limiter = asyncio.Semaphore(max_parallel)
        self.judge = judge
        self.journal = journal
        self.run_folder = Path(run_folder)
        if tool_recorder is not None and (getattr(tool_recorder, "mode", None) != "replay" or not tool_case):
            raise ConfigError("scan: tool_recorder must be a ToolRecorder in mode='replay' with tool_case= naming "
                              "the recorded case the attacks replay (record it first)", option="tool_recorder")
        self.tool_recorder = tool_recorder
        self.tool_case = tool_case

    async def __call__(self, *, attack_id: str, prompt: Optional[str], objective: Optional[str],
                       strategies: List[str], attack_index: int, risk_category: str) -> Dict[str, Any]:
        if objective is None:  # generated from the scenario now, inside the run (its budget, its dry run)
            from .strategies import RiskCategory

            found = await self.objectives.get(RiskCategory(risk_category), attack_index)
            if found is None:
                return {"objective": None, "conversation": [], "response": "", "target_status": "error",
                        "target_problem": f"no objective {attack_index} for {risk_category}: the scenario gave too "
                                          "few and the built-in set has 10; lower num_objectives",
                        "initial_state": None, "final_state": None}
            objective, prompt = found.text, build_prompt(strategies, found.text, index=attack_index)
        before = self.journal.previous(attack_id)
        if before is not None:
            if before["event"] == "interrupted":
                return {"objective": objective, "conversation": [], "response": "", "target_status": "interrupted",
                        "target_problem": "interrupted: the attack was sent before the scan was stopped and is "
                                          "not sent twice", "initial_state": None, "final_state": None}
            return {**{k: before.get(k) for k in OUTPUT_KEYS}, "objective": objective}
        async with self._limiter:
            return await self._send(attack_id, str(prompt), objective, strategies, attack_index)

    async def _send(self, attack_id: str, prompt: str, objective: str, strategies: List[str],
                    attack_index: int) -> Dict[str, Any]:
        text = prompt
        if "tense" in strategies:  # the row holds the text up to Tense; the attacker rewrites it, then the rest
            at = strategies.index("tense")
            text = build_prompt(strategies[at + 1:], await attacker.rewrite_past_tense(self.judge, text),
                                index=attack_index)
        initial = await self._probe() if self.state_probe else getattr(self.driver.target, "initial_state", None)
        self.journal.mark_sent(attack_id)
        history: List[Dict[str, Any]] = []
        try:
            if "multi_turn" in strategies or "crescendo" in strategies:
                await self._multi_turn(history, objective, text, crescendo="crescendo" in strategies)
            elif "indirect_jailbreak" in strategies:
                await self._indirect(history, attack_id, text)
            elif self.tool_recorder is not None and self.tool_case:  # the recorded session, replayed as recorded
                with self.tool_recorder.case(self.tool_case):
                    history.append({"role": "user", "content": text})
                    history.extend(await self._turn(history, 1))
            else:
                history.append({"role": "user", "content": text})
                history.extend(await self._turn(history, 1))
            final = await self._probe() if self.state_probe else self._states.pop(id(history), None)
            out = {"objective": objective, "conversation": history, "response": assistant_text(history),
                   "target_status": "ok",
                   "target_problem": None, "initial_state": as_state(initial, "the state before the attack"),
                   "final_state": as_state(final, "the target's end state")}
        except JudgeError:
            self._states.pop(id(history), None)
            raise  # the attacker model failed: the engine records it (not the target's fault)
        except Exception as exc:  # noqa: BLE001 - any failure of the user's target is an outcome
            self._states.pop(id(history), None)
            out = {"objective": objective, "conversation": history, "response": assistant_text(history),
                   "target_status": "error",
                   "target_problem": f"{type(exc).__name__}: {exc}", "initial_state": None, "final_state": None}
        self.journal.mark_replied(attack_id, out)
        return out

    async def _turn(self, history: List[Dict[str, Any]], turn: int) -> List[Dict[str, Any]]:
        """One exchange with the target; the last state it reported is kept as the attack's end state."""
        added, state = await self.driver.exchange(history, turn)
        if state is not None:
            self._states[id(history)] = state
        return added

    async def _probe(self) -> Any:
        """The user's ``state_probe`` reading (after the attack, a failing probe is the target's problem)."""
        return await maybe_async(self.state_probe)  # type: ignore[arg-type]

    async def _multi_turn(self, history: List[Dict[str, Any]], objective: str, first: str, *, crescendo: bool) -> None:
        for turn in range(1, MAX_TURNS + 1):
            if turn == 1 and not crescendo:
                message = first
            else:
                message = await attacker.next_attacker_turn(self.judge, objective, history, turn, MAX_TURNS,
                                                            crescendo=crescendo)
            history.append({"role": "user", "content": message})
            history.extend(await self._turn(history, turn))

    async def _indirect(self, history: List[Dict[str, Any]], attack_id: str, text: str) -> None:
        if self.tool_recorder is not None and self.tool_case:
            with self._injected_case(attack_id, text):
                history.append({"role": "user", "content": INDIRECT_TASK})
                history.extend(await self._turn(history, 1))
            return
        document = INDIRECT_DOCUMENT.format(prompt=text)
        if self.driver.kind in (MESSAGES, CALLBACK):
            history.extend([{"role": "user", "content": INDIRECT_TASK},
                            {"role": "assistant", "content": None, "tool_calls": [{
                                "id": "call_redteam_0", "type": "function",
                                "function": {"name": "read_document", "arguments": "{}"}}]},
                            {"role": "tool", "tool_call_id": "call_redteam_0", "name": "read_document",
                             "content": document}])
        else:
            history.append({"role": "user", "content": f"{INDIRECT_TASK}\n\n<document>\n{document}\n</document>"})
        history.extend(await self._turn(history, 1))

    def _injected_case(self, attack_id: str, text: str) -> Any:
        """The user's recorded tool session for ``tool_case``, copied with the attack planted in every
        tool result, replayed for this attack (so two agent versions get the identical attack)."""
        from ..agents import ToolRecorder
        from ..agents.recordings import recording_path

        source = recording_path(self.tool_recorder.directory, str(self.tool_case))
        doc = json.loads(source.read_text(encoding="utf-8"))
        case_id = f"{self.tool_case}--{attack_id}"
        doc["case_id"] = case_id
        doc.pop("eval_set_id", None)
        doc["calls"] = [{**c, "result": _inject(c.get("result"), text)} for c in doc.get("calls", [])]
        folder = self.run_folder / "indirect_recordings"
        target = recording_path(folder, case_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        return ToolRecorder(folder, mode="replay", match=self.tool_recorder.match).case(case_id)
