"""Calibration records: what ``agent-eval calibrate`` measured, kept beside the judge config, and
what a run says about its judge ("judge calibrated on 24 cases, κ 0.81" or "uncalibrated").

A judge's score means something only as far as the judge agrees with labelled cases. So
``agent-eval calibrate --judge-config eval.yaml`` saves its results in ``eval.calibration.json``
beside that file (or where ``--save-calibration FILE`` says), one entry per judge model,
evaluator and template::

    {"version": 1, "entries": [{"model": "gpt-4o-mini", "evaluator": "intent_resolution",
      "template_hash": "86434bed...", "cases": 24, "total": 24, "kappa": 0.81, "accuracy": 0.92,
      "calibrated_at": "2026-11-25T17:00:00Z"}]}

and ``agent-eval run --config eval.yaml`` (or ``--judge-config eval.yaml``) reads it and records,
per evaluator and judge, the entry that matches the judge's model, the evaluator and the hash of
the template it renders now; a changed template is uncalibrated again, because the old κ
measured another prompt.
"""

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

from ..errors import ConfigError
from ..stats.agreement import kappa_text

RECORD_SUFFIX = ".calibration.json"


def record_path_for(config: Path) -> Path:
    """Where the calibration of the judge in ``config`` is kept: ``<name>.calibration.json`` beside it."""
    config = Path(config)
    return config.with_name(config.name.split(".")[0] + RECORD_SUFFIX)


def template_hash_of(evaluator: Any) -> Optional[str]:
    """The hash of the template a judge evaluator renders, or ``None`` for other evaluators."""
    if not getattr(type(evaluator), "uses_judge", False):
        return None
    prompty = getattr(evaluator, "prompty", None)
    value = getattr(prompty, "template_hash", None)
    return str(value) if value else None


def judge_models(evaluator: Any) -> List[str]:
    """The model (or Azure deployment) name of each judge of ``evaluator``: one, or a panel's."""
    config = getattr(evaluator, "_model_config", None)
    configs = config if isinstance(config, list) else [config]
    out = []
    for cfg in configs:
        name = (cfg.get("model") or cfg.get("azure_deployment")) if isinstance(cfg, Mapping) else None
        out.append(str(name) if name else "?")
    return out


def load_entries(path: Path) -> List[Dict[str, Any]]:
    """The entries of a calibration record (``[]`` when there is none)."""
    path = Path(path)
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"calibration record {path} cannot be read ({exc}); run `agent-eval calibrate` again "
                          "or delete it") from None
    entries = data.get("entries") if isinstance(data, Mapping) else None
    return [dict(e) for e in entries if isinstance(e, Mapping)] if isinstance(entries, list) else []


def save_reports(path: Path, reports: Iterable[Any], hashes: Mapping[str, Optional[str]]) -> Path:
    """Add calibration reports to the record at ``path`` (an entry for the same model, evaluator and
    template replaces the older one)."""
    path = Path(path)
    entries = load_entries(path)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for r in reports:
        entry = {"model": r.model, "evaluator": r.evaluator, "template_hash": hashes.get(r.evaluator),
                 "cases": r.scored, "total": r.total, "kappa": r.kappa, "accuracy": r.accuracy, "calibrated_at": now}
        same = ("model", "evaluator", "template_hash")
        entries = [e for e in entries if any(e.get(k) != entry[k] for k in same)] + [entry]
    path.write_text(json.dumps({"version": 1, "entries": entries}, indent=2) + "\n", encoding="utf-8")
    return path


def save_certification(path: Path, certification: Mapping[str, Mapping[str, Any]]) -> Path:
    """Add the certifications :func:`agent_evaluators.calibration.certify` made from people's labels to the record at
    ``path``: one entry per evaluator, keyed like ``agent-eval calibrate``'s (model, result key, template hash),
    with ``source: "labels"``, the run the labels came from and TPR/TNR with their intervals."""
    path = Path(path)
    entries = load_entries(path)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for alias, r in certification.items():
        entry = {"model": r.get("model") or "?", "evaluator": r.get("result_key") or alias,
                 "template_hash": r.get("template_hash"), "cases": r.get("n"),
                 "total": (r.get("n") or 0) + sum((r.get("left_out") or {}).values()), "kappa": r.get("kappa"),
                 "accuracy": r.get("agreement"), "calibrated_at": now, "source": "labels",
                 "labels_from": r.get("labels_from"), "alias": alias,
                 **{k: r.get(k) for k in ("tpr", "tpr_interval", "tnr", "tnr_interval", "floor", "certified",
                                          "positives", "true_positives", "negatives", "true_negatives")}}
        same = ("model", "evaluator", "template_hash", "source")
        entries = [e for e in entries if any(e.get(k) != entry[k] for k in same)] + [entry]
    path.write_text(json.dumps({"version": 1, "entries": entries}, indent=2) + "\n", encoding="utf-8")
    return path


def _match(entries: List[Dict[str, Any]], model: str, key: str, template_hash: Optional[str]) -> Dict[str, Any]:
    for e in reversed(entries):
        if e.get("model") == model and e.get("evaluator") == key and e.get("template_hash") == template_hash:
            return {"model": model, "calibrated": True, "cases": e.get("cases"), "kappa": e.get("kappa"),
                    "accuracy": e.get("accuracy"), "template_hash": template_hash,
                    "calibrated_at": e.get("calibrated_at"),
                    **({"source": "labels", "certified": e.get("certified")} if e.get("source") == "labels" else {})}
    return {"model": model, "calibrated": False, "template_hash": template_hash}


def run_calibration(evaluators: Mapping[str, Any], record: Optional[Path]) -> Dict[str, Any]:
    """For each judge evaluator of a run: each judge's calibration from ``record`` (``None``: no record, so
    every judge is uncalibrated), and the file read."""
    entries = load_entries(record) if record is not None else []
    out: Dict[str, Any] = {}
    for alias, ev in evaluators.items():
        template_hash = template_hash_of(ev)
        key = getattr(ev, "result_key", None)
        if template_hash is None or not key:
            continue
        out[alias] = {"record": str(record) if record is not None else None,
                      "judges": [_match(entries, model, key, template_hash) for model in judge_models(ev)]}
    return out


def describe_calibration(status: Mapping[str, Any]) -> str:
    """``judge calibrated on 24 cases, κ 0.81`` / ``uncalibrated``, per judge where a panel has several."""
    parts = []
    for j in status.get("judges") or []:
        if j.get("calibrated"):
            kappa = kappa_text(j.get("kappa"), missing="n/a")
            if j.get("source") == "labels":
                cert = "certified" if j.get("certified") else "not certified"
                parts.append(f"judge {j['model']} {cert} by people's labels on {j.get('cases')} cells, κ {kappa}")
            else:
                parts.append(f"judge {j['model']} calibrated on {j.get('cases')} cases, κ {kappa}")
        else:
            parts.append(f"judge {j['model']} uncalibrated")
    return "; ".join(parts)
