"""What ``evaluate()`` returns."""

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence

__all__ = ["EvaluationResult"]


class EvaluationResult(Mapping):
    """The result of a run: a read-only mapping with azure-ai-evaluation's keys
    (``rows``, ``metrics``, ``studio_url``) plus attributes.

    * ``rows``: one flat dict per input row, in input order (``line_number``,
      ``inputs.<col>``, ``outputs.<col>`` from the target, ``outputs.<alias>.<key>``,
      ``cell_status``). With ``output_path`` set it is read lazily from
      ``rows.jsonl`` (a Sequence), so memory stays flat;
    * ``metrics``: see :mod:`agent_evaluators.runner.aggregate`;
    * ``errors``: ``[{"line_number", "alias", "message"}]`` for every error cell;
    * ``usage``: judge usage totals per evaluator alias;
    * ``summary``: everything ``summary.json`` holds (config, versions, fingerprint);
    * ``output_path``: the run folder, or ``None``.
    """

    _KEYS = ("rows", "metrics", "studio_url")

    def __init__(
        self,
        *,
        rows: Sequence[Dict[str, Any]],
        metrics: Dict[str, Any],
        errors: List[Dict[str, Any]],
        usage: Dict[str, Any],
        summary: Dict[str, Any],
        output_path: Optional[Path],
    ) -> None:
        self.rows = rows
        self.metrics = metrics
        self.errors = errors
        self.usage = usage
        self.summary = summary
        self.output_path = output_path
        self.studio_url: Optional[str] = None

    def __getitem__(self, key: str) -> Any:
        if key not in self._KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return len(self._KEYS)

    def __repr__(self) -> str:
        where = f", output_path={str(self.output_path)!r}" if self.output_path else ""
        return f"EvaluationResult({len(self.rows)} rows, {len(self.metrics)} metrics, {len(self.errors)} errors{where})"
