"""Derby Challenge as the drivers see it: its preset, bots and the live odds of a view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from horserace.families.family import Family, PresetSpec

if TYPE_CHECKING:
    from horserace.core.rules import Rules
    from horserace.core.shown_odds import ShownOdds
    from horserace.engine import Agent


class DerbyFamily(Family):
    name = "derby"
    money = "dollars"
    presets = (
        PresetSpec(
            "derby",
            "Derby Challenge: 2-20 players pick horses, roll odds, wager $0-3, 3 races",
            "Derby Challenge",
        ),
    )
    race_beats = MappingProxyType(
        {"die-rolled": 0.12, "mud-rolled": 0.4, "accelerator-rolled": 0.4}
    )
    bot_kinds = ("random", "ev")
    standin_bot = "ev"

    def rules(self) -> Rules[Any, Any]:
        from horserace.families.derby.rules.rules import DerbyRules

        return DerbyRules()

    def new_bot(self, kind: str, rng: random.Random) -> Agent:
        from horserace.families.derby.bots import DerbyEVBot
        from horserace.families.derby.outlays import DERBY_OUTLAYS
        from horserace.families.random_bot import RandomBot

        return RandomBot(rng, DERBY_OUTLAYS) if kind == "random" else DerbyEVBot(rng)

    def live_odds(self, view: Any) -> Mapping[str, float] | None:
        """Exact before the race; then seeded estimates of the position at the turn's start,
        within a tenth of a point once a thread has worked them out, then within half a tenth
        once it has refined them (`live_odds.py`)."""
        shown = self.shown_odds(view)
        return None if shown is None else shown.win

    def shown_odds(self, view: Any) -> ShownOdds | None:
        """The live odds, each to a tenth only once it is sure to a tenth (as the board)."""
        from horserace.families.derby.live_odds import LIVE, shown

        odds = LIVE.odds(view)
        return None if odds is None else shown(odds)

    def prepare_odds(self) -> None:
        """The odds run on a compiled kernel: its first call compiles it (seconds) or loads it
        from numba's cache."""
        from horserace.families.derby.rules.race import start_race
        from horserace.families.derby.rules.track import DEFAULT_TRACK
        from horserace.families.derby.sampled_odds import simulate_races

        simulate_races(start_race((1, 2)), DEFAULT_TRACK, 1, 0)


FAMILY = DerbyFamily()
