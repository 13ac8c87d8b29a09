"""The HTML report of an ``agent-eval adk ... --html`` run, as a user opens it (20.7).

The sample ADK agent runs through the CLI in a subprocess against the bundled fake judge over
HTTP (which also plays the simulated user); the page is then read as a DOM: rows named by their
eval case, cards naming the criterion's evaluator and drawn on its own scale, the judge usage that
was really spent, and each conversation (recorded and simulated) as a chat transcript.
"""

import json

import pytest

from tests.cli.helpers import SAMPLES, agent_eval
from tests.conftest import optional_import

from .dom import parse

optional_import("google.adk")

from agent_evaluators.testing import JudgeServer  # noqa: E402

AGENT = SAMPLES / "adk_agent"
CASES = ["weather_paris", "convert_then_weather", "wrong_expectation", "trip_planning_scenario"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("adk")
    with JudgeServer() as server:
        r = agent_eval("adk", AGENT, AGENT / "weather.evalset.json", "--judge-model", "fake",
                       "--judge-base-url", server.url + "/v1", "--output", out, "--html")
    assert r.rc == 1, r  # wrong_expectation fails on purpose
    (run,) = out.glob("run_*")
    return run


@pytest.fixture(scope="module")
def page(run_dir):
    return parse((run_dir / "report.html").read_text(encoding="utf-8"))


def _card(page, alias):
    return page.find("div", cls="card", data_alias=alias)


def _axis(card):
    return [t.text for t in card.find("svg").find_all("text", cls="lbl")]


def test_rows_are_named_by_their_eval_case(page, run_dir):
    assert sorted(n.text for n in page.find_all("span", cls="rid")) == sorted(CASES)
    rows = [json.loads(line) for line in (run_dir / "rows.jsonl").read_text().splitlines()]
    assert sorted(r["inputs.eval_id"] for r in rows) == sorted(CASES)
    assert {r["inputs.eval_set_id"] for r in rows} == {"weather"}


def test_cards_name_the_criterion_and_draw_it_on_its_own_scale(page):
    card = _card(page, "safety_v1")
    kv = card.find("dl")
    shown = dict(zip([d.text for d in kv.find_all("dt")], [d.text for d in kv.find_all("dd")]))
    assert shown["class"] == "SafetyEvaluator (ADK criterion safety_v1)"
    assert "CriterionCell" not in page.find("section", id="evaluators").text
    assert _axis(card) == ["0", "1"]  # every safety score is 1.0: still a 0–1 axis, not 1–5
    assert _axis(_card(page, "response_evaluation_score")) == ["1", "2", "3", "4", "5"]
    assert _axis(_card(page, "response_match_score"))[0] == "0"  # ROUGE: ten bins over 0–1


def test_judge_usage_is_recorded_and_shown(page, run_dir):
    usage = json.loads((run_dir / "summary.json").read_text())["usage"]
    assert usage["safety_v1"]["judge_calls"] >= 4 and usage["response_evaluation_score"]["judge_calls"] >= 3
    assert usage["tool_trajectory_avg_score"] is None  # no judge: still no usage
    section = page.find("section", id="usage")
    assert "No judge calls" not in section.text
    by_name = {tr.find_all("td")[0].text: tr.find_all("td")[1].text for tr in section.find("tbody").find_all("tr")}
    assert "judge calls: " in by_name["safety_v1"]
    assert "judge calls: " in by_name["target: simulated_user"]  # the simulated user's turns cost judge calls too


def test_recorded_and_simulated_conversations_are_chat_transcripts(page):
    row = next(r for r in page.find_all("details", cls="row") if r.find("span", cls="rid").text == "weather_paris")
    chat = row.find("div", cls="chat", data_column="invocations")
    roles = [m.attrs["data-role"] for m in chat.find_all("div", cls="msg")]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert chat.find("div", cls="call").attrs["data-tool"] == "get_weather" and "Paris" in chat.find("div", cls="call").text
    assert "22" in chat.find_all("div", cls="msg")[2].text  # the tool's result
    assert "invocation_id" in row.find("details", cls="raw").text  # the raw JSON is still there

    scenario = next(r for r in page.find_all("details", cls="row")
                    if r.find("span", cls="rid").text == "trip_planning_scenario")
    simulated = scenario.find("div", cls="chat", data_column="simulated_user")
    turns = [m for m in simulated.find_all("div", cls="msg") if m.attrs["data-role"] == "simulated user"]
    assert len(turns) >= 2 and "starting_prompt" in turns[0].text
    assert simulated.find_all("div", cls="msg", data_role="stop")  # how the conversation ended
    recorded = scenario.find("div", cls="chat", data_column="invocations")
    assert [m.attrs["data-role"] for m in recorded.find_all("div", cls="msg")].count("user") == len(turns)
