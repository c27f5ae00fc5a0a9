"""Who moves next is data: a seat number, CHANCE, or TERMINAL."""

from __future__ import annotations

from enum import Enum
from typing import Final

from horserace.core.errors import RecordError


class Pseudo(Enum):
    """The actors that are not seats."""

    CHANCE = "chance"
    TERMINAL = "terminal"

    def __repr__(self) -> str:
        return self.name


CHANCE: Final = Pseudo.CHANCE
TERMINAL: Final = Pseudo.TERMINAL

Seat = int
Actor = Seat | Pseudo


def actor_text(actor: Actor) -> str:
    """The text form used in records: a seat number or 'chance'/'terminal'."""
    return actor.value if isinstance(actor, Pseudo) else str(actor)


def is_whole_number(word: str) -> bool:
    """Whether `word` is written in the digits 0-9 alone (str.isdigit also takes '²' and other
    scripts' digits, which int() refuses)."""
    return word.isascii() and word.isdigit()


def parse_actor(text: str) -> Actor:
    for pseudo in Pseudo:
        if text == pseudo.value:
            return pseudo
    if is_whole_number(text):
        return int(text)
    raise RecordError(
        f"{text!r} is not an actor: a record names a seat number, 'chance' or 'terminal'"
    )
