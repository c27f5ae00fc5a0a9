"""The other kinds of table at the page: a companion to a real board (set up in the form, the
first entry offered at the start without a reload, undo taking its line out of the log, the
watchers told the dice are entered at the table, no seed shown); a table of bots alone with a
spectator's skip and Northwoods' final standings in money; the Calcutta auction's bid as one
number input; the rules panel with the text of `horserace rules`; chat kept as plain text."""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from horserace.families.texts import plain_rules, rules_markdown
from tests.web.support import (
    CHROMIUM,
    PHONE,
    api,
    moved_on,
    new_page,
    page_errors,
    snap,
    wait_text,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def _log(page: Page) -> list[str]:
    return page.locator("#log div").all_inner_texts()


def test_a_companion_table_from_the_form_starts_enters_and_undoes(
    browser: Browser, base: str
) -> None:
    host = new_page(browser, PHONE)
    host.goto(base + "/")
    host.locator("#preset option").first.wait_for(state="attached")
    host.uncheck("#play-myself")
    host.locator("summary", has_text="More settings").click()
    host.check("#companion")
    host.fill("#players", "2")
    host.locator("#players").dispatch_event("input")
    assert host.locator("#seat-list select").evaluate_all("s => s.map(x => x.value)") == [
        "open",
        "open",
    ]
    host.fill('.seat-name[data-seat="0"]', "Cy")
    host.fill('.seat-name[data-seat="1"]', "Di")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url(re.compile(r".*/table/[\w-]+$"))
    table = host.url.rsplit("/", 1)[1]
    wait_text(host, "#notice", "Start when the people at the board are ready")
    assert host.locator("#seats").inner_text().count("Cy") == 1  # named, not "P1"
    assert "Di" in host.locator("#seats").inner_text()
    watcher = new_page(browser)
    watcher.goto(f"{base}/table/{table}")
    wait_text(watcher, "#you", "You are watching")
    assert watcher.locator("#fair").is_hidden()  # real dice: no seed to show

    host.get_by_role("button", name=re.compile("Start the game")).click()
    wait_text(host, "#notice", "Enter what the dice")  # at once, no reload
    wait_text(watcher, "#notice", "The dice are being entered at the table")
    snap(host, "10-companion-enter")
    # a hand at a time, from the dealer's (Cy's) left; no stub: Cy has the rest, one tap
    for rank, count in {"2": 4, "3": 4, "4": 4, "5": 4, "6": 4, "7": 2}.items():
        host.get_by_role("button", name=f"{count} × {rank}", exact=True).click()
    host.get_by_role("button", name="Enter Di's hand (22 of 22)").click()
    host.get_by_role("button", name="Cy has the rest").click()
    host.locator(".sum-grid").wait_for()  # the 44 cards are in
    cy = host.locator(".player[data-seat='0'] .hand .card")
    assert cy.count() == 22 and cy.all_inner_texts()[:3] == ["7", "7", "8"]
    host.locator(".sum-grid").get_by_role("button", name="7", exact=True).click()
    wait_text(host, "#log", r"Di rolls 1\+6=7")  # Di's roll and the dice: one tap
    entered = _log(host)
    host.get_by_role("button", name="Undo the last entry").click()
    host.wait_for_function(
        "![...document.querySelectorAll('#log div')].some(d => / rolls /.test(d.textContent))"
    )
    host.wait_for_timeout(300)
    dice = [line for line in entered if "rolls" in line or "discards" in line]
    assert _log(host) == [line for line in entered if line not in dice]  # the dice undone
    snap(host, "11-companion-undone")
    assert page_errors(host) == [] and page_errors(watcher) == []


def test_bots_alone_a_spectators_skip_and_northwoods_money(browser: Browser, base: str) -> None:
    # the bots' tables move at the natural pace (0.8 s a move) on the shared server: the
    # watcher finds the first one playing and has its race to skip
    created_body = {
        "preset": "northwoods",
        "title": "bots only",
        "options": {"players": 4, "rounds": 1, "starting_chips": 30},
        "seats": ["random", "heuristic", "random", "heuristic"],
        "pace": "natural",
    }
    created = api(base, "POST", "/api/tables", created_body)
    table = created["table"]["id"]
    watcher = new_page(browser, PHONE)
    watcher.goto(base + "/")
    line = watcher.locator(f'li[data-table="{table}"]')
    line.wait_for()
    assert re.search(r"playing, round 1 of 1", line.inner_text())
    assert "Ada (bot), Bram (bot), Cleo (bot), Dex (bot)" in line.inner_text()
    watcher.select_option("#filter-preset", "derby")
    line.wait_for(state="detached")
    watcher.select_option("#filter-preset", "northwoods")
    line.wait_for()
    snap(watcher, "12-lobby-filtered")
    pushed = api(base, "POST", "/api/tables", {**created_body, "title": "pushed"})
    watcher.locator(f'li[data-table="{pushed["table"]["id"]}"]').wait_for()  # no reload
    line.get_by_role("link", name="Watch").click()
    skip = watcher.get_by_role("button", name="Skip to the end of this race")
    deadline = time.monotonic() + 60
    end = watcher.locator("#end")
    while not end.is_visible():
        assert time.monotonic() < deadline, "skipping did not reach the end"
        with contextlib.suppress(PlaywrightError):  # the race may end under the click
            if skip.is_visible():
                skip.click(timeout=1_000)
            end.wait_for(timeout=1_000)  # at once when it comes; else skip again
    rows = watcher.locator("#standings tr").all_inner_texts()
    assert len(rows) == 4 and all(re.search(r"\$\d+\.\d\d", row) for row in rows), rows
    view = json.loads(watcher.locator("#view").text_content() or "{}")
    for seat, went in enumerate(view["out"]):  # Northwoods: who went out, from the view
        row = watcher.locator(f'#standings tr[data-seat="{seat}"]').inner_text()
        assert ("went out" in row) == went, (row, view["out"])
    wait_text(watcher, "#left-over", r"Left in the pot: \$\d+\.\d\d|Nothing is left")
    snap(watcher, "13-northwoods-standings")
    assert page_errors(watcher) == []


def test_a_calcutta_bid_the_rules_chat_and_the_card_race_and_derby_boards(
    browser: Browser, base: str
) -> None:
    auction = api(
        base,
        "POST",
        "/api/tables",
        {"preset": "calcutta", "options": {"players": 3}, "seats": ["open", "value", "value"]},
    )
    player = new_page(browser, PHONE)
    player.goto(f"{base}/table/{auction['table']['id']}")
    player.fill("#join-name", "Cy")
    player.get_by_role("button", name="Join seat 1").click()
    player.wait_for_url("**?seat=0")
    bid = player.locator("#amount-bid")
    bid.wait_for()
    wait_text(player, "#log", r"cut the highest card \(\w+\) and deals first")
    wait_text(player, ".player", r"dealer \(highest cut\)")
    wait_text(player, ".note", "Under the hammer")
    assert player.locator("#actions button").count() < 12  # not a button per amount
    assert player.locator("#action-bar").is_visible()
    box = player.locator("#action-bar").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]  # in view
    low, high = int(bid.get_attribute("min") or 0), int(bid.get_attribute("max") or 0)
    bid.fill(str(high + 5))
    # news that leaves the moves as they were (a seat's name, say) keeps what was typed
    player.evaluate("() => showState(lastState)")
    assert bid.input_value() == str(high + 5)
    player.get_by_role("button", name="Bid", exact=True).click()
    wait_text(player, "#error", f"Choose an amount the rules allow: {low} to {high}")
    snap(player, "14-calcutta-bid")
    player.get_by_role("button", name="more").click()
    player.get_by_role("button", name=str(low), exact=True).click()
    assert bid.input_value() == str(low)
    version = player.locator("#version").text_content()
    player.get_by_role("button", name="Bid", exact=True).click()
    moved_on(player, version)
    assert re.search(rf"Cy bids {low}\b", player.locator("#log").inner_text())

    player.get_by_role("button", name="Rules").click()
    panel = player.locator("#rules-text")
    panel.locator("h3, h4").first.wait_for()
    # the text `horserace rules calcutta --markdown` prints as it is (drivers/cli/rules_cmd.py),
    # less the command line, which the panel leaves out
    printed = plain_rules(rules_markdown("calcutta"))
    assert "--" not in panel.inner_text()
    first_heading = re.search(r"^#+\s+(.*)$", printed, re.M)
    assert first_heading is not None
    assert panel.locator("h3, h4").first.inner_text() == first_heading.group(1).replace("`", "")
    shown = re.sub(r"\s+", " ", panel.inner_text())
    for sentence in re.findall(r"^[A-Z][^`*|\n]{40,}?\.", printed, re.M)[:5]:
        assert sentence in shown, sentence  # the same text, not a summary of it
    snap(player, "15-rules-panel")
    player.get_by_role("button", name="Close").click()

    player.fill("#chat-text", "<img src=x onerror=alert(1)> good luck")
    player.get_by_role("button", name="Send").click()
    wait_text(player, "#chat", "good luck")
    assert player.locator("#chat img").count() == 0
    assert "<img src=x" in player.locator("#chat").inner_text()
    watcher = new_page(browser, PHONE)
    for preset, options, words in (
        ("basic", {"players": 3, "races": 1}, "Dealer's book"),
        (
            "basic",
            {"players": 3, "races": 1, "faltering": True, "redeal": False, "betting": "tote"},
            "the dealer's book is closed: bets go on the tote",
        ),
        ("derby", {"players": 3, "races": 1}, r"left in the pot \(the bank's\) \$\d+"),
    ):
        seats = ["random"] * 3
        made = api(
            base,
            "POST",
            "/api/tables",
            {"preset": preset, "options": options, "seats": seats, "pace": "natural"},
        )
        watcher.goto(f"{base}/table/{made['table']['id']}")
        wait_text(watcher, "#board", words)
    snap(watcher, "16-faltering-tote-or-derby")
    assert page_errors(watcher) == [] and page_errors(player) == []
