"""A scan's result: :class:`RedTeamResult` (azure-ai-evaluation 1.18.10's shape) and its run folder.

The run folder (the contract the CLI and the HTML report read)
--------------------------------------------------------------

``RedTeam.scan()`` writes everything into ``<output_dir>/<scan_name>/`` (``scan_name`` defaults to
``redteam-<UTC yyyymmdd-HHMMSS>``; ``output_path=`` names the folder outright). The folder is an
ordinary run folder of the run engine, so ``resume``, the dry run, the budget caps and the judge
client's retries apply to a scan as to any run:

* ``attacks.jsonl`` -- the generated attack rows, one per (risk category, objective, strategy),
  written once before any attack is sent and reused as is on resume. Keys: ``attack_id``
  (stable: ``<strategy>/<risk_category>/<objective index>``), ``risk_category`` (value string,
  e.g. ``"violence"``), ``attack_technique`` (azure's strategy name: ``"baseline"``, ``"base64"``,
  a composition joined by ``_`` such as ``"tense_base64"``), ``attack_complexity`` (``"baseline"``,
  ``"easy"``, ``"moderate"``, ``"difficult"``), ``objective`` (the plain test objective),
  ``objective_id``, ``prompt`` (the objective after the text converters; attacker-model strategies
  rewrite it when the attack is sent), ``strategies`` (the strategy values applied, in order).
* ``objectives.json`` -- the objectives chosen per category (generated ones: written when the run
  generates them, inside its budget caps and dry run) (``{"<risk>": [{"risk_category", "text",
  "source": "builtin" | "custom" | "generated", "id"}]}``), kept so a resumed scan attacks with the same ones.
* ``rows.jsonl`` / ``summary.json`` -- the engine's files: one record per attack row; the target
  step's outputs are ``outputs.conversation`` (messages, tool calls included), ``outputs.response``,
  ``outputs.target_status`` (``"ok"`` | ``"error"`` | ``"interrupted"``), ``outputs.target_problem``
  (why not ok), ``outputs.initial_state`` / ``outputs.final_state`` (the state before and after the
  attack, for ``protected_state``: :mod:`.end_state`; ``null`` when none was read), ``outputs.objective``
  (the objective attacked; with an ``application_scenario`` it is generated during the run, so the
  row's ``objective`` and ``prompt`` are null in ``attacks.jsonl``); the scorer's cell is
  ``outputs.attack.*`` (``attack_success`` 1.0/0.0/None, ``outcome``, ``reason``, ``severity``,
  ``judge_usage``), so ``summary.json``'s ``attack.attack_success`` mean is
  the overall ASR over the scored attacks.
* ``indirect_recordings/`` -- only with ``tool_recorder=``: per IndirectJailbreak attack, the recorded
  tool session with the attack planted in its results (the user's recording is never changed).
* ``sent.jsonl`` -- the send journal: a line ``{"attack_id", "event": "sent"}`` is flushed before the
  target is called and ``{"attack_id", "event": "replied", "conversation", ...}`` after it answers.
  A resumed scan never sends an attack the journal says was sent: a reply on record is reused,
  and an attack sent but never answered (the process was killed in between) is counted as a
  ``target_error`` with the reason "interrupted".
* ``red_team.json`` -- :meth:`RedTeamResult.to_json`: azure 1.18.10's ``ScanResult`` document:
  ``scorecard``, ``parameters`` (``attack_objective_generated_from``, ``attack_complexity``,
  ``techniques_used``, ``attack_success_thresholds``), ``attack_details``, ``studio_url`` (null), plus ours:

  - each ``attack_details`` entry: azure's ``attack_success`` (true / false / null),
    ``attack_technique``, ``attack_complexity``, ``risk_category``, ``conversation``,
    ``risk_assessment``, ``attack_success_threshold``, and ``attack_success_reason`` (why it
    counted), ``outcome`` (``"success"`` | ``"defended"`` | ``"refused"`` | ``"target_error"`` |
    ``"judge_error"``; ``"not_scored"`` with ``skip_evals=True``), ``attack_id``, ``objective``;
  - in the scorecard every ``<x>_asr`` (a percentage, 0-100, rounded to 2 places as azure's;
    ``NaN`` written as ``null`` when nothing was scored) has siblings ``<x>_asr_interval``
    ``[lo, hi]`` (Wilson 95 %, same percent unit; ``null`` when n is 0) and ``<x>_asr_n`` (the
    attacks scored: successes + defended + refused). Target errors and judge errors are never
    in n: they are counted apart in the scorecard's ``outcome_counts``
    (``{"overall" | <risk category> | <attack technique>: {"success", "defended", "refused",
    "target_error", "judge_error"}}``);
  - the scorecard also has ``attack_technique_asr``: ``{<attack technique>: {"asr", "asr_interval",
    "asr_n", "total", "successful_attacks"}}`` (per strategy, paired: every strategy runs on the same
    objectives as ``baseline``);
  - ``scan``: ``{"scan_name", "run_folder", "target" (``"<kind>:<name>"``, kind one of text, callback,
    messages, model), "judge", "num_objectives", "strategies", "risk_categories", "language", "skip_evals"}``.

  Two scans of the same objectives pair attack by attack on ``attack_id`` (a paired comparison).
  A dry run (``scan(..., dry_run=True)``) writes no ``red_team.json``: its result is
  ``{"dry_run": true, "scan": {...}, "estimate": <the engine's estimate>}``.
"""

import json
import math
from typing import Any, Dict, List, Optional

#: the outcomes an attack can have; only the first three are scored (in an ASR's n)
OUTCOMES = ("success", "defended", "refused", "target_error", "judge_error")
SCORED = ("success", "defended", "refused")


class RedTeamResult:
    """A finished scan (azure 1.18.10's class): ``scan_result`` is the ``red_team.json`` document,
    ``attack_details`` its list of attacks."""

    def __init__(self, scan_result: Optional[Dict[str, Any]] = None,
                 attack_details: Optional[List[Dict[str, Any]]] = None) -> None:
        self.scan_result = scan_result
        self.attack_details = attack_details

    def to_json(self) -> str:
        """The whole document as JSON text (``""`` for an empty result, as azure)."""
        return json.dumps(self.scan_result, ensure_ascii=False) if self.scan_result else ""

    def to_scorecard(self) -> Optional[Dict[str, Any]]:
        """The scorecard: azure's four sections, every ASR with its interval and n, plus ours."""
        return self.scan_result.get("scorecard") if self.scan_result else None

    def to_eval_qr_json_lines(self) -> List[str]:
        """Each user/assistant pair as a JSON line with the attack's labels (azure's method)."""
        lines: List[str] = []
        for a in self.attack_details or []:
            msgs = [m for m in a.get("conversation", []) if m.get("role") in ("user", "assistant") and m.get("content")]
            for u, r in zip(msgs, msgs[1:]):
                if u["role"] == "user" and r["role"] == "assistant":
                    pair = {"query": u["content"], "response": r["content"], "risk_category": a.get("risk_category"),
                            "attack_strategy": a.get("attack_technique"), "attack_complexity": a.get("attack_complexity")}
                    if a.get("attack_success") is not None:
                        pair["attack_success"] = str(a["attack_success"]).lower()
                    lines.append(json.dumps(pair, ensure_ascii=False))
        return lines

    def attack_simulation(self) -> str:
        """The attacks as readable text (azure's method)."""
        out: List[str] = []
        for a in self.attack_details or []:
            out += [f"Attack Technique: {a.get('attack_technique')}", f"Attack Complexity: {a.get('attack_complexity')}",
                    f"Risk Category: {a.get('risk_category')}", f"Outcome: {a.get('outcome')}", ""]
            for m in a.get("conversation", []):
                if m.get("role") in ("user", "assistant") and m.get("content"):
                    out.append(f"{m['role'].capitalize()}: {m['content']}")
            out.append("")
        return "\n".join(out)


def nan_to_none(value: Any) -> Any:
    """JSON has no NaN: a rate over nothing is written as null."""
    return None if isinstance(value, float) and math.isnan(value) else value
