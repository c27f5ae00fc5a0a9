"""Classic Mode's table options, state, per-seat view and actions, as immutable values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from horserace.components.board import DEFAULT_BOARD, HORSES, Board
from horserace.components.cards import RankCounts, parse_rank, rank_text
from horserace.core.errors import ConfigError, InvalidAction
from horserace.core.ledger import Ledger

MIN_PLAYERS, MAX_PLAYERS = 2, 12
SCRATCH_LINES = 4
REPEAT_RULES = ("move", "reroll")


@dataclass(frozen=True)
class ClassicConfig:
    """Table options. `repeat_scratch`, `rotate_dealer` and `open_hands` are the other readings
    of gaps in the source text (see docs/rules/classic.md)."""

    players: int = 4
    rounds: int = 8
    starting_chips: int = 100
    board: Board = DEFAULT_BOARD
    repeat_scratch: str = "move"
    rotate_dealer: bool = True
    open_hands: bool = True
    first_dealer: int = 0

    def __post_init__(self) -> None:
        _whole("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        _whole("rounds", self.rounds, 1, 10_000)
        _whole("starting_chips", self.starting_chips, 0, 10**12)
        _whole("first_dealer", self.first_dealer, 0, self.players - 1)
        if self.repeat_scratch not in REPEAT_RULES:
            raise ConfigError(f"repeat_scratch must be one of {', '.join(REPEAT_RULES)}")
        for name in ("rotate_dealer", "open_hands"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false")

    @property
    def decks(self) -> int:
        """One 44-card deck for four or fewer players, two above."""
        return 1 if self.players <= 4 else 2


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {value}")


def classic_config(options: Mapping[str, Any]) -> ClassicConfig:
    """Options from a CLI, a record or a lobby -> a validated config; unknown keys are errors."""
    known = {f.name for f in fields(ClassicConfig)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ConfigError(
            f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    values = dict(options)
    board = values.get("board")
    if isinstance(board, Mapping):
        values["board"] = Board.from_mapping(board)
    elif board is not None and not isinstance(board, Board):
        raise ConfigError("board must be a board table (name and lanes)")
    return ClassicConfig(**values)


def classic_config_dict(config: ClassicConfig) -> dict[str, Any]:
    data = {f.name: getattr(config, f.name) for f in fields(ClassicConfig)}
    data["board"] = config.board.to_dict()
    return data


class Phase(Enum):
    DEAL = "deal"
    SCRATCH = "scratch"
    RACE = "race"
    OVER = "over"


@dataclass(frozen=True)
class ClassicState:
    """Everything about the table; hidden parts (deck, others' hands) leave only via the view."""

    config: ClassicConfig
    round: int
    dealer: int
    phase: Phase
    hands: tuple[RankCounts, ...]
    deck: RankCounts  # undealt cards; once the deal ends, the stub
    to_deal: int
    deal_to: int
    discards: RankCounts
    lines: tuple[int, ...]  # horse on scratch line k at index k - 1, 0 when empty
    scratch_discards: tuple[RankCounts, ...]  # per seat: cards given up to scratches this round
    scratch_rolls: int
    positions: tuple[int, ...]  # advances made, per horse 2..12
    roller: int
    rolling: bool  # the roller has called for the dice; chance rolls them next
    ledger: Ledger
    race_rolls: int

    @property
    def pot(self) -> int:
        return self.ledger.balances[self.config.players]

    def line_of(self, horse: int) -> int:
        """The scratch line a horse stands on (1..4), or 0 if it runs."""
        for index, scratched in enumerate(self.lines):
            if scratched == horse:
                return index + 1
        return 0

    def position(self, horse: int) -> int:
        return self.positions[horse - 2]


@dataclass(frozen=True)
class ClassicView:
    """What one seat (or a spectator, seat None) may know: hands only if open or its own."""

    seat: int | None
    round: int
    rounds: int
    dealer: int
    phase: Phase
    chips: tuple[int, ...]
    pot: int
    hands: tuple[RankCounts | None, ...]
    hand_sizes: tuple[int, ...]
    undealt: int
    discards: RankCounts
    lines: tuple[int, ...]
    positions: tuple[int, ...]
    board: Board
    roller: int
    race_rolls: int
    decks: int


@dataclass(frozen=True)
class Roll:
    """A seat calls for the dice; chance then rolls them."""

    @property
    def text(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Deal:
    """Chance: the next card dealt is of `rank` (suits do not matter)."""

    rank: int

    @property
    def text(self) -> str:
        return f"deal {rank_text(self.rank)}"

    @classmethod
    def parse(cls, text: str) -> Deal:
        """'deal 7', or just '7' / 'q' as a person at a real table would type it."""
        words = text.split()
        if len(words) == 2 and words[0] == "deal":
            return cls(parse_rank(words[1]))
        if len(words) == 1:
            return cls(parse_rank(words[0]))
        raise InvalidAction(f"{text!r} is not a deal; write it like 'deal 7' or just 'Q'")


ROLL = Roll()
EMPTY_LINES = (0,) * SCRATCH_LINES
AT_GATE = (0,) * len(HORSES)
