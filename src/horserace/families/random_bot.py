"""The simplest bot: any legal action, uniformly, from its own seeded generator, but within a
budget a person would call sane where nothing else bounds what it spends: an action that buys a
horse outright says how much it pays (`staked`; a Calcutta bid), and the bot never pays more
than a quarter of the most the rules let it (its purse). Stakes that a table limit already
bounds (bets at the book or the tote, wagers) are left to that limit. A table with random bots
is still a fair game, not one player emptying a purse on a long shot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction

BUDGET_SHARE = Fraction(1, 4)


def committed(action: Action) -> int:
    """The chips an action pays for a horse (its `staked`), 0 for any other action."""
    value = getattr(action, "staked", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def within_budget(legal: Sequence[Action]) -> list[Action]:
    """The legal actions that pay at most BUDGET_SHARE of the most any of them does."""
    budget = max(committed(action) for action in legal) * BUDGET_SHARE
    return [action for action in legal if committed(action) <= budget]


class RandomBot:
    """Sees only its view and the legal actions, like every driver."""

    kind = "random"
    reads_view = False  # it picks among the legal actions alone

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise IllegalAction("a bot was asked to move with no legal action")
        if len(legal) == 1:
            return legal[0]
        pick = legal[self._rng.randrange(len(legal))]
        if not committed(pick):
            return pick
        sane = within_budget(legal)
        if pick in sane:
            return pick
        # over the budget: another pick among what fits it (passing always does)
        return sane[self._rng.randrange(len(sane))] if sane else pick
