"""The numbers the whole-game kernels with decisions share (Advanced, and Classic with its house
rules): the bot kinds they play, the card ranks, how a tape of the engine's game writes a
seat's choice, the settings common to both (`DeckSpec`) and their layout as one int64 array;
then the Advanced kernel's own spec (the advanced deck, its draft, antes, two pots, Aces, Kings
and Jokers; Perry's trading window).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from horserace.families.board.rules.config import ADVANCED_DECKS
from horserace.kernels import Array
from horserace.kernels.board_numbers import RACE_STARTS, REPEAT_RULES, finish_counts
from horserace.kernels.trading_numbers import trade_settings

RANDOM, HEURISTIC, EV = 0, 1, 2
BOT_KINDS = ("random", "heuristic", "ev")  # the bots the kernel plays, by their index
RANKS = 14  # card ranks: 0 joker, 1 ace, 2..12 the horses, 13 king
JOKER, ACE, KING = 0, 1, 13

# A seat's choice among several legal actions, on a tape: CHOICE + options x SPAN + index.
CHOICE = 1 << 24
SPAN = 1 << 20  # a trading seat may have some 20,000 legal offers

# Positions in DeckSpec.numbers(); finish[horse] at FINISH + horse, deck[rank] at DECK + rank.
(PLAYERS, ROUNDS, CHIPS, HAND, DRAFT, ANTE, JOCKEY, REPEAT, START, SPLIT, DECKS, DEALER) = range(12)
ROTATE, OPEN, GATHER = 12, 13, 14  # GATHER: 1, every card gathered each round; 0: hands pass left
HUSTED, ROBERTSON, MARKET, TRADE = 15, 16, 17, 18  # the house rules' flags
VALUES = 19
FINISH = VALUES + 4
DECK = FINISH + 13
SPEC_SIZE = DECK + RANKS


def choice_entry(options: int, index: int) -> int:
    """The tape entry of a seat picking legal action `index` of `options`."""
    return CHOICE + options * SPAN + index


def bot_kinds(bots: Sequence[str]) -> Array | None:
    """The kernel's kind per seat for these bot names, or None if one is not compiled."""
    if any(name not in BOT_KINDS for name in bots):
        return None
    return np.array([BOT_KINDS.index(name) for name in bots], dtype=np.int64)


@dataclass(frozen=True)
class DeckSpec:
    """The settings every kernel with decisions reads from a board config's plain data; each
    kernel's spec adds its own and names its deck (`deck`: cards of each rank 0..13)."""

    players: int
    rounds: int
    starting_chips: int
    finish: tuple[int, ...]  # advances to finish, horses 2..12
    deck: tuple[int, ...]  # cards of each rank 0..13 in the full deck
    decks: int  # the classic deck count that a share payout divides by
    ante: int
    jockey_pot: bool
    repeat_rule: int  # index into REPEAT_RULES
    scratch_values: tuple[int, int, int, int]
    race_start: int  # index into RACE_STARTS
    split_payout: bool
    gather_reset: bool
    first_dealer: int
    rotate_dealer: bool
    open_hands: bool
    robertson: bool
    trade: tuple[int, int, int, bool]  # Perry's window: trading_numbers.trade_settings

    name: ClassVar[str]  # the kernel's name in a simulation's JSON

    @staticmethod
    def common(config: Mapping[str, Any], deck: tuple[int, ...]) -> dict[str, Any]:
        """The shared fields' values for `config` played with `deck`."""
        players = int(config["players"])
        return {
            "players": players,
            "rounds": int(config["rounds"]),
            "starting_chips": int(config["starting_chips"]),
            "finish": finish_counts(config),
            "deck": deck,
            "decks": 1 if players <= 4 else 2,
            "ante": int(config["ante"]),
            "jockey_pot": bool(config["jockey_pot"]),
            "repeat_rule": REPEAT_RULES.index(config["repeat_scratch"]),
            "scratch_values": tuple(int(v) for v in config["scratch_values"]),
            "race_start": RACE_STARTS.index(config["race_starts"]),
            "split_payout": config["payout"] == "split",
            "gather_reset": config["reset"] == "gather",
            "first_dealer": int(config["first_dealer"]),
            "rotate_dealer": bool(config["rotate_dealer"]),
            "open_hands": bool(config["open_hands"]),
            "robertson": bool(config.get("robertson")),
            "trade": trade_settings(config),
        }

    def numbers(self) -> Array:
        """The spec as one int64 array (the kernel's single settings argument)."""
        row = [0] * SPEC_SIZE
        row[PLAYERS], row[ROUNDS], row[CHIPS] = self.players, self.rounds, self.starting_chips
        row[ANTE], row[JOCKEY], row[REPEAT] = self.ante, int(self.jockey_pot), self.repeat_rule
        row[START], row[SPLIT], row[DECKS] = self.race_start, int(self.split_payout), self.decks
        row[DEALER], row[ROTATE], row[OPEN] = (
            self.first_dealer,
            int(self.rotate_dealer),
            int(self.open_hands),
        )
        row[GATHER], row[ROBERTSON] = int(self.gather_reset), int(self.robertson)
        row[TRADE] = self.trade[0]
        row[VALUES : VALUES + 4] = self.scratch_values
        row[FINISH + 2 : FINISH + 13] = self.finish
        row[DECK : DECK + RANKS] = self.deck
        self.more_numbers(row)
        return np.array(row, dtype=np.int64)

    def more_numbers(self, row: list[int]) -> None:
        """The kernel's own settings into `row` (none here)."""


@dataclass(frozen=True)
class AdvancedSpec(DeckSpec):
    """The numbers the Advanced kernel needs: the shared ones, the hand size and the draft."""

    hand: int  # cards dealt to each seat
    draft: bool

    name = "advanced"

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> AdvancedSpec | None:
        """The spec for a config the kernel plays exactly, or None."""
        unsupported = (
            config.get("deck") != "advanced"
            or config.get("market")
            or config.get("husted")
            or config.get("elimination")
            or config.get("reset") != "gather"
        )
        if unsupported:
            return None
        suits, jokers, hand = ADVANCED_DECKS[int(config["players"])]
        deck = tuple(jokers if rank == JOKER else suits for rank in range(RANKS))
        return cls(**cls.common(config, deck), hand=hand, draft=bool(config["draft"]))

    def more_numbers(self, row: list[int]) -> None:
        row[HAND], row[DRAFT] = self.hand, int(self.draft)
