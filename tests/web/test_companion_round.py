"""A companion table's round at table speed on a phone: each hand of the deal tapped on a grid
of ranks and counts and confirmed once (an undo before the deal is sent takes the last hand
back), each roll one tap on its sum (the person's roll and the dice together), one Classic round
of 3 players in at most 40 taps, every tap counted, ending with the chips the cards and dice
make; the record still has a step per card."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import Browser, Locator

from tests.web.support import CHROMIUM, PHONE, api, hosting, new_table, page_errors, serious

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

HANDS = {  # the deal goes from the dealer's (Ann's) left: Bob, Cy, Ann
    "Bob": {"2": 4, "3": 4, "4": 4, "5": 2},
    "Cy": {"5": 2, "6": 4, "7": 4, "8": 4},
    "Ann": {"9": 4, "10": 4, "J": 4, "Q": 2},
}
SUMS = (7, 8, 6, 5, 12, 12, 12)  # scratch 7, 8, 6 and 5; then 12 runs its 3 slots home


class Taps:
    """Every click the test makes on the page, counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        target.click()
        self.count += 1


def test_a_classic_round_of_three_in_at_most_40_taps(browser: Browser, base: str) -> None:
    table, host_token = new_table(
        base,
        {
            "preset": "classic",
            "options": {"players": 3, "rounds": 1},
            "seats": ["open", "open", "open"],
            "companion": True,
            "names": ["Ann", "Bob", "Cy"],
        },
    )
    api(base, "POST", f"/api/tables/{table}/start", token=host_token)
    host = hosting(browser, base, table, host_token, PHONE)
    tap = Taps()

    def enter_hand(who: str) -> None:
        enter = host.get_by_role("button", name=f"Enter {who}'s hand (14 of 14)")
        host.get_by_role("button", name=f"Enter {who}'s hand (0 of 14)").wait_for()
        for rank, count in HANDS[who].items():
            tap(host.get_by_role("button", name=f"{count} × {rank}", exact=True))
        tap(enter)

    enter_hand("Bob")
    entered = host.locator(".hands-entered")
    assert entered.inner_text() == "Entered: Bob: 2 2 2 2 3 3 3 3 4 4 4 4 5 5"
    bob = host.locator('.player[data-seat="1"] .hand')  # the board: the hand as entered
    assert " ".join(bob.inner_text().split()) == "2 2 2 2 3 3 3 3 4 4 4 4 5 5"
    tap(host.get_by_role("button", name="4 × 6", exact=True))
    assert host.get_by_role("button", name="4 × 6").get_attribute("aria-pressed") == "true"
    serious(host, "a hand being picked")  # axe-core: no serious or critical violation
    tap(host.get_by_role("button", name="4 × 6", exact=True))  # tapped again: none
    host.get_by_role("button", name="Enter Cy's hand (0 of 14)").wait_for()
    enter_hand("Cy")
    assert "Cy: 5 5 6 6 6 6 7 7 7 7 8 8 8 8" in entered.inner_text()
    tap(host.locator("#undo"))  # nothing sent yet: Cy's hand comes back to the grid
    host.get_by_role("button", name="Enter Cy's hand (0 of 14)").wait_for()
    assert entered.inner_text() == "Entered: Bob: 2 2 2 2 3 3 3 3 4 4 4 4 5 5"
    enter_hand("Cy")
    enter_hand("Ann")  # the last hand: the 42 cards go to the table one by one
    for number, total in enumerate(SUMS, start=1):
        grid = host.locator(".sum-grid")
        grid.wait_for()
        tap(grid.get_by_role("button", name=str(total), exact=True))
        host.wait_for_function(
            "n => [...document.querySelectorAll('#log div')]"
            ".filter(d => / rolls /.test(d.textContent)).length >= n",
            arg=number,
        )
    host.wait_for_function("document.getElementById('status').textContent === 'over'")
    assert tap.count == 30 and tap.count <= 40  # 3 hands of 4 ranks + 1, a count tapped
    # on and off, one undo and Cy's hand again, 7 rolls
    with httpx.Client(trust_env=False, timeout=10) as client:
        text = client.get(f"{base}/api/tables/{table}/record").text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    result = next(line for line in lines if "standings" in line.get("result", line))
    chips = {row["seat"]: row["chips"] for row in result.get("result", result)["standings"]}
    # 7, 8, 6 scratched to lines 1-3 cost Cy 4, 8 and 12; 5 to line 4 costs Bob and Cy 2 x 4;
    # 12 wins: the pot of 40 pays 10 a Queen, and Ann holds two
    assert chips == {0: 120, 1: 92, 2: 68}
    actions = [line["action"] for line in lines if "action" in line]
    deals = [a for a in actions if a.startswith("deal")]
    assert len(deals) == 42 and deals[:6] == ["deal 2", "deal 5", "deal 9"] * 2
    assert [a for a in actions if "+" in a] == ["1+6", "2+6", "1+5", "1+4", "6+6", "6+6", "6+6"]
    assert page_errors(host) == []
