"""The named presets: each is a rule family plus default options. Later families register here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from horserace.core.errors import ConfigError
from horserace.core.rules import Rules
from horserace.rules.board import config as board_presets
from horserace.rules.board.rules import BoardRules
from horserace.rules.cards import presets as cards_presets
from horserace.rules.cards.rules import CardsRules
from horserace.rules.derby.rules import DerbyRules


@dataclass(frozen=True)
class Preset:
    name: str
    summary: str
    rules: Rules[Any, Any]
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def config(self, options: Mapping[str, Any]) -> Any:
        """Preset defaults under the user's options, validated by the family."""
        return self.rules.make_config({**self.defaults, **options})


PRESETS: Mapping[str, Preset] = {
    "classic": Preset(
        name="classic",
        summary="The dice board game, Classic Mode: 2-12 players, no decisions, pure luck",
        rules=BoardRules(),
        defaults=board_presets.CLASSIC,
    ),
    "advanced": Preset(
        name="advanced",
        summary="The dice board game, Advanced Mode: draft, antes, two pots, A/K/Joker powers",
        rules=BoardRules(),
        defaults=board_presets.ADVANCED,
    ),
    "northwoods": Preset(
        name="northwoods",
        summary="The dice board game for money: 20/15/10/5-cent scratches, play to the last player",
        rules=BoardRules(),
        defaults=board_presets.NORTHWOODS,
    ),
    "derby": Preset(
        name="derby",
        summary="Derby Challenge: 2-20 players pick horses, roll odds, wager $0-3, 3 races",
        rules=DerbyRules(),
    ),
    "basic": Preset("basic", cards_presets.SUMMARY_BASIC, CardsRules(), cards_presets.BASIC),
    "scarne": Preset("scarne", cards_presets.SUMMARY_SCARNE, CardsRules(), cards_presets.SCARNE),
    "calcutta": Preset(
        "calcutta", cards_presets.SUMMARY_CALCUTTA, CardsRules(), cards_presets.CALCUTTA
    ),
}


def get_preset(name: str) -> Preset:
    preset = PRESETS.get(name)
    if preset is None:
        raise ConfigError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return preset
