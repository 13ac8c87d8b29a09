"""A headless Chromium driven over the DevTools protocol (its websocket, through aiohttp): enough to
load a page, type into it and press keys as a keyboard does, click, read the DOM and take a screenshot.

``--dump-dom`` (the report's browser test) cannot type: the docs' search answers keystrokes only."""

import asyncio
import base64
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

import aiohttp

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser() -> Optional[str]:
    return next((p for p in map(shutil.which, BROWSERS) if p), None)


class Browser:
    """One page of a headless Chromium; ``async with Browser(path) as page``."""

    def __init__(self, path: str) -> None:
        self.path = path
        # chromium's helper processes may still write to the profile as it closes: cleaned up tolerantly
        self._profile = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self._next_id = 0

    async def __aenter__(self) -> "Browser":
        self._proc = subprocess.Popen(
            [self.path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             "--window-size=1280,1000", "--remote-debugging-port=0", f"--user-data-dir={self._profile.name}",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = Path(self._profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            await asyncio.sleep(0.1)
        port = port_file.read_text().split()[0]
        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{port}/json") as reply:
            page = next(t for t in await reply.json() if t["type"] == "page")
        self._ws = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._ws.close()
        await self._session.close()
        try:  # the whole process group: the browser and its helpers
            os.killpg(self._proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self._proc.wait(timeout=30)
        self._profile.cleanup()

    async def call(self, method: str, **params: Any) -> Any:
        self._next_id += 1
        await self._ws.send_json({"id": self._next_id, "method": method, "params": params})
        while True:
            message = await asyncio.wait_for(self._ws.receive_json(), 60)
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def js(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result["result"].get("value")

    async def open(self, url: str) -> None:
        await self.call("Page.navigate", url=url)
        await self.until(f"location.href.split('#')[0] === {url!r} && document.readyState === 'complete'")

    async def until(self, expression: str, timeout: float = 20) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = await self.js(expression)
            except RuntimeError as e:  # the page navigated while the expression ran: ask the new page
                if "navigated" not in str(e) and "context" not in str(e).lower():
                    raise
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true in the page: {expression}")
            await asyncio.sleep(0.2)

    async def click(self, selector_js: str) -> None:
        """Click the element ``selector_js`` evaluates to; a click that navigates may end the evaluation."""
        try:
            await self.js(f"{selector_js}.click()")
        except RuntimeError as e:
            if "navigated" not in str(e) and "context" not in str(e).lower():
                raise

    async def type(self, text: str) -> None:
        await self.call("Input.insertText", text=text)

    async def press(self, key: str) -> None:
        """One key pressed and released, as a keyboard sends it (``keydown`` listeners see it): a letter
        or ``"Enter"`` / ``"Escape"``."""
        named = {"Enter": ("Enter", 13, "\r"), "Escape": ("Escape", 27, "")}
        code, vk, text = named.get(key) or (f"Key{key.upper()}", ord(key.upper()), key)
        down = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        await self.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **down)

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"])
        path.write_bytes(data)
        return data
