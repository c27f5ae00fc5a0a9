"""axe-core finds no serious or critical violation on any state of the pages: the lobby, a
host's invite (room code and QR code), a dice board with scratched lanes, a card race's
course, a Derby (on the sprint track), the end of a game, the rules and the fair-dice panel;
and a screen reader is told the board in words. The states other flows reach are checked
there, with the same rule: the results between races (test_races.py), the TV display
(test_tv.py), the tote's and the book's betting lists (test_betting.py), the draft's and the
discard's card pickers (test_hand.py)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web.support import CHROMIUM, DESKTOP, PHONE, api, new_page, page_errors, serious

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def _bots_game(base: str, preset: str, players: int, options: dict[str, Any]) -> str:
    created = api(
        base,
        "POST",
        "/api/tables",
        {
            "preset": preset,
            "options": {"players": players, **options},
            "seats": ["random"] * players,
            "pace": "instant",
        },
    )
    return str(created["table"]["id"])


# each game: its preset, its players, its options and what the board says in words at its end
GAMES: list[tuple[str, int, dict[str, Any], str]] = [
    ("classic", 4, {"rounds": 1}, r"Scratched: \d+ on line \d"),
    ("basic", 4, {"races": 1}, r"Course: .*(clubs|diamonds|hearts|spades)"),
    ("derby", 3, {"races": 1, "track": "sprint"}, r"Race 1 of 1"),
]


@pytest.fixture(scope="module", autouse=True)
def bots_games(base: str) -> dict[str, str]:
    """The games' tables, each preset's, all made before the file's first test: the server
    plays them out together, and while the lobby is checked, instead of one at a time while a
    test waits for it."""
    return {
        preset: _bots_game(base, preset, players, options) for preset, players, options, _ in GAMES
    }


def _played_out(base: str, table: str, seconds: float = 90.0) -> None:
    """Wait until the server has played the table's game to its end."""
    deadline = time.monotonic() + seconds
    while api(base, "GET", f"/api/tables/{table}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)


def _at_both_sizes(page: Page, state: str) -> None:
    """The state at a phone's size and at a desktop's: the page is laid out again at each (its
    scripts draw the same whatever the size: the layout is the style sheet's)."""
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)  # type: ignore[arg-type]
        serious(page, f"{state} at {size['width']}x{size['height']}")


def test_the_lobby_and_a_hosts_invite(browser: Browser, base: str) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(base + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    serious(page, "lobby")  # at a phone's size: test_lobby_form, against every rule
    page.fill("#name", "Ann")
    page.fill("#players", "2")
    page.locator("#players").dispatch_event("input")
    page.select_option('#seat-list select[data-seat="1"]', "open")  # a friend to invite
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r".*/table/[\w-]+$"))
    page.wait_for_function("document.getElementById('qr').naturalWidth > 0")
    page.locator("#room-code").filter(has_text=re.compile("^[A-Z]{5}$")).wait_for()
    _at_both_sizes(page, "invite")
    page.locator("#fair summary").click()
    page.locator("#seed-text").wait_for()
    _at_both_sizes(page, "fair dice")
    page.get_by_role("button", name="Rules").click()
    page.locator("#rules-text h3").first.wait_for()
    _at_both_sizes(page, "rules")
    assert page_errors(page) == []


@pytest.mark.parametrize(("preset", "said"), [(game[0], game[3]) for game in GAMES])
def test_a_game_to_its_end_in_words_and_without_violations(
    browser: Browser, base: str, bots_games: dict[str, str], preset: str, said: str
) -> None:
    table = bots_games[preset]
    # the page opens on the game the server has played to its end: a page that followed the
    # bots drew each of their steps (a Derby's some 250 on the sprint track, with their live
    # odds; each of a Classic round's), for tens of seconds on a busy machine. test_tv
    # follows a Derby step by step, test_table_play a Classic round.
    _played_out(base, table)
    page = new_page(browser, PHONE)
    page.goto(f"{base}/table/{table}")
    # bots at the instant pace: the game ends as soon as the server has played it, but a
    # game on a fresh clone waits for its odds kernels to compile (about 20 s on a busy
    # machine), past Playwright's 15 s default
    page.locator("#end").wait_for(timeout=90_000)
    words = page.locator(".board-words")
    assert re.search(said, words.inner_text()), words.inner_text()
    serious(page, f"{preset} over")
    assert page_errors(page) == []
