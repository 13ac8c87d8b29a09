"""``agent-eval calibrate --labels RUN_FOLDER``: certify a run's judge from people's labels (no judge called).

Prints, per labelled evaluator, the judge's TPR and TNR with exact intervals against the people's labels,
agreement, κ, the cells left out and the verdict; ``--json FILE`` writes the object
:func:`agent_evaluators.calibration.certify` returns; ``--save-calibration FILE`` adds it to a calibration
record; ``--to-cases FILE`` writes one evaluator's labels as a labelled set instead.
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List

from ..errors import ConfigError
from .messages import print_error


def labels_main(args: argparse.Namespace) -> int:
    """The ``--labels`` branch of ``agent-eval calibrate``; returns the exit code."""
    from ..calibration import certify, describe_certification
    from ..calibration.label_cases import write_cases
    from ..config.calibration_records import save_certification

    try:
        if args.to_cases is not None:
            if not args.evaluator or len(args.evaluator) != 1:
                raise ConfigError("--to-cases writes one evaluator's labels: name its alias once with --evaluator ALIAS")
            n = write_cases(args.labels, args.evaluator[0], args.to_cases)
            print(f"Wrote {n} labelled case(s) of {args.evaluator[0]} to {args.to_cases}; calibrate a judge on them "
                  f"with: agent-eval calibrate --judge-model M --evaluator NAME --cases {args.to_cases}")
            return 0
        floor = 0.8 if args.floor is None else args.floor
        result = certify(args.labels, floor=floor)
        if args.evaluator:
            missing = [a for a in args.evaluator if a not in result]
            if missing:
                raise ConfigError(f"--evaluator {missing[0]}: no labels for it in {args.labels} "
                                  f"(labelled: {', '.join(result)})")
            result = {a: result[a] for a in args.evaluator}
        saved = save_certification(Path(args.save_calibration), result) if args.save_calibration else None
    except ConfigError as exc:
        return print_error(sys.stderr, exc, prog="agent-eval calibrate")
    for alias, record in result.items():
        print(describe_certification(alias, record))
    print(_table(result))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
    if saved is not None:
        print(f"Saved the certification in the calibration record {saved}")
    uncertified = [a for a, r in result.items() if not r["certified"]]
    if args.require_certified and uncertified:
        print(f"not certified at floor {floor:g}: {', '.join(uncertified)}", file=sys.stderr)
        return 1
    return 0


def _table(result: Dict[str, Dict[str, Any]]) -> str:
    from .table import fit_table

    def pct(v: Any) -> str:
        return "n/a" if v is None else f"{100 * v:.1f}%"

    def ci(v: Any) -> str:
        return "n/a" if not v else f"[{v[0]:.2f}, {v[1]:.2f}]"

    rows: List[List[str]] = []
    for alias, r in result.items():
        left = sum((r.get("left_out") or {}).values())
        rows.append([alias, str(r["n"]), pct(r["agreement"]), "n/a" if r["kappa"] is None else f"{r['kappa']:.3f}",
                     pct(r["tpr"]), ci(r["tpr_interval"]), pct(r["tnr"]), ci(r["tnr_interval"]), str(left),
                     "yes" if r["certified"] else "no"])
    return "\n".join(fit_table(["evaluator", "labels", "agreement", "kappa", "TPR", "TPR 95% CI", "TNR", "TNR 95% CI",
                                "left out", "certified"], rows, right={1, 2, 3, 4, 6, 8}, cut_order=(0,)))
