"""Traces as evaluation data: OTLP/JSON files of the agents' OpenTelemetry spans become rows.

``evaluate(data="traces/")`` and ``agent-eval run --data spans.jsonl`` read the OpenTelemetry
collector's ``file`` exporter format (recognised by content; ``data_format="otlp"`` forces it):
:mod:`.otlp_lines` reads the lines of the files (or objects in memory), :mod:`.otlp_json` and
:mod:`.otlp_values` read spans and log records, :mod:`.trace_index` finds which lines hold each
trace and groups traces into agent runs (a trace, or a conversation id), :mod:`.run_reader`
builds one run at a time from its own lines, :mod:`.steps` reads one span by its convention
(GenAI semantic conventions, both generations, or OpenInference), :mod:`.transcript` rebuilds
each transcript, :mod:`.trace_rows` gives the columns the evaluators take. A run that cannot be
read (a value of the wrong kind, a parent cycle, a line that is not JSON) is an error row naming
its trace and what is wrong, never dropped, and never the end of the read.
"""

from pathlib import Path
from typing import Any, Iterable, Iterator, List, Tuple, Union

from .._util.otlp_sniff import looks_like_otlp
from .otlp_json import otlp_files
from .otlp_lines import RequestLines, file_lines, object_lines
from .run_reader import iter_runs
from .runs import AgentRun
from .trace_index import index_traces
from .trace_rows import run_row

__all__ = ["AgentRun", "looks_like_otlp", "read_runs", "runs_of", "trace_rows"]


def _lines(data: Any) -> RequestLines:
    if isinstance(data, (str, Path)):
        return file_lines(otlp_files(Path(data)))
    return object_lines(data)


def runs_of(data: Union[str, Path, Iterable[Any]]) -> Tuple[Iterator[AgentRun], List[str]]:
    """The agent runs of a trace file, a folder of them, or OTLP export objects, one at a time (in the
    order they started), and the problems that name only a line (read first, so known at once)."""
    lines = _lines(data)
    index = index_traces(lines)
    return iter_runs(lines, index), list(index.problems)


def read_runs(data: Union[str, Path, Iterable[Any]]) -> "tuple[List[AgentRun], List[str]]":
    """The agent runs of a trace file, a folder of them, or OTLP export objects; and the unreadable lines."""
    runs, problems = runs_of(data)
    return list(runs), problems


def trace_rows(data: Union[str, Path, Iterable[Any]], row_error: Any) -> Iterator[Any]:
    """One row per agent run; ``row_error(message)`` makes the error row of an unreadable run or line."""
    runs, problems = runs_of(data)
    for problem in problems:
        yield row_error(problem)
    for run in runs:
        yield row_error(run.problem) if run.problem else run_row(run)
