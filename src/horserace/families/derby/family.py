"""Derby Challenge as the drivers see it: its preset, bots and the live odds of a view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from horserace.core.errors import HorseraceError
from horserace.families.family import Family, PresetSpec

if TYPE_CHECKING:
    from horserace.core.rules import Rules
    from horserace.engine import Agent
    from horserace.families.derby.rules.model import DerbyView
    from horserace.terminal.table import TableTerminal

ODDS_SAMPLES = 1000  # races per estimate: a few hundredths of a second, about 1.5% noise
ODDS_SEED = 0  # fixed, so the same table always shows the same numbers


class DerbyFamily(Family):
    name = "derby"
    money = "dollars"
    presets = (
        PresetSpec(
            "derby", "Derby Challenge: 2-20 players pick horses, roll odds, wager $0-3, 3 races"
        ),
    )
    bot_kinds = ("random", "ev")
    standin_bot = "ev"

    def rules(self) -> Rules[Any, Any]:
        from horserace.families.derby.rules.rules import DerbyRules

        return DerbyRules()

    def new_bot(self, kind: str, rng: random.Random) -> Agent:
        from horserace.families.derby.bots import DerbyEVBot
        from horserace.families.random_bot import RandomBot

        return RandomBot(rng) if kind == "random" else DerbyEVBot(rng)

    def terminal(self) -> TableTerminal:
        from horserace.families.derby.terminal import TERMINAL

        return TERMINAL

    def live_odds(self, view: Any) -> Mapping[str, float] | None:
        """A seeded Monte Carlo estimate (exact before the race)."""
        try:
            odds = _odds(_odds_key(view))
        except HorseraceError:
            return None
        return None if odds is None else dict(odds)

    def prepare_odds(self) -> None:
        """The odds run on a compiled kernel: its first call compiles it (seconds) or loads it
        from numba's cache."""
        from horserace.families.derby.rules.race import start_race
        from horserace.families.derby.rules.track import DEFAULT_TRACK
        from horserace.families.derby.sampled_odds import simulate_races

        simulate_races(start_race((1, 2)), DEFAULT_TRACK, 1, ODDS_SEED)


def _odds_key(view: DerbyView) -> DerbyView:
    """The view with what the odds do not read blanked out, so every seat, wager and payout
    of one table position shares one cache entry."""
    n = len(view.horses)
    return replace(
        view,
        seat=None,
        order=(),
        to_act=None,
        silks=(0,) * n,
        odds=(0,) * n,
        wagers=(0,) * n,
        money=(0,) * n,
        bank=0,
        podiums=(),
    )


@lru_cache(maxsize=256)
def _odds(view: DerbyView) -> tuple[tuple[str, float], ...] | None:
    from horserace.families.derby.sampled_odds import table_odds

    odds = table_odds(view, samples=ODDS_SAMPLES, seed=ODDS_SEED)
    if odds is None:
        return None
    return tuple((str(horse), odds.win(horse)) for horse in odds.horses)


FAMILY = DerbyFamily()
