"""The dice board game as the drivers see it: presets, bots and the live odds of a view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from horserace.core.errors import HorseraceError
from horserace.families.family import Family, HouseRules, PresetSpec

if TYPE_CHECKING:
    from horserace.core.rules import Rules
    from horserace.engine import Agent


class BoardFamily(Family):
    name = "board"
    presets = (
        PresetSpec(
            "classic",
            "The dice board game, Classic Mode: 2-12 players, no decisions, pure luck",
            "Horse Race (dice)",
        ),
        PresetSpec(
            "advanced",
            "The dice board game, Advanced Mode: draft, antes, two pots, A/K/Joker powers",
            "Horse Race (dice), Advanced",
        ),
        PresetSpec(
            "northwoods",
            "The dice board game for money: 20/15/10/5-cent scratches, play to the last player",
            "Horse Race (dice) for nickels: Northwoods",
        ),
    )
    bot_kinds = ("random", "heuristic", "ev")
    standin_bot = "heuristic"

    def prepare_odds(self) -> None:
        from horserace.families.board.odds.view import prepare_gate_odds

        prepare_gate_odds()

    def rules(self) -> Rules[Any, Any]:
        from horserace.families.board.rules.rules import BoardRules

        return BoardRules()

    def defaults(self, preset: str) -> Mapping[str, Any]:
        from horserace.families.board.rules import config

        by_name: Mapping[str, Mapping[str, Any]] = {
            "classic": config.CLASSIC,
            "advanced": config.ADVANCED,
            "northwoods": config.NORTHWOODS,
        }
        return by_name[preset]

    def house_rules(self, defaults: Mapping[str, Any], check: Any) -> HouseRules:
        from horserace.families.board.rules.house import HOUSE_RULES, valid_combinations

        combinations = valid_combinations(defaults, check)
        offered = {name for chosen in combinations for name in chosen}
        rules = tuple(
            {
                "name": rule.name,
                "title": rule.title,
                "summary": rule.summary,
                "options": dict(rule.switch),
            }
            for rule in HOUSE_RULES.values()
            if rule.name in offered
        )
        return HouseRules(rules, tuple(tuple(chosen) for chosen in combinations))

    def table_options(
        self, defaults: Mapping[str, Any], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        from horserace.families.board.rules.house import with_house_rules

        return with_house_rules(defaults, options)

    def new_bot(self, kind: str, rng: random.Random) -> Agent:
        from horserace.families.board.bots import EvBot, HeuristicBot
        from horserace.families.board.outlays import BOARD_OUTLAYS
        from horserace.families.random_bot import RandomBot

        if kind == "heuristic":
            return HeuristicBot(rng)
        return EvBot(rng) if kind == "ev" else RandomBot(rng, BOARD_OUTLAYS)

    def live_odds(self, view: Any) -> Mapping[str, float] | None:
        """The race's odds are cached by what decides them (lanes, positions, scratched
        horses, scratch rolls left; `odds.view`), so a step that moves no horse (a card dealt,
        a chip paid) costs a lookup, not a race; the whole view is never hashed."""
        from horserace.families.board.odds.view import view_odds

        try:
            return {str(horse): chance for horse, chance in view_odds(view).items()}
        except HorseraceError:
            return None


FAMILY = BoardFamily()
