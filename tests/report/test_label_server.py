"""The labelling server over real HTTP on 127.0.0.1 (port 0): state, answers written at once, undo,
resuming, several annotators, and the requests it refuses. The browser drives it in test_label_browser.py."""

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from agent_evaluators.calibration.labels import iter_labels, latest_labels
from agent_evaluators.errors import InputError
from agent_evaluators.report.label_server import LabelServer
from agent_evaluators.report.labelling import LabelSession
from tests.cli.helpers import clean_env
from tests.conftest import REPO_ROOT
from tests.ctrl_c import popen_for_ctrl_c

from .helpers import make_run


@pytest.fixture()
def run(tmp_path):
    # contains: pass 0, 2; fail 1, 4; n/a 3; error 5.  likert: pass 0, 1, 2; fail 3, 4; error 5.
    return make_run(tmp_path / "run")


def call(server, path, body=None, token=True, host=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Label-Token"] = server.token
    if host:
        headers["Host"] = host
    data = json.dumps(body).encode() if body is not None and not isinstance(body, bytes) else body
    req = urllib.request.Request(server.url.rstrip("/") + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def answer(server, state, label, reason=""):
    cell = state["cell"]
    return call(server, "/api/label", {"line_number": cell["line_number"], "evaluator": cell["evaluator"],
                                       "label": label, "reason": reason})


def test_the_state_asks_one_cell_with_its_conversation_and_hides_every_verdict(run):
    with LabelServer(LabelSession(run, "ana")) as server:
        status, state = call(server, "/api/state")
    assert status == 200
    assert (state["done"], state["total"], state["annotator"]) == (0, 9, "ana")
    assert state["left_out"] == {"error": 2, "not_applicable": 1}
    assert state["last"] is None and state["can_undo"] is False
    cell = state["cell"]
    assert cell["evaluator"] in ("contains", "likert") and cell["line_number"] in range(5)
    html = cell["html"]
    assert "inputs" in html and f"#{cell['line_number']}" in html
    for hidden in ("found:", "missing:", "length-based", "_result", "threshold", "badge"):
        assert hidden not in html, hidden  # the judge's verdict, score and reason wait for the answer


def test_an_answer_is_in_labels_jsonl_when_the_reply_comes_and_reveals_the_verdict(run):
    with LabelServer(LabelSession(run, "ana")) as server:
        _, first = call(server, "/api/state")
        status, after = answer(server, first, "fail", "wrong city")
        written = list(iter_labels(run))
    cell = (first["cell"]["line_number"], first["cell"]["evaluator"])
    assert status == 200
    assert [(w.line_number, w.evaluator, w.label, w.annotator, w.reason) for w in written] == [(*cell, "fail", "ana",
                                                                                              "wrong city")]
    assert written[0].time.endswith("+00:00")
    assert after["done"] == 1 and after["can_undo"] is True
    assert (after["cell"]["line_number"], after["cell"]["evaluator"]) != cell
    last = after["last"]
    assert (last["line_number"], last["evaluator"], last["label"], last["reason"]) == (*cell, "fail", "wrong city")
    row = json.loads((run / "rows.jsonl").read_text().splitlines()[cell[0]])
    assert last["judge"] == row[f"outputs.{cell[1]}.{cell[1]}_result"]
    assert last["judge_reason"] == row[f"outputs.{cell[1]}.{cell[1]}_reason"]


def test_undo_goes_back_to_the_cell_and_writes_a_new_line(run):
    with LabelServer(LabelSession(run, "ana")) as server:
        _, s0 = call(server, "/api/state")
        _, s1 = answer(server, s0, "pass")
        _, s2 = answer(server, s1, "skip")
        _, back = call(server, "/api/undo", {})
        _, again = call(server, "/api/undo", {})
        status, none_left = call(server, "/api/undo", {})
    assert back["done"] == 1 and back["cell"] == s1["cell"]
    assert again["done"] == 0 and again["cell"] == s0["cell"] and again["can_undo"] is False
    assert status == 400 and "nothing to undo" in none_left["error"]
    assert [w.label for w in iter_labels(run)] == ["pass", "skip", "unlabelled", "unlabelled"]  # append-only
    assert latest_labels(run) == {}


def test_progress_is_read_back_from_the_file_on_reload_and_by_a_new_session(run):
    session = LabelSession(run, "ana", limit=5)
    with LabelServer(session) as server:
        _, state = call(server, "/api/state")
        for label in ("pass", "fail", "pass"):
            _, state = answer(server, state, label)
        _, reloaded = call(server, "/api/state")  # what a reload of the page asks
    assert (reloaded["done"], reloaded["total"]) == (3, 5) and reloaded["cell"] == state["cell"]
    later = LabelSession(run, "ana")  # the server restarted: what ana labelled is not asked again
    assert len(later.queue.cells) == 6 and later.queue.left_out["already_labelled"] == 3
    assert later.state()["labelled_in_all"] == 3
    assert len(LabelSession(run, "bo").queue.cells) == 9  # another annotator is asked everything


def test_two_annotators_label_the_same_run_at_once_each_under_their_name(run):
    with LabelServer(LabelSession(run, "ana")) as a, LabelServer(LabelSession(run, "bo")) as b:
        _, sa = call(a, "/api/state")
        _, sb = call(b, "/api/state")
        answer(a, sa, "pass")
        _, sb = answer(b, sb, "fail")
        _, sb = answer(b, sb, "fail")
        _, sa = call(a, "/api/state")
    assert (sa["done"], sb["done"]) == (1, 2)
    mine = latest_labels(run)
    assert sorted(k[0] for k in mine) == ["ana", "bo", "bo"]


def test_the_server_refuses_other_pages_other_hosts_and_bad_answers(run):
    with LabelServer(LabelSession(run, "ana", evaluators=["likert"])) as server:
        _, state = call(server, "/api/state")
        assert call(server, "/api/state", token=False)[0] == 403
        assert call(server, "/api/label", {"line_number": 0, "evaluator": "likert", "label": "pass"}, token=False)[0] == 403
        status, body = call(server, "/api/state", host="evil.example:80")
        assert status == 403 and "127.0.0.1" in body["error"]
        status, body = answer(server, state, "maybe")
        assert status == 400 and "pass, fail, skip" in body["error"]
        status, body = call(server, "/api/label", {"line_number": 0, "evaluator": "contains", "label": "pass"})
        assert status == 400 and "row 0, evaluator 'contains' is not in this session's queue" in body["error"]
        status, body = call(server, "/api/label", {"line_number": "0", "evaluator": "likert", "label": "pass"})
        assert status == 400 and "integer line_number" in body["error"]
        assert call(server, "/api/label", b"not json")[0] == 400
        assert call(server, "/api/nothing")[0] == 404
        with urllib.request.urlopen(server.url, timeout=10) as reply:  # the page itself needs no token
            page = reply.read().decode()
            assert "default-src 'none'" in reply.headers["Content-Security-Policy"]
    assert f'data-token="{server.token}"' in page and "likert" not in page  # the cells come from the API
    assert not (run / "labels.jsonl").exists()


def test_an_unknown_evaluator_or_no_name_is_a_clear_error(run):
    with pytest.raises(InputError, match=r"no evaluator 'relevance' in the run in .*its evaluators are: contains, likert"):
        LabelSession(run, "ana", evaluators=["relevance"])
    with pytest.raises(InputError, match="--annotator NAME"):
        LabelSession(run, " ")


def _agent_eval(*args, **env):
    return popen_for_ctrl_c([sys.executable, "-m", "agent_evaluators.cli", *map(str, args)], cwd=REPO_ROOT,
                            env=clean_env(USER="cli-user", **env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_agent_eval_label_prints_the_url_serves_the_page_and_stops_on_ctrl_c(run):
    proc = _agent_eval("label", run, "--limit", "4", "--no-open")
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        url = second.split()[1]
        assert url.startswith("http://127.0.0.1:"), second
        with urllib.request.urlopen(url, timeout=10) as reply:
            assert "agent-eval label: run" in reply.read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert f"Labelling {run} as cli-user: 4 cell(s) to label (" in first and "left out: 2 errored, 1 not applicable" \
        in first, first
    assert proc.returncode == 0, err
    assert "Stopped: 0 / 4 labelled in this session" in out


def test_agent_eval_label_on_a_folder_without_a_run_says_so(tmp_path):
    proc = _agent_eval("label", tmp_path, "--no-open")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "holds no summary.json" in err, err
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the no-display rule is Linux's (X11 / Wayland)")
def test_without_a_display_the_address_is_printed_and_no_text_browser_takes_the_terminal(run):
    env = {k: v for k, v in clean_env().items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = popen_for_ctrl_c([sys.executable, "-m", "agent_evaluators.cli", "label", str(run), "--annotator", "ana"],
                            cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert lines[1].startswith("Open http://127.0.0.1:"), lines
    assert lines[2].startswith("No display here: open the address in a browser"), lines
    assert proc.returncode == 0, err


def test_cells_a_judge_panel_split_on_are_asked_first(tmp_path):
    import re

    from agent_evaluators import IntentResolutionEvaluator, evaluate
    from agent_evaluators.testing import JudgeServer, schema_reply

    data = [{"query": f"Handle ROW-{i}", "response": f"Done ROW-{i}."} for i in range(12)]
    split = lambda req: schema_reply(req, score=1 if int(re.search(r"ROW-(\d+)", req.text).group(1)) % 4 == 0 else 5)
    with JudgeServer(lambda req: schema_reply(req, score=5)) as a, JudgeServer(split) as b:
        evaluate(data=data, evaluators={"intent": IntentResolutionEvaluator(
            model_config=[a.openai_config(), b.openai_config()])}, output_path=tmp_path / "run")
    rows = [json.loads(line) for line in (tmp_path / "run" / "rows.jsonl").read_text().splitlines()]
    flagged = sorted(r["line_number"] for r in rows if r["outputs.intent.intent_resolution_details"]["panel"]["disagreement"])
    assert flagged == [0, 4, 8]  # the second judge failed these rows; the first passed them
    queue = LabelSession(tmp_path / "run", "ana").queue.cells
    assert sorted(line for line, _ in queue[:3]) == [0, 4, 8]
