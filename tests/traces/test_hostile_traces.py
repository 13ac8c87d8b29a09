"""Hostile trace files end in an error row naming the trace and the problem, never in a traceback.

Each kind (``hostile_traces.KINDS``: wrong value types in every kind of attribute value, non-finite
and huge numbers, parent cycles, self-parents, deep nesting, missing, duplicate and malformed ids,
a truncated line, bytes that are not UTF-8, an enormous attribute, ...) is one file holding a good
trace, the hostile one and another good trace. Read through ``evaluate(data=FILE)`` and through
``agent-eval traces FILE``: the two good traces are scored / listed, the hostile one is an error
row (no score) whose message names it (its trace id, or its line where no trace can be named)
and what is wrong; a kind that is odd but valid (a 20 MB attribute, spans nested 10,000 deep)
reads as a row. Before this suite 17 of these kinds ended in a raw traceback.
"""

import copy
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_evaluators import evaluate
from agent_evaluators._util.safe_text import terminal_safe
from agent_evaluators.cli.main import main
from tests.cli.helpers import agent_eval

from .hostile_traces import BAD, EXPECTED, GOOD_A, GOOD_C, KINDS, write_hostile


def _count(query):
    return len(query)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    return {kind: write_hostile(folder, kind) for kind in KINDS}


def test_every_kind_has_an_expectation():
    assert sorted(EXPECTED) == KINDS and len(KINDS) >= 23


@pytest.mark.parametrize("kind", KINDS)
def test_evaluate_reads_the_good_traces_and_names_the_bad_one(kind, files):
    limit = sys.getrecursionlimit()
    result = evaluate(data=files[kind], evaluators={"n": _count}, show_progress=False)
    assert sys.getrecursionlimit() == limit
    rows = list(result.rows)
    scored = [r for r in rows if "row_error" not in r]
    errors = [r for r in rows if "row_error" in r]
    expected = EXPECTED[kind]
    good = {GOOD_A, GOOD_C} if expected is not None else {GOOD_A, BAD, GOOD_C}
    assert {r["inputs.trace_id"] for r in scored} == good, rows
    assert all(r["outputs.n.output"] == 1 for r in scored)  # one user message each: the good runs read whole
    if expected is None:
        assert not errors
        return
    assert len(errors) == 1, errors
    message = errors[0]["row_error"]
    for fragment in expected:
        assert fragment in message, message
    assert errors[0].get("outputs.n.output") is None  # an error is never a score
    assert "Traceback" not in message and "Error:" not in message


@pytest.mark.parametrize("kind", KINDS)
def test_traces_command_lists_the_good_runs_and_the_problem(kind, files, capsys):
    code = main(["traces", str(files[kind])])
    out, err = capsys.readouterr()
    expected = EXPECTED[kind]
    assert err == ""
    assert code == (0 if expected is None else 1), out
    assert f"{2 if expected else 3} agent run(s) read from" in out
    problems = [line for line in out.splitlines() if line.startswith("  - ")]
    if expected is None:
        assert not problems
        return
    assert len(problems) == 1, out
    for fragment in expected:
        assert terminal_safe(fragment) in problems[0], out


@pytest.mark.parametrize("kind", ["parent_cycle", "int_value_not_a_number", "truncated_line", "spans_not_a_list"])
def test_traces_json_names_the_problem(kind, files, capsys):
    assert main(["traces", str(files[kind]), "--json", "--rows"]) == 1
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    problems = [o["problem"] for o in objects if o.get("problem")]
    assert len(problems) == 1 and all(f in problems[0] for f in EXPECTED[kind])  # type: ignore[union-attr]
    assert sum(1 for o in objects if o.get("row")) == 2


def test_a_folder_of_every_hostile_file_from_the_shell(files, tmp_path):
    """The real command in its own process: every kind at once, exit 1, no traceback."""
    folder = tmp_path / "all"
    folder.mkdir()
    for kind, path in files.items():
        if kind != "enormous_attribute_string":  # 20 MB: read in-process above
            (folder / path.name).write_bytes(path.read_bytes())
    r = agent_eval("traces", folder)
    assert r.rc == 1, r
    assert "Traceback" not in r.err + r.out and r.err == "", r
    assert f"trace {BAD}" in r.out and "not readable" in r.out


# ---------------------------------------------------------------------------- random mutations
_ODD_VALUES = [None, True, 0, -1, 2**70, 10**400, float("nan"), float("inf"), 1.5, "", "abc", "[", "[[[[", "\ud800",
               "0" * 32, BAD, "AAAAAAAAAAA=", "\x1b[31m", "chat", "execute_tool", "LLM", "TOOL", "gen_ai.choice",
               "[" * 3000 + "]" * 3000, {"stringValue": 5}, {"intValue": "x"}, {"arrayValue": "x"},
               {"kvlistValue": {"values": [1]}}, [[[[]]]], {"values": "x"}, json.dumps({"role": 5, "parts": "x"})]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _valid_requests():
    from .conversations import FIXTURES

    requests = []
    for name in ("openinference.spans.jsonl", "openai_v2_legacy.spans.jsonl", "openai_v2_legacy.logs.jsonl",
                 "adk.spans.jsonl"):
        requests += [json.loads(line) for line in (FIXTURES / name).read_text().splitlines()[:6]]
    return requests


_VALID = _valid_requests()


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(1, 3))
def test_any_value_anywhere_in_a_valid_trace_never_raises(rnd, changes):
    """Any of the odd values above put anywhere in real producers' requests (1-3 places): the read
    ends in rows and error rows, never in an exception, and every row is plain JSON."""
    from agent_evaluators.traces import read_runs
    from agent_evaluators.traces.trace_rows import run_row

    requests = copy.deepcopy(_VALID)
    for _ in range(changes):
        target = rnd.choice(requests)
        path = rnd.choice(list(_paths(target))[1:])
        holder = target
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = copy.deepcopy(rnd.choice(_ODD_VALUES))
    runs, problems = read_runs(requests)
    for run in runs:
        if run.problem is None:
            json.dumps(run_row(run), allow_nan=True)
        else:
            assert run.problem.startswith("trace "), run.problem
