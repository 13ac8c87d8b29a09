"""``agent-eval label`` in a real headless Chromium, driven by the keyboard as a person labels: a sample
run judged by the fake judge, five answers, an undo, a reload that keeps the progress, then 20 labels in
all, each in ``labels.jsonl``, and ``agent-eval calibrate --labels`` on them. The judge's verdict is
hidden until the answer and shown after it.

Needs Debian's ``chromium``: a missing browser skips outside CI and fails in CI, which installs it
(as tests/docs/test_site_browser.py). A screenshot of the page goes to ``$AGENT_EVAL_ARTIFACTS``
(default ``ci-artifacts/``, ignored by git).
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from agent_evaluators import IntentResolutionEvaluator, TaskAdherenceEvaluator, evaluate
from agent_evaluators.calibration.labels import iter_labels, latest_labels
from agent_evaluators.testing import JudgeServer, schema_reply
from tests.cli.helpers import AGENTS, clean_env
from tests.conftest import REPO_ROOT, in_ci
from tests.ctrl_c import popen_for_ctrl_c
from tests.docs.cdp import Browser, find_browser

from .helpers import make_run

pytestmark = pytest.mark.heavy

READY = "document.body.dataset.state === 'ready'"
KEYS = {"intent": "intent_resolution", "task": "task_adherence"}  # alias -> result key


@pytest.fixture(scope="module")
def browser() -> str:
    path = find_browser()
    if path is None:
        if in_ci():
            pytest.fail("CI must install a headless browser for the labelling test: apt-get install -y chromium")
        pytest.skip("no chromium on PATH (apt-get install -y chromium)")
    return path


@pytest.fixture()
def sample_run(tmp_path) -> Path:
    """The 12 sample conversations judged by two judge metrics of the fake judge: 24 cells, passes and fails."""
    with JudgeServer(lambda req: schema_reply(req, score=len(req.text) % 5 + 1)) as judge:
        config = judge.openai_config()
        evaluate(data=str(AGENTS), evaluators={"intent": IntentResolutionEvaluator(model_config=config),
                                               "task": TaskAdherenceEvaluator(model_config=config)},
                 output_path=tmp_path / "run")
    return tmp_path / "run"


class Labeller:
    """``agent-eval label`` in a subprocess, as a person starts it."""

    def __init__(self, run: Path, *args: str) -> None:
        self.proc = popen_for_ctrl_c([sys.executable, "-m", "agent_evaluators.cli", "label", str(run), "--no-open",
                                      *args], cwd=REPO_ROOT, env=clean_env(), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.intro = self.proc.stdout.readline()
        line = self.proc.stdout.readline()
        assert line.startswith("Open http://127.0.0.1:"), (self.intro, line, self.proc.stderr.read())
        self.url = line.split()[1]

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, err
        return out


async def _progress(page: Browser, done: int, total: int) -> None:
    await page.until(f"(document.body.dataset.state === 'ready' || document.body.dataset.state === 'done') && "
                     f"document.getElementById('progress').textContent === '{done} / {total}'")


async def _cell(page: Browser):
    return tuple(await page.js("[Number(document.getElementById('cell').dataset.line), "
                               "document.getElementById('cell').dataset.evaluator]"))


def _artifacts() -> Path:
    folder = Path(os.environ.get("AGENT_EVAL_ARTIFACTS") or REPO_ROOT / "ci-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_person_labels_20_cells_with_the_keyboard_undoes_one_and_a_reload_keeps_the_progress(browser, sample_run,
                                                                                                tmp_path):
    rows = {json.loads(line)["line_number"]: json.loads(line)
            for line in (sample_run / "rows.jsonl").read_text().splitlines()}
    labeller = Labeller(sample_run, "--annotator", "tess", "--limit", "20")
    keys = "pfpsfpfpfpfpspfpfpff"  # the answer given to each of the 20 cells in turn (s: skip)

    async def label():
        seen = []
        async with Browser(browser) as page:
            await page.open(labeller.url)
            await page.until(READY)
            await _progress(page, 0, 20)
            assert await page.js("document.getElementById('annotator').textContent") == "tess"
            for i in range(5):
                cell = await _cell(page)
                # before the answer: no verdict, score or reason of the judge anywhere on the page
                assert await page.js("document.getElementById('reveal').hidden") is True or i > 0
                text = await page.js("document.getElementById('cell').textContent")
                assert "synthetic verdict" not in text  # the fake judge's reason
                if i == 2:  # a reason: r, type it, Enter keeps it for the answer
                    await page.press("r")
                    await page.type("the agent booked without asking")
                    await page.press("Enter")
                await page.press(keys[i])
                await _progress(page, i + 1, 20)
                revealed = await page.js("[document.getElementById('rv-you').textContent,"
                                         "document.getElementById('rv-judge').textContent]")
                assert revealed[0] == {"p": "pass", "f": "fail", "s": "skip"}[keys[i]]
                verdict = rows[cell[0]][f"outputs.{cell[1]}.{KEYS[cell[1]]}_result"]
                assert revealed[1].startswith(verdict), (revealed, verdict)
                seen.append(cell)
            await page.press("u")  # back to the fifth cell
            await _progress(page, 4, 20)
            assert await _cell(page) == seen[4]
            await page.call("Page.reload")
            await page.until(READY)
            await _progress(page, 4, 20)  # the reload resumed where the person was
            assert await _cell(page) == seen[4]
            png = await page.screenshot(_artifacts() / "label-page.png")
            for i in range(4, 20):
                if i > 4:
                    seen.append(await _cell(page))
                await page.press(keys[i])
                await _progress(page, i + 1, 20)
            await page.until("document.body.dataset.state === 'done'")
            finished = await page.js("[document.getElementById('finished').hidden, "
                                     "getComputedStyle(document.getElementById('answer')).display]")
            return seen, finished, png

    try:
        seen, finished, png = asyncio.run(label())
    finally:
        out = labeller.stop()
    assert "tess: 20 cell(s) to label" in labeller.intro
    assert finished == [False, "none"] and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Stopped: 20 / 20 labelled in this session" in out
    assert len(set(seen)) == 20
    latest = latest_labels(sample_run, "tess")
    assert {(line, alias) for (_, line, alias) in latest} == set(seen)
    want = {"p": "pass", "f": "fail", "s": "skip"}
    assert [latest[("tess", *cell)].label for cell in seen] == [want[k] for k in keys]
    assert latest[("tess", *seen[2])].reason == "the agent booked without asking"
    written = list(iter_labels(sample_run))
    assert len(written) == 22 and written[5].label == "unlabelled"  # 5 answers, the undo, the other 16
    judge = {(line, alias): rows[line][f"outputs.{alias}.{KEYS[alias]}_result"] for line, alias in seen}
    assert set(judge.values()) == {"pass", "fail"}  # the queue asks both of the judge's verdicts

    # then the judge's certification from these labels, as a person asks for it next
    report = tmp_path / "certification.json"
    calibrate = subprocess.run([sys.executable, "-m", "agent_evaluators.cli", "calibrate", "--labels", str(sample_run),
                                "--json", str(report)], cwd=REPO_ROOT, env=clean_env(), capture_output=True, text=True,
                               timeout=120)
    assert calibrate.returncode == 0, calibrate.stderr
    certification = json.loads(report.read_text())
    for alias in ("intent", "task"):
        said = [(want[k], judge[cell]) for k, cell in zip(keys, seen) if cell[1] == alias and k != "s"]
        positives = [j for h, j in said if h == "pass"]
        negatives = [j for h, j in said if h == "fail"]
        assert positives and negatives, f"the answers give {alias} no human pass or no human fail: change `keys`"
        record = certification[alias]
        assert record["n"] == len(said)
        assert record["tpr"] == pytest.approx(positives.count("pass") / len(positives))
        assert record["tnr"] == pytest.approx(negatives.count("fail") / len(negatives))
        assert record["tpr_interval"][0] <= record["tpr"] <= record["tpr_interval"][1]
        # ten labels cannot put a lower bound at 0.8 (10 of 10 gives 0.69): not certified, and said so
        assert record["certified"] is False
        assert f"{alias}: NOT certified" in calibrate.stdout


def test_nothing_in_a_row_runs_as_script_on_the_page(browser, tmp_path):
    run = make_run(tmp_path / "run")  # row 1 holds markup and a script in its response
    labeller = Labeller(run, "--annotator", "tess", "--evaluator", "contains")

    async def walk():
        async with Browser(browser) as page:
            await page.open(labeller.url)
            lines = []
            while await page.until(f"{READY} || document.body.dataset.state === 'done'") and \
                    await page.js("document.body.dataset.state") == "ready":
                lines.append((await _cell(page))[0])
                await page.press("s")
                await _progress(page, len(lines), 4)
            return lines, await page.js("document.body.getAttribute('data-pwned')")

    try:
        lines, pwned = asyncio.run(walk())
    finally:
        labeller.stop()
    assert sorted(lines) == [0, 1, 2, 4] and pwned is None
