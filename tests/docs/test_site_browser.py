"""The docs site in a real headless Chromium, as a reader uses it: the landing page renders (its screenshot
is kept as a CI artifact), the navigation leads to an evaluator's reference page, and the built-in search,
typed into, finds an evaluator's page by its class name.

Served from 127.0.0.1 (the search index is fetched by a web worker). Needs Debian's ``chromium``: a
missing browser skips outside CI and fails in CI, which installs it. The screenshot goes to
``$AGENT_EVAL_ARTIFACTS`` (default ``ci-artifacts/``, ignored by git).
"""

import asyncio
import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, in_ci

from .cdp import Browser, find_browser

pytestmark = pytest.mark.heavy


@pytest.fixture(scope="module")
def browser() -> str:
    path = find_browser()
    if path is None:
        if in_ci():
            pytest.fail("CI must install a headless browser for the docs test: apt-get install -y chromium")
        pytest.skip("no chromium on PATH (apt-get install -y chromium)")
    return path


@pytest.fixture(scope="module")
def served(site):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    handler_log = server.RequestHandlerClass
    handler_log.log_message = lambda *a, **k: None  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _artifacts() -> Path:
    folder = Path(os.environ.get("AGENT_EVAL_ARTIFACTS") or REPO_ROOT / "ci-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_landing_page_renders(browser, served):
    async def look():
        async with Browser(browser) as page:
            await page.open(f"{served}/index.html")
            title = await page.js("document.querySelector('h1').textContent")
            return title, await page.screenshot(_artifacts() / "docs-landing.png")

    title, png = asyncio.run(look())
    assert title.strip().startswith("agent-evaluators")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000  # a blank page compresses to a few KB


def test_the_navigation_leads_to_an_evaluators_page(browser, served):
    async def walk():
        async with Browser(browser) as page:
            await page.open(f"{served}/index.html")
            await page.click("document.querySelector('nav a[href$=\"reference/evaluators/index.html\"]')")
            await page.until("location.pathname.endsWith('/reference/evaluators/index.html')")
            link = "document.querySelector('article a[href=\"tool_call_accuracy.html\"]')"
            await page.until(f"document.readyState === 'complete' && !!{link}")
            await page.click(link)
            await page.until("location.pathname.endsWith('/reference/evaluators/tool_call_accuracy.html')")
            return await page.until("document.readyState === 'complete' && document.querySelector('article h1')?.textContent")

    assert asyncio.run(walk()).strip().startswith("ToolCallAccuracyEvaluator")


def test_search_finds_an_evaluator_by_its_class_name(browser, served):
    async def search():
        async with Browser(browser) as page:
            await page.open(f"{served}/index.html")
            await page.js("document.querySelector('input[data-md-component=search-query]').focus()")
            await asyncio.sleep(0.5)
            await page.type("IntentResolutionEvaluator")
            return await page.until("Array.from(document.querySelectorAll('.md-search-result__link'))"
                                    ".map(a => new URL(a.href).pathname)", timeout=30)

    found = asyncio.run(search())
    assert found[0] == "/reference/evaluators/intent_resolution.html", found
