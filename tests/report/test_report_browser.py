"""The HTML report in a real headless Chromium: it renders (screenshot), the filters work, nothing injected runs.

Needs Debian's ``chromium`` (``apt-get install -y chromium``). Outside CI a missing
browser skips; with ``CI=true`` it fails, because CI installs it.
The filter is selected through the URL hash (``#status=failing&evaluator=contains``)
and read back from the DOM after the page's script ran (``--dump-dom``).
"""

import re
import shutil
import subprocess

import pytest

from agent_evaluators.report import write_report
from tests.conftest import in_ci

from .helpers import make_run, rows

pytestmark = pytest.mark.heavy

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


@pytest.fixture(scope="module")
def browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    if in_ci():
        pytest.fail("CI must install a headless browser for the report test: apt-get install -y chromium")
    pytest.skip("no chromium on PATH (apt-get install -y chromium)")


def _chromium(browser, *args, timeout=90):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--no-first-run", "--disable-extensions", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return write_report(make_run(tmp_path_factory.mktemp("browser") / "run"))


def visible_rows(dom: str):
    lines = []
    for tag in re.findall(r"<details class=\"row\"[^>]*>", dom):
        if re.search(r"\shidden(=|\s|>)", tag):
            continue
        lines.append(int(re.search(r'data-line="(\d+)"', tag).group(1)))
    return lines


def dump(browser, report, fragment=""):
    proc = _chromium(browser, "--virtual-time-budget=3000", "--dump-dom", report.as_uri() + fragment)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "<details" in proc.stdout, proc.stderr[-2000:]
    return proc.stdout


def test_screenshot_renders(browser, report, tmp_path):
    shot = tmp_path / "report.png"
    proc = _chromium(browser, "--window-size=1280,1600", f"--screenshot={shot}", report.as_uri())
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a blank page compresses to a few KB


@pytest.mark.parametrize(
    "fragment, expected",
    [
        ("", [0, 1, 2, 3, 4, 5]),
        ("#status=failing", [1, 3, 4]),
        ("#status=failing&evaluator=likert", [3, 4]),  # the two answers under 30 characters
        ("#status=erroring&evaluator=contains", [5]),
        ("#status=na", [3]),
        ("#status=passing&evaluator=contains", [0, 2]),
        ("#q=berlin", [2]),
    ],
)
def test_hash_selects_the_filter(browser, report, fragment, expected):
    dom = dump(browser, report, fragment)
    assert visible_rows(dom) == expected
    assert re.search(r'<span id="shown-count">(\d+)</span>', dom).group(1) == str(len(expected))


def test_injected_markup_does_not_run(browser, report):
    dom = dump(browser, report)
    body = re.search(r"<body[^>]*>", dom).group(0)
    assert "data-pwned" not in body, body
    assert "data-filter=" in body  # our own script did run
    assert len(rows()) == 6
