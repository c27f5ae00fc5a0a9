"""One Chromium and one `horserace serve` per test process, shared by the browser tests: each
test opens its pages in contexts of their own (a person each, with their own storage) and makes
tables of its own. A module that needs a server set otherwise defines its own `base`.

The browser is launched once for the browser tests that follow one another in a process and
closed after the last of them (when the next test is not a browser test, or none follows), not
kept for the session: Playwright's sync API runs an event loop on the test process's thread
while it is open, and the terminal tests that follow in the same process start loops of their
own (asyncio.run refuses within a running one). `chromium` stays a module's fixture, so that a
file's tests still go to one process (tests/conftest.py); launching Chromium for each file was
two to three seconds of every file's first test."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.server.serve_process import start_serve, stop_process
from tests.web.support import CHROMIUM, CHROMIUM_ARGS, Served, serve_arguments

WEB = Path(__file__).resolve().parent


class _Kept:
    """The process's Playwright and Chromium while browser tests run one after another."""

    playwright: Playwright | None = None
    browser: Browser | None = None

    @classmethod
    def browser_now(cls) -> Browser:
        if cls.browser is None:
            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
        return cls.browser

    @classmethod
    def close(cls) -> None:
        browser, playwright = cls.browser, cls.playwright
        cls.browser = cls.playwright = None
        if browser is not None:
            browser.close()
        if playwright is not None:
            playwright.stop()


@pytest.fixture(scope="session")
def _chromium_closed_at_the_end() -> Iterator[None]:
    """Whatever stops the run (a failure with -x, say), the browser is closed at its end."""
    yield
    _Kept.close()


@pytest.fixture(scope="module")
def chromium(_chromium_closed_at_the_end: None) -> Browser:
    return _Kept.browser_now()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a browser test's own teardown: the browser is closed if no browser test follows."""
    try:
        return (yield)
    finally:
        if nextitem is None or WEB not in nextitem.path.parents:
            _Kept.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The process's Chromium; the pages a test opened are closed after it (none runs on)."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture(scope="session")
def served(
    tmp_path_factory: pytest.TempPathFactory, _chromium_closed_at_the_end: None
) -> Iterator[Served]:
    """The shared server (bots move after 0.05 s) and the log it writes. Chromium is launched
    while the server starts (a session's fixture is set up before a module's): each takes two
    to three seconds, most of it spent waiting for a process."""
    folder = tmp_path_factory.mktemp("served")
    log = folder / "server.log"
    with ThreadPoolExecutor(1) as pool:
        starting = pool.submit(start_serve, serve_arguments(folder / "t.db"), log)
        try:
            _Kept.browser_now()
        except BaseException:
            stop_process(starting.result()[0], 10)
            raise
        process, base = starting.result()
    try:
        yield Served(base, log)
    finally:
        stop_process(process, 10)


@pytest.fixture(scope="module")
def base(served: Served) -> str:
    return served.base
