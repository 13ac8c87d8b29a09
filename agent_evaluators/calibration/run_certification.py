"""A run's judge certification and corrected pass rates, added to its ``summary.json`` at the end of the run.

The run engine knows nothing of labels: the ``certification`` and ``require_certified`` run options name
:func:`certify_result` (through :data:`agent_evaluators.plugins.CERTIFICATION`), which the engine calls with
the finished result, as it calls the result sinks. Where the certification comes from, in order:

1. ``certification: PATH``: a labelled run folder (certified now from its ``labels.jsonl``, floor 0.8), the
   JSON file ``agent-eval calibrate --labels RUN --json FILE`` wrote, or a calibration record it saved to
   (``--save-calibration FILE``) (their floor is the one they were made with);
2. else the run's own folder, when it holds ``labels.jsonl`` (a run labelled, then resumed or rerun).

``summary.json`` gets ``certification``: per judge evaluator of the run, the record (floor, TPR/TNR with
their exact intervals, labels used, certified) or ``{"certified": false, "reason": ...}`` where there is
none or it was made for another judge model or template. For a certified evaluator the metrics get
``<alias>.corrected_pass_rate`` (Rogan–Gladen) beside ``<alias>.pass_rate``, with its interval in
``intervals`` (delta method; :mod:`agent_evaluators.stats.judge_error`), so a threshold can be written on it.
"""

import json
import logging
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from ..runner.store import write_json_atomic
from ..stats.judge_error import corrected_interval
from .certify import certify
from .labels import labels_path

logger = logging.getLogger("agent_evaluators.calibration")

CORRECTED = "corrected_pass_rate"


def load_certification(source: Path) -> Dict[str, Dict[str, Any]]:
    """The certification records in ``source``: a labelled run folder or a ``calibrate --labels --json`` file."""
    if source.is_dir():
        return certify(source)
    data = json.loads(source.read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("entries"), list):  # a calibration record (--save-calibration)
        return {str(e.get("alias") or e.get("evaluator")): {**e, "n": e.get("cases"), "agreement": e.get("accuracy"),
                                                            "result_key": e.get("evaluator")}
                for e in data["entries"] if isinstance(e, dict) and e.get("source") == "labels"}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ValueError(f"{source}: not the JSON `agent-eval calibrate --labels RUN --json FILE` writes")
    return data


def _source(config: Mapping[str, Any], output: Optional[Path]) -> Optional[Path]:
    given = config.get("certification")
    if given:
        return Path(given)
    if output is not None and labels_path(output).is_file():
        return output
    return None


def _judged(config: Mapping[str, Any]) -> Dict[str, Dict[str, Any]]:
    """The run's judge evaluators (those that render a template) by alias."""
    evaluators = config.get("evaluators") or {}
    return {alias: desc for alias, desc in evaluators.items() if isinstance(desc, dict) and desc.get("template_hash")}


def _model(desc: Mapping[str, Any]) -> Optional[str]:
    cfg = (desc.get("config") or {}).get("model_config")
    return (cfg.get("model") or cfg.get("azure_deployment")) if isinstance(cfg, dict) else None


def run_certification(summary: Mapping[str, Any], output: Optional[Path]) -> Dict[str, Dict[str, Any]]:
    """Per judge evaluator of the run ``summary`` describes, its certification (see the module)."""
    config = summary.get("config") or {}
    source = _source(config, output)
    records: Dict[str, Dict[str, Any]] = {}
    problem = "no labels: label the run (agent-eval label RUN) or give certification"
    if source is not None:
        try:
            records = load_certification(source)
        except Exception as exc:  # labels that cannot be read leave the judge uncertified, and say why
            problem = f"certification {source} cannot be read ({type(exc).__name__}: {exc})"
    out: Dict[str, Dict[str, Any]] = {}
    for alias, desc in _judged(config).items():
        record = records.get(alias)
        if record is None:
            out[alias] = {"certified": False, "reason": problem if not records else f"no labels for {alias} in {source}"}
            continue
        record = {**record, "source": str(source)}
        changed = [what for what, ours in (("template", desc.get("template_hash")), ("model", _model(desc)))
                   if record.get(f"{what}_hash" if what == "template" else what) not in (None, ours)]
        if changed:
            record.update(certified=False, reason=f"labels were for another judge {' and '.join(changed)}")
        out[alias] = record
    return out


def corrected_rates(summary: Mapping[str, Any], certification: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
    """``{"<alias>.corrected_pass_rate": (rate, interval dict)}`` for each certified evaluator with scored cells."""
    metrics = summary.get("metrics") or {}
    level = 0.95
    out: Dict[str, Any] = {}
    for alias, record in certification.items():
        rate, n = metrics.get(f"{alias}.pass_rate"), metrics.get(f"{alias}.n")
        if not record.get("certified") or not isinstance(rate, (int, float)) or not isinstance(n, int) or n <= 0:
            continue
        got = corrected_interval(round(rate * n), n, int(record["true_positives"]), int(record["positives"]),
                                 int(record["true_negatives"]), int(record["negatives"]), level)
        if got is not None:
            out[f"{alias}.{CORRECTED}"] = (got.rate, got.interval.as_dict())
    return out


def certify_result(result: Any) -> None:
    """Add ``certification`` and the corrected pass rates to ``result.summary`` (and its ``summary.json``)."""
    summary = result.summary
    if not isinstance(summary, dict):
        return
    output = Path(result.output_path) if getattr(result, "output_path", None) else None
    certification = run_certification(summary, output)
    summary["certification"] = certification
    corrected = corrected_rates(summary, certification)
    for name, (rate, interval) in corrected.items():
        certification[name.split(".", 1)[0]][CORRECTED] = {"rate": rate, "interval": interval}
    path = output / "summary.json" if output is not None else None
    # the file is read back, not rewritten from memory: what the engine scrubbed on writing stays scrubbed
    on_disk = json.loads(path.read_text(encoding="utf-8")) if path is not None and path.is_file() else None
    for target in [summary] + ([on_disk] if on_disk is not None else []):
        target["certification"] = certification
        for name, (rate, interval) in corrected.items():
            target.setdefault("metrics", {})[name] = rate
            target.setdefault("intervals", {})[name] = interval
    if on_disk is not None and path is not None:
        write_json_atomic(path, on_disk)
