"""``output_path="results.json"``: azure-ai-evaluation's file output, beside our run folder.

azure-ai-evaluation's ``evaluate(output_path=...)`` takes a *file* and writes
``{"rows": [...], "metrics": {...}, "studio_url": null}`` there. Ours is a folder
(``rows.jsonl`` streamed, ``summary.json``, resume). A path ending in ``.json`` gets both
(:mod:`agent_evaluators.runner.result_file`): the run folder at the same path without ``.json``
and azure's result file, written here, at the path given, so code written for azure keeps
reading its file.
"""

import json
import math
from pathlib import Path
from typing import Any, Mapping

from .._util.json_text import utf8_json


def _plain(value: Any) -> Any:
    """JSON has no NaN/inf: write them as null, as azure's ``json.dump`` of a DataFrame would not fail on."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def write_azure_json(path: Path, result: Any) -> None:
    """Write ``result`` in azure-ai-evaluation's file layout (atomically: a reader never sees half a file)."""
    write_azure_doc(path, {"rows": [dict(r) for r in result.rows], "metrics": dict(result.metrics), "studio_url": None})


def write_azure_doc(path: Path, doc: Mapping[str, Any]) -> None:
    """Write azure's ``{"rows", "metrics", "studio_url"}`` document to ``path``, atomically, NaN as null."""
    doc = _plain({k: doc[k] for k in ("rows", "metrics", "studio_url")})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:  # a lone surrogate of an input is written as its JSON escape
        f.write(utf8_json(json.dumps(doc, ensure_ascii=False, default=str)))
    tmp.replace(path)
