"""Every run option of ``evaluate()``, declared once.

One :class:`RunOption` per keyword of :func:`~agent_evaluators.evaluate` (except ``data``,
``evaluators``, ``evaluator_config``, which have forms of their own everywhere, and
``azure_ai_project``, accepted for azure-ai-evaluation's code only: results stay local). Everything else is derived from
this table, so a new option is one entry here, its typed field in :class:`~.run_settings.RunSettings`
and its keyword in the two written-out signatures of ``runner/api.py`` (tests keep all three equal):

- the check of its value (``check``, run by :class:`~.run_settings.RunSettings`);
- the ``agent-eval run`` flag ``--name-with-dashes`` and its help (``cli/run_flags.py``);
- the run-config key (the keyword's own name; ``config/run_call.py``);
- how a message names it: ``max_rows`` in Python, ``--max-rows`` on the command line
  (``cli/flag_vocabulary.py``), ``max_rows:`` in a run config (``config/yaml_vocabulary.py``);
- ``summary.json``'s ``config`` (``in_summary``), the HTML report's "Run" section
  (``report_label``) and the resume fingerprint (``fingerprinted``: a resume refuses to
  continue a run whose value differs).

The engines read the checked values as typed attributes of :class:`~.run_settings.RunSettings`
(``options.settings.max_concurrency``), whose fields a test keeps equal to this table; the row
source reads the row limit. The checks themselves are :mod:`agent_evaluators._util.validators`.
"""

from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Iterable, Mapping, Optional, Tuple

from .. import plugins
from .._util import validators
from .._util.install_hint import install_hint
from ..conversation.transcript import DEFAULT_MAX_PROMPT_TOKENS
from ..errors import ConfigError
from ..judge.prices import check_prices
from ..wording import Text
from .readers import DATA_FORMATS

#: keywords of ``evaluate()`` that are not in the table: their CLI / YAML forms are their own
OWN_FORM_ARGUMENTS = ("data", "evaluators", "evaluator_config", "azure_ai_project")

#: the check of a whole number >= 1 (kept here for code that imported it from the table)
positive_int = validators.positive_int


# ---------------------------------------------------------------------------- checks of one option
def _timeout(what: validators.Subject, value: Any) -> Any:
    return validators.positive_seconds(what, value, none_is_no_limit=True)


def _cost_cap(what: validators.Subject, value: Any) -> Any:
    return validators.budget_cap(what, value, whole=False)


def _calls_cap(what: validators.Subject, value: Any) -> Any:
    return validators.budget_cap(what, value, whole=True)


def _tool_names(what: validators.Subject, value: Any) -> Any:
    """Tool names: a comma-separated text or a list of names; ``None``: none."""
    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n.strip() for n in names):
        raise ConfigError(f"{what} must be tool names: a comma-separated text or a list of names, got {value!r}")
    return tuple(n.strip() for n in names)


def _certification(what: validators.Subject, value: Any) -> Any:
    """A labelled run folder (its ``labels.jsonl``) or the JSON ``agent-eval calibrate --labels RUN --json FILE``
    wrote; ``None``: the run's own folder, where it holds labels."""
    if value is None:
        return None
    found = validators.path(what, value)
    if found is None or not found.exists():
        raise ConfigError(Text("{what} {value!r}: no such file or folder; give a labelled run folder (with "
                               "labels.jsonl) or the JSON file `agent-eval calibrate --labels RUN --json FILE` wrote",
                               what=validators.subject(what), value=str(value)))
    return str(found)


_data_format = validators.one_of(DATA_FORMATS, "auto: by the file's suffix, and OpenTelemetry traces by content; otlp: "
                                          "read as OTLP/JSON traces")
_judge_mode = validators.one_of(("direct", "batch"), "the provider's Batch API", either=True)
_engine = validators.one_of(("local", "ray"), either=True)


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
    check: Callable[[str, Any], Any] = validators.keep
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
              "(module:function)", validators.callable_value("callable(**row) -> dict"), metavar="MODULE:FUNCTION"),
    RunOption("output_path", None, "path", "results folder (default: agent-eval-results/<data name>)",
              metavar="DIR", cli_flag="--output", aliases=("output",)),
    RunOption("fail_on_evaluator_errors", False, "flag", "raise after saving when any cell errored", validators.flag),
    RunOption("max_concurrency", 10, "int", "judge requests in flight, shared by every evaluator (default 10)",
              validators.positive_int, metavar="N", in_summary=True, report_label="Max concurrency", aliases=("concurrency",)),
    RunOption("resume", False, "flag", "continue the run in --output: only missing or errored cells run", validators.flag),
    RunOption("rerun_failed", False, "flag", "re-run only the errored and not-run cells of the run in --output", validators.flag),
    RunOption("force", False, "flag",
              "with --resume / --rerun-failed: reuse earlier results even though data or evaluators changed", validators.flag),
    RunOption("num_runs", 1, "int", "evaluate every cell this many times; the cell holds the mean",
              validators.positive_int, metavar="N", in_summary=True, fingerprinted=True),
    RunOption("show_progress", None, "switch", "progress on stderr (default: a line on a terminal, "
              "plain lines every 10 s elsewhere)", validators.optional_flag),
    RunOption("timeout", 300.0, "float", "limit per evaluator call in seconds (default 300)", _timeout,
              metavar="SECONDS", in_summary=True),
    RunOption("evaluation_name", None, "text", "a name for the run, recorded in summary.json", validators.text,
              metavar="NAME", in_summary=True),
    RunOption("tags", None, "tags", "a tag recorded in summary.json, repeatable", validators.tags, metavar="KEY=VALUE",
              in_summary=True, report_label="Tags", cli_flag="--tag"),
    RunOption("max_rows", None, "int", "evaluate only the first N rows of the input",
              validators.optional(validators.positive_int), metavar="N", in_summary=True, report_label="Row limit"),
    RunOption("min_agreement", None, "float", "judge panels only: a run threshold over an evaluator whose judges' "
              "agreement (Krippendorff's alpha) is below this reports INCONCLUSIVE, not PASS/FAIL", validators.agreement,
              metavar="ALPHA", in_summary=True, report_label="Min panel agreement"),
    RunOption("certification", None, "path", "where the judge's certification comes from: a labelled run folder "
              "(labels.jsonl) or the JSON of `agent-eval calibrate --labels RUN --json FILE`; summary.json then "
              "records it per evaluator and, for a certified judge, the corrected pass rate (default: the run's own "
              "folder when it holds labels and require_certified is on)", _certification, metavar="PATH",
              in_summary=True, report_label="Judge certification", sink=plugins.CERTIFICATION),
    RunOption("require_certified", False, "flag", "a run threshold over a judge evaluator not certified by people's "
              "labels (see certification) reports INCONCLUSIVE, not PASS/FAIL", validators.flag, in_summary=True,
              report_label="Require a certified judge", sink=plugins.CERTIFICATION),
    RunOption("prices", None, "mapping", "a judge model's price in USD per million tokens (input, output, cached "
              "input), before the shipped table; repeatable", check_prices, metavar="MODEL=IN,OUT[,CACHED]",
              in_summary=True, flag_aliases=("--price",)),
    RunOption("dry_run", False, "flag", "call no judge: render every prompt the run would send and report judge "
              "calls, tokens and cost per evaluator (summary.json's estimate; no rows, no thresholds, exit 0)", validators.flag),
    RunOption("max_cost", None, "float", "stop judge work before the run's judge cost in USD would pass this; the "
              "cells left are not_run (exit 2); --resume with a higher cap goes on", _cost_cap, metavar="USD",
              in_summary=True, report_label="Max judge cost (USD)"),
    RunOption("max_judge_calls", None, "int", "stop judge work after this many judge calls; the cells left are "
              "not_run (exit 2); --resume with a higher cap goes on", _calls_cap, metavar="N", in_summary=True,
              report_label="Max judge calls"),
    RunOption("max_prompt_tokens", DEFAULT_MAX_PROMPT_TOKENS, "int", "agent metrics' judge prompts: a conversation "
              "longer than this many tokens keeps its system instructions, first user message and latest turns, and "
              "leaves the middle turns out with a marker naming them (the cell's details record it; default "
              f"{DEFAULT_MAX_PROMPT_TOKENS})", validators.positive_int, metavar="N", in_summary=True, fingerprinted=True,
              report_label="Max prompt tokens"),
    RunOption("terminal_tools", None, "text", "IntentResolution and TaskCompletion: tool names (comma-separated) whose "
              "call ends a conversation, besides names holding transfer, handoff or escalat; such a conversation is "
              "judged, not 'not applicable'", _tool_names, metavar="NAMES", in_summary=True, fingerprinted=True,
              report_label="Terminal tools"),
    RunOption("azure_compat", False, "flag", "azure-ai-evaluation 1.18's meaning for the whole run: registry "
              "names are agent_evaluators.azure's classes (task_adherence 0/1, tool_call_accuracy 1-5, ...) and the "
              "metrics add 1.18's names (<alias>.binary_aggregate, <alias>.<key>_passed)", validators.flag, in_summary=True,
              fingerprinted=True, report_label="azure-ai-evaluation 1.18 meaning"),
    RunOption("data_format", "auto", "choice", "how --data is read: auto (by suffix; OpenTelemetry OTLP/JSON trace "
              "files and folders by content) or otlp (traces: one row per agent run)", _data_format,
              choices=DATA_FORMATS, in_summary=True, report_label="Data format"),
    RunOption("judge_mode", "direct", "choice", "direct (a request per judge call) or batch (the provider's Batch "
              "API at half price, answers within its 24 h window; --batch for short)", _judge_mode,
              choices=("direct", "batch"), in_summary=True, report_label="Judge mode", const_flags=(("--batch", "batch"),)),
    RunOption("batch_poll_s", 30.0, "float", "--judge-mode batch: seconds between status checks of a batch, growing "
              "by half each check up to 8 times this (default 30)", validators.positive_number, metavar="SECONDS"),
    RunOption("batch_max_requests", 50_000, "int", "--judge-mode batch: requests per batch (default 50000, the "
              "provider's limit)", validators.positive_int, metavar="N"),
    RunOption("batch_max_bytes", 200_000_000, "int", "--judge-mode batch: bytes per batch file (default 200000000, "
              "the provider's 200 MB)", validators.positive_int, metavar="BYTES"),
    RunOption("batch_timeout_s", 86_400.0, "float", "--judge-mode batch: seconds a batch is waited for before its "
              "requests become error cells (default 86400, the provider's 24 h window; --resume polls it again)",
              validators.positive_number, metavar="SECONDS"),
    RunOption("otel", False, "flag", "send every cell as an OpenTelemetry gen_ai.evaluation.result event over "
              f"OTLP/HTTP (endpoint and headers from OTEL_EXPORTER_OTLP_*; {install_hint('otel')})",
              validators.needs_extra("otel", "opentelemetry.exporter.otlp.proto.http"), in_summary=True,
              sink="agent_evaluators.export.otel:send_cells"),
    RunOption("mlflow", False, "flag", "log the run to MLflow's active tracking URI: parameters, metrics, the rows "
              f"table, summary and report, feedback on matching MLflow traces ({install_hint('mlflow')})",
              validators.needs_extra("mlflow", "mlflow"), in_summary=True, sink="agent_evaluators.export.mlflow_run:log_run"),
    RunOption("engine", "local", "choice", "local (one process) or ray (shards on a Ray cluster; "
              f"{install_hint('ray')})", _engine, choices=("local", "ray"), async_too=False),
    RunOption("ray_address", None, "text", "--engine ray only: the cluster to connect to (default: a local Ray)",
              validators.text, metavar="ADDRESS", async_too=False),
    RunOption("num_workers", None, "int", "--engine ray only: shards evaluated at once (default: the cluster's CPUs)",
              validators.optional(validators.positive_int), metavar="N", async_too=False),
)

#: the options that continue the run in ``output_path`` instead of replacing it
CONTINUING = ("resume", "rerun_failed")

_BY_NAME: Dict[str, RunOption] = {o.name: o for o in RUN_OPTIONS}
_NAMES = frozenset(_BY_NAME)


def option(name: str) -> RunOption:
    """The table's entry for keyword ``name``."""
    return _BY_NAME[name]


def option_names() -> FrozenSet[str]:
    """Every run option's keyword."""
    return _NAMES


def flag_of(name: str) -> str:
    """``max_rows`` -> ``--max-rows``: the ``agent-eval run`` flag of a keyword."""
    return _BY_NAME[name].flag


def checked(name: str, value: Any) -> Any:
    """``value`` of run option ``name`` through the table's check: how every entry point that takes the
    same setting (``calibrate(max_concurrency=...)``, the ADK runner) checks it, with the same message."""
    return _BY_NAME[name].check(name, value)


def refuse_unknown(names: Iterable[str]) -> None:
    """A ``ConfigError`` for the first name that is not a run option (``evaluate_ray(**keywords)``)."""
    unknown = [name for name in names if name not in _BY_NAME]
    if unknown:
        raise ConfigError(Text("unknown run option {name!r}; run options: {known}", name=unknown[0],
                               known=", ".join(_BY_NAME)))


def check_options(values: Mapping[str, Any]) -> Dict[str, Any]:
    """Every table option, checked: the given value, else the default; unknown names are an error."""
    refuse_unknown(values)
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
