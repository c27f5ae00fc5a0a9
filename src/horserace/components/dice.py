"""Six-sided dice: exact sum probabilities and the roll as a chance outcome with a text form."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from horserace.core.errors import InvalidAction
from horserace.core.types import is_whole_number

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
    def for_sum(cls, total: int) -> DiceRoll:
        """The first pair (lowest die first) that makes `total`: where only the sum counts, a
        person at a real board may give the sum alone."""
        if not 2 <= total <= 2 * SIDES:
            raise InvalidAction(f"two dice make 2 to {2 * SIDES}, not {total}")
        low = max(1, total - SIDES)
        return cls(low, total - low)

    @classmethod
    def parse(cls, text: str) -> DiceRoll:
        match = _ROLL_TEXT.match(text)
        if match is None:
            raise InvalidAction(f"{text!r} is not a roll of two dice; write it like '3+4'")
        return cls.of(int(match.group(1)), int(match.group(2)))


ALL_ROLLS: tuple[DiceRoll, ...] = tuple(
    DiceRoll(a, b) for a in range(1, SIDES + 1) for b in range(a, SIDES + 1)
)


@dataclass(frozen=True, order=True)
class FourDice:
    """Four dice rolled at once (a house rule), kept sorted so each roll has one text form."""

    dice: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        if len(self.dice) != 4 or not all(1 <= d <= SIDES for d in self.dice):
            raise InvalidAction("four dice, each showing 1 to 6")
        if tuple(sorted(self.dice)) != self.dice:
            raise InvalidAction("FourDice keeps its dice sorted; use FourDice.of(...)")

    @classmethod
    def of(cls, *dice: int) -> FourDice:
        if len(dice) != 4:
            raise InvalidAction(f"four dice, not {len(dice)}")
        a, b, c, d = sorted(dice)
        return cls((a, b, c, d))

    @property
    def text(self) -> str:
        return "+".join(map(str, self.dice))

    @property
    def weight(self) -> int:
        """Orderings of these four values among the 6**4 equally likely rolls."""
        orderings = 24
        for value in set(self.dice):
            orderings //= factorial(self.dice.count(value))
        return orderings

    def pairings(self) -> list[tuple[int, int]]:
        """The three ways to split the dice into two pairs, as (sum, sum), without repeats."""
        a, b, c, d = self.dice
        sums = {tuple(sorted(p)) for p in ((a + b, c + d), (a + c, b + d), (a + d, b + c))}
        return sorted((x, y) for x, y in sums)

    @classmethod
    def parse(cls, text: str) -> FourDice:
        digits = [int(ch) for ch in text if is_whole_number(ch)]
        if len(digits) != 4 or any(not 1 <= d <= SIDES for d in digits):
            raise InvalidAction(f"{text!r} is not four dice; write it like '1+4+5+6'")
        return cls.of(*digits)


ALL_FOUR_DICE: tuple[FourDice, ...] = tuple(
    FourDice((a, b, c, d))
    for a in range(1, SIDES + 1)
    for b in range(a, SIDES + 1)
    for c in range(b, SIDES + 1)
    for d in range(c, SIDES + 1)
)
