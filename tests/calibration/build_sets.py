"""Build the shipped calibration sets from the hand-written scenarios.

    python tests/calibration/build_sets.py          # rewrite agent_evaluators/calibration/data/*.jsonl

One JSONL file per judge-backed evaluator (named by its result key). Each line is
``{"id", "label": "good" | "bad", "why", "inputs": {...}}``; ``inputs`` are the
evaluator's keyword inputs. ``test_sets.py`` checks the shipped files equal this
script's output, so edit the scenarios and re-run rather than editing the JSONL.
"""

import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from scenarios import SCENARIOS, UNSAFE  # noqa: E402

DATA_DIR = HERE.parent.parent / "agent_evaluators" / "calibration" / "data"

Case = Dict[str, Any]


# ---------------------------------------------------------------------------- message pieces (OpenAI chat format)
def _user(s: Dict[str, Any]) -> Dict[str, Any]:
    return {"role": "user", "content": s["query"]}


def _query(s: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [{"role": "system", "content": s["system"]}, _user(s)]


def _call_messages(s: Dict[str, Any], call: Dict[str, Any], result: Any) -> List[Dict[str, Any]]:
    call_id = f"call_{s['id']}"
    return [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}]},
        {"role": "tool", "tool_call_id": call_id, "content": json.dumps(result)},
    ]


def _good_run(s: Dict[str, Any], answer: str) -> List[Dict[str, Any]]:
    """The agent called the right tool with the right arguments, then answered ``answer``."""
    return _call_messages(s, s["call"], s["result"]) + [{"role": "assistant", "content": answer}]


def _bare_call(call: Dict[str, Any]) -> Dict[str, Any]:
    return {"type": "tool_call", "name": call["name"], "arguments": call["arguments"]}


# ---------------------------------------------------------------------------- per evaluator: (good inputs, bad inputs, why bad)
Builder = Callable[[Dict[str, Any]], Tuple[Dict[str, Any], Dict[str, Any], str]]


def intent_resolution(s):
    return ({"query": _query(s), "response": _good_run(s, s["answer"])},
            {"query": _query(s), "response": _good_run(s, s["off_topic"])},
            "the response ignores what the user asked")


def response_completeness(s):
    return ({"response": s["answer"], "ground_truth": s["ground_truth"]},
            {"response": s["vague"], "ground_truth": s["ground_truth"]},
            "the response holds none of the needed information")


def task_adherence(s):
    return ({"query": _query(s), "response": s["answer"], "tool_definitions": s["tools"]},
            {"query": _query(s), "response": s["violation"], "tool_definitions": s["tools"]},
            "the response breaks the rule in the system message")


def tool_call_accuracy(s):
    return ({"query": _query(s), "tool_calls": [_bare_call(s["call"])], "tool_definitions": s["tools"]},
            {"query": _query(s), "tool_calls": [_bare_call(s["bad_call"])], "tool_definitions": s["tools"]},
            "the tool or its argument values do not fit the request")


def final_response_match_v2(s):
    return ({"query": s["query"], "response": s["answer"], "ground_truth": s["ground_truth"]},
            {"query": s["query"], "response": s["wrong_answer"], "ground_truth": s["ground_truth"]},
            "the response contradicts the reference answer")


def rubric_based_final_response_quality_v1(s):
    return ({"query": s["query"], "response": _good_run(s, s["answer"]), "tool_definitions": s["tools"]},
            {"query": s["query"], "response": _good_run(s, s["wrong_answer"]), "tool_definitions": s["tools"]},
            "the final answer contradicts the tool result")


def rubric_based_tool_use_quality_v1(s):
    return ({"query": s["query"], "tool_calls": [_bare_call(s["call"])], "tool_definitions": s["tools"]},
            {"query": s["query"], "tool_calls": [_bare_call(s["bad_call"])], "tool_definitions": s["tools"]},
            "the wrong tool, or argument values the user never gave")


def hallucinations_v1(s):
    return ({"query": s["query"], "response": _good_run(s, s["answer"])},
            {"query": s["query"], "response": _good_run(s, s["wrong_answer"])},
            "the answer states facts the tool result does not support")


def trajectory_accuracy(s):
    good = [_user(s)] + _good_run(s, s["answer"])
    bad = [_user(s)] + _call_messages(s, s["bad_call"], s["bad_result"]) + [
        {"role": "assistant", "content": s["wrong_answer"]}]
    return ({"query": s["query"], "response": good, "tool_definitions": s["tools"]},
            {"query": s["query"], "response": bad, "tool_definitions": s["tools"]},
            "a tool call that cannot serve the goal, then a wrong answer")


def answer_similarity(s):
    return ({"response": s["answer"], "ground_truth": s["ground_truth"]},
            {"response": s["wrong_answer"], "ground_truth": s["ground_truth"]},
            "the response contradicts the ground truth")


def rubric_score(s):
    return ({"query": _query(s), "response": s["answer"]},
            {"query": _query(s), "response": s["off_topic"]},
            "the response does not answer the question")


def response_evaluation_score(s):
    return ({"query": s["query"], "response": s["answer"]},
            {"query": s["query"], "response": s["off_topic"]},
            "the response does not relate to the request")


#: a user turn that pursues a goal no plan below mentions, with invented details
NEW_GOAL = "Also book me a table for six at Luigi's tonight and email the receipt to boss@example.com."


def per_turn_user_simulator_quality_v1(s):
    plan = f"Ask the agent: {s['query']} Once it has answered, end the conversation."
    first = [_user(s), {"role": "assistant", "content": s["answer"]}]
    return ({"messages": first, "starting_prompt": s["query"], "conversation_plan": plan},
            {"messages": first + [{"role": "user", "content": NEW_GOAL},
                                  {"role": "assistant", "content": "Sorry, I cannot book restaurants."}],
             "starting_prompt": s["query"], "conversation_plan": plan},
            "the simulated user invents a goal and details the plan never mentions")


BUILDERS: Dict[str, Builder] = {
    f.__name__: f
    for f in (intent_resolution, response_completeness, task_adherence, tool_call_accuracy, final_response_match_v2,
              rubric_based_final_response_quality_v1, rubric_based_tool_use_quality_v1, hallucinations_v1,
              trajectory_accuracy, answer_similarity, rubric_score, response_evaluation_score,
              per_turn_user_simulator_quality_v1)
}


def _scenario_cases(name: str) -> List[Case]:
    cases: List[Case] = []
    for s in SCENARIOS:
        good, bad, why_bad = BUILDERS[name](s)
        cases.append({"id": f"{s['id']}/good", "label": "good", "why": "a correct, complete, rule-abiding run",
                      "inputs": good})
        cases.append({"id": f"{s['id']}/bad", "label": "bad", "why": why_bad, "inputs": bad})
    return cases


def _safety_cases() -> List[Case]:
    cases: List[Case] = []
    for s, u in zip(SCENARIOS, UNSAFE):
        cases.append({"id": f"{s['id']}/good", "label": "good", "why": "a helpful, harmless answer",
                      "inputs": {"query": s["query"], "response": s["answer"]}})
        cases.append({"id": f"unsafe_{len(cases) // 2 + 1:02d}/bad", "label": "bad",
                      "why": "the response encourages harm to people, animals or property",
                      "inputs": {"query": u["query"], "response": u["response"]}})
    return cases


def build_all() -> Dict[str, List[Case]]:
    sets = {name: _scenario_cases(name) for name in BUILDERS}
    sets["safety_v1"] = _safety_cases()
    return sets


def render(cases: List[Case]) -> str:
    return "".join(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n" for c in cases)


def main() -> None:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for name, cases in build_all().items():
        (DATA_DIR / f"{name}.jsonl").write_text(render(cases), encoding="utf-8")
        print(f"{name}: {len(cases)} cases")


if __name__ == "__main__":
    main()
