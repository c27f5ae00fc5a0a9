"""Table options of the dice board game. Classic, Advanced and Northwoods are bundles of these
options (presets), never subclasses; cross-field checks say which combinations make sense."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from horserace.components.board import DEFAULT_BOARD, Board
from horserace.core.errors import ConfigError
from horserace.core.options import (
    check_choice,
    check_flags,
    check_whole,
    known_options,
    plain_options,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 12
SCRATCH_LINES = 4
DECKS = ("classic", "advanced", "northwoods")
REPEAT_RULES = ("move", "reroll", "chain")
RACE_STARTS = ("after-last-scratch", "last-scratcher", "dealer-left")
PAYOUTS = ("share", "split")
RESETS = ("pass-left", "gather")
TRADE_WINDOWS = ("none", "before-scratch", "after-each-scratch", "after-scratch")

# Advanced Mode's deck by player count: (suits, jokers, cards per player), from the source table.
ADVANCED_DECKS: Mapping[int, tuple[int, int, int]] = {
    4: (2, 1, 6),
    5: (2, 2, 5),
    6: (3, 2, 6),
    7: (3, 2, 5),
    8: (4, 2, 6),
    9: (4, 2, 6),
    10: (4, 2, 5),
    11: (5, 2, 6),
    12: (5, 2, 5),
}


@dataclass(frozen=True)
class BoardConfig:
    """Every option; the defaults are Classic Mode. See docs/rules/ for what each one changes."""

    players: int = 4
    rounds: int = 8
    starting_chips: int = 100
    board: Board = DEFAULT_BOARD
    deck: str = "classic"  # classic: 44/88 horse cards; advanced: the seed's table; northwoods: 44
    draft: bool = False  # Advanced: hands are drafted, one card kept per pass
    ante: int = 0  # A: into the Main Pot each round (2A into the Jockey Pot when it is used)
    jockey_pot: bool = False
    repeat_scratch: str = "move"  # a scratched horse rolled again in the scratch phase
    scratch_values: tuple[int, int, int, int] = (1, 2, 3, 4)  # penalty per card, lines 1..4
    race_starts: str = "after-last-scratch"
    payout: str = "share"  # share: pot // cards of a rank, per card; split: pot // cards held
    reset: str = "pass-left"
    elimination: bool = False  # Northwoods: a player holding nothing at a round's end is out
    robertson: bool = False  # four dice in the race, paired by the roller
    trade_window: str = "none"  # Perry: when players may trade cards
    trade_offers: int = 3  # Perry: offers each seat may make in one window
    market: bool = False  # Schellenberg: an extra hand, face up, to buy from after a race roll
    husted: bool = False  # Husted: A, K, jokers kept; two betting rounds and a draw; J/Q/K powers
    rotate_dealer: bool = True
    open_hands: bool = True
    first_dealer: int = 0
    money: str = "chips"  # how amounts are shown: chips, or cents shown as dollars

    def __post_init__(self) -> None:
        check_whole("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_whole("rounds", self.rounds, 1, 10_000)
        check_whole("starting_chips", self.starting_chips, 0, 10**12)
        check_whole("first_dealer", self.first_dealer, 0, self.players - 1)
        check_whole("ante", self.ante, 0, 10**9)
        check_whole("trade_offers", self.trade_offers, 1, 50)
        check_choice("deck", self.deck, DECKS)
        check_choice("repeat_scratch", self.repeat_scratch, REPEAT_RULES)
        check_choice("race_starts", self.race_starts, RACE_STARTS)
        check_choice("payout", self.payout, PAYOUTS)
        check_choice("reset", self.reset, RESETS)
        check_choice("money", self.money, ("chips", "cents"))
        check_choice("trade_window", self.trade_window, TRADE_WINDOWS)
        check_flags(self)
        values = self.scratch_values
        if len(values) != SCRATCH_LINES or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values
        ):
            raise ConfigError("scratch_values must be four whole numbers >= 0")
        self._check_combinations()

    def _check_combinations(self) -> None:
        if self.deck == "advanced" and self.players not in ADVANCED_DECKS:
            raise ConfigError(f"the advanced deck is for 4 to 12 players, not {self.players}")
        if self.draft and self.deck != "advanced":
            raise ConfigError("the draft needs the advanced deck")
        if self.jockey_pot and not self.ante:
            raise ConfigError("the Jockey Pot is paid by the ante: set an ante of 1 or more")
        if self.jockey_pot and self.payout != "split":
            raise ConfigError("the Jockey Pot takes the Main Pot's remainder: use payout split")
        if self.husted and self.open_hands:
            raise ConfigError("Husted's rule plays with hidden hands: open hands cannot go with it")
        if self.husted and (self.deck != "classic" or not self.ante):
            raise ConfigError(
                "Husted's rule is for Classic Mode and needs an ante (--ante 1 or more)"
            )
        if self.market and self.deck != "classic":
            raise ConfigError("the market (Schellenberg) is a Classic Mode rule")
        if self.robertson and self.deck == "northwoods":
            raise ConfigError("Robertson's four dice are for Classic and Advanced, not Northwoods")
        if self.trade_window != "none" and self.deck == "northwoods":
            raise ConfigError("trading (Perry) is for Classic and Advanced, not Northwoods")
        if self.reset == "pass-left" and self.deck != "classic":
            raise ConfigError("passing hands left belongs to the classic deck; use reset gather")

    @property
    def decks(self) -> int:
        """Copies of the 44-card deck (classic deck: one for four or fewer players, two above)."""
        return 1 if self.deck == "northwoods" or self.players <= 4 else 2

    @property
    def penalty_unit(self) -> int:
        """Advanced Mode counts penalties in antes; elsewhere they are chips (Husted's ante is
        only the betting unit)."""
        return self.ante or 1 if self.deck == "advanced" else 1

    @property
    def responses(self) -> bool:
        """Aces and kings answer penalties, jokers move horses: the advanced deck's powers."""
        return self.deck == "advanced"


def board_config(options: Mapping[str, Any]) -> BoardConfig:
    """Options from a CLI, a record or a lobby -> a validated config; unknown keys are errors."""
    values = known_options(options, BoardConfig)
    board = values.get("board")
    if isinstance(board, Mapping):
        values["board"] = Board.from_mapping(board)
    elif board is not None and not isinstance(board, Board):
        raise ConfigError("board must be a board table (name and lanes)")
    if isinstance(values.get("scratch_values"), list):
        values["scratch_values"] = tuple(values["scratch_values"])
    return BoardConfig(**values)


def board_config_dict(config: BoardConfig) -> dict[str, Any]:
    """The config as plain data (what a record holds and the board kernel's spec reads)."""
    return plain_options(config)


CLASSIC: Mapping[str, Any] = {"players": 6}
ADVANCED: Mapping[str, Any] = {
    "players": 6,
    "deck": "advanced",
    "draft": True,
    "ante": 1,
    "jockey_pot": True,
    "repeat_scratch": "chain",
    "race_starts": "last-scratcher",
    "payout": "split",
    "reset": "gather",
    "open_hands": False,
}
NORTHWOODS: Mapping[str, Any] = {
    "players": 4,
    "deck": "northwoods",
    "starting_chips": 200,
    "repeat_scratch": "reroll",
    "scratch_values": (20, 15, 10, 5),
    "race_starts": "dealer-left",
    "payout": "split",
    "reset": "gather",
    "elimination": True,
    "rounds": 50,
    "money": "cents",
}
