"""Nobody stalls the table, in the browser: a person who is here but does not move sees their
turn clock count down (and so does everyone else), and when it runs out a bot plays that turn,
said in every log; the host lets a bot play the seat of a person who is not here, and gives
it back; a person steps away and comes back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

from tests.web.support import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    joined,
    moved_on,
    new_table,
    page_errors,
    seated,
    wait_text,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
CLOCK = re.compile(r"^(You have|(Ann|Bo) has) (\d+) s to move; then a bot plays this turn\.$")


def _classic(base: str, turn_seconds: float) -> tuple[str, str, list[str]]:
    """A Classic table of two people, Ann and Bo: its id, the host's token, the seats' tokens."""
    table, host_token = new_table(
        base,
        {
            "preset": "classic",
            "options": {"players": 2, "rounds": 1},
            "seats": ["open", "open"],
            "turn_seconds": turn_seconds,
        },
    )
    return table, host_token, joined(base, table, ["Ann", "Bo"])


def _mover(pages: list[Page]) -> Page:
    """The page whose turn it is, once one is told so."""
    for page in pages:
        page.locator("#notice.mine").or_(page.locator("#clock:visible")).first.wait_for()
    for _ in range(100):
        for page in pages:
            if "Your turn" in (page.locator("#notice").text_content() or ""):
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn")


def test_an_idle_person_is_replaced_when_the_clock_runs_out(browser: Browser, base: str) -> None:
    table, _, tokens = _classic(base, turn_seconds=3)
    ann = seated(browser, base, table, 0, tokens[0], PHONE)
    bo = seated(browser, base, table, 1, tokens[1], DESKTOP)
    idle = _mover([ann, bo])
    at = idle.locator("#version").text_content()  # its turn (3 s: read before the clocks)
    other = bo if idle is ann else ann
    name = "Ann" if idle is ann else "Bo"
    for page, who in ((idle, "You have"), (other, f"{name} has")):
        said = page.locator("#clock")
        said.filter(has_text=re.compile(f"^{who} [1-3] s to move")).wait_for()
        match = CLOCK.match(said.inner_text())
        assert match and 0 <= int(match[3]) <= 3, said.inner_text()
    # nobody taps: the clock runs out, a bot plays the turn, and everyone's log says so
    for page in (idle, other):
        wait_text(page, "#log div", f"^{name}'s time ran out: a bot plays this turn\\.$")
    moved_on(idle, at)  # the bot's move is drawn (it follows the news of the time out)
    assert page_errors(ann) == [] and page_errors(bo) == []


def test_the_host_lets_a_bot_play_for_an_absent_person_and_gives_the_seat_back(
    browser: Browser, base: str
) -> None:
    table, host, tokens = _classic(base, turn_seconds=0)  # no clock: the table would wait
    ann = seated(browser, base, table, 0, tokens[0], PHONE)
    ann.evaluate(f"Held.setHost('{table}', '{host}')")  # Ann made the table
    ann.reload()
    bo_row = ann.locator('#seats tr[data-seat="1"]')
    wait_text(ann, '#seats tr[data-seat="1"]', "not connected")  # Bo never opened the page
    for _ in range(300):  # Ann moves until the table waits for Bo
        if ann.locator("#notice").text_content() == "Waiting for Bo.":
            break
        move = ann.locator("#actions button[data-action]").first
        if ann.locator("#action-bar").is_visible() and move.count() and move.is_enabled():
            move.click()
        ann.wait_for_timeout(50)
    wait_text(ann, "#notice", r"^Waiting for Bo\.$")
    at = ann.locator("#version").text_content()
    ann.get_by_role("button", name="Let a bot play: Bo").click()
    wait_text(ann, '#seats tr[data-seat="1"]', "away: a bot plays for now")
    # Bo's turn is played for him: the table goes on
    ann.wait_for_function(f"document.getElementById('version').textContent !== '{at}'")
    wait_text(ann, "#log div", r"^Bo rolls \d\+\d=\d+")
    # Ann steps away too: the bots play both seats, and Ann's move bar stays hidden meanwhile
    rolls = "document.getElementById('log').innerText.split('Ann rolls').length"
    before = ann.evaluate(rolls)
    ann.get_by_role("button", name="Step away: a bot plays for me").click()
    wait_text(ann, '#seats tr[data-seat="0"]', "away: a bot plays for now")
    ann.evaluate(
        """() => {
            const bar = document.getElementById("action-bar");
            window.barShown = !bar.hidden;
            new MutationObserver(() => { window.barShown ||= !bar.hidden; })
                .observe(bar, { attributes: true });
        }"""
    )
    ann.wait_for_function(f"{rolls} > {before}")  # a roll made for Ann
    assert ann.evaluate("window.barShown") is False
    ann.get_by_role("button", name="I'm back: I play my seat").click()
    wait_text(ann, '#seats tr[data-seat="0"]', "here")
    ann.get_by_role("button", name="Give the seat back: Bo").click()
    wait_text(ann, '#seats tr[data-seat="1"]', "not connected")
    assert bo_row.get_by_role("button", name="Let a bot play: Bo").is_visible()
    assert page_errors(ann) == []
