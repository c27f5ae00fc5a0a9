"""Three friends at one table: the host's page shows the link, a room code and a QR code of
the link; a second friend (desktop) opens the link and joins; a third (phone) types the room
code in the lobby, arriving after the second joined, and is offered only the seat still open."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from tests.web.support import CHROMIUM, PHONE, api, new_page, page_errors, snap, wait_text

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_a_second_and_a_third_friend_join_in_turn(browser: Browser, base: str) -> None:
    ann = new_page(browser, PHONE)
    ann.goto(base + "/")
    ann.locator("#preset option").first.wait_for(state="attached")
    ann.fill("#name", "Ann")
    ann.fill("#players", "3")
    ann.locator("#players").dispatch_event("input")
    ann.select_option('#seat-list select[data-seat="1"]', "open")
    ann.select_option('#seat-list select[data-seat="2"]', "open")
    ann.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r".*/table/[\w-]+$"))
    table = ann.url.rsplit("/", 1)[1]
    code = api(base, "GET", f"/api/tables/{table}")["room"]
    wait_text(ann, "#room-code", f"^{code}$")
    ann.wait_for_function("document.getElementById('qr').naturalWidth > 0")
    link = ann.locator("#invite-link").input_value()
    snap(ann, "20-invite-room-code")

    bo = new_page(browser)
    bo.goto(link)
    wait_text(bo, "#notice", "Waiting for 2 more players")
    bo.fill("#join-name", "Bo")
    bo.get_by_role("button", name="Join seat 2").click()
    wait_text(bo, "#you", r"You play seat 2 \(Bo\)")
    wait_text(ann, "#notice", "Waiting for 1 more player")

    cy = new_page(browser, PHONE)
    cy.goto(base + "/")
    cy.fill("#room-code", code.lower()[:3] + " " + code.lower()[3:])
    cy.get_by_role("button", name="Go to the table").click()
    cy.wait_for_url(f"**/table/{table}")
    wait_text(cy, "#notice", "Waiting for 1 more player")
    offered = cy.locator("#join-seats button").all_inner_texts()
    assert offered == ["Join seat 3"], offered
    cy.fill("#join-name", "Cy")
    cy.get_by_role("button", name="Join seat 3").click()
    wait_text(cy, "#you", r"You play seat 3 \(Cy\)")
    for page in (ann, bo, cy):  # the last seat taken starts the game on every page
        page.wait_for_function("document.getElementById('status').textContent === 'playing'")
    assert [s["name"] for s in api(base, "GET", f"/api/tables/{table}")["seats"]] == [
        "Ann",
        "Bo",
        "Cy",
    ]
    assert page_errors(ann) == page_errors(bo) == page_errors(cy) == []
