"""One Chromium per test module and one `horserace serve` per test process, shared by the
browser tests: each test opens its pages in contexts of their own (a person each, with their
own storage) and makes tables of its own. A module that needs a server set otherwise (its bots'
delay) defines its own `base`. The browser is not kept for the session: Playwright's sync API
runs an event loop on the test process's thread while it is open, and the terminal tests that
follow in the same process start loops of their own (asyncio.run refuses within a running one)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.web.support import CHROMIUM, CHROMIUM_ARGS, Served, serve


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The module's Chromium; the pages a test opened are closed after it (none runs on)."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The shared server (bots move after 0.05 s) and the log it writes."""
    folder = tmp_path_factory.mktemp("served")
    log = folder / "server.log"
    with serve(folder / "t.db", log) as base:
        yield Served(base, log)


@pytest.fixture(scope="module")
def base(served: Served) -> str:
    return served.base
