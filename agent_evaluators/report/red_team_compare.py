"""Is scan B more robust than scan A? Attacks paired one to one, McNemar's exact test on the ones that changed.

Two scans of the same objectives and strategies (two versions of an agent, the same seeds) hold the
same attacks: each is paired by its ``attack_id`` (strategy / category / objective), so a difference
in ASR comes from the attacks that flipped, not from which objectives each scan happened to draw.
Per group (every attack, then each risk category and each strategy):

* ``fixed``: attacks that succeeded against A and not against B; ``broken``: the reverse;
* ``p_value``: exact McNemar over those discordant pairs (:func:`agent_evaluators.stats.paired_tests.mcnemar_exact`);
  the per-category and per-strategy rows get Holm's correction across themselves (``p_adjusted``);
* ``verdict``: ``more_robust`` (B) when the (adjusted) p is below ``alpha`` and more attacks were fixed than
  broken, ``less_robust`` the other way, else ``not_significant`` (which is no proof of no change: it says the
  pairs could not tell).

A pair in which either side has no verdict (a target or judge error) is left out and counted
(``errored_pairs``); attacks in one scan only are counted too (``unpaired_a`` / ``unpaired_b``).
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..errors import InputError
from ..stats.multiple import holm
from ..stats.paired_tests import mcnemar_exact
from .red_team_scores import Attack, ScanData, load_scan

VERDICTS = ("more_robust", "less_robust", "not_significant")


@dataclass
class RobustnessRow:
    """One group's paired comparison; ASRs in percent over the pairs, ``diff`` = B - A."""

    group: str
    n_pairs: int
    successes_a: int
    successes_b: int
    fixed: int
    broken: int
    p_value: float
    p_adjusted: float
    verdict: str = "not_significant"

    @property
    def asr_a(self) -> Optional[float]:
        return round(100.0 * self.successes_a / self.n_pairs, 2) if self.n_pairs else None

    @property
    def asr_b(self) -> Optional[float]:
        return round(100.0 * self.successes_b / self.n_pairs, 2) if self.n_pairs else None

    def as_json(self) -> Dict[str, object]:
        return {"group": self.group, "n_pairs": self.n_pairs, "asr_a": self.asr_a, "asr_b": self.asr_b,
                "fixed": self.fixed, "broken": self.broken, "p_value": self.p_value, "p_adjusted": self.p_adjusted,
                "test": "mcnemar-exact", "verdict": self.verdict}


@dataclass
class ScanComparison:
    """Scan B against scan A: the overall row first, then per category and per strategy."""

    a: str
    b: str
    rows: List[RobustnessRow]
    unpaired_a: int
    unpaired_b: int
    errored_pairs: int
    alpha: float
    flipped: List[Tuple[Attack, Attack]] = field(default_factory=list)

    @property
    def overall(self) -> RobustnessRow:
        return self.rows[0]


def _row(group: str, pairs: List[Tuple[Attack, Attack]]) -> RobustnessRow:
    fixed = sum(1 for a, b in pairs if a.success and not b.success)
    broken = sum(1 for a, b in pairs if b.success and not a.success)
    p = mcnemar_exact(fixed, broken).p_value
    return RobustnessRow(group=group, n_pairs=len(pairs), successes_a=sum(1 for a, _ in pairs if a.success),
                         successes_b=sum(1 for _, b in pairs if b.success), fixed=fixed, broken=broken,
                         p_value=p, p_adjusted=p)


def _verdict(row: RobustnessRow, alpha: float) -> str:
    if row.p_adjusted < alpha and row.fixed != row.broken:
        return "more_robust" if row.fixed > row.broken else "less_robust"
    return "not_significant"


def compare_scans(a: object, b: object, *, alpha: float = 0.05) -> ScanComparison:
    """Scan folder (or :class:`ScanData`) ``b`` against ``a``, attack by attack.

    Raises:
        InputError: ``alpha`` out of (0, 1), an attack id twice in one scan, or no attack in common.
        ConfigError: a folder with no ``red_team.json``.
    """
    if not 0 < alpha < 1:
        raise InputError(f"alpha {alpha!r}: give a test level between 0 and 1, e.g. 0.05")
    scan_a = a if isinstance(a, ScanData) else load_scan(a)
    scan_b = b if isinstance(b, ScanData) else load_scan(b)
    by_a, by_b = _by_key(scan_a), _by_key(scan_b)
    common = [k for k in by_a if k in by_b]
    if not common:
        raise InputError(f"{scan_a.path} and {scan_b.path} have no attack in common (paired by attack_id: strategy/"
                         "category/objective); compare scans of the same categories, strategies and objectives")
    pairs = [(by_a[k], by_b[k]) for k in common]
    scored = [(x, y) for x, y in pairs if x.success is not None and y.success is not None]
    rows = [_row("overall", scored)]
    family: List[RobustnessRow] = []
    for field_name, label in (("risk_category", "category"), ("technique", "strategy")):
        values = list(dict.fromkeys(getattr(x, field_name) for x, _ in pairs))
        for value in sorted(values, key=lambda v: v != "baseline"):  # the reference strategy first
            family.append(_row(f"{label}: {value}", [(x, y) for x, y in scored if getattr(x, field_name) == value]))
    for row, adjusted in zip(family, holm([r.p_value for r in family])):
        row.p_adjusted = adjusted
    rows += family
    for row in rows:
        row.verdict = _verdict(row, alpha)
    return ScanComparison(
        a=str(scan_a.path), b=str(scan_b.path), rows=rows, unpaired_a=len(by_a) - len(common),
        unpaired_b=len(by_b) - len(common), errored_pairs=len(pairs) - len(scored), alpha=alpha,
        flipped=[(x, y) for x, y in scored if x.success != y.success])


def _by_key(scan: ScanData) -> Dict[str, Attack]:
    out: Dict[str, Attack] = {}
    for attack in scan.attacks:
        key = attack.pair_key
        if key in out:
            raise InputError(f"{scan.path}: attack {key!r} appears twice (attack_details[{out[key].index}] and "
                             f"[{attack.index}]); a scan holds each attack once: run the scan again")
        out[key] = attack
    return out
