"""``agent-eval calibrate``: how well does my judge model agree with the labelled sets?

::

    agent-eval calibrate --judge-model gpt-4o-mini                       # OPENAI_API_KEY from the environment
    agent-eval calibrate --judge-model m --judge-api-key-env MY_KEY_VAR  # the key from another variable
    agent-eval calibrate --judge-model qwen2.5:7b --judge-base-url http://localhost:11434/v1 --evaluator task_adherence
    agent-eval calibrate --local-model qwen2.5-7b-instruct-q4_k_m.gguf   # starts llama.cpp for the run
    agent-eval calibrate --judge-config eval.yaml --quick                # saves eval.calibration.json beside it
    agent-eval calibrate --judge-model m --evaluator violence --cases my_labels.jsonl  # your own labelled set
    agent-eval calibrate --judge-model gpt-4o-mini --azure-compat        # the azure-ai-evaluation 1.18 meanings
    agent-eval calibrate --labels RUN_FOLDER [--floor 0.8] [--json FILE] # certify a run's judge from people's labels
    agent-eval calibrate --labels RUN_FOLDER --evaluator ALIAS --to-cases FILE.jsonl  # the labels as a labelled set

Prints accuracy, Cohen's κ and the confusion matrix per evaluator; ``--json FILE``
writes every case's outcome. Exit code 0 when the run completed (whatever the
scores), 1 when ``--min-kappa`` was given and an evaluator fell below it (or could
not be scored), 2 for a configuration error. With ``--judge-config FILE`` (a judge file, or a
run config with ``judge:``; a panel calibrates each judge) the results are saved beside it as
``<name>.calibration.json`` (or in ``--save-calibration FILE``), where ``agent-eval run``
finds them (:mod:`agent_evaluators.config.calibration_records`). The judge flags and evaluator names are
those of ``agent-eval run`` and ``agent-eval list``.

With ``--labels RUN_FOLDER`` no judge is called: people's labels of that run (``labels.jsonl``) certify the
judge that scored it, per evaluator alias (TPR and TNR with exact intervals, certified when both lower
bounds reach ``--floor``; :func:`agent_evaluators.calibration.certify`). ``--json FILE`` writes
``{"<alias>": {"n", "agreement", "kappa", "tpr", "tpr_interval", "tnr", "tnr_interval", "certified", ...}}``,
which ``agent-eval run --certification FILE`` reads; ``--save-calibration FILE`` adds the results to a
calibration record. Exit 0, or 1 when ``--require-certified`` is given and an evaluator is not certified.
``--to-cases FILE`` writes the labels of one ``--evaluator ALIAS`` as a labelled set for ``--cases``.
"""

import argparse
import contextlib
import dataclasses
import json
import sys
from typing import Any, Dict, List, Optional, Sequence

from ..errors import ConfigError


def build_calibrate_parser(prog: str = "agent-eval calibrate") -> argparse.ArgumentParser:
    """The parser; the judge flags are the ones ``agent-eval run`` takes (:mod:`agent_evaluators.cli.judge_flags`)."""
    from ..calibration.catalog import calibrated_names
    from .judge_flags import add_judge_arguments

    p = argparse.ArgumentParser(
        prog=prog,
        description="Measure a judge model on the labelled calibration sets (accuracy and Cohen's kappa per "
                    "judge-backed evaluator), to see whether it is fit to judge.",
        epilog=f"Evaluators (names as `agent-eval list` shows them): {', '.join(calibrated_names())}.",
    )
    add_judge_arguments(p, concurrency_default=4)
    p.add_argument("--local-model", default=None, metavar="FILE.gguf",
                   help="start llama.cpp on this GGUF model for the run (needs the 'local' extra)")
    p.add_argument("--evaluator", action="append", default=None, metavar="NAME",
                   help="evaluator to calibrate, as `agent-eval list` names it (repeatable; default: all)")
    p.add_argument("--cases", default=None, metavar="FILE.jsonl",
                   help="your own labelled cases ({\"id\", \"label\": \"good\"|\"bad\", \"inputs\"} a line) instead of "
                        "the shipped set; needs exactly one --evaluator")
    p.add_argument("--azure-compat", action="store_true",
                   help="calibrate the azure-ai-evaluation 1.18 meanings an `agent-eval run --azure-compat` uses "
                        "(default: every name whose meaning changes there; see `agent-eval list --azure-compat`)")
    p.add_argument("--quick", action="store_true", help="one judge sample per case for the evaluators that vote")
    p.add_argument("--min-kappa", type=float, default=None, help="exit 1 if any evaluator's kappa is below this")
    p.add_argument("--json", dest="json_path", default=None, metavar="FILE", help="write the full report as JSON")
    p.add_argument("--labels", default=None, metavar="RUN_FOLDER",
                   help="certify the judge of this run from people's labels (its labels.jsonl); calls no judge")
    p.add_argument("--floor", type=float, default=None, metavar="F",
                   help="--labels: certified when both the TPR and TNR lower bounds are at least F (default 0.8)")
    p.add_argument("--require-certified", action="store_true",
                   help="--labels: exit 1 when an evaluator is not certified")
    p.add_argument("--to-cases", default=None, metavar="FILE.jsonl",
                   help="--labels: write the labels of --evaluator ALIAS as a labelled set (the --cases format)")
    p.add_argument("--save-calibration", default=None, metavar="FILE",
                   help="save the results in this calibration record (default with --judge-config: beside that "
                        "file, as NAME.calibration.json)")
    return p


def _evaluator(metric: Any, model_config: Optional[Dict[str, Any]], args: argparse.Namespace, reasoning: bool) -> Any:
    """What :func:`calibrate` gets: the catalog metric, or (``--judge-reasoning``) an instance built for a
    reasoning judge."""
    import inspect

    if reasoning and "is_reasoning_model" in inspect.signature(metric.evaluator_class).parameters:
        return metric.build(model_config, quick=args.quick, is_reasoning_model=True)
    return metric


def calibrate_main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``agent-eval calibrate``; returns the process exit code."""
    from ..calibration.catalog import find_metric, judge_metrics
    from ..calibration.labelled_run import calibrate
    from ..config.calibration_records import template_hash_of
    from ..config.run_config import judge_model_config
    from .judge_flags import judge_settings_from_args
    from .messages import print_error

    args = build_calibrate_parser().parse_args(list(argv) if argv is not None else None)
    if args.labels is not None:
        from .calibrate_labels import labels_main

        return labels_main(args)
    if args.floor is not None or args.to_cases is not None or args.require_certified:
        return print_error(sys.stderr, ConfigError("--floor, --to-cases and --require-certified go with "
                                                   "--labels RUN_FOLDER"), prog="agent-eval calibrate")
    try:
        settings = judge_settings_from_args(args)
        azure = bool(args.azure_compat)
        metrics = ([find_metric(n, azure_compat=azure) for n in args.evaluator] if args.evaluator
                   else judge_metrics(azure_compat=azure))
        if args.cases is not None and len(metrics) != 1:
            raise ConfigError("--cases is one evaluator's labelled set: name that evaluator once with --evaluator NAME")
        with contextlib.ExitStack() as stack:
            if args.local_model:
                if settings.model or settings.base_url or settings.azure_endpoint:
                    raise ConfigError("--local-model starts its own judge; leave out --judge-model/--judge-base-url")
                from ..local_judge import start_local_judge

                local = stack.enter_context(start_local_judge(args.local_model, n_parallel=args.max_concurrency))
                model_config: Optional[Dict[str, Any]] = local.model_config
                print(f"Started local judge {local.model!r} at {local.url}", flush=True)
            judges: Optional[List[Any]] = _judges(args, settings) if args.judge_config else None
            if judges is None:
                judges = [model_config if args.local_model else judge_model_config(settings)]
            reports, hashes = [], {}
            shown: List[Any] = []  # each report under the name `agent-eval run --evaluator` takes
            for judge in judges:
                for metric in metrics:
                    evaluator = _evaluator(metric, judge, args, bool(settings.is_reasoning_model))
                    # your own cases; else an instance (an azure meaning) brings its own metric's set
                    cases = args.cases if args.cases is not None else (None if evaluator is metric else metric.cases())
                    report = calibrate(evaluator, judge, cases=cases, max_concurrency=args.max_concurrency,
                                       quick=args.quick, judge_mode=args.judge_mode or "direct")
                    reports.append(report)
                    shown.append(dataclasses.replace(report, evaluator=metric.cli_name or report.evaluator))
                    hashes[metric.name] = template_hash_of(metric.build(judge, quick=args.quick))
                    print(shown[-1].summary(), flush=True)
            saved = _save(args, reports, hashes)
    except ConfigError as exc:
        return print_error(sys.stderr, exc, prog="agent-eval calibrate")

    print(_table(shown))
    if saved is not None:
        print(f"Saved the calibration record {saved} (agent-eval run reads it beside the judge config)")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump([r.to_dict() for r in reports], fh, indent=2)
    if args.min_kappa is not None:
        low = [r.evaluator for r in shown if r.kappa is None or r.kappa < args.min_kappa]
        if low:
            print(f"kappa below {args.min_kappa} (or undefined) for: {', '.join(low)}", file=sys.stderr)
            return 1
    return 0


def _judges(args: argparse.Namespace, flags: Any) -> List[Dict[str, Any]]:
    """``--judge-config FILE``: its judge, or each judge of its panel (the judge flags applied to each)."""
    from pathlib import Path

    from ..config.judge_panels import panel_model_config, read_judge_config_file
    from ..config.run_config import judge_model_config

    single, panel = read_judge_config_file(Path(args.judge_config))
    if panel:
        return [{k: v for k, v in cfg.items() if k != "name"} for cfg in panel_model_config(panel, flags)]
    overrides = {k: getattr(flags, k) for k in ("model", "base_url", "api_key_env", "azure_endpoint",
                                               "azure_deployment", "api_version", "timeout", "max_attempts")}
    cfg = judge_model_config(single.merged(**overrides))
    if cfg is None:
        raise ConfigError(f"--judge-config {args.judge_config}: no judge endpoint there; give base_url, "
                          "azure_endpoint or api_key_env")
    return [cfg]


def _save(args: argparse.Namespace, reports: List[Any], hashes: Dict[str, Any]) -> Any:
    """Where the results were saved (``--save-calibration``, or beside ``--judge-config``), or ``None``."""
    from pathlib import Path

    from ..config.calibration_records import record_path_for, save_reports

    if args.save_calibration:
        return save_reports(Path(args.save_calibration), reports, hashes)
    if args.judge_config:
        return save_reports(record_path_for(Path(args.judge_config)), reports, hashes)
    return None


def _table(reports: List[Any]) -> str:
    from .table import fit_table

    rows = []
    for r in reports:
        acc = "n/a" if r.accuracy is None else f"{100 * r.accuracy:.1f}%"
        kap = "n/a" if r.kappa is None else f"{r.kappa:.3f}"
        rows.append([r.evaluator, f"{r.scored}/{r.total}", acc, kap, r.kappa_band])
    return "\n".join(fit_table(["evaluator", "scored", "accuracy", "kappa", "agreement"], rows, right={1, 2, 3},
                               short_headers={2: "acc"}, cut_order=(0, 4)))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(calibrate_main())
