"""What ``summary.json`` says about a run: its configuration, its fingerprint (for resume) and versions."""

import hashlib
import json
import platform
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from .fingerprint import build_fingerprint, describe_evaluator, file_digest, public_config
from .option_table import RUN_OPTIONS
from .options import RunOptions
from .readers import data_path, describe_data
from .row_evaluator import RowEvaluator
from .settings_digest import settings_digest


@dataclass(frozen=True)
class RunDescription:
    config: Dict[str, Any]
    fingerprint: Dict[str, Any]
    versions: Dict[str, Any]


def _versions(rows: RowEvaluator, *, thorough: bool) -> Dict[str, Any]:
    """Package versions for ``summary.json``.

    Loaded modules report their own ``__version__``; others are looked up in the
    installed metadata only when ``thorough`` (a run with ``output_path``), because
    importing ``importlib.metadata`` alone costs ~50 ms, a lot for a quick in-memory run.
    """
    from .. import __version__

    out: Dict[str, Any] = {"agent_evaluators": __version__, "python": platform.python_version()}
    names = {"openai": "openai"}
    for inv in rows.invokers.values():
        if inv.library is not None:  # another library's evaluators: its version too
            names[inv.library.distribution] = inv.library.import_name
    for dist, module in names.items():
        mod = sys.modules.get(module)
        version = getattr(mod, "__version__", None) if mod is not None else None
        if version is None and thorough:
            from importlib import metadata

            try:
                version = metadata.version(dist)
            except metadata.PackageNotFoundError:
                version = None
        out[dist] = version
    return out


def _raw_mapping(evaluator_config: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    return {k: dict((v or {}).get("column_mapping") or {}) for k, v in (evaluator_config or {}).items()}


def _shown(value: Any) -> Any:
    """An option's value as ``summary.json`` holds it (a private copy of a mapping)."""
    return dict(value) if isinstance(value, Mapping) else value


def _data_digest(path: Optional[Path]) -> Optional[str]:
    """The data file's digest; a folder of trace files: one digest over its trace files' names and digests
    (only those: a run's own output folder inside it must not make its resume look like new data)."""
    if path is None:
        return None
    if path.is_file():
        return file_digest(path)
    if path.is_dir():
        from ..traces import otlp_files

        files = otlp_files(path)
        listing = json.dumps([[str(p.relative_to(path)), file_digest(p)] for p in files])
        return "sha256:" + hashlib.sha256(listing.encode()).hexdigest()
    return None


def describe_run(options: RunOptions, rows: RowEvaluator) -> RunDescription:
    """The run's ``config``, ``fingerprint`` and ``versions`` for ``summary.json`` and the resume check."""
    spec = rows.spec
    target_inv = rows.target
    dpath = data_path(options.data)
    ev_desc = {alias: describe_evaluator(alias, inv) for alias, inv in rows.invokers.items()}
    target_name = None
    if target_inv is not None:
        target_name = f"{getattr(target_inv.fn, '__module__', '')}.{target_inv.class_name}"
    config: Dict[str, Any] = {
        "evaluators": ev_desc,
        "evaluator_config": _raw_mapping(spec.evaluator_config),
        "target": target_name,
        "target_config": public_config(target_inv.fn) if target_inv is not None else None,
        "data": describe_data(options.data),
        # every option the table records (max_concurrency, num_runs, timeout, evaluation_name, tags, ...)
        **{o.name: _shown(getattr(options.settings, o.name)) for o in RUN_OPTIONS if o.in_summary},
    }
    fingerprint = build_fingerprint(
        data_digest=_data_digest(dpath),
        evaluators={a: {k: v for k, v in d.items() if k not in ("mode", "scale")} for a, d in ev_desc.items()},
        mapping=config["evaluator_config"],
        target=target_name,
        options={o.name: getattr(options.settings, o.name) for o in RUN_OPTIONS if o.fingerprinted},
        settings={alias: settings_digest(inv.fn) for alias, inv in rows.invokers.items()},
        target_settings=settings_digest(target_inv.fn) if target_inv is not None else None,
    )
    return RunDescription(config, fingerprint, _versions(rows, thorough=options.output_path is not None))
