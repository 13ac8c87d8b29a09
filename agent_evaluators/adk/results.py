"""ADK's result models (``EvalCaseResult``, ``EvalSetResult``), written so ADK can read them back.

The JSON matches ``google.adk.evaluation.eval_result`` 2.13: statuses are ADK's integer
``EvalStatus`` values, metric results carry ``metric_name``, ``threshold``,
``criterion``, ``score``, ``eval_status`` and ``details{rubric_scores}``. ADK rejects
unknown keys inside metric results, so our explanations (why a metric was not
evaluated) go into ``notes`` and what went wrong (a judge that failed, an agent that
crashed or timed out) into ``errors`` on the case result, where ADK ignores unknown keys.
"""

import json
import time
from enum import IntEnum
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator
from pydantic.alias_generators import to_camel

from ..wording import Text, recall, remember
from .models import AdkModel, Invocation

#: The key, in a metric's ``details`` and in each per-invocation entry, holding why the judge
#: failed. ADK has no status for it (``NOT_EVALUATED`` means "this criterion does not apply",
#: which a case's verdict skips, so the case would pass on its other metrics): a judge failure
#: is ``FAILED`` with no score and this marker, and every path that turns metric results into a
#: case status reads the marker and makes the case an error (:attr:`EvalCaseResult.errors`).
JUDGE_ERROR = "judge_error"


def judge_error_summary(per_invocation: Sequence[Any]) -> Optional[str]:
    """One line for the judge failures among per-invocation entries (``None``: the judge never failed)."""
    errors = [str(p[JUDGE_ERROR]) for p in per_invocation if isinstance(p, Mapping) and p.get(JUDGE_ERROR)]
    if not errors:
        return None
    if len(errors) == 1:
        return errors[0]
    return remember(Text("{first} (and {more} more invocation(s))", first=recall(errors[0]), more=len(errors) - 1))


class EvalStatus(IntEnum):
    """ADK's ``EvalStatus``; ``.name`` is the printed form, the int the stored one."""

    PASSED = 1
    FAILED = 2
    NOT_EVALUATED = 3
    INFORMATIONAL = 4

    def __str__(self) -> str:
        # IntEnum prints its number ("1") since Python 3.11; a verdict must read PASSED / FAILED
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    @classmethod
    def parse(cls, value: Any) -> "EvalStatus":
        if isinstance(value, str):
            return cls[value.strip().upper()]
        return cls(int(value))


class RubricScore(AdkModel):
    rubric_id: str
    rationale: Optional[str] = None
    score: Optional[float] = None


class EvalMetricResultDetails(AdkModel):
    model_config = ConfigDict(extra="ignore")

    rubric_scores: Optional[List[RubricScore]] = None
    token_usage_details: Optional[Dict[str, Any]] = None
    duration_details: Optional[Dict[str, Any]] = None


class _StatusField(BaseModel):
    @field_validator("eval_status", "final_eval_status", mode="before", check_fields=False)
    @classmethod
    def _status(cls, value: Any) -> EvalStatus:
        return EvalStatus.parse(value)


class EvalMetricResult(AdkModel, _StatusField):
    """One metric's result for a case or an invocation (older ADK keys such as
    ``judge_model_options`` are ignored on reading)."""

    model_config = ConfigDict(extra="ignore")

    metric_name: str
    threshold: Optional[float] = None
    criterion: Optional[Dict[str, Any]] = None
    custom_function_path: Optional[str] = None
    score: Optional[float] = None
    eval_status: EvalStatus
    details: EvalMetricResultDetails = Field(default_factory=EvalMetricResultDetails)

    @field_serializer("eval_status")
    def _ser_status(self, value: EvalStatus) -> int:
        return int(value)


class EvalMetricResultPerInvocation(AdkModel):
    actual_invocation: Invocation
    expected_invocation: Optional[Invocation] = None
    eval_metric_results: List[EvalMetricResult] = Field(default_factory=list)


class EvalCaseResult(_StatusField):
    """One case's verdict: ``final_eval_status`` and every metric's results.

    ``notes`` (ours; ADK ignores it) says why a case or metric was not evaluated or failed
    without a score. ``errors`` (ours too) lists what went wrong rather than what was judged:
    a criterion the judge could not score, an agent that crashed or ran past its deadline. A
    case with errors is never ``PASSED`` (it is ``FAILED``, ADK's only other verdict) and
    ``agent-eval adk`` exits 2.
    """

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    eval_set_file: Optional[str] = None
    eval_set_id: str = ""
    eval_id: str = ""
    final_eval_status: EvalStatus
    overall_eval_metric_results: List[EvalMetricResult] = Field(default_factory=list)
    eval_metric_result_per_invocation: List[EvalMetricResultPerInvocation] = Field(default_factory=list)
    session_id: str = ""
    session_details: Optional[Dict[str, Any]] = None
    user_id: Optional[str] = None
    notes: List[str] = Field(default_factory=list)
    errors: List[str] = Field(default_factory=list)

    @field_serializer("final_eval_status")
    def _ser_status(self, value: EvalStatus) -> int:
        return int(value)

    @property
    def passed(self) -> bool:
        return self.final_eval_status == EvalStatus.PASSED and not self.errors


class EvalSetResult(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    eval_set_result_id: str
    eval_set_result_name: Optional[str] = None
    eval_set_id: str
    eval_case_results: List[EvalCaseResult] = Field(default_factory=list)
    creation_timestamp: float = 0.0

    def to_json(self) -> str:
        return self.model_dump_json(indent=2, exclude_none=True)

    def write(self, folder: Union[str, Path]) -> Path:
        """Write ``<folder>/<eval_set_result_name>.evalset_result.json`` (ADK's file name) and return the path.

        The text is :meth:`to_json`'s, written one case at a time: a 10,000-case result is
        never one string in memory.
        """
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.eval_set_result_name or sanitize_result_name(self.eval_set_result_id)}.evalset_result.json"
        head, tail = self.model_copy(update={"eval_case_results": []}).to_json().split('"eval_case_results": []')
        with path.open("w", encoding="utf-8") as f:
            f.write(head + '"eval_case_results": [')
            for i, case in enumerate(self.eval_case_results):
                text = case.model_dump_json(indent=2, exclude_none=True).replace("\n", "\n    ")
                f.write(("," if i else "") + "\n    " + text)
            f.write(("\n  ]" if self.eval_case_results else "]") + tail)
        return path

    @classmethod
    def parse(cls, data: Union[str, bytes, Dict[str, Any]]) -> "EvalSetResult":
        """Parse a result; also the legacy double-encoded form (a JSON string holding the JSON)."""
        if isinstance(data, (str, bytes)):
            data = json.loads(data)
            if isinstance(data, str):
                data = json.loads(data)
        return cls.model_validate(data)


def sanitize_result_name(name: str) -> str:
    """ADK's ``_sanitize_eval_set_result_name`` (plus backslashes and colons, for Windows paths)."""
    return name.replace("/", "_").replace("\\", "_").replace(":", "_")


def new_eval_set_result(
    eval_set_id: str, case_results: List[EvalCaseResult], *, app_name: Optional[str] = None
) -> EvalSetResult:
    """ADK's ``create_eval_set_result``: id ``<app_name>_<eval_set_id>_<timestamp>`` (without an
    app name, ``<eval_set_id>_<timestamp>``), and the file name that id sanitized."""
    timestamp = time.time()
    result_id = f"{app_name}_{eval_set_id}_{timestamp}" if app_name else f"{eval_set_id}_{timestamp}"
    return EvalSetResult(
        eval_set_result_id=result_id,
        eval_set_result_name=sanitize_result_name(result_id),
        eval_set_id=eval_set_id,
        eval_case_results=case_results,
        creation_timestamp=timestamp,
    )
