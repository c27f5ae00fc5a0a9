"""The card race's betting style is chosen in the lobby's form (the dealer's book, the tote or
party prizes), offered only for the games that take it, and the table is made with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.support import CHROMIUM, PHONE, api, new_page, page_errors, serve

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_the_tote_is_chosen_in_the_lobby(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "t.db", tmp_path / "server.log") as base:
        page = new_page(browser, PHONE)
        page.goto(base + "/")
        page.locator("#preset option").first.wait_for(state="attached")
        assert page.locator("#betting-box").is_hidden()  # Classic has no betting style
        page.select_option("#preset", "calcutta")
        assert page.locator("#betting-box").is_hidden()  # the auction is its betting
        page.select_option("#preset", "basic")
        offered = page.locator("#betting option").evaluate_all("os => os.map(o => o.value)")
        assert offered == ["book", "tote", "party"]
        assert page.locator("#betting").input_value() == "book"
        page.select_option("#betting", "tote")
        page.fill("#name", "Ann")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_url(re.compile(r".*/table/[\w-]+$"))
        table = page.url.rsplit("/", 1)[1]
        assert api(base, "GET", f"/api/tables/{table}")["config"]["betting"] == "tote"
        assert page_errors(page) == []
