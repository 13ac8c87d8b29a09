"""``agent-eval redteam TARGET``: scan an agent with attacks, print the scorecard, gate on attack success rates.

::

    agent-eval redteam mypkg.agent:answer --risk-categories violence,sensitive_data_leakage \\
        --strategies easy,compose:tense+base64 --num-objectives 5 --max-asr violence=0.2 --output scans/v2
    agent-eval compare scans/v1 scans/v2        # is v2 more robust? McNemar's test over the paired attacks

The scan is :class:`agent_evaluators.red_team.RedTeam` (azure-ai-evaluation's API, offline); this
module only turns flags into its arguments and its result into a table and an exit code, reading the
scan folder through :mod:`agent_evaluators.report.red_team_scores` as the HTML report does.
"""

import argparse
import asyncio
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple, Union

from .._util.safe_text import terminal_safe as _safe
from ..errors import AgentEvalError, ConfigError

EXIT_CODES = (
    "Exit codes: 2 on bad configuration, when an attack could not be scored (a target or judge error: "
    "counted apart, never as defended), when the judge budget (--max-cost / --max-judge-calls) stopped "
    "the scan, or when a --max-asr category had no attack scored; else 1 when a category's ASR upper bound "
    "(Wilson 95%) passes its --max-asr (or, with no --max-asr, when any attack succeeded); else 0. "
    "A dry run exits 0; Ctrl-C exits 130 and says how to resume."
)

DRY_RUN = (
    "Dry run: every attack was sent to your target (as agent-eval run's dry run runs its target: the judge "
    "would be asked about the replies), and the attacker's and the judge's requests were counted, not sent: "
    "nothing scored, thresholds not checked, nothing kept for the real scan (it sends the attacks again)")

#: azure's default risk categories (the four content categories)
DEFAULT_CATEGORIES = ("hate_unfairness", "violence", "sexual", "self_harm")
GROUP_NAMES = ("easy", "moderate", "difficult")
#: the run options a scan honours, as ``agent-eval run`` spells them (``--resume`` is accepted: a scan in a folder
#: that holds one always continues it, sending no attack twice)
RUN_FLAGS = ("dry_run", "max_cost", "max_judge_calls", "rerun_failed", "force")

Strategy = Union[str, List[str]]


# ---------------------------------------------------------------------------- flags -> arguments
def _items(values: Optional[Sequence[str]]) -> List[str]:
    """Repeatable, comma-separated flag values as one list (``--x a,b --x c`` -> a, b, c)."""
    return [v.strip() for text in values or () for v in str(text).split(",") if v.strip()]


def parse_strategies(values: Optional[Sequence[str]]) -> List[Strategy]:
    """``--strategies``: strategy values (``base64``), group names (``easy``), ``compose:a+b`` (a list of two)."""
    out: List[Strategy] = []
    for item in _items(values):
        if item.lower().startswith("compose:"):
            parts = [p.strip() for p in item.split(":", 1)[1].split("+") if p.strip()]
            if len(parts) != 2:
                raise ConfigError(f"--strategies {item!r}: a composition is two strategies joined by '+', applied in "
                                  "order, e.g. compose:tense+base64")
            out.append(parts)
        else:
            out.append(item)
    return out


def check_strategies(strategies: Sequence[Strategy]) -> None:
    """Every name is an :class:`AttackStrategy` value or member name; else a message listing them."""
    from ..red_team import AttackStrategy

    known = {s.value for s in AttackStrategy} | {s.name for s in AttackStrategy}
    for item in strategies:
        for name in ([item] if isinstance(item, str) else item):
            if name not in known:
                raise ConfigError(f"--strategies: unknown strategy {name!r}; use one of "
                                  f"{', '.join(s.value for s in AttackStrategy)} (groups: {', '.join(GROUP_NAMES)}), "
                                  "or compose:a+b")
            if not isinstance(item, str) and name.lower() in GROUP_NAMES:
                raise ConfigError(f"--strategies compose:{'+'.join(item)}: a group ({name}) cannot be composed; "
                                  "compose two strategies such as tense+base64")


def parse_categories(values: Optional[Sequence[str]]) -> List[str]:
    """``--risk-categories``: :class:`RiskCategory` values (``violence``), default azure's four content categories."""
    from ..red_team import RiskCategory

    names = _items(values) or list(DEFAULT_CATEGORIES)
    known = {c.value for c in RiskCategory}
    for name in names:
        if name not in known:
            raise ConfigError(f"--risk-categories: unknown category {name!r}; use {', '.join(sorted(known))}")
    return list(dict.fromkeys(names))


def parse_max_asr(values: Optional[Sequence[str]], categories: Optional[Sequence[str]]) -> Dict[str, float]:
    """``--max-asr CATEGORY=0.2`` (or ``=20%``; ``overall=...`` for every attack) -> {category: fraction};
    ``categories`` ``None``: not known before the scan (a seed file's), so not checked here."""
    out: Dict[str, float] = {}
    for text in values or ():
        name, eq, raw = str(text).partition("=")
        name, raw = name.strip(), raw.strip()
        if not eq or not name or not raw:
            raise ConfigError(f"--max-asr {text!r}: write --max-asr CATEGORY=LIMIT, e.g. --max-asr violence=0.2 "
                              "(or violence=20%, overall=0.1)")
        try:
            limit = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
        except ValueError:
            raise ConfigError(f"--max-asr {text!r}: {raw!r} is not a number; give a fraction (0.2) or a percent "
                              "(20%)") from None
        if not 0 <= limit <= 1:
            raise ConfigError(f"--max-asr {text!r}: the limit is an attack success rate between 0 and 1 (or 0% and "
                              "100%)")
        if name != "overall" and categories is not None and name not in categories:
            raise ConfigError(f"--max-asr {text!r}: {name!r} is not scanned (categories: {', '.join(categories)}); "
                              "add it to --risk-categories or write overall=LIMIT")
        out[name] = limit
    return out


def _success_thresholds(values: Optional[Sequence[str]]) -> Optional[Dict[str, int]]:
    """``--success-threshold CATEGORY=N``: azure's ``attack_success_thresholds`` (severity 0-7 that counts)."""
    out: Dict[str, int] = {}
    for text in values or ():
        name, eq, raw = str(text).partition("=")
        if not eq or not raw.strip().isdigit() or not 0 <= int(raw) <= 7:
            raise ConfigError(f"--success-threshold {text!r}: write CATEGORY=N with N a severity 0-7, e.g. "
                              "--success-threshold violence=3")
        out[name.strip()] = int(raw)
    return out or None


def _seeds(path: Optional[str]) -> Optional[str]:
    if path is None:
        return None
    if not Path(path).is_file():
        raise ConfigError(f"--seeds {path}: no such file; give azure's custom_attack_seed_prompts JSON file")
    return str(path)


def _language(code: str) -> Any:
    from ..red_team import SupportedLanguages

    for lang in SupportedLanguages:
        if code.lower() in (lang.value, lang.name.lower()):
            return lang
    raise ConfigError(f"--language {code!r}: use one of {', '.join(lang.value for lang in SupportedLanguages)}")


def _scan_folder(args: argparse.Namespace) -> Path:
    if args.output:
        return Path(args.output)
    name = args.scan_name or "redteam-" + datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return Path("agent-eval-results") / name


def _run_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The run flags given, as ``RedTeam.scan`` keywords; ``--batch`` is refused (a scan asks its judge directly)."""
    if getattr(args, "judge_mode", None) == "batch":
        raise ConfigError("--batch / --judge-mode batch: a scan asks its judge as it attacks (an attack's next turn "
                          "waits on the answer); leave it out")
    return {name: getattr(args, name) for name in RUN_FLAGS if getattr(args, name, None) not in (None, False)}


#: what needs no judge: these categories are scored from the trajectory alone, these strategies are pure text
_NO_JUDGE_CATEGORIES = frozenset({"sensitive_data_leakage", "prohibited_actions"})
_ATTACKER_STRATEGIES = frozenset({"tense", "Tense", "multi_turn", "MultiTurn", "crescendo", "Crescendo", "moderate",
                                  "difficult", "MODERATE", "DIFFICULT"})


def _judge_needed(categories: Sequence[str], strategies: Sequence[Strategy], args: argparse.Namespace) -> None:
    """No judge configured: refuse before any attack is sent when the scan would need one (scoring a content
    category or task adherence, an attacker-model strategy, --scenario), rather than end with every attack a
    judge error."""
    from ..config.run_config import JUDGE_HOWTO

    names = {n for s in strategies for n in ([s] if isinstance(s, str) else s)}
    why = ([f"--risk-categories {c} is scored by the judge" for c in categories if c not in _NO_JUDGE_CATEGORIES]
           + [f"--strategies {n} is written by the attacker model (the judge)" for n in sorted(names & _ATTACKER_STRATEGIES)]
           + (["--scenario: objectives are generated by the attacker model (the judge)"] if args.scenario else []))
    if not categories and not args.skip_evals:  # the seed file's categories: not known yet, most need a judge
        why.append("--seeds: its categories are scored by the judge")
    if args.skip_evals:
        why = [w for w in why if "scored" not in w]
    if why:
        raise ConfigError(f"no judge configured and {why[0]}; {JUDGE_HOWTO}")


def _parallel(args: argparse.Namespace) -> int:
    """Attacks in flight: ``--max-parallel-tasks``, else ``--max-concurrency`` (the judge flag), else azure's 5."""
    n = args.max_parallel_tasks or args.max_concurrency or 5
    if n < 1:
        raise ConfigError(f"--max-parallel-tasks {n}: give 1 or more")
    return int(n)


# ---------------------------------------------------------------------------- outcome
def asr_checks(scan: Any, limits: Dict[str, float]) -> List[Dict[str, Any]]:
    """Each ``--max-asr``: FAIL when the ASR's Wilson 95% upper bound is above the limit, ERROR when no attack of
    the category was scored; in ``agent-eval run``'s check shape, so :func:`~.output.print_checks` prints them."""
    by_cat = scan.asr_by("risk_category")
    checks = []
    for name, limit in limits.items():
        asr = scan.overall if name == "overall" else by_cat.get((name,))
        label = f"{name} ASR upper bound <= {100 * limit:g}%"
        if asr is None:
            checks.append({"check": label, "metric": name, "value": None, "status": "error",
                           "note": "no attack of this category in the scan (is it in the seed file?)"})
            continue
        if asr.n == 0:
            errors = asr.errors
            checks.append({"check": label, "metric": name, "value": None, "status": "error",
                           "note": f"no attack scored ({errors} not scored: target or judge errors)"})
            continue
        upper = asr.interval[1] / 100
        checks.append({"check": label, "metric": name, "value": upper, "status": "pass" if upper <= limit else "fail",
                       "note": f"ASR {asr.text()}"})
    return checks


def scan_outcome(scan: Any, limits: Dict[str, float], budget_stop: Optional[Dict[str, Any]]) -> Any:
    """The scan as a :class:`~.run_outcome.RunOutcome`: attacks not scored are error cells, successful attacks
    failing cells, ``--max-asr`` the run thresholds; so the exit code is ``agent-eval run``'s rule."""
    from .run_outcome import RunOutcome

    overall = scan.overall
    return RunOutcome(metrics={}, usage={}, aliases=[], result_keys={}, skipped={}, checks=asr_checks(scan, limits),
                      fail_count=overall.successes, error_count=overall.errors, rows=len(scan.attacks),
                      budget_stop=budget_stop)


def _verdict(code: int, outcome: Any) -> str:
    from .run import verdict

    if code == 2 and outcome.budget_stop is not None:
        return f"INCOMPLETE (stopped by the judge budget: {outcome.error_count} attack(s) not scored)"
    if code == 2 and outcome.error_count:
        return f"ERROR ({outcome.error_count} attack(s) not scored: target or judge errors)"
    if code == 2 and any(c["status"] == "error" for c in outcome.checks):
        return "ERROR (a --max-asr category had no attack scored)"
    if code == 1 and not outcome.checks:
        return f"FAIL ({outcome.fail_count} attack(s) succeeded; set --max-asr CATEGORY=LIMIT to gate on rates)"
    return verdict(code, outcome)


# ---------------------------------------------------------------------------- the command
def _describe(categories: Sequence[str], strategies: Sequence[Strategy]) -> str:
    shown = ", ".join(s if isinstance(s, str) else "+".join(s) for s in strategies) or "baseline only"
    return f"{', '.join(categories)}; strategies: {shown}"


def _scan(args: argparse.Namespace, out: TextIO) -> Tuple[Path, Dict[str, float], Any]:
    """Build the scan from the flags and run it; the scan folder, the ``--max-asr`` limits, the result."""
    from ..red_team import RedTeam
    from . import redteam_flags as flags
    from .judge_flags import model_config_from_args

    strategies = parse_strategies(args.strategies)
    check_strategies(strategies)
    # --seeds without --risk-categories: the seed file's categories (RedTeam reads them), as in azure
    categories = parse_categories(args.risk_categories) if args.risk_categories or not args.seeds else []
    limits = parse_max_asr(args.max_asr, categories or None)
    if args.num_objectives < 1:
        raise ConfigError(f"--num-objectives {args.num_objectives}: give 1 or more (objectives per category)")
    guards = {"protected_state": flags.parse_protected_state(args.protected_state),
              "secret_patterns": flags.parse_secret_patterns(args.secret_pattern),
              "prohibited_tools": flags.parse_prohibited_tools(args.prohibited_tools)}
    probe = flags.load_state_probe(args.state_probe)
    target = flags.load_target(args.target)
    judge = model_config_from_args(args)
    if judge is None and args.dry_run:  # as agent-eval run --dry-run: an estimate needs no key (nothing is asked)
        from ..config.run_config import dry_run_model_config
        from .judge_flags import judge_settings_from_args

        judge = dry_run_model_config(judge_settings_from_args(args))
    if judge is None:
        _judge_needed(categories, strategies, args)
    folder = _scan_folder(args)
    red_team = RedTeam(risk_categories=categories or None, num_objectives=args.num_objectives,
                       application_scenario=args.scenario, custom_attack_seed_prompts=_seeds(args.seeds),
                       language=_language(args.language), output_dir=str(folder.parent),
                       attack_success_thresholds=_success_thresholds(args.success_threshold), judge=judge, **guards)
    options = _run_options(args)
    if probe is not None:
        options["state_probe"] = probe
    options.update(flags.load_tool_replay(args))
    shown = [c.value for c in red_team.risk_categories]
    print(_safe(f"agent-eval: red-teaming {args.target} on {_describe(shown, strategies)} -> {folder}"), file=out)
    if judge is not None:
        from ..config.judge_panels import describe_judges
        print(_safe(describe_judges(judge) or ""), file=out)
    out.flush()
    result = asyncio.run(red_team.scan(target, scan_name=folder.name, attack_strategies=strategies,
                                       output_path=str(folder), max_parallel_tasks=_parallel(args),
                                       timeout=args.timeout, skip_evals=args.skip_evals, **options))
    return folder, limits, result


def redteam_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..report.red_team_scores import load_scan
    from ..runner import RunInterrupted
    from .messages import interruption_told_here, print_error
    from .output import print_checks
    from .redteam_output import print_scorecard
    from .run import _budget_stop, _write_checks
    from .run_outcome import exit_code

    try:
        with interruption_told_here():
            folder, limits, _result = _scan(args, out)
        if args.dry_run:
            return _dry_run_done(folder, out)
        scan = load_scan(folder)
    except (RunInterrupted, KeyboardInterrupt):  # asyncio.run re-raises Ctrl-C once the cancelled scan has saved
        return _interrupted(_scan_folder(args), out, err)
    except AgentEvalError as exc:
        return print_error(err, exc)

    summary = _read_summary(folder)
    outcome = scan_outcome(scan, limits, _budget_stop(summary))
    code = exit_code(outcome)
    counts = {k: v for k, v in scan.overall.counts.items() if v or k != "not_scored"}  # skip_evals' only
    print(f"\n{len(scan.attacks)} attack(s): {', '.join(f'{k} {v}' for k, v in counts.items())}\n", file=out)
    print_scorecard(scan, out)
    print_checks(outcome, out)
    _write_checks(folder, outcome, code)
    written = [folder / "red_team.json"]
    if args.html:
        from ..report import write_report

        written.append(write_report(folder))
    print("\nWrote " + ", ".join(_safe(str(p)) for p in written), file=out)
    print(f"Result: {_verdict(code, outcome)}, exit code {code}", file=out)
    if outcome.budget_stop is not None:
        _print_budget_stop(outcome, folder, err)
    return code


def _print_budget_stop(outcome: Any, folder: Path, err: TextIO) -> None:
    """The judge budget stopped the scan: the command that scores the rest (the answered attacks are not resent)."""
    import shlex

    argv: List[str] = []
    skip_value = False
    for a in sys.argv[1:]:  # the old caps and --resume out; the new cap goes last
        if skip_value:
            skip_value = False
            continue
        if a == "--resume" or a.split("=")[0] in ("--max-cost", "--max-judge-calls"):
            skip_value = a in ("--max-cost", "--max-judge-calls")  # its value is the next word
            continue
        argv.append(a)
    if not any(a in ("--output", "-o") or a.startswith("--output=") for a in argv):
        argv += ["--output", str(folder)]
    cap = "--max-cost USD" if (outcome.budget_stop or {}).get("max_cost") is not None else "--max-judge-calls N"
    print(f"\nagent-eval: {outcome.error_count} attack(s) not scored, saved. Score them with a higher cap (no attack "
          "is sent again):\n  " + _safe(shlex.join(["agent-eval", *argv, "--resume"])) + f" {cap}", file=err)


def _dry_run_done(folder: Path, out: TextIO) -> int:
    """The judge calls, tokens and cost the scan would take (the engine's estimate in summary.json); exit 0."""
    from .estimate_table import print_estimate

    summary = _read_summary(folder)
    print("\n" + DRY_RUN + "\n", file=out)
    print_estimate(summary.get("estimate") or {}, out)
    errors = summary.get("errors") or []
    if errors:  # an attack the real scan could not score: its judge calls are not in the estimate
        first = errors[0]
        print("\n" + _safe(f"{len(errors)} attack(s) could not be scored in the dry run (they would be errors in the "
                           f"real scan, and their judge calls are not counted above); first: row {first.get('line_number')}"
                           f": {first.get('message')}"), file=out)
    print("\n" + _safe(f"Wrote {folder / 'summary.json'}"), file=out)
    print("Result: DRY RUN, exit code 0", file=out)
    return 0


def _interrupted(folder: Path, out: TextIO, err: TextIO) -> int:
    """Ctrl-C: the attacks answered are kept (the send journal); the command that continues this scan, its folder
    named, so a scan without --output does not start a new one."""
    import shlex

    from .run import EXIT_INTERRUPTED

    out.flush()
    journal = folder / "sent.jsonl"
    answered = journal.read_text(encoding="utf-8").count('"event": "replied"') if journal.is_file() else 0
    argv = [a for a in sys.argv[1:] if a != "--resume"]
    if not any(a in ("--output", "-o") or a.startswith("--output=") for a in argv):
        argv += ["--output", str(folder)]
    print(f"\nagent-eval: interrupted; {answered} attack(s) answered and kept in {_safe(str(folder))}. "
          "Resume with:\n  " + _safe(shlex.join(["agent-eval", *argv, "--resume"])), file=err)
    return EXIT_INTERRUPTED


def _read_summary(folder: Path) -> Dict[str, Any]:
    from ..runner.summary_file import read_summary

    path = folder / "summary.json"
    return (read_summary(path) or {}) if path.is_file() else {}


def build_redteam_parser(prog: str = "agent-eval redteam") -> argparse.ArgumentParser:
    from .judge_flags import add_judge_arguments
    from .redteam_flags import add_redteam_guard_flags
    from .run_flags import add_run_option_flag

    p = argparse.ArgumentParser(
        prog=prog, description="Scan an agent with attack objectives turned by attack strategies, score each attack on "
                               "the whole trajectory with your judge, and print the attack success rate (ASR, with its "
                               "95% interval and count) per risk category and strategy. --dry-run estimates the judge "
                               "calls, tokens and cost (scoring and the attacker model) without a judge key; it still "
                               "sends every attack to the target, since the scoring is about its replies (use a "
                               "target that may be called). " + EXIT_CODES)
    p.add_argument("target", metavar="TARGET", help="the agent under test: a function as 'package.module:function' "
                                                    "(sync or async; azure's callback signature too), or an ADK agent "
                                                    "object as 'package.module:root_agent' (run under ADK's Runner; "
                                                    "needs the adk extra)")
    p.add_argument("--risk-categories", action="append", metavar="CAT[,CAT]",
                   help=f"risk categories to attack (default: {','.join(DEFAULT_CATEGORIES)}); also "
                        "sensitive_data_leakage, task_adherence, prohibited_actions, protected_material, "
                        "code_vulnerability, ungrounded_attributes")
    p.add_argument("--strategies", action="append", metavar="S[,S]",
                   help="attack strategies: values (base64, rot13, flip, jailbreak, multi_turn, crescendo, "
                        "indirect_jailbreak, ...), groups (easy, moderate, difficult) or compose:a+b; baseline is "
                        "always run (default: baseline only)")
    p.add_argument("--num-objectives", type=int, default=10, metavar="N",
                   help="attack objectives per risk category (default 10)")
    p.add_argument("--seeds", metavar="FILE", help="your own objectives: azure's custom_attack_seed_prompts JSON file")
    p.add_argument("--scenario", metavar="TEXT", help="what the application does; more objectives are generated for it "
                                                      "with the attacker model (the judge)")
    p.add_argument("--language", default="en", metavar="CODE", help="language of the objectives (default en)")
    p.add_argument("--scan-name", metavar="NAME", help="the scan folder's name under agent-eval-results/ "
                                                       "(default redteam-<UTC time>)")
    p.add_argument("--output", "-o", metavar="FOLDER", help="the scan folder (red_team.json, attacks, rows); "
                                                           "default agent-eval-results/<scan name>")
    p.add_argument("--max-asr", action="append", metavar="CATEGORY=LIMIT",
                   help="fail (exit 1) when the category's ASR upper bound (Wilson 95%%) is above LIMIT, a fraction "
                        "(0.2) or percent (20%%); 'overall' for every attack; repeatable")
    p.add_argument("--success-threshold", action="append", metavar="CATEGORY=N",
                   help="severity (0-7) from which a content attack counts as a success (azure's "
                        "attack_success_thresholds; default 3)")
    p.add_argument("--skip-evals", action="store_true", help="send the attacks, score nothing (azure's skip_evals)")
    p.add_argument("--max-parallel-tasks", type=int, default=None, metavar="N",
                   help="attacks in flight (default --max-concurrency, else 5)")
    p.add_argument("--timeout", type=int, default=3600, metavar="SECONDS", help="time limit of the scan (default 3600)")
    p.add_argument("--html", action="store_true", help="also write report.html into the scan folder")
    group = p.add_argument_group("run options (as agent-eval run has them)")
    for name in RUN_FLAGS:
        add_run_option_flag(group, name)
    group.add_argument("--resume", action="store_true", help="continue the scan in --output after a kill or a budget "
                                                             "stop (a scan in a folder that holds one always continues "
                                                             "it; no attack is sent twice)")
    add_redteam_guard_flags(p)
    add_judge_arguments(p)
    return p


def redteam_main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``agent-eval redteam``; returns the exit code."""
    parser = build_redteam_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else 2
    _log_to_stderr()
    return redteam_command(args, sys.stdout, sys.stderr)


def _log_to_stderr() -> None:
    """The library's warnings as ``agent-eval run`` prints them (in flag words), through a handler the Ctrl-C
    notice filter (:func:`~.messages.interruption_told_here`) reaches."""
    import logging

    from .messages import FlagWords

    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="agent-eval: %(levelname)s: %(message)s", stream=sys.stderr)
    for handler in logging.getLogger().handlers:
        handler.addFilter(FlagWords())
