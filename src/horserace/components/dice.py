"""Six-sided dice: exact sum probabilities and the roll as a chance outcome with a text form."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from horserace.core.errors import InvalidAction

SIDES = 6
_ROLL_TEXT = re.compile(r"^\s*([1-6])\s*[+ ,]?\s*([1-6])\s*$")


def two_dice_sum_probabilities() -> dict[int, Fraction]:
    """P(sum = s) for two fair six-sided dice, s = 2..12."""
    return {s: Fraction(SIDES - abs(s - 7), SIDES * SIDES) for s in range(2, 13)}


@dataclass(frozen=True, order=True)
class DiceRoll:
    """Two dice as rolled, kept low die first so equal rolls have one text form ("3+4")."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= SIDES and 1 <= self.high <= SIDES):
            raise InvalidAction(f"a die shows 1 to {SIDES}, not {self.low} and {self.high}")
        if self.low > self.high:
            raise InvalidAction("DiceRoll keeps the low die first; use DiceRoll.of(a, b)")

    @classmethod
    def of(cls, a: int, b: int) -> DiceRoll:
        return cls(min(a, b), max(a, b))

    @property
    def total(self) -> int:
        return self.low + self.high

    @property
    def probability(self) -> Fraction:
        return Fraction(1 if self.low == self.high else 2, SIDES * SIDES)

    @property
    def text(self) -> str:
        return f"{self.low}+{self.high}"

    @classmethod
    def parse(cls, text: str) -> DiceRoll:
        match = _ROLL_TEXT.match(text)
        if match is None:
            raise InvalidAction(f"{text!r} is not a roll of two dice; write it like '3+4'")
        return cls.of(int(match.group(1)), int(match.group(2)))


ALL_ROLLS: tuple[DiceRoll, ...] = tuple(
    DiceRoll(a, b) for a in range(1, SIDES + 1) for b in range(a, SIDES + 1)
)
