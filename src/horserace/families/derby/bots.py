"""Derby bots: the random bot works as it is; the EV bot wagers by expected value.

Silks are cosmetic and, before a race, every horse has the same chances (they all stand on the
start line), so the EV bot picks those at random. Its one real decision is the wager: with its
odds die d and its horse's chances p1, p2, p3 of Win, Place, Show, each dollar wagered returns
d x (3 p1 + 2 p2 + p3) and is lost with chance 1 - p1 - p2 - p3 (a scratch included). The
expected gain is linear in the wager, so it bets the most it may when that is positive and
nothing otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.engine import Agent
from horserace.families import make_bot
from horserace.families.derby import FAMILY
from horserace.families.derby.rules.model import MULTIPLIERS, DerbyPhase, DerbyView, Wager
from horserace.families.derby.sampled_odds import exact_start_odds

DERBY_BOT_KINDS = FAMILY.bot_kinds


def wager_value(view: DerbyView, seat: int) -> Fraction:
    """Expected gain per dollar wagered on the seat's own horse, before the race (exact)."""
    field = tuple(h for h in view.field if h not in view.scratched)
    left = view.scratches_left if view.phase is DerbyPhase.SCRATCH else view.config.scratches
    chance = exact_start_odds(field, left)[view.horse_of(seat)]
    places = min(len(MULTIPLIERS), len(field) - left)
    paid = sum(MULTIPLIERS[k] for k in range(1, places + 1)) * chance * view.odds_of(seat)
    return paid - (1 - places * chance)


class DerbyEVBot:
    """Random silk and horse; the largest wager when it is worth it, else none."""

    kind = "ev"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise IllegalAction("a bot was asked to move with no legal action")
        wagers = [a for a in legal if isinstance(a, Wager)]
        if not wagers or not isinstance(view, DerbyView) or view.seat is None:
            return legal[self._rng.randrange(len(legal))]
        best = max(wagers, key=lambda w: w.amount)
        return best if wager_value(view, view.seat) > 0 else min(wagers, key=lambda w: w.amount)


def make_derby_bot(kind: str, seed: int) -> Agent:
    """A Derby bot of `kind` with its own generator (so the same seed gives the same game)."""
    return make_bot(kind, seed, "derby")
