"""Betting at the card race: its style is chosen in the lobby's form (the dealer's book, the
tote or party prizes), offered only for the games that take it; at the table the tote and the
book are a list of horses that fits a phone, each with a stake stepper, the kinds of bet as
tabs, the pools' totals and what a bet would pay now, to the chip the engine would pay."""

from __future__ import annotations

import json
import random
import re
from itertools import permutations
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from horserace.components.tote import Ticket, settle_pool
from horserace.families.cards.rules.tote_bets import winning_selections
from tests.web.support import (
    CHROMIUM,
    PHONE,
    api,
    joined,
    new_page,
    page_errors,
    seated,
    serious,
    snap,
    waiting,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_the_tote_is_chosen_in_the_lobby(browser: Browser, base: str) -> None:
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


def _view(page: Page) -> dict[str, Any]:
    """The seat's view the page drew last (its developer details hold it as JSON)."""
    view: dict[str, Any] = json.loads(page.locator("#view").text_content() or "{}")
    return view


def _engine_pays(view: dict[str, Any], kind: str, horses: tuple[int, ...], stake: int) -> list[int]:
    """What the engine pays a new ticket over the finishes in which it wins, from the pools
    in `view`: components.tote as the race's settlement calls it."""
    pool = [
        Ticket(bet["seat"], tuple(bet["horses"]), bet["stake"])
        for bet in view["betting"]["bets"]
        if bet["kind"] == kind
    ]
    mine = Ticket(view["seat"], horses, stake)
    paid = set()
    for order in permutations(range(4)):
        winning = winning_selections(kind, order)
        if horses in winning:
            paid.add(settle_pool([*pool, mine], winning, view["config"]["takeout"]).payouts[-1])
    return sorted(paid)


def _chips(amount: int) -> str:
    return f"{amount} chip{'' if amount == 1 else 's'}"


def _pool(view: dict[str, Any], kind: str) -> int:
    return sum(bet["stake"] for bet in view["betting"]["bets"] if bet["kind"] == kind)


def test_a_tote_bet_on_a_phone(browser: Browser, base: str) -> None:
    """The tote as a list of horses with steppers and tabs: the pools' totals and what a
    ticket would pay now are the engine's figures, before and after a bet through a stepper."""
    created = api(
        base,
        "POST",
        "/api/tables",
        {
            "preset": "basic",
            "options": {"players": 3, "races": 1, "betting": "tote", "takeout": 15},
            "seats": ["open", "random", "random"],
        },
    )
    table = created["table"]["id"]
    (token,) = joined(base, table, ["Ann"])
    page = seated(browser, base, table, 0, token, PHONE)
    page.locator("#bet-list").wait_for()
    assert page.locator("#action-bar").evaluate("bar => getComputedStyle(bar).position") == "static"
    tabs = page.get_by_role("tab").all_inner_texts()
    assert tabs == ["Win", "Place", "Show", "Board", "Exacta", "Trifecta", "Superfecta"]
    before = _view(page)
    totals = page.locator("#pool-totals")
    assert f"win {_pool(before, 'win')} chip" in totals.inner_text()
    assert "15%" in totals.inner_text()

    for _ in range(2):
        page.get_by_role("button", name="more on ♥ hearts").click()
    assert page.get_by_label("Stake on ♥ hearts").input_value() == "3"
    [pays] = _engine_pays(before, "win", (2,), 3)
    assert page.locator("#pays-win-H").inner_text() == f"pays {pays} chips"

    at = page.locator("#version").text_content()
    page.get_by_role("button", name="Bet on ♥ hearts").click()
    page.wait_for_function(f"document.getElementById('version').textContent !== '{at}'")
    page.locator("#bet-list").wait_for()
    after = _view(page)
    assert _pool(after, "win") == _pool(before, "win") + 3
    assert f"win {_pool(after, 'win')} chips" in totals.inner_text()
    on_hearts = sum(
        b["stake"] for b in after["betting"]["bets"] if b["kind"] == "win" and b["horses"] == [2]
    )
    assert page.locator("#row-win-H .bet-facts").inner_text() == f"on it {_chips(on_hearts)}"
    [again] = _engine_pays(after, "win", (2,), 3)  # the stake stays at 3 for the next ticket
    assert page.locator("#pays-win-H").inner_text() == f"pays {again} chips"

    page.get_by_role("tab", name="Place").click()
    placed = _engine_pays(after, "place", (0,), 1)
    least, most = placed[0], placed[-1]
    paid = _chips(least) if least == most else f"{_chips(least)} to {_chips(most)}"
    assert page.locator("#pays-place-C").inner_text() == f"if it places {paid}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    serious(page, "the tote's list")
    snap(page, "35-tote-list")
    assert page_errors(page) == []


def test_the_books_prices_on_a_phone(browser: Browser, base: str) -> None:
    """The dealer's book: each horse's price in its row, and what a stake would pay at it."""
    created = api(
        base,
        "POST",
        "/api/tables",
        {
            "preset": "basic",
            "options": {"players": 3, "races": 1},
            "seats": ["random", "open", "random"],  # the first dealer (seat 1) takes no bets
        },
    )
    table = created["table"]["id"]
    (token,) = joined(base, table, ["Ann"])
    page = seated(browser, base, table, 1, token, PHONE)
    page.locator("#bet-list").wait_for()
    assert page.get_by_role("tab").count() == 0  # the book takes one kind of bet
    view = _view(page)
    prices = {count: (win, per) for count, win, per in view["config"]["book_odds"]["prices"]}
    stepped = 0
    for suit, letter in enumerate("CDHS"):
        count = sum(1 for c in view["course"] if c is not None and c < 52 and c // 13 == suit)
        facts = page.locator(f"#row-bet-{letter} .bet-facts").inner_text()
        if count not in prices:
            assert facts == "no price: no bets"
            continue
        win, per = prices[count]
        assert facts == f"price {win}-{per}"
        stepper = page.locator(f"#stake-bet-{letter}")
        if stepper.count():
            page.locator(f"#more-bet-{letter}").click()
            stake = int(stepper.input_value())
            paid = stake + stake * win // per
            assert page.locator(f"#pays-bet-{letter}").inner_text() == f"pays {_chips(paid)}"
            stepped += 1
    assert stepped  # some horse has a price the dealer covers
    serious(page, "the book's list")
    assert page_errors(page) == []


def test_the_pages_pool_arithmetic_is_the_engines(browser: Browser, base: str) -> None:
    """The page's settlement of a pool (what 'would pay' reads) against components.tote on
    400 seeded random pools: takeouts, ties of selections, minus pools, nobody winning."""
    page = waiting(
        browser, base, {"preset": "basic", "options": {"players": 3}, "seats": ["open"] * 3}
    )
    draw = random.Random(32)
    cases = []
    for _ in range(400):
        tickets = [
            (draw.choice("CDHS"), draw.choice([1, 1, 2, 3, 5, 10, 40]))
            for _ in range(draw.randint(1, 8))
        ]
        winning = draw.sample("CDHS", draw.randint(1, 3))
        cases.append((tickets, winning, draw.choice([0, 0, 10, 15, 17, 25, 50])))
    shown = page.evaluate(
        """cases => cases.map(([tickets, winning, takeout]) => Betting.settle(
            tickets.map(([key, stake]) => ({ key, stake })), winning, takeout))""",
        cases,
    )
    for (tickets, winning, takeout), paid in zip(cases, shown, strict=True):
        engine = settle_pool([Ticket(0, key, stake) for key, stake in tickets], winning, takeout)
        assert paid == list(engine.payouts), (tickets, winning, takeout)
