"""Generate ``trajectory_openevals.json``: every case × trajectory mode × args mode through openevals.

Run it in its own venv (never the project's):

    python3.11 -m venv /work/refvenvs/openevals
    /work/refvenvs/openevals/bin/pip install openevals==0.2.2 agentevals==0.0.9 langchain-core
    /work/refvenvs/openevals/bin/python tests/reference/gen_trajectory_openevals.py

Source of truth is openevals 0.2.2 (``openevals.trajectory.match.create_trajectory_match_evaluator``):
its matchers always receive ``(output_args, reference_args)``. agentevals 0.0.9 is the
same code with an argument-swap bug in ``subset``/``unordered`` and a laxer key-path
override; its results are recorded beside openevals' for information only
(``agentevals_0_0_9``), and only where they differ.

Inputs are stored exactly as both libraries were given them (OpenAI dicts, LangChain
role dicts, LangChain ``messages_to_dict`` output for the LangChain-object case), so
our tests feed the same JSON to ``ToolTrajectoryEvaluator``.
"""

import importlib.metadata as md
import json
import platform
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from override_callables import resolve_overrides  # noqa: E402

MODES = ["strict", "unordered", "subset", "superset"]
ARGS_MODES = ["exact", "ignore", "subset", "superset"]

_ids = iter(range(1, 10_000))


def call(name: str, args: Dict[str, Any], raw: Optional[str] = None) -> Dict[str, Any]:
    """An OpenAI Chat Completions tool call (arguments as a JSON string, as the API sends them)."""
    return {
        "id": f"call_{next(_ids)}",
        "type": "function",
        "function": {"name": name, "arguments": raw if raw is not None else json.dumps(args)},
    }


def ai(*calls: Dict[str, Any], content: str = "") -> Dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": list(calls)}


def tool(result: str = "ok") -> Dict[str, Any]:
    return {"role": "tool", "tool_call_id": "x", "content": result}


def user(text: str = "Book a flight from SFO to New York and a hotel there") -> Dict[str, Any]:
    return {"role": "user", "content": text}


def final(text: str = "Booked flight and hotel.") -> Dict[str, Any]:
    return {"role": "assistant", "content": text}


FLIGHT = {"from": "SFO", "to": "JFK"}
HOTEL = {"city": "NYC"}


def F(**over: Any) -> Dict[str, Any]:
    return call("search_flight", {**FLIGHT, **over})


def H(**over: Any) -> Dict[str, Any]:
    return call("search_hotel", {**HOTEL, **over})


REFERENCE = [user(), ai(F()), tool(), ai(H()), tool(), final()]


def langchain_objects_case() -> Dict[str, Any]:
    """LangChain message objects through openevals; stored as ``messages_to_dict`` JSON for our side."""
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict

    objects = [
        HumanMessage(REFERENCE[0]["content"]),
        AIMessage("", tool_calls=[{"id": "a1", "name": "search_flight", "args": dict(FLIGHT)}]),
        ToolMessage("ok", tool_call_id="a1"),
        AIMessage("", tool_calls=[{"id": "a2", "name": "search_hotel", "args": dict(HOTEL)}]),
        ToolMessage("ok", tool_call_id="a2"),
        AIMessage("Booked flight and hotel."),
    ]
    return {"outputs_for_reference": objects, "outputs": messages_to_dict(objects)}


def cases() -> List[Dict[str, Any]]:
    greedy_out = [user(), ai(call("f", {"a": 1, "b": 2})), tool(), ai(call("f", {"a": 1})), tool(), final()]
    greedy_ref = [user(), ai(call("f", {"a": 1})), tool(), ai(call("f", {"a": 1, "b": 2})), tool(), final()]
    repo_ref = [user("find repos"), ai(call("search_repo", {"query": "evals", "filters": {"stars": 5, "lang": "py"}})), tool(), final()]
    repo_out = [user("find repos"), ai(call("search_repo", {"query": "evals", "filters": {"stars": 4, "lang": "py"}})), tool(), final()]
    lc = langchain_objects_case()
    out: List[Dict[str, Any]] = [
        {"name": "identical", "outputs": REFERENCE},
        {"name": "reversed_order", "outputs": [user(), ai(H()), tool(), ai(F()), tool(), final()]},
        {"name": "missing_call", "outputs": [user(), ai(F()), tool(), final()]},
        {"name": "extra_call", "outputs": REFERENCE[:5] + [ai(call("get_weather", {"city": "NYC"})), tool(), final()]},
        {"name": "different_args", "outputs": [user(), ai(F(to="LGA")), tool(), ai(H()), tool(), final()]},
        {"name": "duplicate_call", "outputs": [user(), ai(F()), tool(), ai(F()), tool(), ai(H()), tool(), final()]},
        {"name": "duplicate_expected", "outputs": REFERENCE, "reference_outputs": [user(), ai(F()), tool(), ai(F()), tool(), ai(H()), tool(), final()]},
        {"name": "empty_outputs", "outputs": []},
        {"name": "both_empty", "outputs": [], "reference_outputs": []},
        {"name": "empty_reference", "outputs": REFERENCE, "reference_outputs": []},
        {"name": "parallel_calls_one_message", "outputs": [user(), ai(F(), H()), tool(), tool(), final()]},
        {"name": "parallel_calls_swapped_in_message", "outputs": [user(), ai(H(), F()), tool(), tool(), final()], "reference_outputs": [user(), ai(F(), H()), tool(), tool(), final()]},
        {"name": "parallel_vs_parallel_duplicate", "outputs": [user(), ai(F(), F()), tool(), tool(), final()], "reference_outputs": [user(), ai(F(), H()), tool(), tool(), final()]},
        {"name": "output_args_superset", "outputs": [user(), ai(F(date="2025-01-01")), tool(), ai(H()), tool(), final()]},
        {"name": "output_args_subset", "outputs": [user(), ai(call("search_flight", {"to": "JFK"})), tool(), ai(H()), tool(), final()]},
        {"name": "numbers_int_vs_float", "outputs": [user(), ai(call("f", {"n": 1})), final()], "reference_outputs": [user(), ai(call("f", {"n": 1.0})), final()]},
        {"name": "json_key_order_and_spacing", "outputs": [user(), ai(call("search_flight", {}, raw='{ "to" : "JFK",  "from":"SFO" }')), tool(), ai(H()), tool(), final()]},
        {"name": "no_tool_calls_different_text", "outputs": [user("hi"), final("Hello there!")], "reference_outputs": [user("hi"), final("Hi, how can I help?")]},
        {"name": "no_tool_result_messages", "outputs": [user(), ai(F()), ai(H()), final()]},
        {"name": "text_instead_of_call", "outputs": [user(), final("I cannot search."), tool(), ai(H()), tool(), final()]},
        {"name": "extra_system_message", "outputs": [{"role": "system", "content": "You book travel."}] + REFERENCE},
        {"name": "nested_args", "outputs": repo_out, "reference_outputs": repo_ref},
        {"name": "greedy_matching", "outputs": greedy_out, "reference_outputs": greedy_ref},
        {"name": "greedy_matching_reverse", "outputs": greedy_ref, "reference_outputs": greedy_out},
        {
            "name": "langchain_role_dicts",
            "outputs": [
                {"role": "human", "content": REFERENCE[0]["content"]},
                {"role": "ai", "content": "", "tool_calls": [{"id": "l1", "name": "search_flight", "args": dict(FLIGHT)}]},
                {"role": "tool", "tool_call_id": "l1", "content": "ok"},
                {"role": "ai", "content": "", "tool_calls": [{"id": "l2", "name": "search_hotel", "args": dict(HOTEL)}]},
                {"role": "tool", "tool_call_id": "l2", "content": "ok"},
                {"role": "ai", "content": "Booked flight and hotel."},
            ],
        },
        {"name": "langchain_objects", **lc},
        {"name": "messages_dict_wrapper", "outputs": {"messages": REFERENCE}},
        # ---- argument overrides
        {"name": "override_mode_string", "outputs": [user(), ai(F(to="LGA")), tool(), ai(H()), tool(), final()], "overrides": {"search_flight": "ignore"}},
        {"name": "override_key_paths", "outputs": [user(), ai(F(date="2025-01-01")), tool(), ai(H()), tool(), final()], "overrides": {"search_flight": ["to"]}},
        {"name": "override_key_path_missing_both_sides", "outputs": REFERENCE, "overrides": {"search_flight": ["to", "date"]}},
        {"name": "override_nested_key_path_differs", "outputs": repo_out, "reference_outputs": repo_ref, "overrides": {"search_repo": ["filters.stars"]}},
        {"name": "override_nested_key_path_equal", "outputs": repo_out, "reference_outputs": repo_ref, "overrides": {"search_repo": ["query", "filters.lang"]}},
        {"name": "override_callable", "outputs": [user(), ai(F()), tool(), ai(H(city="nyc")), tool(), final()], "overrides": {"search_hotel": {"callable": "same_city_ignoring_case"}}},
        {"name": "override_callable_argument_sides", "outputs": [user(), ai(F(date="2025-01-01")), tool(), ai(H()), tool(), final()], "overrides": {"search_flight": {"callable": "actual_has_no_more_keys"}}},
        {"name": "override_callable_rejects", "outputs": [user(), ai(F(to="LGA")), tool(), ai(H()), tool(), final()], "overrides": {"search_flight": {"callable": "destination_only"}}},
        {"name": "override_falsy_is_ignored", "outputs": [user(), ai(F(to="LGA")), tool(), ai(H()), tool(), final()], "overrides": {"search_flight": ""}},
    ]
    for case in out:
        case.setdefault("reference_outputs", REFERENCE)
        case.setdefault("overrides", None)
    return out


def run(factory: Any, case: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    outputs = case.get("outputs_for_reference", case["outputs"])
    overrides = resolve_overrides(case["overrides"])
    table: Dict[str, Dict[str, Any]] = {}
    for mode in MODES:
        table[mode] = {}
        for args_mode in ARGS_MODES:
            evaluator = factory(
                trajectory_match_mode=mode, tool_args_match_mode=args_mode, tool_args_match_overrides=overrides
            )
            try:
                table[mode][args_mode] = bool(evaluator(outputs=outputs, reference_outputs=case["reference_outputs"])["score"])
            except Exception as exc:  # recorded, never guessed
                table[mode][args_mode] = f"error: {type(exc).__name__}: {exc}"
    return table


def main() -> None:
    warnings.simplefilter("ignore")
    from agentevals.trajectory.match import create_trajectory_match_evaluator as agentevals_factory
    from openevals.trajectory.match import create_trajectory_match_evaluator as openevals_factory

    entries = []
    for case in cases():
        openevals_table = run(openevals_factory, case)
        agentevals_table = run(agentevals_factory, case)
        differs = {
            mode: {a: agentevals_table[mode][a] for a in ARGS_MODES if agentevals_table[mode][a] != openevals_table[mode][a]}
            for mode in MODES
        }
        entry = {k: v for k, v in case.items() if k != "outputs_for_reference"}
        entry["openevals"] = openevals_table
        entry["agentevals_0_0_9"] = {m: d for m, d in differs.items() if d}
        entries.append(entry)
    meta = {
        "generator": "tests/reference/gen_trajectory_openevals.py",
        "source_of_truth": "openevals.trajectory.match.create_trajectory_match_evaluator",
        "versions": {p: md.version(p) for p in ("openevals", "agentevals", "langchain-core")},
        "python": platform.python_version(),
        "modes": MODES,
        "args_modes": ARGS_MODES,
    }
    path = HERE / "trajectory_openevals.json"
    path.write_text(json.dumps({"meta": meta, "cases": entries}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path} ({len(entries)} cases)")


if __name__ == "__main__":
    main()
