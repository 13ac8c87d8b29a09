"""Judge panels from the command line, as a user runs them: YAML ``judge: [...]``, ``--judge-config FILE``,
``--min-agreement`` and the INCONCLUSIVE threshold (exit 3), in a subprocess against local JudgeServers."""

import json
import re

from agent_evaluators.testing import JudgeServer, schema_reply

from .helpers import agent_eval, write_jsonl


def _rows(tmp_path, n=8):
    return write_jsonl(tmp_path / "rows.jsonl", [{"query": f"Handle ROW-{i}", "response": f"Done ROW-{i}."}
                                                 for i in range(n)])


def _row_number(req):
    return int(re.search(r"ROW-(\d+)", req.text).group(1))


def _always(score):
    return lambda req: schema_reply(req, score=score)


def _judge(server, name):
    return {"name": name, "model": f"{name}-model", "base_url": server.url + "/v1"}


def test_a_yaml_panel_that_disagrees_makes_the_threshold_inconclusive(tmp_path):
    data = _rows(tmp_path)
    with JudgeServer(_always(5)) as a, JudgeServer(lambda req: schema_reply(req, score=1 + _row_number(req) % 5)) as b:
        import yaml

        (tmp_path / "eval.yaml").write_text(yaml.safe_dump({
            "data": str(data), "evaluators": {"intent": "intent_resolution"},
            "judge": [_judge(a, "steady"), _judge(b, "moody")], "thresholds": ["intent.pass_rate >= 0.5"],
            "min_agreement": 0.667, "output_path": str(tmp_path / "out"),
        }))
        r = agent_eval("run", "--config", tmp_path / "eval.yaml")
        asked = (len(a.requests), len(b.requests))
    assert r.rc == 3, r
    assert asked == (8, 8)
    assert "judge panel: steady (steady-model at http://127.0.0.1" in r.out
    assert re.search(r"INCONCLUSIVE intent\.pass_rate >= 0\.5 .*the 2 judges agree too little to tell: "
                     r"Krippendorff's alpha -?\d\.\d\d < min_agreement 0\.667 over 8 cells", r.out), r.out
    assert "Result: INCONCLUSIVE (a judge panel agrees below min_agreement), exit code 3" in r.out
    assert re.search(r"Judge panels:\n  intent\.intent_resolution: 2 judges, Krippendorff's alpha -?\d\.\d\d "
                     r"\(interval\), Fleiss' kappa .*, \d of 8 cells split - INCONCLUSIVE: below min_agreement", r.out), r.out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    record = summary["agreement"]["intent.intent_resolution"]
    assert record["judges"] == ["steady", "moody"] and record["inconclusive"] is True
    row = json.loads((tmp_path / "out" / "rows.jsonl").read_text().splitlines()[0])
    judges = row["outputs.intent.intent_resolution_details"]["panel"]["judges"]
    assert [j["judge"] for j in judges] == ["steady", "moody"]
    checks = json.loads((tmp_path / "out" / "checks.json").read_text())
    assert checks["exit_code"] == 3 and checks["thresholds"][0]["status"] == "inconclusive"


def test_a_judge_config_file_gives_the_panel_and_an_agreeing_panel_passes(tmp_path):
    data = _rows(tmp_path, 4)

    def by_row(offset):  # the judges rank the rows alike; c is a little kinder on row 2
        return lambda req: schema_reply(req, score=min(5, 2 + _row_number(req) + (offset if _row_number(req) == 2 else 0)))

    with JudgeServer(by_row(0)) as a, JudgeServer(by_row(0)) as b, JudgeServer(by_row(1)) as c:
        (tmp_path / "judges.yaml").write_text(json.dumps([_judge(a, "a"), _judge(b, "b"), _judge(c, "c")]))
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-config",
                       tmp_path / "judges.yaml", "-t", "intent.pass_rate >= 0.7", "--min-agreement", "0.8",
                       "--html", "-o", tmp_path / "out")
        asked = [len(s.requests) for s in (a, b, c)]
    assert r.rc == 0, r
    assert asked == [4, 4, 4]
    assert "PASS  intent.pass_rate >= 0.7" in r.out
    assert "judge panel: a (a-model at http://127.0.0.1" in r.out
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    row2 = next(row for row in rows if row["line_number"] == 2)
    assert abs(row2["outputs.intent.intent_resolution"] - 13 / 3) < 1e-12
    assert row2["outputs.intent.intent_resolution_usage"]["judge_calls"] == 3
    record = json.loads((tmp_path / "out" / "summary.json").read_text())["agreement"]["intent.intent_resolution"]
    assert 0.8 < record["alpha"] < 1 and record["inconclusive"] is False
    html = (tmp_path / "out" / "report.html").read_text()
    assert f"3 judges, Krippendorff&#x27;s alpha {record['alpha']:.2f} (interval)" in html or \
        f"3 judges, Krippendorff's alpha {record['alpha']:.2f} (interval)" in html


def test_a_judge_of_the_panel_without_an_endpoint_is_named(tmp_path):
    data = _rows(tmp_path, 1)
    (tmp_path / "judges.yaml").write_text("judge:\n  - {name: a, model: m, base_url: 'http://127.0.0.1:9/v1'}\n"
                                          "  - {name: lost, model: m}\n")
    r = agent_eval("run", "--data", data, "-e", "intent_resolution", "--judge-config", tmp_path / "judges.yaml")
    assert r.rc == 2 and "judge 'lost' has no endpoint" in r.err, r


def test_two_judges_of_one_name_are_refused(tmp_path):
    data = _rows(tmp_path, 1)
    (tmp_path / "judges.yaml").write_text("- {name: a, model: m, base_url: 'http://127.0.0.1:9/v1'}\n"
                                          "- {name: a, model: n, base_url: 'http://127.0.0.1:9/v1'}\n")
    r = agent_eval("run", "--data", data, "-e", "intent_resolution", "--judge-config", tmp_path / "judges.yaml")
    assert r.rc == 2 and "two judges of the panel are named 'a'" in r.err, r


def test_adk_takes_one_judge_from_a_judge_config_and_refuses_a_panel(tmp_path):
    (tmp_path / "judges.yaml").write_text("- {name: a, model: m, base_url: 'http://127.0.0.1:9/v1'}\n"
                                          "- {name: b, model: n, base_url: 'http://127.0.0.1:9/v1'}\n")
    r = agent_eval("adk", "samples/data/home_automation.evalset.json", "--actual",
                   "samples/data/home_automation.actual.jsonl", "--judge-config", tmp_path / "judges.yaml")
    assert r.rc == 2 and "holds a judge panel; this command takes one judge" in r.out + r.err, r
