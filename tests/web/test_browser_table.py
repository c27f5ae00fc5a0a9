"""Two people in two browsers: each takes a seat through the lobby page's own Join button,
plays a Classic round on the table page by clicking its action buttons, and sees only their
own hand (the other person's shows as a count), checked against the server's per-seat view."""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from horserace.drivers.server.records import check_published
from tests.server.test_server_crash import _player, _ws
from tests.web.support import CHROMIUM, Served, new_table, snap

STEP_MS = 10_000  # any one page operation; a stuck page fails the test within this
PLAY_SECONDS = 90.0  # the whole round, a bound so a stuck table fails rather than hangs
MAX_CLICKS = 400
RANK_NAMES = {0: "joker", 1: "A", 11: "J11", 12: "Q12", 13: "K"}  # J and Q say their horse
PAYOUT = re.compile(r"\b(wins|collects)\b")
# every lane one slot: the deal, the hidden hands, the scratches and the payout in a few rolls
# (the scratches, then the first horse rolled that is still in wins)
SHORT_BOARD = {"name": "short", "lanes": {str(horse): 1 for horse in range(2, 13)}}


def _join_from_lobby(page: Page, base: str, table: str, name: str) -> int:
    """What a person does: open the lobby, type a name, press the table's Join; the page
    takes them to the table. Returns the seat the table page says is theirs."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.locator(f'#tables li[data-table="{table}"] button', has_text="Join").click()
    page.wait_for_url(f"**/table/{table}?seat=*")
    you = page.locator("#you")
    you.filter(has_text=re.compile(r"You play seat \d")).wait_for()
    return int(re.findall(r"seat (\d+)", you.inner_text())[0]) - 1


def _cards(page: Page, seat: int) -> list[str]:
    """The face-up cards the page draws in `seat`'s hand."""
    hand = page.locator(f'.player[data-seat="{seat}"] .hand .card:not(.back)')
    return sorted(hand.all_inner_texts())


def _backs(page: Page, seat: int) -> list[str]:
    return page.locator(f'.player[data-seat="{seat}"] .hand .card.back').all_inner_texts()


def _expected(counts: list[int]) -> list[str]:
    return sorted(
        RANK_NAMES.get(rank, str(rank)) for rank, n in enumerate(counts) for _ in range(n)
    )


def _server_view(base: str, table: str, token: str, seat: int, log: Path) -> dict[str, Any]:
    """The seat's welcome over the protocol: its view and the version it is of."""
    with _ws(base, table) as ws:
        welcome = _player(ws, seat, "probe", log).hello(token=token)
    assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
    return welcome


def _check_hands(
    pages: dict[int, Page], tokens: dict[int, str], base: str, table: str, log: Path
) -> None:
    """While the table waits for a person (nothing moves), each page shows its own hand
    exactly as the server's view for that seat has it, and every other hand only as a count."""
    views = {seat: _server_view(base, table, tokens[seat], seat, log) for seat in pages}
    versions = {welcome["version"] for welcome in views.values()}
    assert len(versions) == 1, versions
    version = versions.pop()
    for page in pages.values():  # each page has drawn that very state
        page.wait_for_function(f"document.getElementById('version').textContent === '{version}'")
    for seat, page in pages.items():
        view = views[seat]["state"]["view"]
        mine = view["hands"][seat]
        assert mine is not None and sum(mine) > 0, view
        assert _cards(page, seat) == _expected(mine)
        shown = json.loads(page.locator("#view").text_content() or "{}")
        for other in range(len(view["hands"])):
            if other == seat:
                continue
            assert view["hands"][other] is None and shown["hands"][other] is None
            assert _cards(page, other) == []
            assert _backs(page, other) == [str(view["hand_sizes"][other])]


def _payout(page: Page) -> bool:
    return PAYOUT.search(page.locator("#log").inner_text()) is not None


def _play(pages: dict[int, Page], tokens: dict[int, str], base: str, table: str, log: Path) -> int:
    """Click a page's first action button whenever it is that page's turn, until both logs
    show the payout; the number of clicks."""
    deadline = time.monotonic() + PLAY_SECONDS
    clicks, checked = 0, False
    while not all(_payout(page) for page in pages.values()):
        assert time.monotonic() < deadline, "no payout within the bound"
        assert clicks < MAX_CLICKS, "no payout within the clicks allowed"
        for page in pages.values():
            buttons = page.locator("#actions button[data-action]")
            if not buttons.count():
                continue
            if not checked:
                _check_hands(pages, tokens, base, table, log)
                checked = True
            before = page.locator("#version").text_content()
            buttons.first.click()
            clicks += 1
            page.wait_for_function(f"document.getElementById('version').textContent !== '{before}'")
        time.sleep(0.05)
    assert checked, "no person ever had a turn"
    return clicks


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
def test_two_people_play_a_round_in_the_browser_each_seeing_only_their_hand(
    browser: Browser, served: Served
) -> None:
    base, log = served.base, served.log
    table, host_token = new_table(
        base,
        {
            "preset": "classic",
            "title": "browser test",
            "options": {"players": 3, "rounds": 1, "open_hands": False, "board": SHORT_BOARD},
            "seats": ["open", "open", "ev"],
            "turn_seconds": 0,
        },
    )
    pages: dict[int, Page] = {}
    for name in ("Ann", "Bo"):
        page = browser.new_context(viewport={"width": 1100, "height": 1400}).new_page()
        page.set_default_timeout(STEP_MS)
        pages[_join_from_lobby(page, base, table, name)] = page
    assert sorted(pages) == [0, 1]
    tokens = {
        seat: str(page.evaluate(f"Held.seats('{table}')['{seat}']")) for seat, page in pages.items()
    }
    with httpx.Client(trust_env=False, timeout=10) as client:
        started = client.post(
            f"{base}/api/tables/{table}/start",
            headers={"Authorization": f"Bearer {host_token}"},
        )
        # the last open seat taken starts the table by itself; the host's start then
        # only confirms it (it is refused as already started)
        assert started.status_code == 200 or "already started" in started.text
        summary = client.get(f"{base}/api/tables/{table}").json()
    assert summary["status"] in ("playing", "over"), summary
    assert [s["kind"] for s in summary["seats"]][:2] == ["human", "human"], summary
    clicks = _play(pages, tokens, base, table, log)
    assert clicks > 0
    # Ann's page committed to a seed of its own while she waited, and revealed it when
    # play started (Bo's join started the table before his page could commit)
    with httpx.Client(trust_env=False, timeout=10) as client:
        record = client.get(f"{base}/api/tables/{table}/record").text
    header = json.loads(record.splitlines()[0])
    seed = header["player_seeds"]["0"]
    assert re.fullmatch("[0-9a-f]{64}", seed), header
    assert header["commitments"]["0"] == hashlib.sha256(seed.encode()).hexdigest()
    assert check_published(record, table=table).verified
    for seat, page in pages.items():
        assert PAYOUT.search(page.locator("#log").inner_text())
        snap(page, f"45-payout-seen-by-P{seat + 1}")  # in the gallery, when one is asked for
