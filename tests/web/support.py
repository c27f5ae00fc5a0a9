"""What the browser tests share: a real `horserace serve`, Debian's Chromium, pages at desktop
and phone size, and a screenshot gallery so a person can look at every item at both sizes:
written when asked for (`HORSERACE_GALLERY=build/gallery pytest tests/web` writes
build/gallery/index.html), not on every run, where its two screenshots and three redraws a
state cost the browser tests a tenth of their time and prove nothing."""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page
from playwright.sync_api import Error as PlaywrightError

from tests.server.serve_process import serve_running

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
STEP_MS = 15_000  # any one page operation; a stuck page fails the test within this
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GALLERY = Path(os.environ["HORSERACE_GALLERY"]) if os.environ.get("HORSERACE_GALLERY") else None


@dataclass(frozen=True)
class Served:
    base: str  # the server's base URL
    log: Path  # what it writes (a failed step quotes it)


def serve_arguments(database: Path, bot_delay: float = 0.05) -> list[str]:
    """`horserace serve`'s arguments for the browser tests' server (bots move after 0.05 s)."""
    delay = ["--bot-delay", str(bot_delay)]
    return ["--db", f"sqlite:///{database}", *delay, "--log-level", "warning"]


@contextmanager
def serve(database: Path, log: Path, bot_delay: float = 0.05) -> Iterator[str]:
    """`horserace serve` on a free port; its base URL (benchmarks/bench_page_paint.py)."""
    with serve_running(serve_arguments(database, bot_delay), log) as (_, base):
        yield base


def api(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(trust_env=False, timeout=10) as client:
        response = client.request(method, base + path, json=body, headers=headers)
    assert response.is_success, response.text
    return response.json()


def new_page(browser: Browser, size: dict[str, int] = DESKTOP) -> Page:
    """A page in a context of its own: its own localStorage, so one person (one browser)."""
    context: BrowserContext = browser.new_context(viewport=size)  # type: ignore[arg-type]
    return watched(context.new_page())


# run before the page's own scripts on each document of the context: the value is written on
# the tab's first page of the server's, not again (a reload keeps what the page made of it)
HELD_FIRST = """(([origin, key, value]) => {
    if (location.origin !== origin || sessionStorage.getItem("test.held")) return;
    localStorage.setItem(key, value);
    sessionStorage.setItem("test.held", "1");
})(%s)"""


def holding(browser: Browser, base: str, size: dict[str, int], key: str, value: str) -> Page:
    """A browser that holds `value` under `key` in the server's localStorage from its first
    page on, written by a script run before the page's own: a page of the server's loaded
    only to write it (/healthz) cost a navigation more (the lobby's, with its scripts, its
    tables and its socket, longer; Playwright's storage_state longer still)."""
    page = new_page(browser, size)  # nothing loaded yet: the script runs on its first page
    page.context.add_init_script(HELD_FIRST % json.dumps([base, key, value]))
    return page


def watched(page: Page) -> Page:
    """The page, keeping its script errors for `page_errors`."""
    page.set_default_timeout(STEP_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(_said(m)) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _said(message: ConsoleMessage) -> str:
    """A console error with the address it is about: Chromium's words for a missing resource
    do not name it (a page that is not HTML, such as /healthz, asks for /favicon.ico)."""
    return f"{message.text} ({message.location.get('url', '')})"


def page_errors(page: Page) -> list[str]:
    return [e for e in getattr(page, "errors", []) if "favicon" not in e]


def snap(page: Page, name: str) -> None:
    """The page now, at desktop and at phone size (back to the size it had), in the gallery if
    one is asked for."""
    if GALLERY is None:
        return
    GALLERY.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size or DESKTOP
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)  # type: ignore[arg-type]
        page.wait_for_timeout(150)
        page.screenshot(path=str(GALLERY / f"{name}-{label}.png"), animations="disabled")
    page.set_viewport_size(before)  # type: ignore[arg-type]
    write_index()


def write_index() -> None:
    assert GALLERY is not None
    shots = sorted(GALLERY.glob("*-desktop.png"))
    rows = []
    for shot in shots:
        name = shot.name.removesuffix("-desktop.png")
        words = re.sub(r"^\d+-", "", name).replace("-", " ")
        rows.append(
            f'<figure><figcaption>{words}</figcaption><img src="{shot.name}" width="640" alt="">'
            f'<img src="{name}-phone.png" width="195" alt=""></figure>'
        )
    (GALLERY / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>horserace screenshots</title>"
        "<style>figure{display:flex;gap:1rem;align-items:flex-start;flex-wrap:wrap}</style>"
        "<h1>The browser table, desktop 1280x800 and phone 390x844</h1>" + "".join(rows),
        encoding="utf-8",
    )


def wait_text(page: Page, selector: str, pattern: str) -> None:
    page.locator(selector).filter(has_text=re.compile(pattern)).first.wait_for()


def play_until(pages: list[Page], done: Any, seconds: float = 120.0) -> int:
    """Click each page's first move whenever it has one, until `done()`; the clicks made.
    The page is brought to the front before its click, as a person switches to its tab:
    Chromium draws a tab behind another of its window (and so meets Playwright's checks
    before a click) about once a second."""
    deadline = time.monotonic() + seconds
    clicks = 0
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        for page in pages:
            bar = page.locator("#action-bar")
            first = page.locator("#actions button[data-action]").first
            if bar.is_visible() and first.count() and first.is_enabled():
                version = page.locator("#version").text_content()
                page.bring_to_front()
                try:
                    first.click(timeout=2_000)
                except PlaywrightError:  # redrawn under the click: try again next time round
                    continue
                clicks += 1
                with contextlib.suppress(PlaywrightError):  # the deadline above bounds a stall
                    moved_on(page, version)
        time.sleep(0.05)
    return clicks


def moved_on(page: Page, version: str | None) -> None:
    """Wait until the page has drawn a version other than `version`."""
    page.wait_for_function(f"document.getElementById('version').textContent !== '{version}'")


def new_table(base: str, body: dict[str, Any]) -> tuple[str, str]:
    """A table made over the API: its id and the host's token."""
    created = api(base, "POST", "/api/tables", body)
    return str(created["table"]["id"]), str(created["host_token"])


def joined(base: str, table: str, names: list[str]) -> list[str]:
    """Each name joins the table over the API, in turn: the seats' tokens."""
    return [api(base, "POST", f"/api/tables/{table}/join", {"name": n})["token"] for n in names]


def waiting(browser: Browser, base: str, body: dict[str, Any]) -> Page:
    """A phone at a new table that waits for its players: a quiet page, nothing moves on it."""
    table, _ = new_table(base, body)
    page = new_page(browser, PHONE)
    page.goto(f"{base}/table/{table}")
    page.locator("#join").wait_for()
    return page


def seated(
    browser: Browser, base: str, table: str, seat: int, token: str, size: dict[str, int] = DESKTOP
) -> Page:
    """A browser holding `seat`'s token (as the lobby's Join leaves it), on the table page."""
    seats = json.dumps({str(seat): token}, separators=(",", ":"))  # as JSON.stringify writes
    page = holding(browser, base, size, f"horserace.seats.{table}", seats)
    page.goto(f"{base}/table/{table}?seat={seat}")
    return page


def hosting(browser: Browser, base: str, table: str, token: str, size: dict[str, int]) -> Page:
    """A browser holding the host's token (as making the table leaves it), on the table page."""
    page = holding(browser, base, size, f"horserace.host.{table}", token)
    page.goto(f"{base}/table/{table}")
    return page


def violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts on the page now, each named with the elements
    it was found on. axe's 570 kB script is put into a document once, not before every check
    (it stays until the page navigates)."""
    if not page.evaluate("typeof axe === 'object' && typeof axe.run === 'function'"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in impacts
    ]


def serious(page: Page, state: str) -> None:
    """No serious or critical violation on the page in `state`."""
    found = violations(page)
    assert not found, (state, found)
