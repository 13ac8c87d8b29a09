"""What a run finds in its folder before it writes anything: an earlier run to continue, to replace, or to
leave alone, and a data file that is one of the run's own outputs.

The :class:`~.ledger.RunLedger` asks these checks once, holding the folder's lock, when it opens the
folder; each refuses with a :class:`~agent_evaluators.errors.ConfigError` that says what to pass instead
(``resume``, ``force``, another ``output_path``), so a refused run leaves the folder as it was.
"""

import logging
from pathlib import Path
from typing import Any, Mapping, Optional, Tuple

from ..errors import ConfigError
from ..wording import Option, Text
from .describe import RunDescription
from .fingerprint import fingerprint_changes
from .history import keep_finished_run
from .judge_caps import STOPPED, earlier_spend
from .options import RunOptions
from .readers import data_path
from .spend_journal import read_spend, spent
from .store import ROWS_FILE, SUMMARY_FILE
from .summary_file import read_summary

logger = logging.getLogger("agent_evaluators.runner")

#: judge calls and USD spent by the folder's earlier runs, and the ``spend.jsonl`` chain a resume continues
EarlierSpend = Tuple[Tuple[int, float], Optional[str]]


def refuse_input_inside_output(data: Any, out_dir: Path, run_files: Tuple[str, ...]) -> None:
    """Refuse, before anything is written, a data file that is one of the files this run writes
    (``data="runs/rows.jsonl", output_path="runs"`` would truncate the input before reading it)."""
    src = data_path(data)
    if src is None and hasattr(data, "read") and isinstance(getattr(data, "name", None), str):
        src = Path(data.name)  # an open file: its path, if it has one
    if src is None:
        return
    try:
        resolved = src.resolve()
        outputs = {(out_dir / name).resolve() for name in run_files}
        outputs |= {p.with_name(p.name + ".tmp") for p in outputs}
    except (OSError, RuntimeError):
        return
    if resolved in outputs:
        raise ConfigError(Text(
            "data {src} is a file this run writes in {output} {folder} ({file}): the input would be overwritten "
            "before it is read. Copy the data elsewhere, or choose another {output}.",
            src=src, output=Option("output_path"), folder=out_dir, file=resolved.name))


def set_aside_earlier_run(out_dir: Path) -> None:
    """A complete earlier run moves to ``history/`` (it was paid for); one that did not finish, replaced
    with ``force``, is overwritten as it always was."""
    try:
        old = read_summary(out_dir / SUMMARY_FILE) or {}
    except ConfigError:  # replaced with force: an unreadable summary is no finished run to keep
        old = {}
    kept = keep_finished_run(out_dir, old) if old.get("status") == "complete" else None
    if kept is not None:
        logger.warning(Text("{folder} held a finished run: kept in {kept}; this run's results replace it at "
                            "{folder}", folder=out_dir, kept=kept))
    else:
        logger.warning(Text("{path}: replacing the results of an earlier run (use {resume} to continue it)",
                            path=out_dir / ROWS_FILE, resume=Option("resume", True)))


def check_replace(out_dir: Path, options: RunOptions) -> None:
    """A new run over a folder whose earlier run did not finish: refuse to wipe it (unless ``force``);
    a ``rows.jsonl`` without its ``summary.json`` is not ours: refuse to wipe it at all.

    The caller holds the folder's lock, so an earlier ``running`` status is a crashed run."""
    summary_path = out_dir / SUMMARY_FILE
    try:
        old = read_summary(summary_path)
    except ConfigError:
        if options.settings.force:
            return
        raise
    if old is None:
        raise ConfigError(Text(
            "{rows} has no {summary} beside it, so it was not written by a run of agent-evaluators and is left as "
            "it is. Move or delete it, or choose another {output}.",
            rows=out_dir / ROWS_FILE, summary=summary_path.name, output=Option("output_path")))
    status = old.get("status")
    if status in ("running", "interrupted", STOPPED) and not options.settings.force:
        resume = Option("resume", True)
        how = {"interrupted": Text.of("was interrupted"),
               STOPPED: Text("was stopped by its judge budget (pass a higher {cost} / {calls} with {resume})",
                             cost=Option("max_cost"), calls=Option("max_judge_calls"), resume=resume),
               }.get(status, Text.of("did not finish (it crashed or was killed)"))
        raise ConfigError(Text(
            "the earlier run in {folder} {how}: pass {resume} to continue it, or {force} to replace its results "
            "with a new run", folder=out_dir, how=how, resume=resume, force=Option("force", True)))


def check_earlier_run(out_dir: Path, options: RunOptions, description: RunDescription) -> EarlierSpend:
    """Refuse to continue a run made with a different setup (unless ``force``); what the folder's earlier
    runs spent, and the spending chain this run continues."""
    rows_path, summary_path = out_dir / ROWS_FILE, out_dir / SUMMARY_FILE
    settings = options.settings
    force = settings.force
    arg = "rerun_failed" if settings.rerun_failed and not settings.resume else "resume"
    try:
        old = read_summary(summary_path)
    except ConfigError as exc:
        if not force:
            raise
        logger.warning("%s; %s reuses the rows as they are", exc, arg)
        old = None
    if old is None:
        if rows_path.exists() and rows_path.stat().st_size:
            if not force:
                raise ConfigError(Text(
                    "{arg} refused: {rows} exists but {summary} is missing, so it cannot be checked that the data "
                    "and evaluators are unchanged; pass {force} to reuse the rows anyway",
                    arg=Option(arg), rows=rows_path, summary=summary_path.name, force=Option("force", True)))
        else:
            logger.info("nothing to resume in %s; starting a new run", out_dir)
        chains, last = read_spend(out_dir)  # a run killed before its first row: its spending still counts
        return (spent(chains[last]), last) if last is not None else ((0, 0), None)
    spend = _continued_spend(out_dir, old, earlier_spend(old))
    changes = fingerprint_changes(
        old.get("fingerprint") or {}, description.fingerprint, old.get("config") or {}, description.config
    )
    if changes and not force:
        raise ConfigError(Text(
            "{arg} refused: the run in {folder} was made with a different setup: {changes}. Pass {force} to reuse "
            "the earlier results anyway, or {start_over} to start over (this replaces rows.jsonl).",
            arg=Option(arg), folder=out_dir, changes=Text.joined(changes, "; "), force=Option("force", True),
            start_over=Option(arg, False)))
    if changes:
        logger.warning(Text("resuming despite changes ({force}): {changes}", force=Option("force", True),
                            changes=Text.joined(changes, "; ")))
    return spend


def _continued_spend(out_dir: Path, old: Mapping[str, Any], summary_spend: Tuple[int, float]) -> EarlierSpend:
    """The spending the earlier run noted in ``spend.jsonl`` as it went, continued: more than its summary
    says when it was killed (its summary is written at its end)."""
    record = old.get("budget")
    chain = record.get("journal") if isinstance(record, Mapping) else None
    if not isinstance(chain, str):
        return summary_spend, None
    chains, _ = read_spend(out_dir)
    calls, cost = spent(chains.get(chain))
    return (max(summary_spend[0], calls), max(summary_spend[1], cost)), chain
