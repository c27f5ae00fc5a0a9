"""A host sets a table up in the lobby's form (no JSON), with names checked before anything is
created; a friend opens the invite link and takes a seat; Husted keeps every hand hidden; the
lobby and the table pass axe-core's accessibility rules and a move can be made by keyboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

from tests.web.support import (
    CHROMIUM,
    PHONE,
    api,
    new_page,
    page_errors,
    snap,
    violations,
    wait_text,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def _accessible(page: Page) -> None:
    """No violation of axe-core's rules at all, of any impact."""
    found = violations(page, ("minor", "moderate", "serious", "critical"))
    assert not found, found


def test_a_host_sets_up_husted_in_the_form_and_a_friend_joins_by_the_link(
    browser: Browser, base: str
) -> None:
    tables = [table["id"] for table in api(base, "GET", "/api/tables")]  # the server's others
    ann = new_page(browser, PHONE)
    ann.goto(base + "/")
    ann.locator("#preset option").first.wait_for(state="attached")
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _accessible(ann)
    snap(ann, "01-lobby-form")

    create = ann.get_by_role("button", name="Create table")
    create.click()
    wait_text(ann, "#name-error", "Type your name first")
    ann.fill("#name", "A" * 31)
    create.click()
    wait_text(ann, "#name-error", "31 characters; keep it to 30")
    assert [table["id"] for table in api(base, "GET", "/api/tables")] == tables  # none made
    snap(ann, "02-lobby-name-refused")

    ann.select_option("#preset", "advanced")
    boxes = ann.locator('input[name="house"]')
    offered = boxes.evaluate_all("boxes => boxes.map(b => b.value)")
    assert offered == ["robertson", "perry"]
    ann.select_option("#preset", "classic")
    ann.check('input[name="house"][value="husted"]')
    ann.fill("#players", "3")
    ann.locator("#players").dispatch_event("input")
    ann.select_option('#seat-list select[data-seat="1"]', "open")
    ann.select_option('#seat-list select[data-seat="2"]', "random")
    ann.fill("#name", "  Ann ")
    create.click()
    ann.wait_for_url(re.compile(r".*/table/[\w-]+$"))
    table = ann.url.rsplit("/", 1)[1]
    link = ann.locator("#invite-link")
    link.wait_for()
    assert link.input_value() == f"{base}/table/{table}"
    wait_text(ann, "#notice", "Waiting for 1 more player")
    summary = api(base, "GET", f"/api/tables/{table}")
    assert summary["config"]["husted"] and summary["config"]["open_hands"] is False
    assert [s["kind"] for s in summary["seats"]] == ["human", "open", "bot"]
    snap(ann, "03-table-invite")

    bo = new_page(browser)
    bo.goto(link.input_value())
    join = bo.get_by_role("button", name="Join seat 2")
    join.click()
    wait_text(bo, "#join-error", "Type your name first")
    bo.fill("#join-name", "Bo")
    snap(bo, "04-join-or-watch")
    join.click()
    bo.wait_for_url(f"**/table/{table}?seat=1")
    wait_text(bo, "#you", r"You play seat 2 \(Bo\)")
    for page, mine, other in ((ann, 0, 1), (bo, 1, 0)):
        page.locator(f'.player[data-seat="{mine}"] .hand .card:not(.back)').first.wait_for()
        assert page.locator(f'.player[data-seat="{other}"] .hand .card:not(.back)').count() == 0
        assert page.locator(f'.player[data-seat="{other}"] .hand .card.back').count() == 1
    turn = bo  # the betting starts at the dealer's (Ann's) left
    turn.locator("#action-bar").wait_for()
    wait_text(turn, "#notice", "Your turn")
    held = turn.locator('.player[data-seat="1"] .hand .card').all_inner_texts()
    in_bar = turn.locator("#bar-hand .card").all_inner_texts()
    assert in_bar == held and held  # the hand in sight in the move bar
    moves = turn.locator("#actions button[data-action]")
    helps = moves.evaluate_all("bs => bs.map(b => b.title)")
    assert helps and all(len(h) > 10 for h in helps), helps  # every move says what it does
    turn.get_by_role("button", name="Explain these moves").click()  # a tap, not a hover
    # the bar may be drawn again as the table's news arrives: wait for the help to show
    turn.wait_for_function(
        """help => {
            const b = document.querySelector("#actions button[data-action]");
            return b !== null && getComputedStyle(b, "::after").content === `"${help}"`;
        }""",
        arg=helps[0],
        timeout=5000,
    )
    _accessible(turn)
    snap(turn, "05-husted-hidden-hands")
    version = turn.locator("#version").text_content()
    turn.focus("#actions button[data-action]")
    turn.keyboard.press("Enter")  # a move made with the keyboard alone
    turn.wait_for_function(f"document.getElementById('version').textContent !== '{version}'")
    assert page_errors(ann) == [] and page_errors(bo) == []
