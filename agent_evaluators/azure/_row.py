"""A 1.18 result row that also carries the usage of the judge calls that made it (see :class:`AzureRow`)."""

from typing import Any, Dict, Mapping, Optional


class AzureRow(Dict[str, Any]):
    """A 1.18 row: a plain dict to every reader, and for our run engine also ``judge_usage``, our usage
    record of the judge calls that made it. 1.18's row keeps only token counts (in ``<k>_properties``), so
    without it an ``azure_compat`` run lost its judge-call counts (table and ``summary.json``); kept as an
    attribute, not a key, the row stays 1.18's."""

    __slots__ = ("judge_usage",)

    def __init__(self, row: Mapping[str, Any], judge_usage: Optional[Mapping[str, Any]]) -> None:
        super().__init__(row)
        self.judge_usage = dict(judge_usage) if judge_usage else None


def judge_usage_of(row: Any) -> Optional[Dict[str, Any]]:
    """The usage record an :class:`AzureRow` carries (``None`` for any other row)."""
    usage: Optional[Dict[str, Any]] = getattr(row, "judge_usage", None)
    return usage
