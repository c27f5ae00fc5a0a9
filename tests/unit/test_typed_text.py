"""Text a person types or a file holds is refused with the project's typed errors: digits
that str.isdigit accepts but int() does not ('²', Arabic-Indic digits) are not numbers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from horserace.components.cards import parse_rank
from horserace.components.dice import FourDice
from horserace.components.french_deck import parse_card
from horserace.core.errors import HorseraceError
from horserace.core.types import is_whole_number, parse_actor
from horserace.families.cards.rules.actions import parse_bid, parse_book, parse_tote
from horserace.families.derby.rules.model import D20Roll, Wager

ODD_DIGITS = ("²", "٣", "²H", "1²")


def test_only_the_ascii_digits_make_a_whole_number() -> None:
    assert is_whole_number("12")
    assert not any(is_whole_number(text) for text in ("²", "٣", "", "-1", "1.5", "1²"))


@pytest.mark.parametrize(
    "parse",
    [
        parse_card,
        parse_rank,
        FourDice.parse,
        parse_bid,
        parse_book,
        parse_tote,
        Wager.parse,
        D20Roll.parse,
        parse_actor,
        lambda text: parse_book(f"bet {text} H"),
        lambda text: parse_tote(f"win {text} H"),
        lambda text: Wager.parse(f"wager {text}"),
    ],
)
def test_odd_digits_are_refused_with_a_typed_error(parse: Callable[[str], Any]) -> None:
    for text in ODD_DIGITS:
        with pytest.raises(HorseraceError):
            parse(text)
