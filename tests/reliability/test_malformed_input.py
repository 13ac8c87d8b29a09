"""Malformed and hostile input: property-based tests over the JSONL / CSV readers, every
message adapter, deterministic evaluators and ``evaluate()`` end to end.

Inputs: random and truncated JSON, wrong types, huge strings, deep nesting, non-UTF-8
bytes, NaN / Infinity, duplicate keys, lone surrogates. The rule: each input either
evaluates or yields a clear error naming the row (``line K of FILE``) or the input
(``InputError`` naming it); never an uncaught exception, never a hang (hypothesis'
``deadline`` fails a slow example).

Examples are derandomized (the same examples on every run); the ``heavy`` variants run
ten times as many.
"""

import csv
import io
import json
import math
from typing import Any, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_evaluators import ResponseMatchEvaluator, ToolTrajectoryEvaluator, evaluate
from agent_evaluators.conversation import Message, messages_to_json, split_turns, to_messages, to_tool_calls, to_tool_definitions
from agent_evaluators.errors import InputError
from agent_evaluators.runner.readers import RowError, iter_input

BASE = settings(max_examples=60, deadline=3000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
HEAVY = settings(BASE, max_examples=600)

#: deepest nesting the readers must turn into a row (beyond it: see the deep-nesting tests)
SAFE_DEPTH = 200
HUGE = 300_000

# ---------------------------------------------------------------------------- strategies
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), st.sampled_from(["", "system:", "user:\n", "}", "{{ x }}", "\ud800", "role", "tool_calls"]),
)
json_values = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)), max_leaves=20)


def _dumps(v: Any) -> str:
    return json.dumps(v, allow_nan=True)


@st.composite
def jsonl_line(draw) -> bytes:
    """One line of a hostile JSONL file (without its newline)."""
    kind = draw(st.sampled_from(["object", "object", "value", "truncated", "bytes", "nan", "dup", "huge", "deep",
                                 "surrogate", "blank"]))
    obj = draw(st.dictionaries(st.text(max_size=10), json_values, max_size=5))
    if kind == "object":
        text = _dumps(obj)
    elif kind == "value":
        text = _dumps(draw(json_values))
    elif kind == "truncated":
        full = _dumps({**obj, "response": draw(st.text(max_size=20))})
        text = full[: draw(st.integers(0, max(0, len(full) - 1)))]
    elif kind == "bytes":
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    elif kind == "nan":
        text = '{"response": %s, "ground_truth": %s}' % tuple(draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"])) for _ in range(2))
    elif kind == "dup":
        a, b = draw(json_values), draw(json_values)
        text = '{"response": %s, "response": %s}' % (_dumps(a), _dumps(b))
    elif kind == "huge":
        text = _dumps({"response": draw(st.characters()) * HUGE, "ground_truth": "x"})
    elif kind == "deep":
        depth = draw(st.integers(1, SAFE_DEPTH))
        text = '{"response": %s%s}' % ("[" * depth, "]" * depth)
    elif kind == "surrogate":
        text = '{"response": "\\ud800 and \\udfff", "ground_truth": "x"}'
    else:
        text = draw(st.sampled_from(["", "   ", "\t"]))
    return text.encode("utf-8", "surrogatepass")


def _nonblank_lines(lines: List[bytes]) -> List[int]:
    return [k for k, raw in enumerate(lines, 1) if raw.strip()]


def _check_rows(out: List[Any], lines: List[bytes], name: str) -> None:
    expected = _nonblank_lines(lines)
    assert len(out) == len(expected), "one row (or row error) per non-blank line, none dropped"
    for k, item in zip(expected, out):
        if isinstance(item, RowError):
            assert item.message.startswith(f"line {k} of {name}: "), item.message
        else:
            assert type(item) is dict


# ---------------------------------------------------------------------------- JSONL reader
def _jsonl_reader_property(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("jsonl") / "data.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    out = list(iter_input(str(path)))
    _check_rows(out, lines, "data.jsonl")
    # the same through an open binary file
    with open(path, "rb") as f:
        again = list(iter_input(f))
    assert len(again) == len(out)


@BASE
@given(lines=st.lists(jsonl_line(), min_size=1, max_size=8))
def test_jsonl_reader_never_raises(tmp_path_factory, lines):
    _jsonl_reader_property(tmp_path_factory, lines)


@pytest.mark.heavy
@HEAVY
@given(lines=st.lists(jsonl_line(), min_size=1, max_size=8))
def test_jsonl_reader_never_raises_heavy(tmp_path_factory, lines):
    _jsonl_reader_property(tmp_path_factory, lines)


def test_jsonl_nan_and_duplicate_keys_are_read_as_python_does(tmp_path):
    """NaN/Infinity load as floats and a duplicated column keeps its last value (Python's json rules);
    either way the row is read, not dropped."""
    path = tmp_path / "d.jsonl"
    path.write_bytes(b'{"response": NaN, "ground_truth": -Infinity}\n{"response": "a", "response": "b"}\n')
    first, second = list(iter_input(str(path)))
    assert math.isnan(first["response"]) and first["ground_truth"] == -math.inf
    assert second == {"response": "b"}


def test_jsonl_deep_nesting_is_a_row_error(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_bytes(b'{"response": "ok"}\n{"response": ' + b"[" * 5000 + b"]" * 5000 + b"}\n{\"response\": \"ok\"}\n")
    out = list(iter_input(str(path)))
    assert out[0] == {"response": "ok"} and out[2] == {"response": "ok"}
    assert isinstance(out[1], RowError) and out[1].message.startswith("line 2 of d.jsonl")


# ---------------------------------------------------------------------------- CSV reader
cell_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)


def _csv_property(tmp_path_factory, header, rows, junk):
    """A well-formed CSV round-trips exactly; the same file with junk lines appended still reads
    row by row (a line with too many fields is a RowError naming its line)."""
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(header)
    w.writerows(rows)
    path = tmp_path_factory.mktemp("csv") / "data.csv"
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    out = list(iter_input(str(path)))
    assert out == [dict(zip(header, r)) for r in rows]
    path.write_text(buf.getvalue() + junk, encoding="utf-8", newline="")
    for item in iter_input(str(path)):
        if isinstance(item, RowError):
            assert item.message.startswith("line ") and " of data.csv: " in item.message
        else:
            assert type(item) is dict


@st.composite
def csv_table(draw):
    header = draw(st.lists(st.text(st.characters(whitelist_categories=("L", "N")), min_size=1, max_size=8),
                           min_size=1, max_size=4, unique=True))
    rows = draw(st.lists(st.lists(cell_text, min_size=len(header), max_size=len(header)), max_size=5))
    # csv.DictReader skips rows whose every field is empty
    rows = [r for r in rows if any(r)]
    junk = draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=80))
    return header, rows, junk


@BASE
@given(table=csv_table())
def test_csv_reader_never_raises(tmp_path_factory, table):
    _csv_property(tmp_path_factory, *table)


@pytest.mark.heavy
@HEAVY
@given(table=csv_table())
def test_csv_reader_never_raises_heavy(tmp_path_factory, table):
    _csv_property(tmp_path_factory, *table)


def test_csv_non_utf8_is_a_row_error(tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes(b"response,ground_truth\na,a\n\xff\xfe,b\nc,c\n")
    out = list(iter_input(str(path)))
    assert out[0] == {"response": "a", "ground_truth": "a"}
    assert any(isinstance(x, RowError) and "line 3 of d.csv" in x.message for x in out)


def test_csv_huge_field_reads(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("response,ground_truth\n" + "x" * HUGE + ",a\nb,b\n", encoding="utf-8")
    out = list(iter_input(str(path)))
    assert len(out) == 2 and out[1] == {"response": "b", "ground_truth": "b"}


# ---------------------------------------------------------------------------- message adapters
VALID_MESSAGES = [
    # OpenAI chat
    [{"role": "system", "content": "be brief"}, {"role": "user", "content": "weather?"},
     {"role": "assistant", "content": None, "tool_calls": [
         {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "Oslo"}'}}]},
     {"role": "tool", "tool_call_id": "c1", "content": '{"temp": 3}'}, {"role": "assistant", "content": "3 C"}],
    # Responses API items
    [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
     {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
     {"type": "function_call_output", "call_id": "c1", "output": "done"}],
    # Azure agent
    [{"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "f", "arguments": {"a": 1}}]},
     {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"ok": True}}]}],
    # LangChain dicts
    [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": 1}, "id": "1"}]},
     {"type": "tool", "content": "r", "tool_call_id": "1"}],
    # ADK invocation
    [{"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": "hi"}]},
      "final_response": {"role": "model", "parts": [{"text": "hello"}]},
      "intermediate_data": {"tool_uses": [{"name": "f", "args": {"q": 1}}]}}],
]
VALID_DEFINITIONS = [{"type": "function", "function": {"name": "f", "description": "d",
                                                       "parameters": {"type": "object", "properties": {}}}},
                     {"name": "g", "description": "d", "parameters": {"type": "object"}}]


@st.composite
def mutated(draw, base):
    """A valid example with random subtrees replaced by hostile values (wrong types, NaN, huge or deep ones)."""
    value = json.loads(json.dumps(draw(st.sampled_from(base))))
    hostile = st.one_of(json_values, st.just("x" * HUGE), st.just("[" * 3000 + "]" * 3000),
                        st.just('{"a": ' + "[" * 3000 + "]" * 3000 + "}"), st.just(float("nan")))
    for _ in range(draw(st.integers(1, 4))):
        node, path = value, []
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
            path.append((node, key))
            node = node[key]
        if path:
            parent, key = path[-1]
            parent[key] = draw(hostile)
        else:
            value = draw(hostile)
    return value


def _adapter_property(value: Any, name: str) -> None:
    for fn, kwargs in ((to_messages, {"input_name": name}), (to_tool_calls, {"input_name": name}),
                       (to_tool_definitions, {"input_name": name}), (split_turns, {})):
        try:
            out = fn(value, **kwargs)
        except InputError as e:
            text = str(e)
            assert text and (fn is split_turns or name in text), f"{fn.__name__}: error does not name the input: {text}"
            continue
        assert isinstance(out, list)
        if fn is to_messages:
            assert all(isinstance(m, Message) for m in out)
            json.dumps(messages_to_json(out), allow_nan=True)  # what a judge is shown is always JSON


@BASE
@given(value=st.one_of(mutated(VALID_MESSAGES), mutated(VALID_DEFINITIONS), json_values))
def test_message_adapters_read_or_raise_input_error(value):
    _adapter_property(value, "response")


@pytest.mark.heavy
@HEAVY
@given(value=st.one_of(mutated(VALID_MESSAGES), mutated(VALID_DEFINITIONS), json_values))
def test_message_adapters_read_or_raise_input_error_heavy(value):
    _adapter_property(value, "response")


def test_deeply_nested_tool_arguments_are_an_input_error():
    """Fixed here (conversation/_values.py): a JSON-string argument nested past the recursion limit
    raised RecursionError; it is now an InputError naming the call."""
    deep = '{"a": ' + "[" * 5000 + "]" * 5000 + "}"
    msg = [{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": deep}}]}]
    with pytest.raises(InputError, match=r"response\[0\]\.tool_calls\[0\].*nested too deeply"):
        to_messages(msg, input_name="response")


# ---------------------------------------------------------------------------- deterministic evaluators
@BASE
@given(response=st.one_of(mutated(VALID_MESSAGES), json_values), ground_truth=st.one_of(mutated(VALID_MESSAGES), json_values))
def test_deterministic_evaluators_score_or_raise_input_error(response, ground_truth):
    for ev in (ToolTrajectoryEvaluator(match_type="in_order"), ResponseMatchEvaluator()):
        try:
            out = ev(response=response, ground_truth=ground_truth)
        except InputError as e:
            assert type(ev).__name__ in str(e) or e.input_name, str(e)
            continue
        key = ev.result_key
        score = out[key]
        assert out[f"{key}_result"] in ("pass", "fail", "not_applicable")
        assert score is None or (isinstance(score, float) and 0.0 <= score <= 1.0), score


# ---------------------------------------------------------------------------- evaluate() end to end
def _evaluate_property(tmp_path_factory, lines: List[bytes]) -> None:
    root = tmp_path_factory.mktemp("run")
    path = root / "data.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = evaluate(data=str(path), evaluators={"rm": ResponseMatchEvaluator()},
                      evaluator_config={"default": {"column_mapping": {"response": "${data.response}",
                                                                       "ground_truth": "${data.ground_truth}"}}},
                      output_path=root / "out")
    rows = list(result.rows)
    expected = _nonblank_lines(lines)
    assert [r["line_number"] for r in rows] == list(range(len(expected)))
    for k, row in zip(expected, rows):
        if "row_error" in row:
            assert row["row_error"].startswith(f"line {k} of data.jsonl: ")
            continue
        status = row["cell_status"]["rm"]
        score = row["outputs.rm.response_match_score"]
        if status == "ok":
            assert score is None or 0.0 <= score <= 1.0
        else:
            assert score is None and row["outputs.rm.response_match_score_error"].startswith(f"row {row['line_number']}: ")
    summary = json.loads((root / "out" / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["rows"] == len(expected)


@settings(BASE, max_examples=15)
@given(lines=st.lists(jsonl_line(), min_size=1, max_size=6))
def test_evaluate_over_hostile_jsonl_finishes(tmp_path_factory, lines):
    # the first row is a good one, so mapping validation sees a row with the mapped columns
    _evaluate_property(tmp_path_factory, [b'{"response": "a b", "ground_truth": "a b"}'] + lines)


@pytest.mark.heavy
@settings(HEAVY, max_examples=250)
@given(lines=st.lists(jsonl_line(), min_size=1, max_size=6))
def test_evaluate_over_hostile_jsonl_finishes_heavy(tmp_path_factory, lines):
    _evaluate_property(tmp_path_factory, [b'{"response": "a b", "ground_truth": "a b"}'] + lines)
