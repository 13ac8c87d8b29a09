"""The agent's recorded invocations per eval case, read from files.

An eval set holds only what is expected; what the agent did comes from elsewhere:
an ADK eval-set result file (the ``*.evalset_result.json`` ADK writes; its
``actual_invocation`` entries are used, also in ADK's legacy double-encoded form),
or JSONL lines ``{"eval_id": ..., "invocations": [Invocation, ...]}`` (optionally with
``"eval_set_id"`` to tell apart cases of several sets with the same id).
"""

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..errors import InputError

ActualKey = Union[str, Tuple[str, str]]
ActualMap = Mapping[ActualKey, Sequence[Any]]


def load_actual_invocations(path: Union[str, "os.PathLike[str]"]) -> Dict[ActualKey, List[Dict[str, Any]]]:
    """Read the agent's invocations per eval case from an ADK eval-set result file (JSON,
    or the legacy double-encoded JSON string; a list of results works too) or from JSONL
    lines ``{"eval_id", "invocations"[, "eval_set_id"]}``.

    Returns ``{eval_id: [invocation dict, ...]}``; entries that name their eval set are
    also stored under ``(eval_set_id, eval_id)``.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"actual invocations file not found: {p}", input_name="actual")
    text = p.read_text(encoding="utf-8")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        return _from_jsonl(text, str(p))
    if isinstance(data, str):  # ADK's legacy double-encoded result file
        try:
            data = json.loads(data)
        except json.JSONDecodeError:
            raise InputError(f"{p}: holds a JSON string that is not JSON itself", input_name="actual") from None
    out: Dict[ActualKey, List[Dict[str, Any]]] = {}
    if isinstance(data, dict) and "eval_id" in data and "invocations" in data:
        _add_line(out, data, str(p), "$")
        return out
    results = data if isinstance(data, list) else [data]
    for ri, result in enumerate(results):
        where = f"$[{ri}]" if isinstance(data, list) else "$"
        if not isinstance(result, dict):
            raise InputError(f"{p}: {where} is not an eval-set result object", input_name="actual")
        cases = result.get("eval_case_results", result.get("evalCaseResults"))
        if not isinstance(cases, list):
            raise InputError(
                f"{p}: {where} is not an ADK eval-set result (no 'eval_case_results') nor a JSONL line with "
                "'eval_id' and 'invocations'",
                input_name="actual",
            )
        set_id = result.get("eval_set_id", result.get("evalSetId"))
        for ci, case in enumerate(cases):
            cwhere = f"{where}.eval_case_results[{ci}]"
            eval_id = case.get("eval_id", case.get("evalId")) if isinstance(case, dict) else None
            if eval_id is None:
                raise InputError(f"{p}: {cwhere} has no eval_id", input_name="actual")
            per = case.get("eval_metric_result_per_invocation", case.get("evalMetricResultPerInvocation")) or []
            invocations = []
            for ii, item in enumerate(per):
                inv = item.get("actual_invocation", item.get("actualInvocation")) if isinstance(item, dict) else None
                if inv is None:
                    raise InputError(
                        f"{p}: {cwhere}.eval_metric_result_per_invocation[{ii}] has no actual_invocation",
                        input_name="actual",
                    )
                invocations.append(inv)
            _store(out, set_id, str(eval_id), invocations)
    return out


def _from_jsonl(text: str, source: str) -> Dict[ActualKey, List[Dict[str, Any]]]:
    out: Dict[ActualKey, List[Dict[str, Any]]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{source}: line {lineno} is not JSON ({exc.msg}); expected an ADK eval-set result JSON or "
                "JSONL lines {\"eval_id\": ..., \"invocations\": [...]}",
                input_name="actual",
            ) from None
        _add_line(out, item, source, f"line {lineno}")
    return out


def _add_line(out: Dict[ActualKey, List[Dict[str, Any]]], item: Any, source: str, where: str) -> None:
    if not isinstance(item, dict) or "eval_id" not in item or not isinstance(item.get("invocations"), list):
        raise InputError(
            f"{source}: {where} must be an object with 'eval_id' and a list 'invocations'", input_name="actual"
        )
    _store(out, item.get("eval_set_id"), str(item["eval_id"]), item["invocations"])


def _store(out: Dict[ActualKey, List[Dict[str, Any]]], set_id: Any, eval_id: str, invocations: List[Any]) -> None:
    if set_id is not None:
        out[(str(set_id), eval_id)] = invocations
    out.setdefault(eval_id, invocations)


def lookup_actual(actual: ActualMap, eval_set_id: str, eval_id: str) -> Optional[Sequence[Any]]:
    """A case's invocations: the entry naming its eval set wins over one keyed by eval id alone."""
    found = actual.get((eval_set_id, eval_id))
    return found if found is not None else actual.get(eval_id)
