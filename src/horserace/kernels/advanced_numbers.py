"""The Advanced whole-game kernel's numbers: which configs it plays (the advanced deck, its draft,
antes, two pots, Aces, Kings and Jokers; no house rule yet), its settings as one array, the bot
kinds it plays, and how a tape of the engine's game is written for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from horserace.families.board.rules.config import ADVANCED_DECKS
from horserace.kernels import Array
from horserace.kernels.board_numbers import (
    RACE_STARTS,
    REPEAT_RULES,
    finish_counts,
    house_rule_on,
)

RANDOM, HEURISTIC, EV = 0, 1, 2
BOT_KINDS = ("random", "heuristic", "ev")  # the bots the kernel plays, by their index
RANKS = 14  # card ranks: 0 joker, 1 ace, 2..12 the horses, 13 king
JOKER, ACE, KING = 0, 1, 13

# A seat's choice among several legal actions, on a tape: CHOICE + options x SPAN + index.
CHOICE = 1 << 24
SPAN = 1 << 12


def choice_entry(options: int, index: int) -> int:
    """The tape entry of a seat picking legal action `index` of `options`."""
    return CHOICE + options * SPAN + index


@dataclass(frozen=True)
class AdvancedSpec:
    """The numbers the Advanced kernel needs, read from a board config's plain data."""

    players: int
    rounds: int
    starting_chips: int
    finish: tuple[int, ...]  # advances to finish, horses 2..12
    deck: tuple[int, ...]  # cards of each rank 0..13 in the full deck
    hand: int  # cards dealt to each seat
    draft: bool
    ante: int
    jockey_pot: bool
    repeat_rule: int  # index into REPEAT_RULES
    scratch_values: tuple[int, int, int, int]
    race_start: int  # index into RACE_STARTS
    split_payout: bool
    decks: int  # the classic deck count that a share payout divides by
    first_dealer: int
    rotate_dealer: bool
    open_hands: bool

    name = "advanced"  # the kernel's name in a simulation's JSON

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> AdvancedSpec | None:
        """The spec for a config the kernel plays exactly, or None."""
        unsupported = (
            config.get("deck") != "advanced"
            or house_rule_on(config)
            or config.get("elimination")
            or config.get("reset") != "gather"
        )
        if unsupported:
            return None
        players = int(config["players"])
        suits, jokers, hand = ADVANCED_DECKS[players]
        deck = tuple(jokers if rank == JOKER else suits for rank in range(RANKS))
        return cls(
            players=players,
            rounds=int(config["rounds"]),
            starting_chips=int(config["starting_chips"]),
            finish=finish_counts(config),
            deck=deck,
            hand=hand,
            draft=bool(config["draft"]),
            ante=int(config["ante"]),
            jockey_pot=bool(config["jockey_pot"]),
            repeat_rule=REPEAT_RULES.index(config["repeat_scratch"]),
            scratch_values=tuple(int(v) for v in config["scratch_values"]),  # type: ignore[arg-type]
            race_start=RACE_STARTS.index(config["race_starts"]),
            split_payout=config["payout"] == "split",
            decks=1 if players <= 4 else 2,
            first_dealer=int(config["first_dealer"]),
            rotate_dealer=bool(config["rotate_dealer"]),
            open_hands=bool(config["open_hands"]),
        )

    def numbers(self) -> Array:
        """The spec as one int64 array (the kernel's single settings argument)."""
        row = [0] * SPEC_SIZE
        row[PLAYERS], row[ROUNDS], row[CHIPS] = self.players, self.rounds, self.starting_chips
        row[HAND], row[DRAFT], row[ANTE] = self.hand, int(self.draft), self.ante
        row[JOCKEY], row[REPEAT], row[START] = (
            int(self.jockey_pot),
            self.repeat_rule,
            self.race_start,
        )
        row[SPLIT], row[DECKS], row[DEALER] = int(self.split_payout), self.decks, self.first_dealer
        row[ROTATE], row[OPEN] = int(self.rotate_dealer), int(self.open_hands)
        row[VALUES : VALUES + 4] = self.scratch_values
        row[FINISH + 2 : FINISH + 13] = self.finish
        row[DECK : DECK + RANKS] = self.deck
        return np.array(row, dtype=np.int64)


def bot_kinds(bots: Sequence[str]) -> Array | None:
    """The kernel's kind per seat for these bot names, or None if one is not compiled."""
    if any(name not in BOT_KINDS for name in bots):
        return None
    return np.array([BOT_KINDS.index(name) for name in bots], dtype=np.int64)


# Positions in AdvancedSpec.numbers(); finish[horse] at FINISH + horse, deck[rank] at DECK + rank.
(PLAYERS, ROUNDS, CHIPS, HAND, DRAFT, ANTE, JOCKEY, REPEAT, START, SPLIT, DECKS, DEALER) = range(12)
ROTATE, OPEN, VALUES = 12, 13, 14
FINISH = VALUES + 4
DECK = FINISH + 13
SPEC_SIZE = DECK + RANKS
