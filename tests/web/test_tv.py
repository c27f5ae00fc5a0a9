"""The TV display (/table/ID?tv) for a big screen: while the table waits it shows the room code
and the QR code to join by; then it follows the game a phone plays to the end (the board, the
log, the final standings) in large type, with no control to press and no seat of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from tests.web.support import CHROMIUM, PHONE, api, new_page, page_errors, play_until, serious, snap

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_the_tv_page_follows_a_game_to_the_end(browser: Browser, base: str) -> None:
    created = api(
        base,
        "POST",
        "/api/tables",
        {
            "preset": "derby",
            # the sprint track (12 spaces, not 29): the same TV to the end in fewer turns
            "options": {"players": 2, "races": 1, "track": "sprint"},
            "seats": ["open", "random"],
        },
    )
    table = created["table"]["id"]
    tv = new_page(browser, {"width": 1920, "height": 1080})
    tv.goto(f"{base}/table/{table}?tv")
    tv.locator("#room-code").filter(has_text=re.compile(f"^{created['table']['room']}$")).wait_for()
    tv.wait_for_function("document.getElementById('qr').naturalWidth > 0")
    assert tv.locator("#join").is_hidden() and tv.locator("#invite-link").is_hidden()
    assert tv.evaluate("getComputedStyle(document.body).fontSize") == "23.2px"  # 1.45rem

    phone = new_page(browser, PHONE)
    phone.goto(f"{base}/table/{table}")
    phone.fill("#join-name", "Ann")
    phone.get_by_role("button", name="Join seat 1").click()
    phone.locator("#you").filter(has_text="You play seat 1").wait_for()
    tv.locator("#invite").wait_for(state="hidden")  # play started: the board takes the screen
    tv.locator(".board").first.wait_for()
    assert tv.locator("#you").is_hidden()
    play_until([phone], lambda: tv.locator("#end").is_visible(), seconds=60)  # a bound
    tv.locator("#standings tr").nth(1).wait_for()
    assert "Ann" in tv.locator("#standings").inner_text()
    assert tv.locator("#log div").count() > 5
    for control in ("#action-bar", "#again", "#leave", "#chat-form", "#next-race"):
        assert tv.locator(control).is_hidden(), control
    assert tv.locator("button:visible").count() == 0  # nothing to press on the TV
    serious(tv, "the TV at the end")
    snap(tv, "41-tv-over")
    assert page_errors(tv) == [] and page_errors(phone) == []
