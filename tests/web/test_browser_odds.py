"""The browser table prints each live chance with the digits the server says it has: whole
percents and a note while an estimate is being refined, ~ on a quick estimate, a tenth once a
chance is sure to a tenth, as the terminal prints them (core/shown_odds.py's `percent`). The
server's messages are held back and the page given a Derby table with chosen odds."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute

from horserace.core.shown_odds import percent
from horserace.drivers.server.jsonable import to_jsonable
from tests.server.test_server_odds import _derby_mid_race, _play_until
from tests.web.support import CHROMIUM, api, new_page, page_errors, snap

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

ODDS = (0.6046, 0.3712, 0.0239, 0.0003)  # no half a point or half a tenth: one rounding


def _state(view: Any, odds: dict[str, float], decimals: dict[str, int], rough: bool) -> Any:
    """A table's state as the server sends it, with these odds."""
    return {
        "status": "playing",
        "actor": "chance",
        "legal": [],
        "view": view,
        "result": None,
        "seed": None,
        "odds": odds,
        "odds_decimals": decimals,
        "odds_rough": rough,
        "reveal": None,
    }


def _shown(page: Page) -> list[str]:
    return page.locator(".panel.odds .odds-row span:last-child").all_inner_texts()


def _note(page: Page) -> str:
    notes = page.locator(".panel.odds .odds-note")
    return notes.inner_text() if notes.count() else ""


def test_the_page_prints_whole_percents_until_a_chance_is_sure_to_a_tenth(
    browser: Browser, base: str
) -> None:
    rules, state = _play_until("derby", {}, 5, _derby_mid_race)
    view = to_jsonable(rules.view(state, None))
    horses = [str(h) for h in state.race.runners[: len(ODDS)]]
    odds = dict(zip(horses, ODDS, strict=True))
    sure = {h: int(p < 0.05) for h, p in odds.items()}  # the small ones to a tenth
    imprecise = _state(view, odds, sure, rough=False)
    sockets: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "welcome":
                data["state"] = imprecise
            socket.send(json.dumps(data))

        server.on_message(from_server)
        sockets.append(socket)

    created = api(
        base,
        "POST",
        "/api/tables",
        {"preset": "derby", "options": {"players": 2}, "seats": ["open", "open"]},
    )
    page = new_page(browser)
    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(f"{base}/table/{created['table']['id']}")
    page.locator(".panel.odds .odds-row").first.wait_for()
    expected = [f"{percent(p, tenth=bool(sure[h])).strip()}%" for h, p in odds.items()]
    assert expected == ["60%", "37%", "2.4%", "<0.1%"]
    assert _shown(page) == expected
    assert _note(page) == "whole % being refined"
    snap(page, "30-derby-odds-being-refined")

    def update(version: int, decimals: dict[str, int], rough: bool) -> None:
        state = _state(view, odds, decimals, rough)
        message = {"type": "update", "version": version, "events": [], "state": state}
        sockets[0].send(json.dumps(message))

    update(1_000, dict.fromkeys(odds, 0), rough=True)  # a quick estimate
    page.locator("#version", has_text="1000").wait_for(state="attached")
    assert _shown(page) == ["~60%", "~37%", "~2%", "~0%"]
    assert _note(page) == "~ odds being refined"
    update(1_001, dict.fromkeys(odds, 1), rough=False)  # refined: every one to a tenth
    page.locator("#version", has_text="1001").wait_for(state="attached")
    assert _shown(page) == ["60.5%", "37.1%", "2.4%", "<0.1%"]
    assert _note(page) == ""
    assert not page_errors(page), page_errors(page)
