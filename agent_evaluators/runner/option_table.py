"""Every run option of ``evaluate()``, declared once.

One :class:`RunOption` per keyword of :func:`~agent_evaluators.evaluate` (except ``data``,
``evaluators``, ``evaluator_config``, which have forms of their own everywhere, and
``azure_ai_project``, accepted for azure-ai-evaluation's code only: results stay local). Everything else is derived from
this table, so a new option is one entry here plus its keyword in the two written-out
signatures of ``runner/api.py`` (a test keeps them equal to the table):

- the check of its value (:func:`check_options`, called by :class:`~.options.RunOptions`);
- the ``agent-eval run`` flag ``--name-with-dashes`` and its help (``cli/run_flags.py``);
- the run-config key (the keyword's own name; ``run_config_options.py``);
- the CLI's rewrites of ``name=...`` into the flag (``cli/messages.py``);
- ``summary.json``'s ``config`` (``in_summary``), the HTML report's "Run" section
  (``report_label``) and the resume fingerprint (``fingerprinted``: a resume refuses to
  continue a run whose value differs).

Options are read by name from ``RunOptions.values``; the row source reads the row limit.
"""

import importlib.util
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ..errors import ConfigError
from ..judge.prices import check_prices
from .readers import DATA_FORMATS

__all__ = ["RunOption", "RUN_OPTIONS", "OWN_FORM_ARGUMENTS", "CONTINUING", "option", "check_options", "flag_of",
           "options_docstring"]

#: keywords of ``evaluate()`` that are not in the table: their CLI / YAML forms are their own
OWN_FORM_ARGUMENTS = ("data", "evaluators", "evaluator_config", "azure_ai_project")


# ---------------------------------------------------------------------------- checks
def positive_int(name: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{name} must be a positive integer, got {value!r}")
    return value


def _optional(check: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    def optional(name: str, value: Any) -> Any:
        return None if value is None else check(name, value)
    return optional


def _flag(name: str, value: Any) -> bool:
    return bool(value)


def _show_progress(name: str, value: Any) -> Optional[bool]:
    return None if value is None else bool(value)


def _timeout(name: str, value: Any) -> Any:
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
        raise ConfigError(f"timeout must be a positive number of seconds (or None for no limit), got {value!r}")
    return value


def _text(name: str, value: Any) -> Optional[str]:
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{name} must be a string, got {type(value).__name__}")
    return value


def _tags(name: str, value: Any) -> Dict[str, str]:
    if value is not None and not isinstance(value, Mapping):
        raise ConfigError(f"tags must be a dict of str -> str, got {type(value).__name__}")
    return dict(value or {})


def _target(name: str, value: Any) -> Any:
    if value is not None and not callable(value):
        raise ConfigError(f"target must be a callable(**row) -> dict, got {type(value).__name__}")
    return value


def _engine(name: str, value: Any) -> str:
    if value not in ("local", "ray"):
        raise ConfigError(f"engine must be 'local' or 'ray', got {value!r}")
    return str(value)


def _agreement(name: str, value: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -1.0 <= value <= 1.0:
        raise ConfigError(f"{name} must be an agreement coefficient between -1 and 1 (e.g. 0.667, Krippendorff's "
                          f"usual floor for tentative conclusions), got {value!r}")
    return float(value)


def _data_format(name: str, value: Any) -> str:
    if value not in DATA_FORMATS:
        raise ConfigError(f"data_format must be one of {', '.join(DATA_FORMATS)} (auto: by the file's suffix, and "
                          f"OpenTelemetry traces by content; otlp: read as OTLP/JSON traces), got {value!r}")
    return str(value)


def _judge_mode(name: str, value: Any) -> str:
    if value not in ("direct", "batch"):
        raise ConfigError(f"judge_mode must be 'direct' or 'batch' (the provider's Batch API), got {value!r}")
    return str(value)


def _positive_float(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ConfigError(f"{name} must be a positive number, got {value!r}")
    return float(value)


def _cap(name: str, value: Any) -> Any:
    """A budget cap: ``max_judge_calls`` a whole number, ``max_cost`` USD; ``None`` for no cap."""
    whole = name == "max_judge_calls"
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (whole and not isinstance(value, int)):
        raise ConfigError(f"{name} must be {'a whole number of judge calls' if whole else 'an amount in USD'} >= 0 "
                          f"(or None for no cap), got {value!r}")
    return value if whole else float(value)


def _keep(name: str, value: Any) -> Any:
    return value


def _installed(module: str) -> bool:
    try:  # imports only the parent packages of a dotted name (namespace packages for these)
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def _needs_extra(extra: str, module: str) -> Callable[[str, Any], bool]:
    """A switch whose ``True`` needs an optional extra: refused before the run starts when the
    package is missing (found without importing it, so a run without the switch imports nothing)."""
    def check(name: str, value: Any) -> bool:
        if value and not _installed(module):
            raise ConfigError(f"{name}=True needs the {extra!r} extra, which is not installed: "
                              f"pip install 'agent-evaluators[{extra}]' (or leave {name} off)")
        return bool(value)
    return check


# ---------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class RunOption:
    """One keyword of ``evaluate()``: how it is checked, shown and recorded.

    ``kind`` says how a flag or config value is read: ``"flag"`` (``--x``, true when given),
    ``"switch"`` (``--x`` / ``--no-x``), ``"int"``, ``"float"``, ``"text"``, ``"path"``,
    ``"tags"`` (repeatable ``--tag KEY=VALUE``; a mapping of strings in a config), ``"mapping"`` (the
    same flag; a config's values kept as written, for the check to read: ``prices``), ``"callable"``
    (``module:function``), ``"choice"`` (one of ``choices``).
    ``async_too``: also a keyword of ``evaluate_async()`` (the engine choice is not).
    """

    name: str
    default: Any
    kind: str
    help: str
    check: Callable[[str, Any], Any] = _keep
    metavar: Optional[str] = None
    choices: Tuple[str, ...] = ()
    in_summary: bool = False
    fingerprinted: bool = False
    async_too: bool = True
    #: the label of its line in the HTML report's "Run" section (shown when set); ``None``: not shown
    report_label: Optional[str] = None
    #: the CLI flag when it is not ``--name-with-dashes``
    cli_flag: Optional[str] = None
    #: further spellings of the flag (``--price`` beside ``--prices``: one price per flag reads better)
    flag_aliases: Tuple[str, ...] = ()
    #: older run-config spellings still accepted
    aliases: Tuple[str, ...] = ()
    #: value-less flags that set one value (``--batch`` for ``--judge-mode batch``): (flag, value) pairs
    const_flags: Tuple[Tuple[str, Any], ...] = ()
    #: ``module:function`` that receives the finished run's result when the option is on (a result
    #: sink of the interfaces layer, :mod:`agent_evaluators.export`); named, not imported, so the
    #: run engine depends on no layer above it (``runner/publishing.py`` resolves it at the end)
    sink: Optional[str] = None

    @property
    def flag(self) -> str:
        return self.cli_flag or "--" + self.name.replace("_", "-")


RUN_OPTIONS: Tuple[RunOption, ...] = (
    RunOption("target", None, "callable", "callable(**row) -> dict run once per row before the evaluators "
              "(module:function)", _target, metavar="MODULE:FUNCTION"),
    RunOption("output_path", None, "path", "results folder (default: agent-eval-results/<data name>)",
              metavar="DIR", cli_flag="--output", aliases=("output",)),
    RunOption("fail_on_evaluator_errors", False, "flag", "raise after saving when any cell errored", _flag),
    RunOption("max_concurrency", 10, "int", "judge requests in flight, shared by every evaluator (default 10)",
              positive_int, metavar="N", in_summary=True, report_label="Max concurrency", aliases=("concurrency",)),
    RunOption("resume", False, "flag", "continue the run in --output: only missing or errored cells run", _flag),
    RunOption("rerun_failed", False, "flag", "re-run only the errored cells of the run in --output", _flag),
    RunOption("force", False, "flag",
              "with --resume / --rerun-failed: reuse earlier results even though data or evaluators changed", _flag),
    RunOption("num_runs", 1, "int", "evaluate every cell this many times; the cell holds the mean",
              positive_int, metavar="N", in_summary=True, fingerprinted=True),
    RunOption("show_progress", None, "switch", "progress on stderr (default: a line on a terminal, "
              "plain lines every 10 s elsewhere)", _show_progress),
    RunOption("timeout", 300.0, "float", "limit per evaluator call in seconds (default 300)", _timeout,
              metavar="SECONDS", in_summary=True),
    RunOption("evaluation_name", None, "text", "a name for the run, recorded in summary.json", _text,
              metavar="NAME", in_summary=True),
    RunOption("tags", None, "tags", "a tag recorded in summary.json, repeatable", _tags, metavar="KEY=VALUE",
              in_summary=True, report_label="Tags", cli_flag="--tag"),
    RunOption("max_rows", None, "int", "evaluate only the first N rows of the input",
              _optional(positive_int), metavar="N", in_summary=True, report_label="Row limit"),
    RunOption("min_agreement", None, "float", "judge panels only: a run threshold over an evaluator whose judges' "
              "agreement (Krippendorff's alpha) is below this reports INCONCLUSIVE, not PASS/FAIL", _agreement,
              metavar="ALPHA", in_summary=True, report_label="Min panel agreement"),
    RunOption("prices", None, "mapping", "a judge model's price in USD per million tokens (input, output, cached "
              "input), before the shipped table; repeatable", check_prices, metavar="MODEL=IN,OUT[,CACHED]",
              in_summary=True, flag_aliases=("--price",)),
    RunOption("dry_run", False, "flag", "call no judge: render every prompt the run would send and report judge "
              "calls, tokens and cost per evaluator (summary.json's estimate; no rows, no thresholds, exit 0)", _flag),
    RunOption("max_cost", None, "float", "stop judge work before the run's judge cost in USD would pass this; the "
              "cells left are not_run (exit 2); --resume with a higher cap goes on", _cap, metavar="USD",
              in_summary=True, report_label="Max judge cost (USD)"),
    RunOption("max_judge_calls", None, "int", "stop judge work after this many judge calls; the cells left are "
              "not_run (exit 2); --resume with a higher cap goes on", _cap, metavar="N", in_summary=True,
              report_label="Max judge calls"),
    RunOption("azure_compat", False, "flag", "azure-ai-evaluation 1.18's meaning for the whole run: registry "
              "names are agent_evaluators.azure's classes (task_adherence 0/1, tool_call_accuracy 1-5, ...) and the "
              "metrics add 1.18's names (<alias>.binary_aggregate, <alias>.<key>_passed)", _flag, in_summary=True,
              fingerprinted=True, report_label="azure-ai-evaluation 1.18 meaning"),
    RunOption("data_format", "auto", "choice", "how --data is read: auto (by suffix; OpenTelemetry OTLP/JSON trace "
              "files and folders by content) or otlp (traces: one row per agent run)", _data_format,
              choices=DATA_FORMATS, in_summary=True, report_label="Data format"),
    RunOption("judge_mode", "direct", "choice", "direct (a request per judge call) or batch (the provider's Batch "
              "API at half price, answers within its 24 h window; --batch for short)", _judge_mode,
              choices=("direct", "batch"), in_summary=True, report_label="Judge mode", const_flags=(("--batch", "batch"),)),
    RunOption("batch_poll_s", 30.0, "float", "--judge-mode batch: seconds between status checks of a batch, growing "
              "by half each check up to 8 times this (default 30)", _positive_float, metavar="SECONDS"),
    RunOption("batch_max_requests", 50_000, "int", "--judge-mode batch: requests per batch (default 50000, the "
              "provider's limit)", positive_int, metavar="N"),
    RunOption("batch_max_bytes", 200_000_000, "int", "--judge-mode batch: bytes per batch file (default 200000000, "
              "the provider's 200 MB)", positive_int, metavar="BYTES"),
    RunOption("otel", False, "flag", "send every cell as an OpenTelemetry gen_ai.evaluation.result event over "
              "OTLP/HTTP (endpoint and headers from OTEL_EXPORTER_OTLP_*; pip install agent-evaluators[otel])",
              _needs_extra("otel", "opentelemetry.exporter.otlp.proto.http"), in_summary=True,
              sink="agent_evaluators.export.otel:send_cells"),
    RunOption("mlflow", False, "flag", "log the run to MLflow's active tracking URI: parameters, metrics, the rows "
              "table, summary and report, feedback on matching MLflow traces (pip install agent-evaluators[mlflow])",
              _needs_extra("mlflow", "mlflow"), in_summary=True, sink="agent_evaluators.export.mlflow_run:log_run"),
    RunOption("engine", "local", "choice", "local (one process) or ray (shards on a Ray cluster; "
              "pip install agent-evaluators[ray])", _engine, choices=("local", "ray"), async_too=False),
    RunOption("ray_address", None, "text", "--engine ray only: the cluster to connect to (default: a local Ray)",
              _text, metavar="ADDRESS", async_too=False),
    RunOption("num_workers", None, "int", "--engine ray only: shards evaluated at once (default: the cluster's CPUs)",
              _optional(positive_int), metavar="N", async_too=False),
)

#: the options that continue the run in ``output_path`` instead of replacing it
CONTINUING = ("resume", "rerun_failed")

_BY_NAME: Dict[str, RunOption] = {o.name: o for o in RUN_OPTIONS}


def option(name: str) -> RunOption:
    """The table's entry for keyword ``name``."""
    return _BY_NAME[name]


def flag_of(name: str) -> str:
    """``max_rows`` -> ``--max-rows``: the ``agent-eval run`` flag of a keyword."""
    return _BY_NAME[name].flag


def check_options(values: Mapping[str, Any]) -> Dict[str, Any]:
    """Every table option, checked: the given value, else the default; unknown names are an error."""
    unknown = [name for name in values if name not in _BY_NAME]
    if unknown:
        raise ConfigError(f"unknown run option {unknown[0]!r}; run options: {', '.join(_BY_NAME)}")
    return {o.name: o.check(o.name, values.get(o.name, o.default)) for o in RUN_OPTIONS}


def options_docstring(*, async_only: bool = False) -> str:
    """The run options' part of ``evaluate()``'s docstring, made from this table, so a new option
    documents itself (and ``evaluate()`` stays within the engine's function length)."""
    lines = ["", "    Run options (each also ``agent-eval run --flag`` and a run-config key; ``runner/option_table.py``):"]
    for o in RUN_OPTIONS:
        if async_only and not o.async_too:
            continue
        default = "" if "default" in o.help else f" (default {o.default!r})"
        lines.append(f"        {o.name}{default}: {o.help}.")
    return "\n".join(lines) + "\n"
