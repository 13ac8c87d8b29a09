"""Read ADK eval files: the EvalSet schema and both legacy forms, converted as ADK converts them.

Three shapes exist in the wild:

* the current **EvalSet** (``*.evalset.json``, and ``*.test.json`` written by ADK ≥ 0.5);
* the **list of turns** ``[{"query", "expected_tool_use": [{"tool_name", "tool_input"}],
  "expected_intermediate_agent_responses": [{"author", "text"}], "reference"}]`` read by
  ``AgentEvaluator`` (one file = one eval case);
* the **list of cases** ``[{"name", "data": [turns], "initial_session": {...}}]`` read by
  ``adk eval`` / ``LocalEvalSetsManager``.

Both legacy forms go through one conversion that mirrors ADK 2.13's
``convert_eval_set_to_pydantic_schema``. Where ADK uses fresh randomness or the clock
(``uuid4`` ids, ``time.time()`` timestamps) we use values derived from the file
(``uuid5`` of path and position, the file's mtime) so that loading the same file twice
gives the same ids: results and resumed runs can then be matched by id.
"""

import json
import logging
import os
import uuid
from pathlib import Path
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from pydantic import ValidationError
from pydantic.alias_generators import to_snake

from ..errors import InputError
from .models import Content, EvalCase, EvalSet, FunctionCall, IntermediateData, Invocation, Part, SessionInput

logger = logging.getLogger(__name__)

PathLike = Union[str, "os.PathLike[str]"]

#: criteria ADK's ``AgentEvaluator`` allows for files in the list-of-turns form.
LEGACY_ALLOWED_CRITERIA = (
    "tool_trajectory_avg_score",
    "response_evaluation_score",
    "response_match_score",
    "safety_v1",
)


def json_path(loc: Iterable[Any]) -> str:
    """``("eval_cases", 0, "conversation")`` → ``$.eval_cases[0].conversation``."""
    out = "$"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}"
    return out


def validation_message(error: ValidationError, *, prefix: Tuple[Any, ...] = (), limit: int = 5) -> str:
    """One line per pydantic error, each starting with the JSON path it is about."""
    lines = []
    for item in error.errors()[:limit]:
        # pydantic puts union/tagged-branch names and validator names into loc; keep real keys only
        loc = [
            to_snake(p) if isinstance(p, str) else p  # report ADK's on-disk (snake_case) spelling
            for p in item.get("loc", ())
            if not (isinstance(p, str) and ("[" in p or p.startswith("function-")))
        ]
        lines.append(f"  {json_path(prefix + tuple(loc))}: {item.get('msg')}")
    more = error.error_count() - limit
    if more > 0:
        lines.append(f"  ... and {more} more error(s)")
    return "\n".join(lines)


def read_json_file(path: PathLike, *, what: str = "ADK eval file") -> Any:
    """Parse a JSON file; a syntax error names the file, line and column."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{what} not found: {p}", input_name=str(p)) from None
    except IsADirectoryError:
        raise InputError(f"{what} {p} is a directory; give the path of a .json file", input_name=str(p)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{p}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}", input_name=str(p)
        ) from None


def load_eval_set(path: PathLike, *, criteria: Optional[Mapping[str, Any]] = None) -> EvalSet:
    """Load an ADK eval-set file in any of its three shapes.

    ``criteria`` (the metric names of the run) enables ADK ``AgentEvaluator``'s checks on
    list-of-turns files: only the four criteria that format supports, and the columns each
    needs (``query`` + ``expected_tool_use`` for trajectory, ``query`` + ``reference`` for
    response match) present in the first turn.

    Raises :class:`InputError` naming the file and the JSON path of the first problems.
    """
    data = read_json_file(path)
    return parse_eval_set(data, source=str(path), criteria=criteria, mtime=_mtime(path))


def parse_eval_set(
    data: Any,
    *,
    source: str = "<data>",
    criteria: Optional[Mapping[str, Any]] = None,
    mtime: float = 0.0,
) -> EvalSet:
    """Like :func:`load_eval_set` for already-parsed JSON; ``source`` names it in errors and ids."""
    if isinstance(data, dict):
        try:
            return EvalSet.model_validate(data)
        except ValidationError as exc:
            raise InputError(
                f"{source}: not a valid ADK EvalSet:\n{validation_message(exc)}", input_name=source
            ) from None
    if isinstance(data, list):
        if not data:
            raise InputError(f"{source}: the file holds an empty list; there is nothing to evaluate", input_name=source)
        first = data[0]
        if isinstance(first, dict) and "data" in first and "query" not in first:
            return _from_legacy_cases(data, source=source, mtime=mtime)
        if isinstance(first, dict) and "query" in first:
            if criteria is not None:
                _check_legacy_criteria(data, criteria, source)
            case = {"name": source, "data": data, "initial_session": {}}
            return _from_legacy_cases([case], source=source, mtime=mtime, eval_set_id=_uuid(source, "eval_set"))
        raise InputError(
            f"{source}: a JSON list must be legacy ADK test data: either turns "
            '[{"query", "expected_tool_use", "reference"}, ...] or cases [{"name", "data", "initial_session"}, ...]; '
            f"$[0] is {_describe(first)}",
            input_name=source,
        )
    raise InputError(
        f"{source}: expected an ADK EvalSet object or a legacy list, got {_describe(data)}", input_name=source
    )


# ----------------------------------------------------------------------------- legacy conversion


def _from_legacy_cases(
    cases: Sequence[Any], *, source: str, mtime: float, eval_set_id: Optional[str] = None
) -> EvalSet:
    """ADK's ``convert_eval_set_to_pydantic_schema``: one EvalCase per ``{name, data, initial_session}``."""
    set_id = eval_set_id if eval_set_id is not None else source  # `adk eval` passes the file path as the id
    eval_cases: List[EvalCase] = []
    for ci, case in enumerate(cases):
        where = f"$[{ci}]" if eval_set_id is None else "$"
        if not isinstance(case, dict):
            raise InputError(f"{source}: {where} must be an object with name/data, got {_describe(case)}", input_name=source)
        for key in ("name", "data"):
            if key not in case:
                raise InputError(f"{source}: {where} has no {key!r} (legacy eval case)", input_name=source)
        turns = case["data"]
        if not isinstance(turns, list):
            raise InputError(f"{source}: {where}.data must be a list of turns, got {_describe(turns)}", input_name=source)
        invocations = [
            _legacy_turn(turn, source=source, where=(f"{where}.data[{ti}]" if eval_set_id is None else f"$[{ti}]"),
                         invocation_id=_uuid(source, f"case{ci}/turn{ti}"), mtime=mtime)
            for ti, turn in enumerate(turns)
        ]
        initial = case.get("initial_session") or {}
        session_input = None
        if len(initial) > 0:
            session_input = SessionInput(
                app_name=initial.get("app_name", ""),
                user_id=initial.get("user_id", ""),
                state=initial.get("state", {}),
            )
        try:
            eval_cases.append(
                EvalCase(
                    eval_id=str(case["name"]),
                    conversation=invocations,
                    session_input=session_input,
                    creation_timestamp=mtime,
                )
            )
        except ValidationError as exc:
            raise InputError(
                f"{source}: invalid legacy eval case:\n{validation_message(exc, prefix=(ci,))}", input_name=source
            ) from None
    return EvalSet(eval_set_id=set_id, name=set_id, creation_timestamp=mtime, eval_cases=eval_cases)


def _legacy_turn(turn: Any, *, source: str, where: str, invocation_id: str, mtime: float) -> Invocation:
    """ADK's ``_convert_invocation_to_pydantic_schema`` for one turn."""
    if not isinstance(turn, dict):
        raise InputError(f"{source}: {where} must be an object (a legacy turn), got {_describe(turn)}", input_name=source)
    if "query" not in turn:
        raise InputError(f"{source}: {where} has no 'query' (legacy turn)", input_name=source)
    tool_uses = []
    for i, use in enumerate(turn.get("expected_tool_use", [])):
        for key in ("tool_name", "tool_input"):
            if not isinstance(use, dict) or key not in use:
                raise InputError(
                    f"{source}: {where}.expected_tool_use[{i}] needs 'tool_name' and 'tool_input'", input_name=source
                )
        tool_uses.append(FunctionCall(name=use["tool_name"], args=use["tool_input"]))
    responses = []
    for i, item in enumerate(turn.get("expected_intermediate_agent_responses", [])):
        if not isinstance(item, dict) or "author" not in item or "text" not in item:
            raise InputError(
                f"{source}: {where}.expected_intermediate_agent_responses[{i}] needs 'author' and 'text'",
                input_name=source,
            )
        responses.append((item["author"], [Part(text=item["text"])]))
    try:
        return Invocation(
            invocation_id=invocation_id,
            user_content=Content(parts=[Part(text=turn["query"])], role="user"),
            final_response=Content(parts=[Part(text=turn.get("reference", ""))], role="model"),
            intermediate_data=IntermediateData(tool_uses=tool_uses, intermediate_responses=responses),
            creation_timestamp=mtime,
        )
    except ValidationError as exc:
        raise InputError(f"{source}: invalid legacy turn at {where}:\n{validation_message(exc)}", input_name=source) from None


def _check_legacy_criteria(turns: Sequence[Any], criteria: Mapping[str, Any], source: str) -> None:
    """ADK ``AgentEvaluator._validate_input``: allowed criteria, and the first turn's columns."""
    for key in criteria:
        if key not in LEGACY_ALLOWED_CRITERIA:
            raise InputError(
                f"{source}: criterion {key!r} cannot be used with a legacy list-of-turns file; "
                f"that format supports {', '.join(LEGACY_ALLOWED_CRITERIA)}. Convert the file to the EvalSet schema.",
                input_name=source,
            )
    first = turns[0]
    needs = {
        "tool_trajectory_avg_score": ("query", "expected_tool_use"),
        "response_match_score": ("query", "reference"),
        "response_evaluation_score": ("query",),
    }
    for metric, columns in needs.items():
        if metric in criteria:
            missing = [c for c in columns if c not in first]
            if missing:
                raise InputError(
                    f"{source}: {metric} needs {' and '.join(repr(c) for c in columns)} in each turn; "
                    f"$[0] lacks {', '.join(repr(m) for m in missing)}",
                    input_name=source,
                )


# ----------------------------------------------------------------------------- helpers


def _uuid(source: str, what: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"adk-legacy:{source}#{what}"))


def _mtime(path: PathLike) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(list(value)[:6])
        return f"an object with keys [{keys}]"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    return f"{type(value).__name__} {value!r:.60}"
