"""What ``evaluate()`` returns."""

from collections.abc import ItemsView
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple


class _Items(ItemsView):  # type: ignore[type-arg]
    """``result.items()``: the rows as a plain list (read from disk when they are lazy).

    ``json.dumps`` (its C encoder and the pure-Python one) reads a ``dict`` subclass through
    ``items()``, and encodes only real lists, so this is where lazy rows become JSON."""

    def __iter__(self) -> Iterator[Tuple[str, Any]]:
        result = self._mapping  # type: ignore[attr-defined]
        for key in result:
            value = dict.__getitem__(result, key)
            if key == "rows" and not isinstance(value, list):
                value = list(value)
            yield key, value


class EvaluationResult(Dict[str, Any]):
    """The result of a run: a ``dict`` with azure-ai-evaluation's keys (``rows``, ``metrics``,
    ``studio_url``), so ``json.dumps(result)`` works as it does on azure's plain dict, plus attributes.

    * ``rows``: one flat dict per input row, in input order (``line_number``,
      ``inputs.<col>``, ``outputs.<col>`` from the target, ``outputs.<alias>.<key>``,
      ``cell_status``). With ``output_path`` set it is read lazily from
      ``rows.jsonl`` (a Sequence), so memory stays flat: ``result.rows`` and
      ``result["rows"]`` read one row per access; ``json.dumps(result)`` and
      ``result.items()`` read them all into a list at that moment (the JSON text
      holds them all anyway); ``list(result.rows)`` is a plain list;
    * ``metrics``: see :mod:`agent_evaluators.runner.aggregate`;
    * ``errors``: ``[{"line_number", "alias", "message"}]`` for every error cell;
    * ``problems``: ``{(line_number, alias): CellProblem}`` for the same cells, in memory only: each
      message with its references (``max_concurrency``, ``model_config 'base_url'``), so a reader can
      list it in its own words (``agent-eval run`` says ``--max-concurrency``, ``--judge-base-url``);
    * ``usage``: judge usage totals per evaluator alias;
    * ``summary``: everything ``summary.json`` holds (config, versions, fingerprint);
    * ``output_path``: the run folder, or ``None``;
    * ``estimate``: a dry run's estimate (``dry_run=True``, :mod:`.estimate`), else ``None``.
    * ``evaluated_rows``: the rows this call evaluated (a resume's kept rows left out), read the
      same way as ``rows``: what ``otel=True`` sends, so a resume does not send a row twice.
    """

    def __init__(
        self,
        *,
        rows: Sequence[Dict[str, Any]],
        metrics: Dict[str, Any],
        errors: List[Dict[str, Any]],
        usage: Dict[str, Any],
        summary: Dict[str, Any],
        output_path: Optional[Path],
        evaluated_rows: Optional[Sequence[Dict[str, Any]]] = None,
        problems: Optional[Mapping[Tuple[int, str], Any]] = None,
    ) -> None:
        super().__init__(rows=rows, metrics=metrics, studio_url=None)
        self.errors = errors
        self.usage = usage
        self.summary = summary
        self.output_path = output_path
        self.estimate: Optional[Dict[str, Any]] = None
        self.evaluated_rows = rows if evaluated_rows is None else evaluated_rows
        self.problems: Dict[Tuple[int, str], Any] = dict(problems or {})

    @property
    def rows(self) -> Sequence[Dict[str, Any]]:
        return self["rows"]  # type: ignore[no-any-return]

    @property
    def metrics(self) -> Dict[str, Any]:
        return self["metrics"]  # type: ignore[no-any-return]

    @property
    def studio_url(self) -> Optional[str]:
        return self["studio_url"]  # type: ignore[no-any-return]

    def items(self) -> _Items:  # type: ignore[override]
        return _Items(self)

    def __repr__(self) -> str:
        where = f", output_path={str(self.output_path)!r}" if self.output_path else ""
        return f"EvaluationResult({len(self.rows)} rows, {len(self.metrics)} metrics, {len(self.errors)} errors{where})"
