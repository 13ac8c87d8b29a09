"""What a judge call cost: a price table (USD per million tokens) applied to a usage record.

The shipped table (``prices.json`` beside this module, with the date it was taken) covers
common OpenAI and Azure OpenAI models. Prices change and Azure deployments carry names
the user chose, so a price can be given three ways, the first that names the model wins:
a model config's ``price`` (that client only), the run's ``prices`` (run config key,
``agent-eval run --price MODEL=IN,OUT[,CACHED]``; the run context's ``prices``), then
the shipped table. A dated snapshot (``gpt-4o-2024-08-06``) is priced as its family.

A price nobody knows gives ``cost_usd: None``, never 0: a total over it stays unknown.
A verdict answered through the Batch API (``judge_mode="batch"``) costs :data:`BATCH_PRICE_SHARE`
of that price, as both OpenAI and Azure OpenAI global batch bill it; one of its lines retried as a
normal request costs the full price (the batch route says which, :func:`answered_by_batch`).
"""

import contextlib
import functools
import json
import math
import re
from pathlib import Path
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple

from ..errors import ConfigError
from ..run_context import current, scoped, set_for_task

#: a price: ``{"input": ..., "cached_input": ..., "output": ...}`` in USD per million tokens
Price = Dict[str, float]

#: the Batch API's price as a share of the standard price (OpenAI and Azure OpenAI global batch: half)
BATCH_PRICE_SHARE = 0.5
_DATED = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{4})$")
_HOW = "give it as {'input': USD_PER_M, 'output': USD_PER_M, 'cached_input': USD_PER_M} or 'IN,OUT[,CACHED]'"


@functools.lru_cache(maxsize=1)
def shipped_prices() -> Mapping[str, Any]:
    """The shipped table: ``{"taken": date, "models": {name: price}}``."""
    return json.loads((Path(__file__).with_name("prices.json")).read_text(encoding="utf-8"))


def check_price(where: str, value: Any) -> Optional[Price]:
    """A price from a mapping or ``"IN,OUT[,CACHED]"``, checked (``None``: none given);
    ``ConfigError`` naming ``where``."""
    if value is None:
        return None
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if len(parts) not in (2, 3):
            raise ConfigError(f"{where}: price {value!r} is not IN,OUT[,CACHED]; {_HOW}")
        value = dict(zip(("input", "output", "cached_input"), parts))
    if not isinstance(value, Mapping) or "input" not in value or "output" not in value:
        raise ConfigError(f"{where}: price {value!r} needs 'input' and 'output'; {_HOW}")
    unknown = set(value) - {"input", "output", "cached_input"}
    if unknown:
        raise ConfigError(f"{where}: unknown price key(s) {sorted(unknown)}; {_HOW}")
    out: Price = {}
    for key in ("input", "cached_input", "output"):
        raw = value.get(key, value["input"])
        try:
            number = float(raw)
        except (TypeError, ValueError):
            number = -1.0
        if isinstance(raw, bool) or not number >= 0:
            raise ConfigError(f"{where}: price {key!r} must be a number >= 0 (USD per million tokens), got {raw!r}")
        out[key] = number
    return out


def check_prices(name: str, value: Any) -> Dict[str, Price]:
    """The run option ``prices``: a mapping of model (or deployment) name to a price."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{name} must map a model name to a price, got {type(value).__name__}; {_HOW}")
    out: Dict[str, Price] = {}
    for model, price in value.items():
        checked = check_price(f"{name}[{model!r}]", price)
        if checked is None:
            raise ConfigError(f"{name}[{model!r}]: the price is missing; {_HOW}")
        out[str(model)] = checked
    return out


@contextlib.contextmanager
def use_prices(prices: Optional[Mapping[str, Price]]) -> Iterator[None]:
    """Install the run's ``prices`` for judge calls made inside this block (a run installs them with
    the rest of its context, :mod:`agent_evaluators.run_context`)."""
    with scoped(prices=dict(prices or {})):
        yield


@functools.lru_cache(maxsize=256)  # a pure function of a name, asked once or twice per judge call
def _family(model: str) -> str:
    name = model.strip().lower().rsplit("/", 1)[-1]
    return _DATED.sub("", name)


def _by_family(table: Mapping[str, Price]) -> Dict[str, Price]:
    return {_family(k): v for k, v in table.items()}


@functools.lru_cache(maxsize=1)
def _shipped_by_family() -> Dict[str, Price]:
    return _by_family(shipped_prices()["models"])


#: the shipped table's answer for each tuple of names asked (a run without prices of its own): it never
#: changes, and ``price_for`` runs on every judge call (the family lookup is a regex per name)
_shipped_answers: Dict[Tuple[Optional[str], ...], Optional[Price]] = {}
_MAX_SHIPPED_ANSWERS = 256
_UNASKED = object()


def price_for(*models: Optional[str], explicit: Optional[Price] = None) -> Optional[Price]:
    """The price of the first of ``models`` (configured name, then the one the server reported)
    that the run's prices or the shipped table name; ``explicit`` (a model config's) first."""
    if explicit is not None:
        return explicit
    run = current().prices or {}
    if not run:
        known = _shipped_answers.get(models, _UNASKED)
        if known is not _UNASKED:
            return known  # type: ignore[return-value]
    names = [m for m in models if m]
    found: Optional[Price] = None
    for exact, family in ((run, _by_family(run) if run else {}), (shipped_prices()["models"], _shipped_by_family())):
        for model in names:
            found = exact.get(model) or family.get(_family(model))
            if found is not None:
                break
        if found is not None:
            break
    if not run:
        if len(_shipped_answers) >= _MAX_SHIPPED_ANSWERS:
            _shipped_answers.clear()
        _shipped_answers[models] = found
    return found


def cost_usd(usage: Mapping[str, Any], price: Optional[Price]) -> Optional[float]:
    """USD for one usage record: cached prompt tokens at the cached price where the provider
    reported them; ``None`` when the price or a token count is unknown."""
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if price is None or prompt is None or completion is None:
        return None
    cached = min(usage.get("cached_tokens") or 0, prompt)
    dollars = ((prompt - cached) * price["input"] + cached * price["cached_input"]
               + completion * price["output"]) / 1e6
    return round(dollars, 12)


def priced(usage: Dict[str, Any], price: Optional[Price], *models: Optional[str]) -> Dict[str, Any]:
    """``usage`` with its ``cost_usd`` set: ``price`` (a model config's) or the price of the first
    of ``models`` that is known, and of the model the record names."""
    cost = cost_usd(usage, price_for(*models, usage.get("model"), explicit=price))
    usage["cost_usd"] = cost * BATCH_PRICE_SHARE if cost is not None and current().answered_by_batch else cost
    return usage


def batch_price(price: Price) -> Price:
    """``price`` as the Batch API bills it (:data:`BATCH_PRICE_SHARE` of each rate)."""
    return {key: rate * BATCH_PRICE_SHARE for key, rate in price.items()}


def answered_by_batch(flag: bool) -> None:
    """Whether the current task's last judge exchange was answered by a batch (read by :func:`priced`).

    The batch route sets it when it decides, before a direct retry goes out, for the rest of the task
    (the run context's ``answered_by_batch``)."""
    set_for_task(answered_by_batch=flag)


def format_usd(value: Optional[float]) -> str:
    """Money for tables and reports, always in dollars and decimals: ``$0.0123``, ``$0.000084`` (two
    significant digits below a cent, never ``$8.4e-05``); ``"unknown"`` for an unknown price, never ``$0``."""
    if value is None:
        return "unknown"
    if value == 0 or abs(value) >= 0.01:
        return f"${value:,.4f}"
    decimals = 1 - math.floor(math.log10(abs(value)))
    return f"${value:.{decimals}f}"
