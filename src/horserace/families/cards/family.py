"""The card race as the drivers see it: presets, bots and the live odds of a view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from horserace.core.errors import HorseraceError
from horserace.families.family import Family, PresetSpec

if TYPE_CHECKING:
    from horserace.core.rules import Rules
    from horserace.engine import Agent
    from horserace.families.cards.odds.race import RacePosition

ODDS_BUDGET = 3_000  # DP states per live estimate (under 0.1 s); past it a face-down course: None


class CardsFamily(Family):
    name = "cards"
    presets = (
        PresetSpec(
            "basic",
            "The card race: four aces race on a 7-card course, the dealer makes a book",
            "Horse Race (cards)",
        ),
        PresetSpec(
            "scarne",
            "The card race as in Scarne: a 6-card course, reach the end to win, no redeal",
            "Horse Race (cards), Scarne's",
        ),
        PresetSpec(
            "calcutta",
            "The card race with a Calcutta auction: buy horses, 1st and 2nd share the pool",
            "Calcutta Horse Race (cards, an auction)",
        ),
    )
    race_beats = MappingProxyType({"card-turned": 0.7, "link-turned": 0.7})
    bot_kinds = ("value", "favourite", "random", "blind")
    standin_bot = "value"

    def rules(self) -> Rules[Any, Any]:
        from horserace.families.cards.rules.rules import CardsRules

        return CardsRules()

    def defaults(self, preset: str) -> Mapping[str, Any]:
        from horserace.families.cards.rules import presets

        by_name = {"basic": presets.BASIC, "scarne": presets.SCARNE, "calcutta": presets.CALCUTTA}
        return by_name[preset]

    def new_bot(self, kind: str, rng: random.Random) -> Agent:
        from horserace.families.cards.bots import BlindBettor, CardsBot
        from horserace.families.cards.outlays import CARDS_OUTLAYS
        from horserace.families.random_bot import RandomBot

        if kind == "blind":
            return BlindBettor(rng)

        return RandomBot(rng, CARDS_OUTLAYS) if kind == "random" else CardsBot(kind, rng)

    def live_odds(self, view: Any) -> Mapping[str, float] | None:
        """Exact, once the whole course is dealt; None while a face-down course leaves more
        unseen than the budget allows."""
        from horserace.families.cards.odds.race import position_of
        from horserace.families.cards.rules.state import CardsPhase

        if view.phase in (CardsPhase.COURSE, CardsPhase.OVER):
            return None
        if len(view.course) < view.config.course_length:
            return None
        try:
            odds = _position_odds(position_of(view))
        except HorseraceError:
            return None
        return None if odds is None else dict(odds)


@lru_cache(maxsize=256)
def _position_odds(position: RacePosition) -> tuple[tuple[str, float], ...] | None:
    """None (kept, so a costly position is tried once) past the state budget."""
    from horserace.components.french_deck import SUIT_LETTERS
    from horserace.families.cards.odds.race import TooManyStates, card_odds

    try:
        odds = card_odds(position, places=1, max_states=ODDS_BUDGET)
    except TooManyStates:
        return None
    return tuple((SUIT_LETTERS[suit], chance) for suit, chance in sorted(odds.win.items()))


FAMILY = CardsFamily()
