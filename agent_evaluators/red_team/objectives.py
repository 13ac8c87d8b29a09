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
