"""Counts said as a person says them: "1 card", "2 cards", never "1 cards" or "card(s)"."""

from __future__ import annotations

from horserace.core.words import counted
from horserace.families.board.rules.events import PayoutMade


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "card") == "1 card"
    assert [counted(n, "race") for n in (0, 2, 12)] == ["0 races", "2 races", "12 races"]
    assert counted(1, "scratch", "scratches") == "1 scratch"
    assert counted(3, "scratch", "scratches") == "3 scratches"


def test_a_payout_for_one_card_says_card() -> None:
    names = ["Ann", "Bob"]
    assert (
        PayoutMade(seat=0, cards=1, amount=12).describe(names) == "Ann collects 12 chips for 1 card"
    )
    assert (
        PayoutMade(seat=1, cards=3, amount=1).describe(names) == "Bob collects 1 chip for 3 cards"
    )
