"""How the report turns values into page text: escaped, as JSON, and clipped when long.

One huge value (a 50 MB tool result) must not become a 50 MB page: every value the page shows
goes through :func:`clip` / :func:`shown_json`, which keep the first :data:`MAX_VALUE_CHARS`
characters and say where the whole value is (the row's ``line_number`` in ``rows.jsonl``).
"""

import html
import json
import math
from typing import Any, Mapping, Optional

from .._util.safe_text import display_safe

#: The most characters of one value (a string, or one column's JSON) the page shows.
MAX_VALUE_CHARS = 10_000


def esc(value: Any) -> str:
    """Every piece of text the page shows goes through here: controls and bidi overrides in the
    data become visible ``\\uXXXX`` escapes (they could reorder what is displayed), then HTML-escaped."""
    return html.escape(display_safe("" if value is None else value), quote=True)


def _finite(value: Any) -> Any:
    """``value`` with NaN/±inf floats as the strings ``"NaN"``/``"Infinity"``/``"-Infinity"``.

    ``json.dumps`` would write them as bare ``NaN``/``Infinity`` tokens, which are not JSON.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, Mapping):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def to_json(value: Any, indent: Optional[int] = 2) -> str:
    try:
        return json.dumps(_finite(value), indent=indent, ensure_ascii=False, default=str, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)


def truncation_note(total: Optional[int], where: str) -> str:
    """The note that replaces the cut-off part of a value (``total``: its length, when known)."""
    size = f"{total:,} characters" if total is not None else "long value"
    return f"… [truncated: {size}; the whole value is in {where}]"


def _clip_strings(value: Any, limit: int, where: str) -> Any:
    """``value`` with every string longer than ``limit`` cut (nested values too), nothing else copied."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + " " + truncation_note(len(value), where)
    if isinstance(value, Mapping):
        return {k: _clip_strings(v, limit, where) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clip_strings(v, limit, where) for v in value]
    return value


def clip(value: Any, where: str, limit: int = MAX_VALUE_CHARS) -> Any:
    """``value`` ready for display: long strings in it cut to ``limit`` characters, with a note
    naming ``where`` the whole value is."""
    return _clip_strings(value, limit, where)


def shown_json(value: Any, where: str, limit: int = MAX_VALUE_CHARS, indent: Optional[int] = 2) -> str:
    """``value`` as JSON for display, at most about ``limit`` characters per string and
    ``4 × limit`` in all (a list of a million short items is long too), with a note when cut."""
    text = to_json(clip(value, where, limit), indent)
    cap = 4 * limit
    if len(text) > cap:
        text = text[:cap] + "\n" + truncation_note(None, where)
    return text


def num_text(value: Any, digits: int = 3) -> str:
    """A number as the report shows it: 3 decimals without trailing zeros, NaN/inf spelled out, None as a dash."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return f"{value:.{digits}f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    return str(value)


# ---------------------------------------------------------------------------- histograms
