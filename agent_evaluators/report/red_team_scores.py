"""A red-team scan's folder read back: its attacks and their ASRs, per category, strategy and complexity.

The CLI's scorecard table, the HTML report's red-team section and ``agent-eval compare`` over two
scans all read :func:`load_scan`, so they count the same way. The numbers are recomputed from
``red_team.json``'s ``attack_details`` (not copied from its scorecard): one rule for every cut,
category × strategy included, which azure's scorecard keys do not give with their counts.

How an attack counts (the scan's ``outcome``): ``success``, ``defended`` and ``refused`` are scored,
so they make the ASR's ``n``; ``target_error`` and ``judge_error`` are counted apart and never
read as a non-success (nor is ``not_scored``, a scan with ``skip_evals``). An ASR is a percentage
(0-100, azure's unit) with its Wilson 95% interval in the same unit; with ``n`` = 0 both are
``None``. A document written by azure itself (no ``outcome``) is read from ``attack_success``:
true -> success, false -> defended, null -> judge_error.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..errors import ConfigError, InputError
from ..stats.intervals import wilson

RED_TEAM_FILE = "red_team.json"
#: ``not_scored``: sent with ``skip_evals=True`` (azure's meaning: nothing judged); counted apart, not an error
OUTCOMES = ("success", "defended", "refused", "target_error", "judge_error", "not_scored")
SCORED = ("success", "defended", "refused")
COMPLEXITIES = ("baseline", "easy", "moderate", "difficult")


@dataclass
class Attack:
    """One entry of ``attack_details``, with the fields every view reads."""

    index: int
    attack_id: str
    risk_category: str
    technique: str
    complexity: str
    outcome: str
    reason: str
    objective: str
    conversation: Any
    entry: Mapping[str, Any]

    @property
    def success(self) -> Optional[bool]:
        """True / False for a scored attack, ``None`` for an error (no verdict)."""
        return None if self.outcome not in SCORED else self.outcome == "success"

    @property
    def pair_key(self) -> str:
        """What pairs this attack with the same attack of another scan: objective × strategy (× category)."""
        if self.attack_id:
            return self.attack_id
        return f"{self.technique}/{self.risk_category}/{self.objective}"


@dataclass
class Asr:
    """Successes of ``n`` scored attacks, the ASR (percent) and its Wilson 95% interval; errors apart."""

    counts: Dict[str, int] = field(default_factory=lambda: {o: 0 for o in OUTCOMES})

    @property
    def n(self) -> int:
        return sum(self.counts[o] for o in SCORED)

    @property
    def successes(self) -> int:
        return self.counts["success"]

    @property
    def errors(self) -> int:
        return self.counts["target_error"] + self.counts["judge_error"]

    @property
    def asr(self) -> Optional[float]:
        return round(100.0 * self.successes / self.n, 2) if self.n else None

    @property
    def interval(self) -> Optional[Tuple[float, float]]:
        iv = wilson(self.successes, self.n)
        return None if iv is None else (round(100.0 * iv.low, 2), round(100.0 * iv.high, 2))

    def text(self) -> str:
        """``25.0% [10.2, 49.5] n=20`` (or ``- n=0``), as the table and the page show it."""
        if self.asr is None:
            return "- n=0"
        lo, hi = self.interval or (0.0, 0.0)
        return f"{self.asr:.1f}% [{lo:.1f}, {hi:.1f}] n={self.n}"


@dataclass
class ScanData:
    """A scan's ``red_team.json`` and its attacks."""

    path: Path
    document: Mapping[str, Any]
    attacks: List[Attack]

    def asr_by(self, *fields: str, attacks: Optional[Iterable[Attack]] = None) -> Dict[Tuple[str, ...], Asr]:
        """ASR per value of ``fields`` (``"risk_category"``, ``"technique"``, ``"complexity"``), keys in first-seen
        order; no fields: one key ``()``, every attack."""
        out: Dict[Tuple[str, ...], Asr] = {}
        for a in self.attacks if attacks is None else attacks:
            key = tuple(str(getattr(a, f)) for f in fields)
            out.setdefault(key, Asr()).counts[a.outcome] += 1
        return out

    @property
    def overall(self) -> Asr:
        return self.asr_by().get((), Asr())

    @property
    def categories(self) -> List[str]:
        return list(dict.fromkeys(a.risk_category for a in self.attacks))

    @property
    def techniques(self) -> List[str]:
        """Strategies in scan order, ``baseline`` (the objectives as written, the reference) first."""
        seen = list(dict.fromkeys(a.technique for a in self.attacks))
        return sorted(seen, key=lambda t: t != "baseline")

    @property
    def scan_info(self) -> Mapping[str, Any]:
        info = (self.document.get("scorecard") or {}).get("scan") or self.document.get("scan") or {}
        return info if isinstance(info, Mapping) else {}


def has_scan(folder: Any) -> bool:
    """Whether ``folder`` holds a red-team scan (its ``red_team.json``)."""
    return (Path(folder) / RED_TEAM_FILE).is_file()


def _outcome(entry: Mapping[str, Any], where: str) -> str:
    outcome = entry.get("outcome")
    if outcome is None:
        success = entry.get("attack_success")
        return "success" if success is True else "defended" if success is False else "judge_error"
    if outcome not in OUTCOMES:
        raise InputError(f"{where}: outcome {outcome!r} is none of {', '.join(OUTCOMES)}; the file was not written by "
                         "a scan of this version: run the scan again")
    return str(outcome)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def attack_from(entry: Any, index: int, source: str) -> Attack:
    """One ``attack_details`` entry as an :class:`Attack`; a clear error naming the entry when it is malformed."""
    where = f"{source}: attack_details[{index}]"
    if not isinstance(entry, Mapping):
        raise InputError(f"{where} is a {type(entry).__name__}, not an object; the file is damaged: run the scan again")
    missing = [k for k in ("risk_category", "attack_technique") if not entry.get(k)]
    if missing:
        raise InputError(f"{where} has no {' or '.join(missing)}; every attack names its category and technique")
    complexity = _text(entry.get("attack_complexity")).lower() or "baseline"
    reason = entry.get("attack_success_reason")
    if reason is None:
        assessment = entry.get("risk_assessment")
        if isinstance(assessment, Mapping):  # azure's per-category {severity_label, reason}
            reason = "; ".join(str(v.get("reason")) for v in assessment.values()
                               if isinstance(v, Mapping) and v.get("reason"))
    return Attack(index=index, attack_id=_text(entry.get("attack_id")), risk_category=str(entry["risk_category"]),
                  technique=str(entry["attack_technique"]), complexity=complexity, outcome=_outcome(entry, where),
                  reason=_text(reason), objective=_text(entry.get("objective")),
                  conversation=entry.get("conversation"), entry=entry)


def load_scan(folder: Any) -> ScanData:
    """Read ``folder/red_team.json``.

    Raises:
        ConfigError: no ``red_team.json`` in ``folder``.
        InputError: the file is not JSON, or an attack in it is malformed (the entry is named).
    """
    path = Path(folder)
    file = path / RED_TEAM_FILE
    if not file.is_file():
        raise ConfigError(f"{path}: no {RED_TEAM_FILE} here; give the folder a scan wrote "
                          "(agent-eval redteam --output FOLDER, or RedTeam(output_dir=...).scan(scan_name=...))")
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{file}: not readable as JSON ({exc}); the scan may have been killed while writing it: "
                         "run it again with --resume") from None
    if not isinstance(document, Mapping) or not isinstance(document.get("attack_details"), list):
        raise InputError(f"{file}: no attack_details list; this is not a red_team.json a scan wrote")
    attacks = [attack_from(e, i, str(file)) for i, e in enumerate(document["attack_details"])]
    return ScanData(path=path, document=document, attacks=attacks)


def scan_grid(scan: ScanData) -> List[Tuple[str, str, Asr]]:
    """(risk category, technique, ASR) for every pair the scan ran, categories then techniques in scan order:
    the scorecard's rows."""
    cells = scan.asr_by("risk_category", "technique")
    return [(c, t, cells[(c, t)]) for c in scan.categories for t in scan.techniques if (c, t) in cells]


def ordered_complexities(values: Sequence[str]) -> List[str]:
    """Complexities in azure's order (baseline, easy, moderate, difficult), any other after them."""
    known = [c for c in COMPLEXITIES if c in values]
    return known + [v for v in values if v not in COMPLEXITIES]
