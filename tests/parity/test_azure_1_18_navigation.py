"""Task navigation efficiency against the real azure-ai-evaluation 1.18.10 (the ``azure`` extra).

The same generated rows go through azure's ``_TaskNavigationEfficiencyEvaluator`` and ours:
``agent_evaluators.azure.TaskNavigationEfficiencyEvaluator`` must return azure's whole dict
(keys, order, values; NaN equal to NaN), and the top-level ``TaskNavigationEfficiencyEvaluator``
azure's score, verdict and precision / recall / F1. No judge is involved.

Rows (seeded, 160 per matching mode): repeated, missing, extra and reordered tools, no calls at
all, names with blanks, expected parameters that match and that do not (wrong value, extra or
missing argument, ``1`` against ``"1"``), arguments as dicts, JSON text, ``null`` or absent,
calls spread over azure agent-format messages with text items, OpenAI-format user / system /
tool messages (azure reads those), JSON-text inputs, and the ``actions`` / ``expected_actions``
aliases. Then the inputs azure refuses (we raise ``InputError``), the constructor, and each
deliberate difference, marked ``DIFFERENCE`` with its reason.
"""

import json
import math
import random
from typing import Any, Dict, List, Optional, Tuple

import pytest

from agent_evaluators import TaskNavigationEfficiencyEvaluator as TopLevel
from agent_evaluators.azure import TaskNavigationEfficiencyEvaluator as Ours
from agent_evaluators.azure import TaskNavigationEfficiencyMatchingMode as OurMode
from agent_evaluators.azure._exceptions import EvaluationException as OurEvaluationException
from agent_evaluators.errors import ConfigError, InputError

from ..conftest import optional_import

optional_import("azure.ai.evaluation")
_navigation = optional_import("azure.ai.evaluation._evaluators._task_navigation_efficiency")
Azure = _navigation._TaskNavigationEfficiencyEvaluator
AzureMode = _navigation._TaskNavigationEfficiencyMatchingMode
EvaluationException = optional_import("azure.ai.evaluation._exceptions").EvaluationException

MODES = [m.value for m in AzureMode]
CASES_PER_MODE = 160
TOOLS = ["search", "fetch", "book", "pay", "notify"]
VALUES: List[Any] = ["Paris", "paris", 1, "1", 1.0, 2, True, "True", None, [1, 2], {"b": 1, "a": [2]}, ""]


def same(a: Any, b: Any) -> bool:
    """Equality where NaN equals NaN and floats are compared exactly (azure's numbers, not close ones)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------------------------------------- generator
def _params(rng: random.Random) -> Dict[str, Any]:
    keys = rng.sample(["city", "date", "n", "flags", "query"], rng.randint(0, 2))
    return {k: rng.choice(VALUES) for k in keys}


def _retyped(value: Any) -> Any:
    """``1`` -> ``"1"`` (equal as text), ``1.0`` -> ``1`` (not equal), ``True`` -> ``"True"``, a dict or
    list -> its sorted JSON text (equal), ``None`` -> ``"None"``, a string -> itself quoted (not equal)."""
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        return int(value) if value.isdigit() else json.dumps(value)
    return str(value)


def _perturbed_args(rng: random.Random, expected: Dict[str, Any]) -> Dict[str, Any]:
    args = dict(expected)
    roll = rng.random()
    if roll < 0.45:
        return args
    if roll < 0.6 and args:  # the same value in another type: azure compares text, so some stay equal
        key = rng.choice(sorted(args))
        args[key] = _retyped(args[key])
    elif roll < 0.7 and args:
        key = rng.choice(sorted(args))
        args[key] = rng.choice(VALUES)  # may equal the old value, or its text ("1" for 1)
    elif roll < 0.8:
        args["extra"] = rng.choice(VALUES)
    elif roll < 0.9 and args:
        args.pop(rng.choice(sorted(args)))
    else:
        args = _params(rng)
    return args


def _calls(rng: random.Random, names: List[str], params: Optional[Dict[str, Dict[str, Any]]]) -> List[Tuple[str, Any]]:
    """The agent's calls: the expected path bent by a few random edits."""
    if rng.random() < 0.06:
        return []
    if rng.random() < 0.1:
        made = [rng.choice(TOOLS) for _ in range(rng.randint(1, 6))]
    else:
        made = list(names)
        for _ in range(rng.randint(0, 3)):
            edit = rng.choice(["drop", "extra", "repeat", "swap", "shuffle", "none"])
            if edit == "drop" and made:
                made.pop(rng.randrange(len(made)))
            elif edit == "extra":
                made.insert(rng.randint(0, len(made)), rng.choice(TOOLS))
            elif edit == "repeat" and made:
                i = rng.randrange(len(made))
                made.insert(i, made[i])
            elif edit == "swap" and len(made) > 1:
                i, j = rng.sample(range(len(made)), 2)
                made[i], made[j] = made[j], made[i]
            elif edit == "shuffle":
                rng.shuffle(made)
    out = []
    for name in made:
        base = (params or {}).get(name.strip(), {})
        args: Any = _perturbed_args(rng, base) if params is not None else _params(rng)
        form = rng.random()
        if form < 0.2:
            args = json.dumps(args)  # OpenAI-style JSON text
        elif form < 0.25 and not args:
            args = rng.choice(["null", None, "{}"])
        elif form < 0.3 and not args:
            args = "absent"
        out.append((rng.choice([name, f" {name}", f"{name} "]) if rng.random() < 0.1 else name, args))
    return out


def _messages(rng: random.Random, calls: List[Tuple[str, Any]]) -> List[Dict[str, Any]]:
    """Azure agent-format assistant messages around the calls; OpenAI-format user, system and tool messages."""
    msgs: List[Dict[str, Any]] = []
    if rng.random() < 0.4:
        msgs.append({"role": "system", "content": "You are a travel agent."})
    if rng.random() < 0.5:
        msgs.append({"role": "user", "content": "Book me a trip."})
    else:
        msgs.append({"role": "user", "content": [{"type": "text", "text": "Book me a trip."}]})
    i = 0
    n = 0
    while i < len(calls):
        take = rng.randint(1, 3)
        content: List[Dict[str, Any]] = []
        if rng.random() < 0.3:
            content.append({"type": "text", "text": "Let me check."})
        ids = []
        for name, args in calls[i:i + take]:
            n += 1
            item: Dict[str, Any] = {"type": "tool_call", "tool_call_id": f"call_{n}", "name": name}
            if args != "absent":
                item["arguments"] = args
            content.append(item)
            ids.append(f"call_{n}")
        msgs.append({"role": "assistant", "content": content})
        for call_id in ids:
            if rng.random() < 0.5:
                msgs.append({"role": "tool", "tool_call_id": call_id,
                             "content": [{"type": "tool_result", "tool_result": {"ok": True}}]})
            else:
                msgs.append({"role": "tool", "tool_call_id": call_id, "content": '{"ok": true}'})
        i += take
    if rng.random() < 0.7:
        msgs.append({"role": "assistant", "content": [{"type": "text", "text": "Done."}]})
    return msgs


def generate_case(rng: random.Random) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """One row: (azure's inputs, ours). The same values; azure needs a tuple where JSON has lists."""
    names = [rng.choice(TOOLS) for _ in range(rng.randint(1, 5))]
    if rng.random() < 0.1:
        names = [f" {n}" if k == 0 else n for k, n in enumerate(names)]
    params = None
    if rng.random() < 0.4:
        params = {n.strip(): _params(rng) for n in names if rng.random() < 0.7}
    response: Any = _messages(rng, _calls(rng, names, params))
    ground_truth: Any = (names, params) if params is not None else names
    if rng.random() < 0.15:
        response = json.dumps(response)
    if params is None and rng.random() < 0.15:
        ground_truth = json.dumps(ground_truth)
    made, wanted = ("actions", "expected_actions") if rng.random() < 0.25 else ("response", "ground_truth")
    if rng.random() < 0.1:
        wanted = "expected_actions" if wanted == "ground_truth" else "ground_truth"
    inputs = {made: response, wanted: ground_truth}
    return inputs, json.loads(json.dumps(inputs)) if params is None else inputs


CASES = [generate_case(random.Random(seed)) for seed in range(CASES_PER_MODE)]


def test_the_generated_rows_cover_the_cases_that_matter():
    azure = Azure(matching_mode="exact_match")
    outcomes = [azure(**inputs) for inputs, _ in CASES]
    scores = [o["task_navigation_efficiency"] for o in outcomes]
    precisions = [o["task_navigation_efficiency_properties"]["precision_score"] for o in outcomes]
    assert scores.count(1.0) >= 20 and scores.count(0.0) >= 60, scores
    assert sum(0 < p < 1 for p in precisions) >= 30
    with_params = [i for i, (inputs, _) in enumerate(CASES) if isinstance(inputs.get("ground_truth",
                   inputs.get("expected_actions")), tuple)]
    assert len(with_params) >= 40 and any(scores[i] == 1.0 for i in with_params)
    assert any(scores[i] == 0.0 and precisions[i] > 0 for i in with_params)
    assert sum("actions" in inputs for inputs, _ in CASES) >= 20
    assert sum(not any(m.get("role") == "assistant" and any(c.get("type") == "tool_call" for c in m["content"])
                       for m in (json.loads(v) if isinstance(v, str) else v))
               for inputs, _ in CASES for k, v in inputs.items() if k in ("response", "actions")) >= 5


@pytest.mark.parametrize("mode", MODES)
def test_the_azure_layer_returns_azures_whole_dict(mode):
    azure, ours = Azure(matching_mode=mode), Ours(matching_mode=mode)
    for seed, (azure_inputs, our_inputs) in enumerate(CASES):
        expected = azure(**azure_inputs)
        got = ours(**our_inputs)
        assert same(got, expected), (seed, azure_inputs, got, expected)
        assert json.loads(json.dumps(got)) == got  # plain JSON: nothing of ours inside


@pytest.mark.parametrize("mode", MODES)
def test_the_top_level_class_has_azures_numbers(mode):
    azure, ours = Azure(matching_mode=mode), TopLevel(matching_mode=mode)
    key = "task_navigation_efficiency"
    for seed, (azure_inputs, our_inputs) in enumerate(CASES):
        expected = azure(**azure_inputs)
        got = ours(**our_inputs)
        props = expected[f"{key}_properties"]
        details = got[f"{key}_details"]
        assert got[key] == expected[key] and got[f"{key}_result"] == expected[f"{key}_result"], (seed, got, expected)
        assert got[f"{key}_threshold"] == expected[f"{key}_threshold"] == 1.0
        assert (details["precision"], details["recall"], details["f1"]) == (
            props["precision_score"], props["recall_score"], props["f1_score"]), (seed, details, props)
        assert len(details["missing"]) + len(details["matched"]) == details["expected_steps"]


def test_our_enum_and_azures_are_interchangeable():
    assert [(m.name, m.value) for m in OurMode] == [(m.name, m.value) for m in AzureMode]
    row = {"response": CASES[3][0].get("response", CASES[3][0].get("actions")), "ground_truth": ["search"]}
    row = {k: v for k, v in row.items() if v is not None}
    for mode in AzureMode:
        assert same(Ours(matching_mode=mode)(**row), Azure(matching_mode=OurMode(mode.value))(**row))
        assert Ours(matching_mode=mode.value).matching_mode is OurMode(mode.value)
    assert Ours().matching_mode is OurMode.EXACT_MATCH and Ours()._threshold == Azure()._threshold == 1.0
    assert Ours.id == Azure.id
    import agent_evaluators.azure as layer

    assert layer._TaskNavigationEfficiencyEvaluator is Ours and layer._TaskNavigationEfficiencyMatchingMode is OurMode


@pytest.mark.parametrize("mode", MODES)
def test_empty_runs_and_both_spellings_at_once(mode):
    """The canonical input wins over its alias when both are given, an empty run scores 0 everywhere."""
    other = [{"role": "assistant", "content": [dict(CALL, name="fetch")]}]
    rows = [
        {"response": [], "ground_truth": ["search"]},
        {"actions": [], "expected_actions": ["search", "search"]},
        {"response": GOOD_RESPONSE, "actions": other, "ground_truth": ["search"]},
        {"response": GOOD_RESPONSE, "ground_truth": ["fetch"], "expected_actions": ["search"]},
        {"actions": other, "ground_truth": ["search"], "expected_actions": ["fetch"]},
    ]
    for row in rows:
        assert same(Ours(matching_mode=mode)(**row), Azure(matching_mode=mode)(**row)), row


@pytest.mark.parametrize("bad", ["EXACT_MATCH", "exact", "in-order-match", "", 1, None, ["exact_match"]])
def test_a_matching_mode_azure_refuses_is_a_config_error(bad):
    with pytest.raises(EvaluationException):
        Azure(matching_mode=bad)
    with pytest.raises(ConfigError) as err:
        Ours(matching_mode=bad)
    assert "matching_mode" in str(err.value) and "in_order_match" in str(err.value)


def test_neither_constructor_takes_a_threshold():
    with pytest.raises(TypeError):
        Azure(threshold=0.5)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Ours(threshold=0.5)  # type: ignore[call-arg]


CALL = {"type": "tool_call", "tool_call_id": "c1", "name": "search", "arguments": {}}
GOOD_RESPONSE = [{"role": "assistant", "content": [CALL]}]

#: inputs azure refuses with an EvaluationException; we refuse each with an InputError naming the input
BAD_INPUTS: List[Tuple[str, Dict[str, Any], str]] = [
    ("no response", {"ground_truth": ["search"]}, "response"),
    ("no ground truth", {"response": GOOD_RESPONSE}, "ground_truth"),
    ("empty ground truth", {"response": GOOD_RESPONSE, "ground_truth": []}, "ground_truth"),
    ("empty expected_actions", {"actions": GOOD_RESPONSE, "expected_actions": ""}, "expected_actions"),
    ("an empty ground truth wins over expected_actions",
     {"response": GOOD_RESPONSE, "ground_truth": [], "expected_actions": ["search"]}, "ground_truth"),
    ("a conversation instead of a response",
     {"conversation": {"messages": GOOD_RESPONSE}, "ground_truth": ["search"]}, "conversation"),
    ("ground truth is text", {"response": GOOD_RESPONSE, "ground_truth": "search"}, "ground_truth"),
    ("ground truth is a dict", {"response": GOOD_RESPONSE, "ground_truth": {"search": {}}}, "ground_truth"),
    ("a tool name is not a string", {"response": GOOD_RESPONSE, "ground_truth": ["search", 3]}, "ground_truth"),
    ("a tuple of three", {"response": GOOD_RESPONSE, "ground_truth": (["search"], {}, {})}, "ground_truth"),
    ("a tuple of names", {"response": GOOD_RESPONSE, "ground_truth": ("search", "fetch")}, "ground_truth"),
    ("a tuple with no names", {"response": GOOD_RESPONSE, "ground_truth": ([], {})}, "ground_truth"),
    ("parameters not a dict", {"response": GOOD_RESPONSE, "ground_truth": (["search"], ["q"])}, "ground_truth"),
    ("a tool's parameters not a dict",
     {"response": GOOD_RESPONSE, "ground_truth": (["search"], {"search": "q"})}, "ground_truth"),
    ("a parameter name not a string",
     {"response": GOOD_RESPONSE, "ground_truth": (["search"], {"search": {1: "q"}})}, "ground_truth"),
    ("a parameter value not JSON",
     {"response": GOOD_RESPONSE, "ground_truth": (["search"], {"search": {"q": object()}})}, "ground_truth"),
    ("a parameters key not a string",
     {"response": GOOD_RESPONSE, "ground_truth": (["search"], {3: {}})}, "ground_truth"),
    ("response is text that is not JSON", {"response": "I searched.", "ground_truth": ["search"]}, "response"),
    ("actions is a number", {"actions": 7, "expected_actions": ["search"]}, "actions"),
    ("a message is not a dict", {"response": ["search"], "ground_truth": ["search"]}, "response"),
    ("a message has no role", {"response": [{"content": "hi"}], "ground_truth": ["search"]}, "response"),
    ("a role is not a string", {"response": [{"role": 1, "content": []}], "ground_truth": ["search"]}, "response"),
    ("a content item is not a dict",
     {"response": [{"role": "assistant", "content": [3]}], "ground_truth": ["search"]}, "response"),
    ("a tool call has no name",
     {"response": [{"role": "assistant", "content": [{"type": "tool_call", "arguments": {}}]}],
      "ground_truth": ["search"]}, "response"),
    ("arguments are not JSON",
     {"response": [{"role": "assistant", "content": [dict(CALL, arguments="{oops")]}],
      "ground_truth": ["search"]}, "response"),
]


#: what the azure layer names where the top level names another input: it ignores ``conversation=``, an
#: input it does not take (as 1.18 does), so the response is what is missing
AZURE_LAYER_NAMES = {"a conversation instead of a response": "response"}


@pytest.mark.parametrize("name,inputs,input_name", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
@pytest.mark.parametrize("cls", [Ours, TopLevel], ids=["azure_layer", "top_level"])
def test_what_azure_refuses_we_refuse_with_an_input_error(cls, name, inputs, input_name):
    with pytest.raises(EvaluationException):
        Azure()(**inputs)
    with pytest.raises(InputError) as err:
        cls()(**inputs)
    if cls is Ours:
        input_name = AZURE_LAYER_NAMES.get(name, input_name)
        assert isinstance(err.value, OurEvaluationException)  # 1.18's exception too (issue 36 item 4)
    assert err.value.input_name == input_name and err.value.evaluator == "TaskNavigationEfficiencyEvaluator"
    assert str(err.value).startswith("TaskNavigationEfficiencyEvaluator: ")


# ---------------------------------------------------------------------------------------------- differences
def _azure_or_error(inputs: Dict[str, Any]) -> Any:
    try:
        return Azure(matching_mode="in_order_match")(**inputs)
    except EvaluationException as exc:
        return exc


def _ours(inputs: Dict[str, Any]) -> Dict[str, Any]:
    return Ours(matching_mode="in_order_match")(**inputs)


OPENAI_CALL = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "x"}'}}

#: DIFFERENCE 1: formats azure's validator refuses (it wants every assistant message's content to be
#: a list, every item a dict with a role) although the agent's calls are plainly there. Our adapters
#: read every format our other evaluators read, so these rows are scored instead of refused.
OTHER_FORMATS: List[Tuple[str, Any]] = [
    ("OpenAI tool_calls with content None", [{"role": "assistant", "content": None, "tool_calls": [OPENAI_CALL]}]),
    ("OpenAI tool_calls with text content", [{"role": "assistant", "content": "", "tool_calls": [OPENAI_CALL]}]),
    ("a plain-text final answer", GOOD_RESPONSE + [{"role": "assistant", "content": "Found it."}]),
    ("a bare list of tool calls", [CALL]),
    ("a {'messages': [...]} wrapper", {"messages": GOOD_RESPONSE}),
    ("Responses API items", [{"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"}]),
    ("the older nested azure tool_call",
     [{"role": "assistant", "content": [{"type": "tool_call", "tool_call": OPENAI_CALL}]}]),
]


@pytest.mark.parametrize("name,response", OTHER_FORMATS, ids=[f[0] for f in OTHER_FORMATS])
def test_difference_formats_azure_refuses_are_scored(name, response):
    assert isinstance(_azure_or_error({"response": response, "ground_truth": ["search"]}), EvaluationException)
    got = _ours({"response": response, "ground_truth": ["search"]})
    assert got["task_navigation_efficiency"] == 1.0 and got["task_navigation_efficiency_passed"] is True


def test_difference_calls_azure_skips_are_counted():
    """DIFFERENCE 2: azure reads only ``tool_call`` content items. OpenAI ``tool_calls`` beside list
    content and ``function_call`` content items pass its validator and are then dropped, so an
    agent that made the expected call scores 0 with precision 0. We count them."""
    rows = [
        [{"role": "assistant", "content": [{"type": "text", "text": "Searching."}], "tool_calls": [OPENAI_CALL]}],
        [{"role": "assistant", "content": [{"type": "function_call", "call_id": "c1", "name": "search",
                                            "arguments": "{}"}]}],
    ]
    for response in rows:
        azure = _azure_or_error({"response": response, "ground_truth": ["search"]})
        assert azure["task_navigation_efficiency"] == 0.0
        assert azure["task_navigation_efficiency_properties"]["precision_score"] == 0.0
        ours = _ours({"response": response, "ground_truth": ["search"]})
        assert ours["task_navigation_efficiency"] == 1.0
        assert ours["task_navigation_efficiency_properties"] == {"precision_score": 1.0, "recall_score": 1.0,
                                                                   "f1_score": 1.0}


#: DIFFERENCE 3: azure turns these into steps silently (``str(name)``; arguments that are not a JSON
#: object become ``{}``; an unknown role or content item is skipped). A silently wrong step makes
#: every comparison after it wrong, so we refuse each with an InputError naming the input.
SILENT_IN_AZURE: List[Tuple[str, Any]] = [
    ("a tool name that is a number", [{"role": "assistant", "content": [dict(CALL, name=7)]}]),
    ("arguments that are a JSON list", [{"role": "assistant", "content": [dict(CALL, arguments="[1, 2]")]}]),
    ("arguments that are a list", [{"role": "assistant", "content": [dict(CALL, arguments=[1, 2])]}]),
    ("an unknown role", [{"role": "robot", "content": "beep"}] + GOOD_RESPONSE),
    ("an unknown content item", [{"role": "assistant", "content": [{"type": "widget"}, CALL]}]),
]


@pytest.mark.parametrize("name,response", SILENT_IN_AZURE, ids=[s[0] for s in SILENT_IN_AZURE])
def test_difference_what_azure_reads_silently_we_refuse(name, response):
    azure = _azure_or_error({"response": response, "ground_truth": ["search"]})
    assert isinstance(azure, dict) and azure["task_navigation_efficiency_status"] == "completed"
    with pytest.raises(InputError) as err:
        _ours({"response": response, "ground_truth": ["search"]})
    assert err.value.input_name == "response"


def test_difference_empty_argument_text_means_no_arguments():
    """DIFFERENCE 4: ``"arguments": ""`` (what some clients send for a call without arguments) makes
    azure raise a JSON error; we read it as no arguments, as our adapters do everywhere."""
    response = [{"role": "assistant", "content": [dict(CALL, arguments="")]}]
    assert isinstance(_azure_or_error({"response": response, "ground_truth": ["search"]}), EvaluationException)
    assert _ours({"response": response, "ground_truth": (["search"], {})})["task_navigation_efficiency"] == 1.0
    assert Azure()(response=GOOD_RESPONSE, ground_truth=(["search"], {}))["task_navigation_efficiency"] == 1.0


def test_difference_parameters_as_a_two_item_list():
    """DIFFERENCE 5: JSON has no tuples, so a JSONL row cannot give azure ``(names, parameters)``; azure
    refuses ``[names, parameters]``. We read that two-item list as the pair: the same numbers as the tuple."""
    response = [{"role": "assistant", "content": [dict(CALL, arguments={"q": "x"})]}]
    as_list = [["search"], {"search": {"q": "x"}}]
    assert isinstance(_azure_or_error({"response": response, "ground_truth": as_list}), EvaluationException)
    tuple_result = Azure(matching_mode="in_order_match")(response=response, ground_truth=(["search"], as_list[1]))
    assert same(_ours({"response": response, "ground_truth": as_list}), tuple_result)
    assert same(_ours({"response": response, "ground_truth": json.dumps(as_list)}), tuple_result)
    assert _ours({"response": response, "ground_truth": [["search"], {"search": {"q": "y"}}]})[
        "task_navigation_efficiency"] == 0.0


def test_an_input_it_does_not_take_is_ignored_as_azure_ignores_it():
    """azure's ``**kwargs`` ignores an extra input (``query=``), so ``ev(**row)`` works on any row; the
    azure layer does the same (the top-level class names it, its own meaning)."""
    inputs = {"response": GOOD_RESPONSE, "ground_truth": ["search"], "query": "x"}
    assert same(_ours(inputs), _azure_or_error(inputs))
    with pytest.raises(InputError) as err:
        TopLevel()(**inputs)
    assert err.value.input_name == "query" and "expected_actions" in str(err.value)
