"""Traces as evaluation data: OTLP/JSON files of the agents' OpenTelemetry spans become rows.

``evaluate(data="traces/")`` and ``agent-eval run --data spans.jsonl`` read the OpenTelemetry
collector's ``file`` exporter format (recognised by content; ``data_format="otlp"`` forces it):
:mod:`.otlp_json` reads spans and log records, :mod:`.steps` reads one span by its convention
(GenAI semantic conventions, both generations, or OpenInference), :mod:`.runs` groups spans
into agent runs (a trace, or a conversation id) and rebuilds each transcript, :mod:`.rows`
gives the columns the evaluators take. A run that cannot be read is an error row naming its
trace and what is missing, never dropped.
"""

from pathlib import Path
from typing import Any, Iterable, Iterator, List, Union

from .otlp_json import Telemetry, looks_like_otlp, otlp_files, read_telemetry, request_objects
from .runs import AgentRun, group_runs
from .trace_rows import run_row

__all__ = ["AgentRun", "looks_like_otlp", "read_runs", "trace_rows"]


def _telemetry(data: Any) -> Telemetry:
    if isinstance(data, (str, Path)):
        return read_telemetry(otlp_files(Path(data)))
    return request_objects(data)


def read_runs(data: Union[str, Path, Iterable[Any]]) -> "tuple[List[AgentRun], List[str]]":
    """The agent runs of a trace file, a folder of them, or OTLP export objects; and the unreadable lines."""
    telemetry = _telemetry(data)
    return group_runs(telemetry), list(telemetry.problems)


def trace_rows(data: Union[str, Path, Iterable[Any]], row_error: Any) -> Iterator[Any]:
    """One row per agent run; ``row_error(message)`` makes the error row of an unreadable run or line."""
    runs, problems = read_runs(data)
    for problem in problems:
        yield row_error(problem)
    for run in runs:
        yield row_error(run.problem) if run.problem else run_row(run)
