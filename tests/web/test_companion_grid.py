"""A companion table's dice in one tap: where the rules read only the sum of two dice (the
dice board's scratch and race rolls), the host taps the sum the table rolled on a grid of
2 to 12 instead of picking one of 21 pairs from a list."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from tests.server.test_server_crash import _player, _ws
from tests.web.support import (
    CHROMIUM,
    PHONE,
    Served,
    api,
    hosting,
    moved_on,
    new_table,
    page_errors,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_the_host_taps_the_sum(browser: Browser, served: Served) -> None:
    base = served.base
    table, host_token = new_table(
        base,
        {
            "preset": "classic",
            "options": {"players": 2, "rounds": 1},
            "seats": ["open", "open"],
            "companion": True,
        },
    )
    api(base, "POST", f"/api/tables/{table}/start", token=host_token)
    with _ws(base, table) as ws:  # the deal entered over the protocol, card by card
        entering = _player(ws, None, "deal", served.log)
        state = entering.hello(host_token=host_token)
        while not any("+" in text for text in state["state"]["legal"]):
            entering.send_act(state["state"]["legal"][0], state["version"])
            state = entering.until(lambda m: m["type"] == "update" and m["state"]["legal"])
    host = hosting(browser, base, table, host_token, PHONE)
    grid = host.locator(".sum-grid")
    grid.wait_for()
    sums = grid.locator("button").all_inner_texts()
    assert sums == [str(n) for n in range(2, 13)]
    assert host.locator("#actions select").count() == 0  # no list of 21 pairs
    version = host.locator("#version").text_content()
    grid.get_by_role("button", name="7", exact=True).click()
    moved_on(host, version)
    newest = host.locator("#log div").first.inner_text()
    assert re.search(r"\b7\b", newest), newest
    assert page_errors(host) == []
