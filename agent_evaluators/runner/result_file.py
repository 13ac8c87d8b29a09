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

__all__ = ["ResultFile", "split_output_path"]


@dataclass(frozen=True)
class ResultFile:
    """The file to write at the end of the run, and the wing's writer that knows its layout."""

    path: Path
    writer: str

    def write(self, result: Any) -> None:
        plugins.load(self.writer)(self.path, result)


def split_output_path(output_path: Optional[Union[str, Path]]) -> Tuple[Optional[Union[str, Path]], Optional[ResultFile]]:
    """(the run folder to use, the result file to write or ``None``) for the ``output_path`` a caller gave."""
    if output_path is None or isinstance(output_path, bool):
        return output_path, None
    try:
        path = Path(output_path)
    except TypeError:
        return output_path, None  # not a path: RunOptions says what is wrong with it
    writer = plugins.RESULT_FILES.get(path.suffix.lower())
    if writer is None:
        return output_path, None
    return path.with_suffix(""), ResultFile(path, writer)
