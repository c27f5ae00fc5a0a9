"""The Husted whole-game kernel's numbers: which configs it plays (Classic Mode with Husted's
rule and no other house rule), its settings as one array laid out as the Advanced kernel's
(so the EV bot's valuation in `advanced_ev` reads both), and the deck it plays with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from horserace.kernels import Array
from horserace.kernels.advanced_numbers import (
    ACE,
    ANTE,
    CHIPS,
    DEALER,
    DECK,
    DECKS,
    FINISH,
    JOCKEY,
    JOKER,
    KING,
    PLAYERS,
    RANKS,
    REPEAT,
    ROTATE,
    ROUNDS,
    SPEC_SIZE,
    SPLIT,
    START,
    VALUES,
)
from horserace.kernels.board_numbers import RACE_STARTS, REPEAT_RULES, finish_counts

JACK, QUEEN = 11, 12  # Husted's face cards that are horse cards too
GATHER = SPEC_SIZE  # 1: every card gathered each round; 0: hands passed left
HUSTED_SIZE = SPEC_SIZE + 1


def husted_deck(decks: int) -> tuple[int, ...]:
    """Cards of each rank 0..13: the classic horse cards with the aces, kings and two jokers a
    deck that Husted's rule keeps in."""
    return tuple(
        2 * decks if rank == JOKER else 4 * decks if rank in (ACE, KING) or rank > 1 else 0
        for rank in range(RANKS)
    )


@dataclass(frozen=True)
class HustedSpec:
    """The numbers the Husted kernel needs, read from a board config's plain data."""

    players: int
    rounds: int
    starting_chips: int
    finish: tuple[int, ...]  # advances to finish, horses 2..12
    decks: int
    ante: int
    jockey_pot: bool
    repeat_rule: int  # index into REPEAT_RULES
    scratch_values: tuple[int, int, int, int]
    race_start: int  # index into RACE_STARTS
    split_payout: bool
    gather_reset: bool
    first_dealer: int
    rotate_dealer: bool

    name = "husted"  # the kernel's name in a simulation's JSON

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> HustedSpec | None:
        """The spec for a config the kernel plays exactly, or None."""
        unsupported = (
            not config.get("husted")
            or config.get("deck") != "classic"
            or config.get("robertson")
            or config.get("market")
            or config.get("trade_window", "none") != "none"
            or config.get("elimination")
            or config.get("draft")
        )
        if unsupported:
            return None
        players = int(config["players"])
        return cls(
            players=players,
            rounds=int(config["rounds"]),
            starting_chips=int(config["starting_chips"]),
            finish=finish_counts(config),
            decks=1 if players <= 4 else 2,
            ante=int(config["ante"]),
            jockey_pot=bool(config["jockey_pot"]),
            repeat_rule=REPEAT_RULES.index(config["repeat_scratch"]),
            scratch_values=tuple(int(v) for v in config["scratch_values"]),  # type: ignore[arg-type]
            race_start=RACE_STARTS.index(config["race_starts"]),
            split_payout=config["payout"] == "split",
            gather_reset=config["reset"] == "gather",
            first_dealer=int(config["first_dealer"]),
            rotate_dealer=bool(config["rotate_dealer"]),
        )

    def numbers(self) -> Array:
        """The spec as one int64 array, in the Advanced kernel's layout (hidden hands, no
        draft; the hand size is the deal's own each round) with the reset rule after it."""
        row = [0] * HUSTED_SIZE
        row[PLAYERS], row[ROUNDS], row[CHIPS] = self.players, self.rounds, self.starting_chips
        row[ANTE], row[JOCKEY], row[REPEAT] = self.ante, int(self.jockey_pot), self.repeat_rule
        row[START], row[SPLIT], row[DECKS] = self.race_start, int(self.split_payout), self.decks
        row[DEALER], row[ROTATE] = self.first_dealer, int(self.rotate_dealer)
        row[VALUES : VALUES + 4] = self.scratch_values
        row[FINISH + 2 : FINISH + 13] = self.finish
        row[DECK : DECK + RANKS] = husted_deck(self.decks)
        row[GATHER] = int(self.gather_reset)
        return np.array(row, dtype=np.int64)
