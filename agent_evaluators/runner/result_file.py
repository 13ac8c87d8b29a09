"""A result file beside the run folder, asked for by the suffix of ``output_path``.

azure-ai-evaluation's ``evaluate(output_path="results.json")`` takes a *file*; ours is a folder
(``rows.jsonl`` streamed, ``summary.json``, resume). A path whose suffix a wing declares
(:data:`agent_evaluators.plugins.RESULT_FILES`) gets both: the run folder at the same path
without the suffix, and that wing's file at the path given, written once the run is done.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Tuple, Union

from .. import plugins
from .._util import validators


@dataclass(frozen=True)
class ResultFile:
    """The file to write at the end of the run, and the wing's writer that knows its layout."""

    path: Path
    writer: str

    def write(self, result: Any) -> None:
        plugins.load(self.writer)(self.path, result)


def split_output_path(output_path: Optional[Union[str, Path]]) -> Tuple[Optional[Path], Optional[ResultFile]]:
    """(the run folder to use, the result file to write or ``None``) for the ``output_path`` a caller gave."""
    folder = validators.path("output_path", output_path)  # not a path: a ConfigError naming output_path
    if folder is None:
        return None, None
    writer = plugins.RESULT_FILES.get(folder.suffix.lower())
    if writer is None:
        return folder, None
    return folder.with_suffix(""), ResultFile(folder, writer)
