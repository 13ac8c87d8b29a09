"""``<k>_properties`` under 1.18's field names and types, for the metrics whose verdict fields differ.

Our verdicts name their fields for our own reports; 1.18's prompts ask its judge for other names
and types, and two of its evaluators add a computed figure. A 1.18 user's code reads these names,
so each mapping below writes the judge's findings as 1.18's ``properties`` (same order, then
the computed figure, then the token keys the adapter adds):

=========================  ===========================================  =================================================
metric                     our verdict fields                           1.18's ``properties``
=========================  ===========================================  =================================================
tool_selection             correct/wrong_tool_selections (int),         correct_tool_selections, wrong_tool_selections,
                           excessive_tools, missing_tools (lists)       excessive_tools_used (int), excessive_tools_list,
                                                                        missing_tools (int), missing_tools_list,
                                                                        tool_selection_accuracy (float, percent)
tool_input_accuracy        total_parameters, correct_parameters,        total_parameters_passed, correct_parameters_passed,
                           incorrect_parameters (list)                  incorrect_parameters, parameter_extraction_accuracy
tool_output_utilization    faulty_uses (list)                           faulty_details (list)
tool_call_success          failed_tools (list)                          failed_tools (comma-separated text)
task_completion            task_requirements, delivered_outcome (text), the same, completion_gaps as text
                           completion_gaps (list)
=========================  ===========================================  =================================================
"""

from typing import Any, Dict, List, Mapping


def _names(value: Any) -> List[Any]:
    return list(value) if isinstance(value, (list, tuple)) else ([] if value in (None, "") else [value])


def _percent(part: Any, whole: Any) -> float:
    """1.18's ``round(part / whole * 100, 2)``, 100.0 when there is nothing to count."""
    return round(part / whole * 100, 2) if whole else 100.0


def tool_selection(details: Mapping[str, Any]) -> Dict[str, Any]:
    """1.18's ``_calculate_tool_selection_accuracy``: correct over correct + wrong selections, in percent."""
    correct, wrong = details.get("correct_tool_selections", 0), details.get("wrong_tool_selections", 0)
    excessive, missing = _names(details.get("excessive_tools")), _names(details.get("missing_tools"))
    return {"correct_tool_selections": correct, "wrong_tool_selections": wrong,
            "excessive_tools_used": len(excessive), "excessive_tools_list": excessive,
            "missing_tools": len(missing), "missing_tools_list": missing,
            "tool_selection_accuracy": _percent(correct, correct + wrong)}


def tool_input_accuracy(details: Mapping[str, Any]) -> Dict[str, Any]:
    """1.18's ``_calculate_parameter_extraction_accuracy``: correct over passed parameters, in percent."""
    total, correct = details.get("total_parameters", 0), details.get("correct_parameters", 0)
    return {"total_parameters_passed": total, "correct_parameters_passed": correct,
            "incorrect_parameters": _names(details.get("incorrect_parameters")),
            "parameter_extraction_accuracy": _percent(correct, total)}


def tool_output_utilization(details: Mapping[str, Any]) -> Dict[str, Any]:
    return {"faulty_details": _names(details.get("faulty_uses"))}


def tool_call_success(details: Mapping[str, Any]) -> Dict[str, Any]:
    return {"failed_tools": ", ".join(str(n) for n in _names(details.get("failed_tools")))}


def task_completion(details: Mapping[str, Any]) -> Dict[str, Any]:
    out = dict(details)
    out["completion_gaps"] = "; ".join(str(g) for g in _names(details.get("completion_gaps")))
    return out
