"""The Classic whole-game kernel's numbers: which configs it plays (Classic Mode with Husted's
house rule or Perry's trading, or both), its settings as one array laid out as the Advanced
kernel's (so the EV bot's valuation in `advanced_ev` reads both), and the deck it plays with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from horserace.kernels.advanced_numbers import ACE, HUSTED, JOKER, KING, MARKET, RANKS, DeckSpec
from horserace.kernels.board_numbers import house_rule_on

JACK, QUEEN = 11, 12  # Husted's face cards that are horse cards too
# The EV bot's arrays (`classic_game.ev_space`): its tables, the odds' scratch, chances,
# advances to go, cards valued, card values, the two rows of a choice's options, a hand's worth
# with a horse held back, each option's worth; a market buy's ranks and each buy's worth;
# Perry's window's arrays (`trading.trade_space`).
TABLES, WORK, WIN, REMAINING, VALUED, VALUES_OF, FIRST, SECOND, HELD_BACK, WORTHS = range(10)
BUYS, BUY_WORTHS, TRADE = 10, 11, 12


def classic_deck(decks: int, husted: bool) -> tuple[int, ...]:
    """Cards of each rank 0..13: the classic horse cards, with the aces, kings and two jokers a
    deck that Husted's rule keeps in."""
    kept = (ACE, KING) if husted else ()
    return tuple(
        2 * decks * husted if rank == JOKER else 4 * decks if rank in kept or 1 < rank < 13 else 0
        for rank in range(RANKS)
    )


@dataclass(frozen=True)
class ClassicSpec(DeckSpec):
    """The numbers the Classic kernel needs: the shared ones and the house rules it plays."""

    husted: bool
    market: bool  # Schellenberg's

    name = "classic"

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ClassicSpec | None:
        """The spec for a config the kernel plays exactly, or None: a Classic table whose seats
        decide something (a house rule), with the house rules the kernel plays."""
        unsupported = (
            config.get("deck") != "classic"
            or not house_rule_on(config)  # no decisions: the board-game kernel plays it
            or config.get("elimination")
            or config.get("draft")
        )
        if unsupported:
            return None
        husted, market = bool(config.get("husted")), bool(config.get("market"))
        decks = 1 if int(config["players"]) <= 4 else 2
        return cls(**cls.common(config, classic_deck(decks, husted)), husted=husted, market=market)

    def more_numbers(self, row: list[int]) -> None:
        row[HUSTED], row[MARKET] = int(self.husted), int(self.market)
