"""JUnit XML for CI systems: one test case per row × evaluator, plus the run-level thresholds.

A failing cell is a ``<failure>`` (score, threshold, reason), an errored cell an
``<error>``, a not-applicable cell or an evaluator skipped for want of a judge a
``<skipped>``.

Every text and attribute value passes through :func:`display_safe` first: data can hold
control characters that XML 1.0 forbids even as character references (a single ESC in a
reason would make the whole file unparseable for the CI), and bidi overrides that would
spoof the displayed test names.
"""

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping

from .._util.safe_text import display_safe
from .load import cell_status, row_label


def _num(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _clean(element: ET.Element) -> None:
    """Make every attribute value and text under ``element`` legal, unspoofable XML text."""
    for node in element.iter():
        for name, value in list(node.attrib.items()):
            node.set(name, display_safe(value))
        if node.text is not None:
            node.text = display_safe(node.text)


def write_junit(path: Path, rows: Iterable[Mapping[str, Any]], outcome: Any) -> Path:
    """Write ``path``; ``outcome`` is the CLI's :class:`~agent_evaluators.cli.RunOutcome`."""
    suites: Dict[str, ET.Element] = {}
    counts: Dict[str, Dict[str, int]] = {}
    for alias in outcome.aliases:
        suites[alias] = ET.Element("testsuite", name=f"agent-eval.{alias}")
        counts[alias] = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for row in rows:
        line = row.get("line_number")
        label = row_label(row)
        name = f"row {line}" + (f" ({label})" if label else "")
        for alias in outcome.aliases:
            key = outcome.result_keys.get(alias)
            case = ET.SubElement(suites[alias], "testcase", classname=f"agent-eval.{alias}", name=name, time="0")
            c = counts[alias]
            c["tests"] += 1
            if alias in outcome.skipped:
                ET.SubElement(case, "skipped", message=f"{alias} skipped: {outcome.skipped[alias]}")
                c["skipped"] += 1
                continue
            status = cell_status(row, alias)
            prefix = f"outputs.{alias}."
            if status == "error":
                msg = str(row.get(f"{prefix}{key}_error") or row.get(f"{prefix}error") or row.get("row_error") or "error")
                ET.SubElement(case, "error", message=msg[:500], type="EvaluatorError").text = msg
                c["errors"] += 1
            elif status == "fail":
                score, threshold = row.get(f"{prefix}{key}"), row.get(f"{prefix}{key}_threshold")
                reason = str(row.get(f"{prefix}{key}_reason") or "")
                msg = f"{key} = {_num(score)} below threshold {_num(threshold)}"
                ET.SubElement(case, "failure", message=msg, type="BelowThreshold").text = f"{msg}\nreason: {reason}"
                c["failures"] += 1
            elif status == "not_run":  # the judge budget stopped first: neither a failure nor an error
                ET.SubElement(case, "skipped", message="not run: budget (resume with a higher cap runs it)")
                c["skipped"] += 1
            elif status == "not_applicable":
                reason = str(row.get(f"{prefix}{key}_reason") or "not applicable")
                ET.SubElement(case, "skipped", message=f"not applicable: {reason}"[:500])
                c["skipped"] += 1
    root = ET.Element("testsuites", name="agent-eval")
    for alias, suite in suites.items():
        for k, v in counts[alias].items():
            suite.set(k, str(v))
        root.append(suite)
    checks: List[Mapping[str, Any]] = outcome.checks
    if checks:
        suite = ET.SubElement(root, "testsuite", name="agent-eval.thresholds")
        n = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for check in checks:
            case = ET.SubElement(suite, "testcase", classname="agent-eval.thresholds", name=check["check"], time="0")
            n["tests"] += 1
            if check["status"] == "fail":
                value = "no value" if check["value"] is None else _num(check["value"])
                ET.SubElement(case, "failure", message=f"{check['check']} failed: actual {value}. {check['note']}".strip())
                n["failures"] += 1
            elif check["status"] in ("error", "incomplete"):  # exit code 2, as error cells: JUnit errors
                ET.SubElement(case, "error", message=f"{check['check']} {check['status'].upper()}: {check['note']}")
                n["errors"] += 1
            elif check["status"] == "inconclusive":  # not a pass: CI should look, and the exit code is 3
                ET.SubElement(case, "failure", message=f"{check['check']} INCONCLUSIVE: {check['note']}")
                n["failures"] += 1
            elif check["status"] == "skipped":
                ET.SubElement(case, "skipped", message=check["note"] or "skipped")
                n["skipped"] += 1
        for k, v in n.items():
            suite.set(k, str(v))
    totals = {k: sum(int(s.get(k, 0)) for s in root) for k in ("tests", "failures", "errors", "skipped")}
    for k, v in totals.items():
        root.set(k, str(v))
    _clean(root)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path
