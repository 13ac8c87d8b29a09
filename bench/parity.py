"""Parity with the reference implementations: run the differential tests and count what they compared.

    PYTHONPATH=. python bench/parity.py                                   # print the table
    PYTHONPATH=. python bench/parity.py --record docs/evidence/records    # also write it for the docs

Each suite below compares our evaluators with a reference implementation: azure-ai-evaluation 1.18
run in this process, or a table the reference wrote (``tests/reference/*.json``, each naming the
command and versions that generated it). The script runs the suites' test files once with pytest
(``--junitxml``), then prints, per suite: the reference and its version, the cases in its table,
and the tests passed, failed and skipped. Exit 1 when a test failed or was skipped: a parity figure
counts only tests that ran and passed.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Tuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from common import Recorder, add_record_argument  # noqa: E402

REFERENCE = REPO / "tests" / "reference"


def _table(name: str) -> Dict[str, Any]:
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def _installed(package: str) -> str:
    try:
        return f"{package} {version(package)}"
    except PackageNotFoundError:
        return f"{package} (not installed)"


class Suite(NamedTuple):
    what: str
    reference: Callable[[], str]
    cases: Callable[[], str]
    files: Tuple[str, ...]


SUITES: List[Suite] = [
    Suite("azure-ai-evaluation's evaluators, classes and `evaluate()` (`agent_evaluators.azure`)",
          lambda: _installed("azure-ai-evaluation") + ", run in the same process on the same rows",
          lambda: "the rows of `tests/parity/azure_cases.py` and `nlp_cases.py`",
          tuple(sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "parity").glob("test_*.py")))),
    Suite("ROUGE-1 (`ResponseMatchEvaluator`) and tool trajectory, google-adk's criteria",
          lambda: "google-adk {google-adk}, rouge-score {rouge-score}".format(
              **_table("adk_deterministic.json")["meta"]["versions"]),
          lambda: "{} trajectory + {} ROUGE cases".format(len(_table("adk_deterministic.json")["trajectory"]),
                                                          len(_table("adk_deterministic.json")["rouge"])),
          ("tests/trajectory/test_reference_adk.py", "tests/evaluators/test_response_match_speed_identity.py")),
    Suite("ADK `evaluate()` over invocations",
          lambda: "google-adk {}".format(_table("adk_evaluate_invocations.json")["meta"]["google-adk"]),
          lambda: "{} cases in {} scenarios".format(len(_table("adk_evaluate_invocations.json")["cases"]),
                                                    len(_table("adk_evaluate_invocations.json")["scenarios"])),
          ("tests/adk/test_evaluate_invocations.py",)),
    Suite("ADK legacy eval-set conversion",
          lambda: "google-adk {}".format(_table("adk_legacy_conversion.json")["meta"]["google-adk"]),
          lambda: "{} eval sets".format(len(_table("adk_legacy_conversion.json")["cases"])
                                        + len(_table("adk_legacy_conversion_own.json")["cases"])),
          ("tests/adk/test_legacy_conversion.py", "tests/adk/test_own_fixtures.py")),
    Suite("ADK judge criteria (final response match, rubrics, hallucinations, multi-turn)",
          lambda: "google-adk {}".format(_table("adk_judges.json")["meta"]["google-adk"]),
          lambda: "{} multi-turn scenarios and the judge table".format(len(_table("adk_multi_turn.json")["scenarios"])),
          ("tests/adk_judges/test_final_response_match.py", "tests/adk_judges/test_hallucinations.py",
           "tests/adk_judges/test_multi_turn_adk_parity.py", "tests/adk_judges/test_rubrics.py")),
    Suite("trajectory match modes (strict, unordered, subset, superset)",
          lambda: ", ".join(f"{k} {v}" for k, v in _table("trajectory_openevals.json")["meta"]["versions"].items()
                            if k in ("openevals", "agentevals")),
          lambda: "{} cases".format(len(_table("trajectory_openevals.json")["cases"])),
          ("tests/trajectory/test_reference_openevals.py",)),
    Suite("Mastra's tool-call accuracy and answer similarity",
          lambda: "@mastra/evals {}".format(_table("mastra_tool_call.json")["meta"]["versions"]["@mastra/evals"]),
          lambda: "{} tool-call + {} answer-similarity cases".format(
              len(_table("mastra_tool_call.json")["cases"]), len(_table("mastra_answer_similarity.json")["entries"])),
          ("tests/trajectory/test_mastra_presets.py", "tests/llm_judges/test_answer_similarity_formula.py")),
    Suite("Cohen's kappa of judge calibration",
          lambda: "scikit-learn {}".format(_table("calibration_kappa.json")["sklearn_version"]),
          lambda: "{} cases".format(len(_table("calibration_kappa.json")["cases"])),
          ("tests/calibration/test_calibrate.py", "tests/calibration/test_metrics.py")),
]


def run_tests(files: List[str], folder: Path) -> Dict[str, Counter]:
    """Outcome counts per test file, from one pytest run's JUnit XML."""
    report = folder / "junit.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit2",
                    f"--junitxml={report}", *files], cwd=REPO, check=False)
    counts: Dict[str, Counter] = {f: Counter() for f in files}
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "")
        path = None
        parts = module.split(".")
        for n in range(len(parts), 0, -1):  # "tests.parity.test_x.TestClass" -> tests/parity/test_x.py
            candidate = "/".join(parts[:n]) + ".py"
            if candidate in counts:
                path = candidate
                break
        if path is None:
            continue
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
            elif child.tag == "skipped":
                outcome = "skipped"
        counts[path][outcome] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_record_argument(parser)
    args = parser.parse_args()
    files = sorted({f for suite in SUITES for f in suite.files})
    with tempfile.TemporaryDirectory() as tmp:
        counts = run_tests(files, Path(tmp))
    rec = Recorder("parity", args.record)
    rec.table("parity", "our evaluators against the reference implementations",
              ["compared", "reference", "cases", "tests passed", "failed", "skipped", "test files"])
    bad = False
    for suite in SUITES:
        total = sum((counts[f] for f in suite.files), Counter())
        bad = bad or bool(total["failed"] or total["skipped"]) or not total["passed"]
        shown = ("`tests/parity/test_*.py`" if all(f.startswith("tests/parity/") for f in suite.files)
                 else ", ".join(f"`{f}`" for f in suite.files))
        rec.row("parity", suite.what, suite.reference(), suite.cases(), total["passed"], total["failed"],
                total["skipped"], shown)
        print(f"{suite.what}: {total['passed']} passed, {total['failed']} failed, {total['skipped']} skipped "
              f"({suite.reference()}; {suite.cases()})", flush=True)
    azure_counts(rec)
    rec.write()
    return 1 if bad else 0


def azure_counts(rec: Recorder) -> None:
    """The azure-ai-evaluation differential test's compared cases per judge evaluator, counted from its case
    lists (``tests/parity/test_azure_1_18.py``; its own test keeps its docstring's table equal to them)."""
    sys.path.insert(0, str(REPO))
    from tests.parity.test_azure_1_18 import _counts_from_cases

    rec.table("azure", f"{_installed('azure-ai-evaluation')} and `agent_evaluators.azure`, same rows, same judge "
              "verdicts: compared cases per evaluator",
              ["evaluator", "identical", "identical, reproducing an azure quirk", "both refuse",
               "deliberate difference"])
    for name, counts in _counts_from_cases().items():
        rec.row("azure", name.replace("Evaluator", ""), counts["identical"], counts["quirk"], counts["refuse"],
                counts["difference"])


if __name__ == "__main__":
    raise SystemExit(main())
