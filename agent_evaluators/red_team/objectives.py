"""Where a scan's attack objectives come from, with no cloud service: the built-in English set
(:mod:`.objectives_data`), the user's seeds in azure's ``custom_attack_seed_prompts`` JSON
format, and more generated from the ``application_scenario`` by the attacker model.

azure's seed file is a JSON list of objects, each ``{"metadata": {"target_harms": [{"risk-type":
"<risk category value>"}], "lang": "en"}, "messages": [{"role": "user", "content": "..."}], "id": ...}``;
the first message is the objective. azure skips an invalid entry with a warning; we stop with the
entry's index and what is wrong, since a silently shorter scan reports a rate over fewer attacks
than the user meant.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

from ..errors import ConfigError, InputError
from .objectives_data import BUILTIN
from .strategies import RiskCategory


@dataclass(frozen=True)
class Objective:
    """One attack objective: what the attacker tries to get the target to do."""

    risk_category: RiskCategory
    text: str
    source: str  # "builtin" | "custom" | "generated"
    id: str


def builtin(category: RiskCategory, n: int) -> List[Objective]:
    """The first ``n`` built-in objectives of ``category`` (English; ten per category)."""
    texts = BUILTIN[category.value]
    return [Objective(category, t, "builtin", f"builtin-{category.value}-{i}") for i, t in enumerate(texts[:n])]


def load_seed_prompts(path: Union[str, Path]) -> Dict[RiskCategory, List[Objective]]:
    """Objectives by category from azure's ``custom_attack_seed_prompts`` file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"custom_attack_seed_prompts: no file at {p}", option="custom_attack_seed_prompts") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"custom_attack_seed_prompts {p}: not JSON ({exc})", input_name="custom_attack_seed_prompts") from None
    if not isinstance(data, list) or not data:
        raise InputError(f"custom_attack_seed_prompts {p}: expected a non-empty JSON list of prompt objects",
                         input_name="custom_attack_seed_prompts")
    valid = {c.value for c in RiskCategory}
    out: Dict[RiskCategory, List[Objective]] = {}
    for i, entry in enumerate(data):
        where = f"custom_attack_seed_prompts {p}, entry {i}"
        harms = (entry.get("metadata") or {}).get("target_harms") if isinstance(entry, dict) else None
        msgs = entry.get("messages") if isinstance(entry, dict) else None
        if not isinstance(harms, list) or not harms:
            raise InputError(f"{where}: needs metadata.target_harms, a list of {{\"risk-type\": ...}}",
                             input_name="custom_attack_seed_prompts", row=i)
        if not isinstance(msgs, list) or not msgs or not isinstance(msgs[0], dict) \
                or msgs[0].get("role") != "user" or not msgs[0].get("content"):
            raise InputError(f"{where}: messages[0] must be a user message with content",
                             input_name="custom_attack_seed_prompts", row=i)
        for harm in harms:
            kind = harm.get("risk-type") if isinstance(harm, dict) else None
            if kind not in valid:
                raise InputError(f"{where}: risk-type {kind!r} is not one of {sorted(valid)}",
                                 input_name="custom_attack_seed_prompts", row=i)
            cat = RiskCategory(kind)
            out.setdefault(cat, []).append(Objective(cat, str(msgs[0]["content"]), "custom",
                                                     f"custom-{entry.get('id', i)}"))
    return out


def choose(categories: Sequence[RiskCategory], num_objectives: int, *,
           custom: Optional[Dict[RiskCategory, List[Objective]]] = None,
           generated: Optional[Dict[RiskCategory, List[str]]] = None) -> Dict[RiskCategory, List[Objective]]:
    """Up to ``num_objectives`` per category: the user's seeds first (azure uses only them when
    given), then generated ones, then the built-in set."""
    out: Dict[RiskCategory, List[Objective]] = {}
    for cat in categories:
        if custom:
            picked = list(custom.get(cat, []))[:num_objectives]
        else:
            gen = [Objective(cat, t, "generated", f"generated-{cat.value}-{i}")
                   for i, t in enumerate((generated or {}).get(cat, []))]
            picked = (gen + builtin(cat, num_objectives))[:num_objectives]
        out[cat] = picked
    return out


def save(path: Path, chosen: Dict[RiskCategory, List[Objective]]) -> None:
    """``objectives.json``: the objectives per category, so a resumed scan attacks with the same ones."""
    from ..runner.store import write_json_atomic

    write_json_atomic(path, {c.value: [{"risk_category": o.risk_category.value, "text": o.text, "source": o.source,
                                        "id": o.id} for o in objs] for c, objs in chosen.items()})


def load(path: Path) -> Dict[RiskCategory, List[Objective]]:
    """What :func:`save` wrote."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {RiskCategory(k): [Objective(RiskCategory(o["risk_category"]), o["text"], o["source"], o["id"]) for o in v]
            for k, v in data.items()}


class ObjectiveSession:
    """Objectives generated from an ``application_scenario`` while the scan runs, not before it.

    The attacker model's generation requests are judge calls like any other, so they are made inside the
    run (by the first attack of each category that needs them): the run's budget caps count them, a dry
    run answers them with placeholders and counts them in its estimate (the ``"(target)"`` entry), and a
    refused or failed request leaves the attack unsent, to be retried on resume. A category's objectives
    are generated once per scan and saved in ``objectives.json`` (a resume reuses them); the built-in set
    fills up to ``num_objectives`` as :func:`choose` does. Its name ends in ``Session`` so the resume
    fingerprint treats it as live machinery (what it holds grows as the scan runs).
    """

    def __init__(self, path: Path, judge: object, scenario: str, num_objectives: int) -> None:
        import asyncio

        self.path = Path(path)
        self.judge, self.scenario, self.num_objectives = judge, scenario, num_objectives
        self.chosen: Dict[RiskCategory, List[Objective]] = load(self.path) if self.path.exists() else {}
        self._lock = asyncio.Lock()

    async def get(self, category: RiskCategory, index: int) -> Optional[Objective]:
        """Objective ``index`` of ``category`` (generated on first need; ``None``: there are fewer)."""
        if category not in self.chosen:
            async with self._lock:
                if category not in self.chosen:
                    from . import attacker

                    texts = await attacker.generate_objectives(self.judge, self.scenario, category.value,
                                                               self.num_objectives)
                    self.chosen.update(choose([category], self.num_objectives, generated={category: texts}))
                    save(self.path, self.chosen)
        objs = self.chosen[category]
        return objs[index] if index < len(objs) else None
