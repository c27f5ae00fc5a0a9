"""A game at the table page from first move to the next game: one browser holding two seats,
a double click that makes one move and no error, the turn shown in the tab's title and icon,
a spectator who is never told "your move", the reconnecting banner, the final standings with
the pot left over, and "play again" taking everyone to the next game in the same seats."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page

from tests.web.support import (
    CHROMIUM,
    PHONE,
    api,
    new_page,
    page_errors,
    play_until,
    snap,
    wait_text,
    watched,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
# every lane one slot: the same game from the first move to the standings, in a few rolls
# (the scratches, then the first horse rolled that is still in wins)
SHORT_BOARD = {"name": "short", "lanes": {str(horse): 1 for horse in range(2, 13)}}


def _version(page: Page) -> int:
    return int(page.locator("#version").text_content() or "-1")


def _whose_turn(pages: list[Page], seconds: float = 30.0) -> Page:
    """The page whose move it is (one of them has its move bar up within `seconds`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#action-bar").is_visible():
                return page
        time.sleep(0.1)
    raise AssertionError("no page was asked to move")


def _join_twice_from_the_lobby(page: Page, base: str, table: str) -> None:
    for name in ("Ann", "Ann's sister"):
        page.goto(base + "/")
        page.fill("#name", name)
        page.locator(f'li[data-table="{table}"] button', has_text="Join").click()
        page.wait_for_url(f"**/table/{table}?seat=*")


def test_two_seats_one_browser_a_double_click_the_end_and_the_next_game(
    browser: Browser, base: str
) -> None:
    created = api(
        base,
        "POST",
        "/api/tables",
        {
            "preset": "classic",
            "options": {"players": 2, "rounds": 1, "board": SHORT_BOARD},
            "seats": ["open", "open"],
            "turn_seconds": 0,
        },
    )
    table, host = created["table"]["id"], created["host_token"]
    first = new_page(browser)
    _join_twice_from_the_lobby(first, base, table)
    held = first.evaluate(f"Held.seats('{table}')")
    assert sorted(held) == ["0", "1"] and held["0"] != held["1"]  # neither key lost
    first.evaluate(f"Held.setHost('{table}', '{host}')")  # this browser made the table
    second = watched(first.context.new_page())  # the same browser, a second tab: the other seat
    first.goto(f"{base}/table/{table}?seat=0")
    second.goto(f"{base}/table/{table}?seat=1")
    wait_text(first, "#you", r"You play seat 1 \(Ann\)")
    wait_text(second, "#you", r"You play seat 2 \(Ann's sister\)")
    wait_text(first, "#seat-switch", "play seat 2")
    watcher = new_page(browser, PHONE)
    watcher.goto(f"{base}/table/{table}")
    wait_text(watcher, "#you", "You are watching")

    pages = [first, second]
    mover = _whose_turn(pages)
    wait_text(mover, "#notice", "Your turn")
    assert mover.title().startswith("● Your turn")
    assert "e0a800" in (mover.locator("#favicon").get_attribute("href") or "")
    before = _version(mover)
    mover.bring_to_front()  # its tab: a tab behind the other is drawn about once a second
    mover.locator("#actions button[data-action]").first.dblclick()
    moved = f"Number(document.getElementById('version').textContent) > {before}"
    mover.wait_for_function(moved)
    mover.wait_for_timeout(500)
    assert mover.locator("#error").text_content() == ""  # the second click said nothing
    steps = watcher.locator("#log div").all_inner_texts()
    assert sum("rolls" in line for line in steps) <= 1
    snap(mover, "06-after-a-double-click")

    assert not watcher.locator("#action-bar").is_visible()
    assert "Your turn" not in (watcher.locator("#notice").text_content() or "")
    snap(watcher, "07-spectator")

    watcher.evaluate("retry = 300; socket.close()")  # the banner shows until it reconnects
    watcher.locator("#banner").wait_for(state="visible")
    assert watcher.locator("#banner").inner_text() == "Reconnecting…"
    snap(watcher, "08-reconnecting")
    watcher.locator("#banner").wait_for(state="hidden")

    play_until(pages, lambda: first.locator("#end").is_visible(), seconds=300)
    standings = first.locator("#standings tr")
    assert standings.count() == 2
    rows = standings.all_inner_texts()
    assert all(re.search(r"\d+ chips?", row) for row in rows), rows
    assert any("winner" in row for row in rows), rows
    wait_text(first, "#left-over", r"Left in the pot: \d+ chips?|Nothing is left in the pot")
    wait_text(watcher, "#notice", "The game is over")
    assert watcher.locator("#again").is_hidden() and first.locator("#again").is_visible()
    snap(first, "09-final-standings")

    first.get_by_role("button", name="Play again with the same seats").click()
    first.wait_for_url(re.compile(r".*/table/(?!" + table + r")[\w-]+\?seat=0$"))
    again = first.url.split("/table/")[1].split("?")[0]
    second.wait_for_url(f"**/table/{again}?seat=1")
    watcher.wait_for_url(f"**/table/{again}")
    wait_text(first, "#you", r"You play seat 1 \(Ann\)")
    wait_text(second, "#you", r"You play seat 2 \(Ann's sister\)")
    for page in (first, second, watcher):
        assert page_errors(page) == [], page_errors(page)
