"""The run ledger: the one owner of a run's folder and of its running totals.

Every finished row reaches the ledger exactly once, from whichever engine ran it: the
ledger appends it to ``rows.jsonl`` (or keeps it in memory without ``output_path``),
counts it (:class:`~.tally.RowTally`), and at the end writes ``summary.json`` and
returns the :class:`~.result.EvaluationResult`. It also decides, from an earlier run's
records, what is left to do on each line (``resume`` / ``rerun_failed``), after checking
that the earlier run was made with the same setup.

The folder is checked and locked when the ledger is made, but nothing in it is written
until the first finished row arrives (or the run finishes): a run that fails before that
(a column mapping the first row does not have, a data file with no rows) leaves the
earlier run's ``rows.jsonl`` and ``summary.json`` exactly as they were. A ``rows.jsonl``
with no ``summary.json`` beside it was not written by this tool and is never replaced.
"""

import logging
import time
from array import array
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import plugins
from ..errors import EvaluatorErrors, InputError, RunInterrupted
from ..judge.caps import NOT_RUN, BudgetBook
from ..wording import Option, Text
from .aggregate import run_cost
from .describe import RunDescription
from .dry_run_estimate import compare_estimate, earlier_estimate
from .earlier_run import check_earlier_run, check_replace, refuse_input_inside_output, set_aside_earlier_run
from .judge_caps import STOPPED, budget_record, stop_message
from .lock import LOCK_FILE, RunFolderLock
from .mapping import ArgPlan
from .options import RunOptions
from .progress import Progress
from .readers import describe_data, is_file_data
from .result import EvaluationResult
from .row_evaluator import Cells, Record, RowEvaluator
from .row_hash import row_digest
from .safe_record import encode_row
from .spend_journal import SPEND_FILE, SpendJournal, new_chain
from .store import ROWS_FILE, SUMMARY_FILE, RowsView, RowWriter, read_record, scan_rows, write_json_atomic
from .tally import RowTally

#: the files a run writes in its folder (besides temporary ``*.tmp`` siblings); the CLI's report files too
RUN_FILES = (ROWS_FILE, SUMMARY_FILE, LOCK_FILE, SPEND_FILE, "report.html", "checks.json")

logger = logging.getLogger("agent_evaluators.runner")


def no_rows_message(data: object) -> str:
    """What ``evaluate()`` and ``agent-eval run`` say about a data file with no rows."""
    return (f"{data} holds no rows (empty, or only blank lines): nothing was evaluated. "
            "Check the file (or the step that writes it) and run again.")


def _summary_part(problems: List[str], what: str, compute: Callable[[], Mapping[str, Any]]) -> Dict[str, Any]:
    """``compute()``, or ``{}`` with the problem noted in ``problems`` and logged: a part of the summary that
    fails (an aggregate of extreme scores) must not leave the run ``running``, which every resume would repeat."""
    try:
        return dict(compute())
    except Exception as exc:  # noqa: BLE001 - any failure here is reported in the summary instead
        logger.warning("summary: %s could not be computed (%s: %s); the rows are saved and the summary leaves it "
                       "out", what, type(exc).__name__, exc)
        problems.append(f"{what}: {type(exc).__name__}: {exc}")
        return {}


def _now_iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).isoformat()


class RunLedger:
    """See the module docstring. Use as a context manager: the files are closed however the run ends."""

    def __init__(self, options: RunOptions, rows: RowEvaluator, description: RunDescription, *,
                 total: Optional[int] = None, engine: Optional[Dict[str, Any]] = None) -> None:
        self.options = options
        self.rows = rows
        self.started = time.time()
        self.out_dir = options.output_path
        self.tally = RowTally({a: inv.result_key for a, inv in rows.invokers.items()}, rows.num_runs)
        self.source = options.row_source()
        self.progress = Progress(options.settings.show_progress, total, source=self.source)
        self.reused = 0
        self.skipped = 0
        self._offsets: "array[int]" = array("q")
        self._memory: List[Optional[Record]] = []
        self._writer: Optional[RowWriter] = None
        self._prior_file: Optional[BinaryIO] = None
        self._first_new = 0
        self._prior_offsets: Dict[int, int] = {}
        self._prior_status: Dict[int, Dict[str, str]] = {}
        self._closed = False
        self._finished = False
        self._started = False
        self._replacing = False
        #: lines of the input seen so far (read rows and unreadable ones)
        self.lines_seen = 0
        self._lock: Optional[RunFolderLock] = None
        self._prior_hash: Dict[int, Optional[str]] = {}
        self.changed_rows = 0
        self.total = total
        self.interruption: Optional[RunInterrupted] = None
        #: a dry run's estimate found in the folder: the summary compares the usage with it
        self.estimate: Optional[Dict[str, Any]] = None
        #: judge calls and USD the folder's earlier runs spent (a resume's budget starts there)
        self.earlier_spend: Tuple[int, float] = (0, 0)
        #: the chain of runs this one continues in ``spend.jsonl`` (:mod:`.spend_journal`); ``None``: a new one
        self.spend_chain: Optional[str] = None
        self._journal: Optional[SpendJournal] = None
        #: the run's judge budget, when it has a cap (:mod:`.budget_run`)
        self.budget: Optional[BudgetBook] = None
        self.summary: Dict[str, Any] = {
            "status": "running",
            "started_at": _now_iso(self.started),
            "config": description.config,
            "versions": description.versions,
            "fingerprint": description.fingerprint,
        }
        if engine is not None:
            self.summary["engine"] = engine
        if self.out_dir is not None:
            self._open(description)

    # --------------------------------------------------------------- the folder
    @property
    def rows_path(self) -> Optional[Path]:
        return self.out_dir / ROWS_FILE if self.out_dir is not None else None

    @property
    def summary_path(self) -> Optional[Path]:
        return self.out_dir / SUMMARY_FILE if self.out_dir is not None else None

    def _open(self, description: RunDescription) -> None:
        assert self.out_dir is not None and self.rows_path is not None and self.summary_path is not None
        refuse_input_inside_output(self.options.data, self.out_dir, RUN_FILES)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._lock = RunFolderLock(self.out_dir)
        try:
            self._open_locked(description)
        except BaseException:
            self.close()
            self.release()
            raise

    def _open_locked(self, description: RunDescription) -> None:
        assert self.out_dir is not None and self.rows_path is not None and self.summary_path is not None
        self.estimate = earlier_estimate(self.out_dir)
        if self.options.continues_earlier_run:
            self.earlier_spend, self.spend_chain = check_earlier_run(self.out_dir, self.options, description)
            self._prior_offsets, self._prior_status, _ = scan_rows(self.rows_path, self._prior_hash)
        elif self.rows_path.exists() and self.rows_path.stat().st_size:
            check_replace(self.out_dir, self.options)
            self._replacing = True
        if self._prior_offsets:
            self._prior_file = open(self.rows_path, "rb")

    def _start(self) -> None:
        """Write to the folder for the first time: ``summary.json`` (``running``), then open
        ``rows.jsonl`` (emptied for a new run), in that order, so a ``rows.jsonl`` of ours always
        has its summary beside it. Deferred to the first finished row (see the module docstring)."""
        if self._started or self.out_dir is None:
            return
        assert self.rows_path is not None and self.summary_path is not None
        self._started = True
        if self._replacing:
            set_aside_earlier_run(self.out_dir)
        write_json_atomic(self.summary_path, self.summary, self.rows.secrets)
        self._writer = RowWriter(self.rows_path, append=self.options.continues_earlier_run)
        self._first_new = self._writer.size  # records from here on were written by this run

    def __enter__(self) -> "RunLedger":
        return self

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.progress.close()
        if self._journal is not None:
            self._journal.close()
        if self._writer is not None:
            self._writer.close()
        if self._prior_file is not None:
            self._prior_file.close()
            self._prior_file = None

    def release(self) -> None:
        """Free the run folder for the next run: only after the final ``summary.json`` is written,
        so a run that starts next can never have its summary overwritten by this one."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        import asyncio

        if exc_type is not None and issubclass(exc_type, (KeyboardInterrupt, asyncio.CancelledError)):
            self.interrupt()
        self.close()
        if exc_type is not None:
            self.release()  # a normal exit leaves the lock to finish()

    @property
    def rows_done(self) -> int:
        if self.rows_path is not None:
            return sum(1 for o in self._offsets if o >= 0)
        return sum(1 for r in self._memory if r is not None)

    def interrupt(self) -> RunInterrupted:
        """Ctrl-C / cancellation: keep what is written, mark ``summary.json`` ``"interrupted"``, and
        keep the :class:`RunInterrupted` an engine raises (``self.interruption``)."""
        if self.interruption is not None or self._finished:
            return self.interruption or RunInterrupted("interrupted", rows_done=0, total=None, output_path=None)
        done = self.rows_done
        total = self.total if self.total is not None else self.source.counted_total()
        now = time.time()
        self.summary.update({
            "status": "interrupted", "finished_at": _now_iso(now), "duration_s": round(now - self.started, 3),
            "rows": done, "rows_total": total, "rows_reused": self.reused,
            "error_count": self.tally.error_count, "errors": self.tally.errors,
        })
        if self.budget is not None:  # what was spent so far: a resume's caps count it
            self.summary["budget"] = budget_record(self.budget, sum(s.not_run for s in self.tally.stats.values()))
        of = f" of {total}" if total is not None else ""
        if self.summary_path is not None and not self._started:
            self.close()  # nothing was written: the earlier run's files stay as they were
            message = Text.of(f"interrupted: {done}{of} rows done, nothing written to {self.out_dir} yet")
        elif self.summary_path is not None and not self._closed:
            self.close()
            write_json_atomic(self.summary_path, self.summary, self.rows.secrets)
            message = Text("interrupted: {done}{of} rows done and saved in {folder}; continue with {resume}", done=done,
                           of=of, folder=self.out_dir, resume=Option("resume", True))
        else:
            self.close()
            message = Text("interrupted: {done}{of} rows done (no {output}, nothing saved)", done=done, of=of,
                           output=Option("output_path"))
        logger.warning(message, extra={RunInterrupted.LOG_MARK: True})
        self.interruption = RunInterrupted(message, rows_done=done, total=total, output_path=self.out_dir)
        return self.interruption

    # --------------------------------------------------------------- what to do per line
    @property
    def fresh(self) -> bool:
        """A new run: every line is evaluated by every evaluator."""
        return not self._prior_status and not self.options.continues_earlier_run

    def work_for(self, line: int, item: Any = None) -> Optional[List[ArgPlan]]:
        """Evaluators still to run on ``line`` (``None`` = leave the line as it is, ``[]`` = reuse it)."""
        plans = self.rows.plans
        self.lines_seen += 1
        if self.fresh:
            return plans
        status = self._prior_status.get(line)
        if status is None:
            return plans if self.options.settings.resume else None
        if item is not None and line in self._prior_hash:
            old = self._prior_hash.pop(line)
            new = row_digest(item) if isinstance(item, Mapping) else None
            if old is not None and new is not None and old != new:
                # the row at this position is not the one evaluated before (reordered or edited data)
                self.changed_rows += 1
                self._prior_offsets.pop(line, None)
                self._prior_status.pop(line, None)
                return plans
        if self.options.settings.rerun_failed and not self.options.settings.resume:
            # a cell a budget left unrun is not a failure, but it is not done either
            return [p for p in plans if status.get(p.alias) in ("error", NOT_RUN)]
        return [p for p in plans if status.get(p.alias) != "ok"]

    def errored_cells(self) -> List[Tuple[int, str]]:
        """``(line, alias)`` of the earlier run's error cells (batch mode asks their judge again rather
        than answering them from the earlier run's batches)."""
        return [(line, alias) for line, cells in self._prior_status.items()
                for alias, status in cells.items() if status == "error"]

    def prior(self, line: int) -> Optional[Record]:
        """The earlier run's record of ``line``, if there is one."""
        if self._prior_file is None or line not in self._prior_offsets:
            return None
        return read_record(self._prior_file, self._prior_offsets[line])

    def _ensure(self, line: int) -> None:
        have = len(self._offsets) if self.out_dir is not None else len(self._memory)
        if line >= have:
            grow = line + 1 - have
            if self.out_dir is not None:
                self._offsets.extend(array("q", [-1]) * grow)
            else:
                self._memory.extend([None] * grow)

    def skip(self, line: int) -> None:
        """``rerun_failed`` without ``resume``: a line with no earlier record stays missing."""
        self._ensure(line)
        self.skipped += 1

    def reuse(self, line: int) -> None:
        """Keep the earlier record of ``line`` as it is (every cell of it is done)."""
        self._ensure(line)
        record = self.prior(line)
        assert record is not None
        cells, _ = self.rows.split_prior(record)
        self.tally.add_reused(cells)
        self._offsets[line] = self._prior_offsets[line]
        self.reused += 1
        self.progress.keep(1)

    # --------------------------------------------------------------- finished rows
    def add(self, line: int, record: Record, cells: Cells) -> None:
        """A finished row: written (or kept in memory) at once, then counted."""
        self._ensure(line)
        self._start()
        if self._writer is not None:
            data, record, cells = encode_row(self.rows, line, record, cells)
            self._offsets[line] = self._writer.write_encoded(data)
        else:
            self._memory[line] = record
        self.progress.update(1, self.tally.add(line, cells, row_error="row_error" in record))

    def adopt_budget(self, budget: BudgetBook) -> None:
        """The run has judge caps: ``budget`` starts from what the folder's earlier runs spent, its
        record goes into ``summary.json``, and every evaluator reports ``not_run_count``."""
        budget.carry(*self.earlier_spend)
        if self.out_dir is not None:  # spending noted as it happens, and its chain named from the first summary on
            self._journal = budget.journal = SpendJournal(self.out_dir, self.spend_chain or new_chain())
            self.summary["budget"] = budget_record(budget, 0)
        self.budget = budget
        for stats in self.tally.stats.values():
            stats.budgeted = True

    def add_batch(self, lines: Sequence[int], tally: RowTally, *, blob: bytes = b"", lengths: Sequence[int] = (),
                  records: Optional[Sequence[Record]] = None) -> None:
        """Rows finished elsewhere (a Ray shard): already encoded (``blob`` of ``lengths``) when the
        run has a folder, else the records themselves; ``tally`` has counted them."""
        self.tally.merge(tally)
        self._start()
        if self._writer is not None:
            pos = self._writer.write_encoded(blob)
            for line, length in zip(lines, lengths):
                self._ensure(line)
                self._offsets[line] = pos
                pos += length
        else:
            assert records is not None
            for line, record in zip(lines, records):
                self._ensure(line)
                self._memory[line] = record
        self.progress.update(len(lines), tally.progress_errors)

    @property
    def encodes_rows(self) -> bool:
        """Whether rows reach the ledger as ``rows.jsonl`` bytes (a run with a folder)."""
        return self.out_dir is not None

    # --------------------------------------------------------------- the end
    def finish(self, extra: Optional[Mapping[str, Any]] = None) -> EvaluationResult:
        """Metrics, the final ``summary.json`` and the result (raising :class:`EvaluatorErrors` if asked)."""
        self._finished = True
        try:
            self._refuse_no_rows()
            self._start()
            self.close()
            return self._finish(extra)
        finally:
            self.close()
            self.release()

    def _refuse_no_rows(self) -> None:
        """A data file with no rows is a broken upstream step, not a result (before the folder is touched).

        An empty in-memory iterable (a filter that matched nothing) is the caller's own value: it
        gives an empty result, with a warning."""
        if self.lines_seen:
            return
        data = self.options.data
        if is_file_data(data):
            raise InputError(no_rows_message(describe_data(data)))
        logger.warning("the data holds no rows: nothing was evaluated")

    def _finish(self, extra: Optional[Mapping[str, Any]]) -> EvaluationResult:
        tally = self.tally
        metrics: Dict[str, Any] = {}
        intervals: Dict[str, Any] = {}
        noise: Dict[str, Any] = {}
        problems: List[str] = []  # a part of the summary that could not be computed: reported, never raised
        for alias in self.rows.aliases:
            stats = tally.stats[alias]
            metrics.update(_summary_part(problems, f"{alias} metrics", partial(stats.metrics, alias)))
            intervals.update(_summary_part(problems, f"{alias} intervals", partial(stats.intervals, alias)))
            noise.update(_summary_part(problems, f"{alias} noise", partial(stats.noise, alias)))
        usage = {alias: tally.stats[alias].usage for alias in self.rows.aliases}
        agreement = _summary_part(problems, "judge panel agreement", self._agreement)
        if self.changed_rows:
            logger.warning("%d row(s) differ from the rows of the earlier run at the same position; they were "
                           "evaluated again", self.changed_rows)
        if self.skipped:
            logger.warning(Text(
                "{n} row(s) have no results yet and were not run ({rerun} reruns error and not-run cells only); use {resume} to "
                "evaluate them", n=self.skipped, rerun=Option("rerun_failed"), resume=Option("resume", True)))
        rows: Sequence[Dict[str, Any]]
        if self.rows_path is not None:
            offsets = self._offsets  # arrays, not lists: 8 bytes a row, where a list of ints costs ~36
            done = array("q", (i for i, o in enumerate(offsets) if o >= 0))
            rows = RowsView(self.rows_path, array("q", (offsets[i] for i in done)), done)
            new = array("q", (i for i in done if offsets[i] >= self._first_new))
            evaluated: Sequence[Dict[str, Any]] = RowsView(self.rows_path, array("q", (offsets[i] for i in new)), new)
        else:
            rows = evaluated = [r for r in self._memory if r is not None]
        if self.options.settings.azure_compat:  # the compatibility wing's metrics, computed from the rows
            metrics.update(_summary_part(problems, "azure-compatible metrics", partial(
                plugins.load(plugins.COMPAT_RUN_METRICS), rows, self.options.rows.evaluators)))
        finished = time.time()
        summary = self.summary
        summary.update({
            "status": "complete",
            "finished_at": _now_iso(finished),
            "duration_s": round(finished - self.started, 3),
            "rows": len(rows),
            "rows_reused": self.reused,
            "rows_changed": self.changed_rows,
            "metrics": metrics,
            "intervals": intervals,
            **({"noise": noise} if noise else {}),
            "error_count": tally.error_count,
            "errors": tally.errors,
            "errors_truncated": tally.error_count > len(tally.errors),
            "usage": usage,
            "cost_usd": run_cost(usage),
        })
        if agreement:
            summary["agreement"] = agreement
        if self.estimate:
            summary.update(estimate=self.estimate, estimate_vs_actual=_summary_part(
                problems, "estimate vs actual", partial(compare_estimate, self.estimate, usage)))
        if problems:
            summary["summary_problems"] = problems
        if self.budget is not None:
            summary["budget"] = budget_record(self.budget, sum(s.not_run for s in tally.stats.values()))
            if self.budget.stopped is not None:
                summary["status"] = STOPPED
                logger.warning(stop_message(summary["budget"], self.budget.stopped_text))
        if extra:
            summary.update(extra)
        if self.summary_path is not None:
            write_json_atomic(self.summary_path, summary, self.rows.secrets)
        result = EvaluationResult(rows=rows, metrics=metrics, errors=tally.errors, usage=usage, summary=summary,
                                  output_path=self.out_dir, evaluated_rows=evaluated, problems=tally.problems)
        logger.info(
            "evaluated %d rows in %.2f s (%d reused), %d error cell(s)%s", len(rows), finished - self.started,
            self.reused, tally.error_count, f"; results in {self.out_dir}" if self.out_dir else "",
        )
        if self.options.settings.fail_on_evaluator_errors and tally.error_count:
            self._raise_errors(result)
        return result

    def _agreement(self) -> Dict[str, Any]:
        """Each judge panel's agreement, by ``<alias>.<key>`` (:mod:`.panel_votes`)."""
        out: Dict[str, Any] = {}
        for alias in self.rows.aliases:
            stats = self.tally.stats[alias]
            if stats.panel is not None:
                out[f"{alias}.{stats.result_key}"] = stats.panel.summary(self.options.settings.min_agreement)
        return out

    def _raise_errors(self, result: EvaluationResult) -> None:
        errors = self.tally.errors
        first = "\n".join(f"  row {e['line_number']} {e['alias']}: {e['message']}" for e in errors[:5])
        where = f" All results were saved to {self.out_dir}." if self.out_dir else ""
        raise EvaluatorErrors(
            Text("{n} evaluator cell(s) failed ({option}).{where} First errors:\n{first}", n=self.tally.error_count,
                 option=Option("fail_on_evaluator_errors", True), where=where, first=first),
            result,
        )
