"""Column mapping: nested paths, target outputs, rename/select, fail-fast validation."""

import asyncio

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError, InputError

from .helpers import ExactMatch, Length


def echo(**kwargs):
    """**kwargs evaluator: shows exactly which inputs it received."""
    return {"got": ",".join(sorted(kwargs))}


def test_nested_paths_and_rename():
    rows = [{"item": {"answer": "x", "turns": [{"text": "t0"}, {"text": "t1"}]}, "gold": "x"}]
    result = evaluate(
        data=rows,
        evaluators={"ex": ExactMatch(), "len": Length()},
        evaluator_config={
            "ex": {"column_mapping": {"response": "${data.item.answer}", "ground_truth": "${data.gold}"}},
            "len": {"column_mapping": {"query": "${data.item.turns.0.text}", "response": "${data.item.turns.-1.text}"}},
        },
    )
    row = result.rows[0]
    assert row["outputs.ex.exact"] == 1.0
    assert row["outputs.len.length"] == 2.0 and row["outputs.len.length_reason"] == "2 chars asked"
    assert row["inputs.item"]["answer"] == "x"


def test_alias_mapping_replaces_default_and_selects():
    rows = [{"a": 1, "b": 2, "c": 3}]
    result = evaluate(
        data=rows,
        evaluators={"own": echo, "dflt": echo, "none": echo},
        evaluator_config={
            "default": {"column_mapping": {"x": "${data.a}"}},
            "own": {"column_mapping": {"y": "${data.b}"}},
        },
    )
    row = result.rows[0]
    assert row["outputs.own.got"] == "y"  # its own mapping only: 'default' not merged, columns not leaked
    assert row["outputs.dflt.got"] == "x"


def test_kwargs_evaluator_without_mapping_gets_every_column():
    result = evaluate(data=[{"a": 1, "b": 2}], evaluators={"e": echo})
    assert result.rows[0]["outputs.e.got"] == "a,b"


def test_target_sync_and_async_outputs_are_mappable():
    def agent(query):
        return {"answer": query.upper(), "meta": {"steps": ["s1", "s2"]}}

    async def async_agent(query):
        await asyncio.sleep(0)
        return {"answer": query.upper(), "meta": {"steps": ["s1"]}}

    for target in (agent, async_agent):
        result = evaluate(
            data=[{"query": "abc", "ground_truth": "ABC"}],
            target=target,
            evaluators={"ex": ExactMatch(), "len": Length()},
            evaluator_config={
                "ex": {"column_mapping": {"response": "${target.answer}"}},
                "len": {"column_mapping": {"response": "${target.meta.steps.0}"}},
            },
        )
        row = result.rows[0]
        assert row["outputs.answer"] == "ABC"
        assert row["outputs.ex.exact"] == 1.0
        assert row["outputs.len.length"] == 2.0


def test_target_output_auto_maps_by_name_over_data():
    result = evaluate(
        data=[{"query": "q", "response": "stale", "ground_truth": "fresh"}],
        target=lambda query: {"response": "fresh"},
        evaluators={"ex": ExactMatch()},
    )
    assert result.rows[0]["outputs.ex.exact"] == 1.0


def test_target_that_raises_is_an_error_cell():
    def agent(query):
        if query == "bad":
            raise ValueError("agent down")
        return {"response": query}

    result = evaluate(
        data=[{"query": "a", "ground_truth": "a"}, {"query": "bad", "ground_truth": "a"}],
        target=agent,
        evaluators={"ex": ExactMatch()},
    )
    bad = result.rows[1]
    assert "agent down" in bad["target_error"]
    assert bad["outputs.ex.exact_result"] == "error" and "agent down" in bad["outputs.ex.exact_error"]
    assert result.metrics["ex.n"] == 1 and result.metrics["ex.error_count"] == 1


def test_validation_lists_alias_input_and_columns_before_any_call():
    calls = []

    def counted(response, ground_truth):
        calls.append(1)
        return 1

    with pytest.raises(InputError) as e:
        evaluate(data=[{"query": "q", "response": "a"}], evaluators={"ok": Length(), "cnt": counted, "ex": ExactMatch()})
    msg = str(e.value)
    assert "'cnt'" in msg and "'ex'" in msg and "'ok'" not in msg
    assert "- evaluator 'ex' (ExactMatch): required input(s) 'ground_truth' neither mapped" in msg
    assert "counted): required input(s) 'ground_truth'" in msg
    assert "Available columns: query, response" in msg
    assert calls == []
    assert e.value.evaluator == "cnt"


def test_mapping_to_nonexistent_path_fails_fast():
    with pytest.raises(InputError) as e:
        evaluate(
            data=[{"a": {"b": 1}}],
            evaluators={"e": echo},
            evaluator_config={"e": {"column_mapping": {"x": "${data.a.nope}"}}},
        )
    assert "${data.a.nope}" in str(e.value) and "'e'" in str(e.value) and "a" in str(e.value)


def test_bad_mapping_syntax_and_unknown_alias_and_unknown_input():
    with pytest.raises(ConfigError, match="not a column reference"):
        evaluate(data=[{"a": 1}], evaluators={"e": echo}, evaluator_config={"e": {"column_mapping": {"x": "a"}}})
    with pytest.raises(ConfigError, match="not an evaluator alias"):
        evaluate(data=[{"a": 1}], evaluators={"e": echo}, evaluator_config={"typo": {"column_mapping": {}}})
    with pytest.raises(ConfigError, match="has no such input"):
        evaluate(
            data=[{"response": "a", "ground_truth": "a"}],
            evaluators={"ex": ExactMatch()},
            evaluator_config={"ex": {"column_mapping": {"respnse": "${data.response}"}}},
        )


def test_later_row_missing_column_is_error_cell_naming_it():
    rows = [{"response": "a", "ground_truth": "a"}, {"response": "a"}]
    result = evaluate(data=rows, evaluators={"ex": ExactMatch()})
    msg = result.rows[1]["outputs.ex.exact_error"]
    assert "row 1" in msg and "'ground_truth'" in msg and "available columns: response" in msg


def test_conversation_precedence():
    conv = [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "hi there"},
    ]
    # only conversation available -> evaluated per turn
    r1 = evaluate(data=[{"conversation": conv}], evaluators={"len": Length()})
    per_turn = Length()(conversation=conv)["length"]
    assert r1.rows[0]["outputs.len.length"] == per_turn
    assert "per_turn" in r1.rows[0]["outputs.len.length_details"]
    # both available -> single-turn inputs win, no "pass either" error
    r2 = evaluate(data=[{"conversation": conv, "query": "q", "response": "abcd"}], evaluators={"len": Length()})
    assert r2.rows[0]["outputs.len.length"] == 4.0
    # explicit conversation mapping wins over query/response columns
    r3 = evaluate(
        data=[{"conv": conv, "query": "q", "response": "abcd"}],
        evaluators={"len": Length()},
        evaluator_config={"len": {"column_mapping": {"conversation": "${data.conv}"}}},
    )
    assert r3.rows[0]["outputs.len.length"] == per_turn


# ---------------------------------------------------------------------------- issue 35 item 3: a shared "default"
def test_a_shared_default_mapping_gives_each_evaluator_the_inputs_it_has():
    """azure-ai-evaluation users write one "default" mapping for evaluators that take different inputs."""
    rows = [{"q": "hi", "a": "hello", "gold": "hello", "tools": []}]
    result = evaluate(
        data=rows,
        evaluators={"ex": ExactMatch(), "len": Length()},
        evaluator_config={"default": {"column_mapping": {
            "query": "${data.q}", "response": "${data.a}", "ground_truth": "${data.gold}"}}},
    )
    row = result.rows[0]
    assert row["outputs.ex.exact"] == 1.0  # takes response, ground_truth; query left to 'len'
    assert row["outputs.len.length"] == 5.0 and row["outputs.len.length_reason"] == "2 chars asked"
    assert result.errors == []


def test_a_mapped_input_no_evaluator_takes_is_an_error_naming_the_key_written():
    with pytest.raises(ConfigError) as e:
        evaluate(data=[{"response": "a", "ground_truth": "a"}], evaluators={"ex": ExactMatch(), "len": Length()},
                 evaluator_config={"default": {"column_mapping": {"respnse": "${data.response}"}}})
    assert "evaluator_config['default'] maps input 'respnse'" in str(e.value)
    assert e.value.input_name == "respnse"
    # an input mapped explicitly for one evaluator that lacks it stays an error, naming the key the user wrote
    with pytest.raises(ConfigError) as e:
        evaluate(data=[{"query": "q", "response": "a", "ground_truth": "a"}],
                 evaluators={"ex": ExactMatch(), "len": Length()},
                 evaluator_config={"default": {"column_mapping": {"query": "${data.query}"}},
                                   "ex": {"column_mapping": {"query": "${data.query}"}}})
    assert "evaluator_config['ex'] maps input 'query'" in str(e.value) and "'default'" not in str(e.value)
