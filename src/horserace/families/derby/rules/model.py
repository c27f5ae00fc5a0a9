"""Derby Challenge's table options, state, view and actions, as immutable values.

Action text forms are short enough to type at a real table: seats say `silk 5`, `horse 12`,
`wager 2` (or just the number); chance outcomes are `d20 7` (or `7`), `odds 4`, `mud shoe` /
`mud blank` (or `shoe` / `blank`), `accel 2`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Self

from horserace.core.errors import ConfigError, InvalidAction
from horserace.core.ledger import Ledger
from horserace.core.options import check_flags, check_whole, known_options
from horserace.core.types import is_whole_number
from horserace.families.derby.rules.race import D20_SIDES, DERBY_HORSES, RaceState
from horserace.families.derby.rules.silks import SILKS
from horserace.families.derby.rules.track import DEFAULT_TRACK, DerbyTrack, resolve_track

MIN_PLAYERS, MAX_PLAYERS = 2, 20
ODDS_SIDES = 6
MAX_SCRATCHES = 2
MULTIPLIERS = {1: 3, 2: 2, 3: 1}  # Win, Place, Show: times wager times odds


@dataclass(frozen=True)
class DerbyConfig:
    """Table options (RULINGS §3). `all_horses` runs the unowned horses as house horses;
    `all_in_single_race` lets a one-race game wager everything (the seed's reading)."""

    players: int = 8
    races: int = 3
    starting_money: int = 8
    max_wager: int = 3
    all_in_single_race: bool = True
    scratches: int = 0
    all_horses: bool = False
    track: DerbyTrack = DEFAULT_TRACK

    def __post_init__(self) -> None:
        check_whole("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_whole("races", self.races, 1, 1000)
        check_whole("starting_money", self.starting_money, 0, 10**9)
        check_whole("max_wager", self.max_wager, 0, 10**9)
        check_whole("scratches", self.scratches, 0, MAX_SCRATCHES)
        check_flags(self)
        if not isinstance(self.track, DerbyTrack):
            raise ConfigError("track must be a track")
        field = len(DERBY_HORSES) if self.all_horses else self.players
        if field - self.scratches < 2:
            raise ConfigError(
                f"{self.scratches} scratch(es) would leave fewer than 2 of {field} horses running"
            )

    @property
    def wager_cap(self) -> int | None:
        """The most one wager may be: max_wager, or None (everything) in a one-race game."""
        if self.races == 1 and self.all_in_single_race:
            return None
        return self.max_wager

    @property
    def bank_float(self) -> int:
        """Enough for every possible payout: per race at most odds 6 x (3+2+1) x the top wager."""
        top = self.starting_money if self.wager_cap is None else self.wager_cap
        return self.races * ODDS_SIDES * sum(MULTIPLIERS.values()) * top

    @property
    def wagers_account(self) -> int:
        return self.players

    @property
    def bank_account(self) -> int:
        return self.players + 1


def derby_config(options: Mapping[str, Any]) -> DerbyConfig:
    """Options from a CLI, a record or a lobby -> a validated config; unknown keys are errors."""
    values = known_options(options, DerbyConfig)
    if "track" in values:
        values["track"] = resolve_track(values["track"])
    return DerbyConfig(**values)


class DerbyPhase(Enum):
    SELECT = "select"  # seats take a silk, then a horse, in the race's order
    ODDS = "odds"  # each seat's odds die
    WAGER = "wager"
    SCRATCH = "scratch"
    RACE = "race"
    OVER = "over"


class _OwnedHorses:
    """What the state and every view answer alike from the horses the seats picked."""

    config: DerbyConfig
    horses: tuple[int | None, ...]  # per seat, None until it picks one
    odds: tuple[int | None, ...]  # per seat, None until rolled

    @property
    def field(self) -> tuple[int, ...]:
        """Horses entered in this race so far (owned ones, or all 20 with house horses)."""
        if self.config.all_horses:
            return DERBY_HORSES
        return tuple(sorted(h for h in self.horses if h is not None))

    def owner(self, horse: int) -> int | None:
        return self.horses.index(horse) if horse in self.horses else None

    def horse_of(self, seat: int) -> int:
        """The horse `seat` picked this race (asked once every seat has picked)."""
        horse = self.horses[seat]
        assert horse is not None, f"seat {seat + 1} has not picked a horse"
        return horse

    def odds_of(self, seat: int) -> int:
        """The odds `seat` rolled for its horse this race (asked once every seat has rolled)."""
        odds = self.odds[seat]
        assert odds is not None, f"seat {seat + 1} has not rolled its odds"
        return odds


@dataclass(frozen=True)
class DerbyState(_OwnedHorses):
    """The whole table. Nothing is hidden, so a view is the same for every seat."""

    config: DerbyConfig
    race_number: int
    phase: DerbyPhase
    order: tuple[int, ...]  # the seats in the order they pick this race
    turn_index: int  # position in `order` (select, odds, wager)
    silks: tuple[int | None, ...]  # per seat, None until it picks one
    horses: tuple[int | None, ...]  # per seat, None until it picks one
    odds: tuple[int | None, ...]  # per seat, None until rolled
    wagers: tuple[int, ...]  # per seat, on the table this race
    scratched: tuple[int, ...]
    scratches_left: int
    race: RaceState | None
    ledger: Ledger
    podiums: tuple[tuple[int, ...], ...] = ()  # Win/Place/Show horses of each race run

    @property
    def seat_to_act(self) -> int:
        return self.order[self.turn_index]

    def money(self, seat: int) -> int:
        return self.ledger.balances[seat]

    @property
    def bank(self) -> int:
        return self.ledger.balances[self.config.bank_account]


@dataclass(frozen=True)
class DerbyView(_OwnedHorses):
    """What a seat (or a spectator, seat None) knows: everything on the table."""

    seat: int | None
    config: DerbyConfig
    race_number: int
    phase: DerbyPhase
    order: tuple[int, ...]
    to_act: int | None
    silks: tuple[int | None, ...]  # None: not picked yet
    horses: tuple[int | None, ...]
    odds: tuple[int | None, ...]
    wagers: tuple[int, ...]
    money: tuple[int, ...]
    bank: int
    scratched: tuple[int, ...]
    scratches_left: int
    race: RaceState | None
    podiums: tuple[tuple[int, ...], ...]

    @property
    def track(self) -> DerbyTrack:
        return self.config.track


# --- actions -------------------------------------------------------------------------------------


def _number(text: str, word: str, low: int, high: int) -> int | None:
    """'word N' or a bare 'N' -> N (None if the text is neither); out of range is an error."""
    parts = text.strip().lower().removeprefix("$").split()
    if len(parts) == 2 and parts[0] == word:
        parts = [parts[1].removeprefix("$")]
    if len(parts) != 1 or not is_whole_number(parts[0]):
        return None
    value = int(parts[0])
    if not low <= value <= high:
        raise InvalidAction(f"{word} must be {low} to {high}, not {value}")
    return value


class _Numbered:
    """An action or chance outcome written 'WORD N', or at the table just 'N'."""

    word: ClassVar[str]  # the text form's first word
    field: ClassVar[str]  # the dataclass field holding N
    low: ClassVar[int] = 1
    high: ClassVar[int]
    what: ClassVar[str]  # 'a silk', for the error that says how to write one
    example: ClassVar[int]

    if TYPE_CHECKING:

        def __init__(self, number: int, /) -> None: ...

    @property
    def text(self) -> str:
        return f"{self.word} {getattr(self, self.field)}"

    @classmethod
    def parse(cls, text: str) -> Self:
        value = _number(text, cls.word, cls.low, cls.high)
        if value is None:
            hint = f"write it like '{cls.word} {cls.example}' or just '{cls.example}'"
            raise InvalidAction(f"{text!r} is not {cls.what}; {hint}")
        return cls(value)


@dataclass(frozen=True)
class ChooseSilk(_Numbered):
    word, field, high, what, example = "silk", "silk", len(SILKS), "a silk", 5
    silk: int


@dataclass(frozen=True)
class ChooseHorse(_Numbered):
    word, field, high, what, example = "horse", "horse", len(DERBY_HORSES), "a horse", 12
    horse: int


@dataclass(frozen=True)
class Wager(_Numbered):
    word, field, low, high, what, example = "wager", "amount", 0, 10**9, "a wager", 2
    amount: int


@dataclass(frozen=True)
class D20Roll(_Numbered):
    """Chance: a twenty-sided die (a race die or a scratch roll)."""

    word, field, high, what, example = "d20", "value", D20_SIDES, "a d20 roll", 7
    value: int


@dataclass(frozen=True)
class OddsDie(_Numbered):
    """Chance: a seat's six-sided odds die."""

    word, field, high, what, example = "odds", "value", ODDS_SIDES, "an odds die", 4
    value: int


@dataclass(frozen=True)
class MudDie:
    """Chance: the mud die shows a horseshoe (out) or a mud splat (stuck)."""

    shoe: bool

    @property
    def text(self) -> str:
        return "mud shoe" if self.shoe else "mud blank"

    @classmethod
    def parse(cls, text: str) -> MudDie:
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "mud":
            words = words[1:]
        if len(words) == 1 and words[0] in ("shoe", "horseshoe", "s", "out"):
            return cls(True)
        if len(words) == 1 and words[0] in ("blank", "splat", "mud", "b", "stuck"):
            return cls(False)
        raise InvalidAction(f"{text!r} is not a mud roll; write 'mud shoe' or 'mud blank'")


@dataclass(frozen=True)
class AccelDie(_Numbered):
    """Chance: the accelerator die's bonus spaces."""

    word, field, high, what, example = "accel", "bonus", 100, "an accelerator roll", 2
    bonus: int
