"""Your hand in sight: the move bar never covers your hand (at a phone's 390x844 and a
desktop's 1280x800, wherever the page is scrolled), and the draft, Husted's discard and the
face cards' powers are chosen by tapping the cards, then one button that says the move."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web.support import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    api,
    joined,
    page_errors,
    seated,
    serious,
    snap,
    wait_text,
    waiting,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def _table(
    browser: Browser, base: str, preset: str, players: int, options: dict[str, Any], seat: int = 0
) -> Page:
    """Ann's phone at `seat` of a new table, bots in the other seats."""
    seats = ["random"] * players
    seats[seat] = "open"
    created = api(
        base,
        "POST",
        "/api/tables",
        {"preset": preset, "options": {"players": players, **options}, "seats": seats},
    )
    table = created["table"]["id"]
    (token,) = joined(base, table, ["Ann"])
    return seated(browser, base, table, seat, token, PHONE)


def _view(page: Page) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(page.locator("#view").text_content() or "{}")
    return view


# the move bar's box and each hand's (the hand, and the draft's packet) where the page is now,
# after scrolling to `y` or, with `hand` given, bringing that hand into view: one call a place
BOXES = """([y, hand]) => {
    const hands = [...document.querySelectorAll(".player.me .hand")];
    if (hand === null) window.scrollTo(0, y);
    else if (hands[hand]) hands[hand].scrollIntoView({ block: "nearest", inline: "nearest" });
    const box = (element) => {
        const r = element.getBoundingClientRect();
        return r.width || r.height ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
    };
    const bar = document.getElementById("action-bar");
    return { bar: bar && box(bar), hands: hands.map(box), count: hands.length };
}"""


def _never_covered(page: Page) -> None:
    """At both sizes and at the top, the middle and the bottom of the page, and with each hand
    scrolled into view (at the nearest edge, where a bar would cover it): the hand's box and
    the move bar's box do not meet."""
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)  # type: ignore[arg-type]
        height = page.evaluate("document.documentElement.scrollHeight")
        count = 0
        for y in (0, height // 3, height // 2, height):
            count = _apart(page, size, [y, None])
        for hand in range(count):
            _apart(page, size, [0, hand])
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]


def _apart(page: Page, size: dict[str, int], where: list[int | None]) -> int:
    """The bar and every hand shown apart, at `where` (BOXES); the number of hands."""
    boxes = page.evaluate(BOXES, where)
    bar = boxes["bar"]
    assert bar, boxes
    for hand in boxes["hands"]:
        if hand is None:  # not shown
            continue
        apart = (
            hand["y"] + hand["height"] <= bar["y"]
            or bar["y"] + bar["height"] <= hand["y"]
            or hand["x"] + hand["width"] <= bar["x"]
            or bar["x"] + bar["width"] <= hand["x"]
        )
        assert apart, (size, hand, bar)
    return int(boxes["count"])


def test_an_advanced_draft_by_tapping_a_card(browser: Browser, base: str) -> None:
    page = _table(browser, base, "advanced", 4, {"rounds": 1})
    page.locator("#picker .pick-card:enabled").first.wait_for()
    _never_covered(page)
    go = page.locator("#pick-go")
    assert go.is_disabled() and go.inner_text() == "Tap the card to keep"
    before = _view(page)
    card = page.locator("#picker .pick-card:enabled").first
    rank = card.inner_text()
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    assert go.inner_text() == f"Keep {rank}" and go.is_enabled()
    serious(page, "the draft's picker")
    snap(page, "36-draft-by-tapping")
    held = sum(before["hands"][0])
    go.click()
    page.wait_for_function(
        f"JSON.parse(document.getElementById('view').textContent).hands[0]"
        f".reduce((a, b) => a + b, 0) > {held}"
    )
    assert page_errors(page) == []


def test_a_husted_discard_by_tapping_cards(browser: Browser, base: str) -> None:
    # four hands of 13 leave a stub of 2 cards; the first to draw sits at the dealer's left
    husted = {"husted": True, "open_hands": False, "ante": 1, "rounds": 1}
    page = _table(browser, base, "classic", 4, husted, seat=1)
    go = page.locator("#pick-go")
    deadline = time.monotonic() + 15
    while not (go.is_visible() and go.inner_text() == "Keep my hand (draw none)"):
        assert time.monotonic() < deadline, "no draw within the bound"
        version = page.locator("#version").text_content()
        move = page.locator(
            '#actions button[data-action="check"], #actions button[data-action="meet"]'
        )
        if not (page.locator("#action-bar").is_visible() and move.count() and move.is_enabled()):
            time.sleep(0.05)
            continue
        move.click()  # the first betting round: check, or meet
        page.wait_for_function(f"document.getElementById('version').textContent !== '{version}'")
    _never_covered(page)
    assert go.is_enabled()
    cards = page.locator("#picker .pick-card:enabled")
    chosen = [cards.nth(0).inner_text(), cards.nth(1).inner_text()]
    cards.nth(0).click()
    cards.nth(1).click()
    wait_text(page, "#pick-go", f"^Discard {chosen[0]} {chosen[1]} and draw$")
    serious(page, "Husted's discard")
    snap(page, "37-discard-by-tapping")
    go.click()
    wait_text(
        page, "#log", rf"Ann discards {re.escape(chosen[0])} {re.escape(chosen[1])} and draws 2"
    )
    assert page_errors(page) == []


def test_a_face_cards_power_by_tapping_the_card_then_the_horse(browser: Browser, base: str) -> None:
    """The power picker on its own (a race's scratch paid while holding J and Q is left to
    chance in a game): the moves as the rules word them, the hand as the view counts it."""
    page = waiting(
        browser, base, {"preset": "classic", "options": {"players": 2}, "seats": ["open"] * 2}
    )
    legal = ["pass", "jack 5", "queen 5", "jack 8", "queen 8", "queen 9"]
    hand = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0]  # a 3, a J and a Q
    page.evaluate(
        """([legal, hand]) => {
            const box = document.createElement("div");
            box.id = "power-test";
            document.body.prepend(box);
            window.sent = [];
            const pick = Picker.split(legal, true);
            const view = { seat: 0, hands: [hand] };
            Picker.draw(box, pick.kind, pick.picked, view, (t) => sent.push(t));
            window.rest = pick.rest;
        }""",
        [legal, hand],
    )
    assert page.evaluate("rest") == ["pass"]  # left to the move bar's buttons
    box = page.locator("#power-test")
    cards = box.locator(".pick-card")
    assert cards.all_inner_texts() == ["3", "J", "Q"]
    assert [cards.nth(i).is_enabled() for i in range(3)] == [False, True, True]
    go = box.locator("#pick-go")
    assert go.inner_text() == "Tap a face card, then a horse" and go.is_disabled()
    cards.nth(2).click()  # the Q: it may go under horses 5, 8 and 9
    assert box.locator(".pick-horse").all_inner_texts() == ["5", "8", "9"]
    cards.nth(1).click()  # the J instead: horses 5 and 8
    assert box.locator(".pick-horse").all_inner_texts() == ["5", "8"]
    assert go.is_disabled()
    box.get_by_role("button", name="horse 8").click()
    assert go.inner_text() == "J: horse 8 back one slot"
    go.click()
    assert page.evaluate("sent") == ["jack 8"]
    assert page_errors(page) == []
