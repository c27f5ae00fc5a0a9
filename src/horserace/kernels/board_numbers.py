"""The whole-game kernel's numbers for the dice board game: which configs it plays (no house
rules, no response cards, no antes), its settings as one array, and the outcome rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from horserace.kernels import Array

REPEAT_RULES = ("move", "reroll", "chain")
RACE_STARTS = ("after-last-scratch", "last-scratcher", "dealer-left")


def house_rule_on(config: Mapping[str, Any]) -> bool:
    """Whether the table plays a house rule (whose seats decide: not this kernel's games)."""
    return bool(
        config.get("robertson")
        or config.get("market")
        or config.get("husted")
        or config.get("trade_window", "none") != "none"
    )


def finish_counts(config: Mapping[str, Any]) -> tuple[int, ...]:
    """The advances each horse 2..12 needs to win: its lane's slots and one more."""
    lanes = config["board"]["lanes"]
    return tuple(int(lanes[str(horse)]) + 1 for horse in range(2, 13))


@dataclass(frozen=True)
class BoardGameSpec:
    """The numbers a whole-game kernel needs, read from a board config's plain data."""

    players: int
    rounds: int
    starting_chips: int
    finish: tuple[int, ...]  # advances to finish, horses 2..12
    decks: int
    repeat_rule: int  # index into REPEAT_RULES
    scratch_values: tuple[int, int, int, int]
    race_start: int  # index into RACE_STARTS
    split_payout: bool  # split: pot // cards held; share: pot // (4 x decks)
    gather_reset: bool  # gather: all cards back each round; else hands pass left
    elimination: bool
    leftovers_discarded: bool  # Northwoods: the cards left after the deal go to the discards
    first_dealer: int
    rotate_dealer: bool

    name = "board-game"  # the kernel's name in a simulation's JSON

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> BoardGameSpec | None:
        """The spec for a config the kernel plays exactly, or None (the engine must play it)."""
        decisions = (
            config.get("draft")
            or config.get("ante")
            or config.get("jockey_pot")
            or house_rule_on(config)
            or config.get("deck") not in ("classic", "northwoods")
        )
        if decisions:
            return None
        players = int(config["players"])
        northwoods = config["deck"] == "northwoods"
        return cls(
            players=players,
            rounds=int(config["rounds"]),
            starting_chips=int(config["starting_chips"]),
            finish=finish_counts(config),
            decks=1 if northwoods or players <= 4 else 2,
            repeat_rule=REPEAT_RULES.index(config["repeat_scratch"]),
            scratch_values=tuple(int(v) for v in config["scratch_values"]),  # type: ignore[arg-type]
            race_start=RACE_STARTS.index(config["race_starts"]),
            split_payout=config["payout"] == "split",
            gather_reset=config["reset"] == "gather",
            elimination=bool(config["elimination"]),
            leftovers_discarded=northwoods,
            first_dealer=int(config["first_dealer"]),
            rotate_dealer=bool(config["rotate_dealer"]),
        )

    def numbers(self) -> Array:
        """The spec as one int64 array (the kernel's single settings argument)."""
        return np.array(
            [
                self.players,
                self.rounds,
                self.starting_chips,
                self.decks,
                self.repeat_rule,
                self.race_start,
                int(self.split_payout),
                int(self.gather_reset),
                int(self.elimination),
                int(self.leftovers_discarded),
                self.first_dealer,
                int(self.rotate_dealer),
                *self.scratch_values,
                0,
                0,
                *self.finish,
            ],
            dtype=np.int64,
        )


# Positions in BoardGameSpec.numbers(); finish[horse] is at FINISH + horse.
(PLAYERS, ROUNDS, CHIPS, DECKS, REPEAT, START, SPLIT, GATHER, ELIM, LEFTOVERS, DEALER, ROTATE) = (
    range(12)
)
VALUES, FINISH = 12, 16


@dataclass(frozen=True)
class GameOutcomes:
    """Per game: chips per seat, the round each seat went out (0 = still in), pot left, races;
    per race (games x rounds, the first `races[g]` of row g used): winner, rolls, chips paid."""

    chips: Array
    out_round: Array
    pot_left: Array
    races: Array
    winner: Array
    rolls: Array
    paid: Array

    @classmethod
    def zeros(cls, games: int, players: int, rounds: int) -> GameOutcomes:
        """Zeroed rows for `games` games."""
        per_seat, per_race = (games, players), (games, rounds)
        return cls(
            chips=np.zeros(per_seat, dtype=np.int64),
            out_round=np.zeros(per_seat, dtype=np.int64),
            pot_left=np.zeros(games, dtype=np.int64),
            races=np.zeros(games, dtype=np.int64),
            winner=np.zeros(per_race, dtype=np.int64),
            rolls=np.zeros(per_race, dtype=np.int64),
            paid=np.zeros(per_race, dtype=np.int64),
        )
