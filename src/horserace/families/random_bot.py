"""The simplest bot: any legal action, uniformly, from its own seeded generator, but within a
budget a person would call sane wherever it commits money.

The budget rule: what the bot has riding on one race (a Calcutta horse bought, bets at the
book or the tote, Husted wagers and meets, a Schellenberg market buy, a Derby wager) never
exceeds BUDGET_SHARE (a quarter) of its money, counted as the chips it holds plus what it
already has riding on that race. So at least three quarters of its money stays in hand: it
never puts its last chips on a long shot (a seat with fewer than four chips commits nothing).
A pick over the budget is replaced by a pick among the actions that fit it (passing, checking,
folding or a smaller stake always does). Each family says what an action commits (its
`Outlays`); a table with random bots is still a fair game, not one player emptying a purse.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction

BUDGET_SHARE = Fraction(1, 4)


class Outlay(NamedTuple):
    """What an action would leave a seat with riding on the race, out of how much money (the
    chips it holds now plus what it already has riding)."""

    riding: int
    money: int

    @property
    def sane(self) -> bool:
        share = BUDGET_SHARE  # in whole numbers: this is asked of every bid open to a bot
        return self.riding * share.denominator <= self.money * share.numerator


NOTHING = Outlay(0, 0)  # an action that commits no money


class Outlays(NamedTuple):
    """A family's reading of money actions: their kinds, and what one commits in a view."""

    kinds: tuple[type, ...]  # actions that may commit money (the bot then reads the view)
    outlay: Callable[[Any, Action], Outlay]  # NOTHING for an action that commits no money


class RandomBot:
    """Sees only the legal actions, and its view when one of them may cost money."""

    kind = "random"
    reads_view = False  # it picks among the legal actions alone, except for money (wants_view)

    def __init__(self, rng: random.Random, outlays: Outlays | None = None) -> None:
        self._rng = rng
        self._outlays = outlays

    def wants_view(self, legal: Sequence[Action]) -> bool:
        return self._outlays is not None and any(
            isinstance(action, self._outlays.kinds) for action in legal
        )

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise IllegalAction("a bot was asked to move with no legal action")
        if len(legal) == 1:
            return legal[0]
        pick = legal[self._rng.randrange(len(legal))]
        outlays = self._outlays
        if view is None or outlays is None or not isinstance(pick, outlays.kinds):
            return pick
        if outlays.outlay(view, pick).sane:
            return pick
        sane = [action for action in legal if outlays.outlay(view, action).sane]
        if sane:  # another pick among what fits the budget
            return sane[self._rng.randrange(len(sane))]
        return min(legal, key=lambda action: outlays.outlay(view, action).riding)
