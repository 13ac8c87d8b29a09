"""A scan folder for the CLI and report tests, in the documented ``red_team.json`` shape.

The shape is the contract in ``agent_evaluators/red_team/result.py`` (azure 1.18.10's ``attack_details``
plus ``attack_success_reason``, ``outcome``, ``attack_id``, ``objective``); the tests build it by
hand so the report and compare code is tested without running a scan.
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

SUCCESS_FOR = {"success": True, "defended": False, "refused": False, "target_error": None, "judge_error": None}


def attack(category: str, technique: str, objective_index: int, outcome: str, *, complexity: str = "",
           reason: str = "", conversation: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
    objective = f"test objective {objective_index} for {category}"
    return {
        "attack_id": f"{technique}/{category}/{objective_index}",
        "attack_technique": technique,
        "attack_complexity": complexity or ("baseline" if technique == "baseline" else "easy"),
        "risk_category": category,
        "objective": objective,
        "conversation": conversation if conversation is not None else [
            {"role": "user", "content": objective},
            {"role": "assistant", "content": "I can't help with that." if outcome == "refused" else "Here you go."},
        ],
        "attack_success": SUCCESS_FOR[outcome],
        "attack_success_reason": reason or f"{outcome} because test",
        "outcome": outcome,
        "attack_success_threshold": 3,
        "risk_assessment": {},
    }


def write_scan(folder: Path, attacks: Sequence[Dict[str, Any]], *, scan: Optional[Dict[str, Any]] = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"scorecard": {"risk_category_summary": [], "attack_technique_summary": [], "joint_risk_attack_summary": [],
                         "detailed_joint_risk_attack_asr": {}, "scan": scan or {"scan_name": folder.name}},
           "parameters": {}, "attack_details": list(attacks), "studio_url": None}
    (folder / "red_team.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder


def grid(categories: Sequence[str], techniques: Sequence[str], n: int,
         outcome_of: Any) -> List[Dict[str, Any]]:
    """An attack per category × technique × objective; ``outcome_of(category, technique, i)`` says its outcome."""
    return [attack(c, t, i, outcome_of(c, t, i)) for c in categories for t in techniques for i in range(n)]


def outcomes(pattern: Sequence[Tuple[str, int]]) -> List[str]:
    return [o for o, k in pattern for _ in range(k)]
