"""Derby Challenge's table options, state, view and actions, as immutable values.

Action text forms are short enough to type at a real table: seats say `silk 5`, `horse 12`,
`wager 2` (or just the number); chance outcomes are `d20 7` (or `7`), `odds 4`, `mud shoe` /
`mud blank` (or `shoe` / `blank`), `accel 2`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from horserace.core.errors import ConfigError, InvalidAction
from horserace.core.ledger import Ledger
from horserace.families.derby.rules.race import D20_SIDES, HORSES, RaceState
from horserace.families.derby.rules.silks import SILKS
from horserace.families.derby.rules.track import DEFAULT_TRACK, Track, resolve_track

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
    track: Track = DEFAULT_TRACK

    def __post_init__(self) -> None:
        _whole("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        _whole("races", self.races, 1, 1000)
        _whole("starting_money", self.starting_money, 0, 10**9)
        _whole("max_wager", self.max_wager, 0, 10**9)
        _whole("scratches", self.scratches, 0, MAX_SCRATCHES)
        for name in ("all_in_single_race", "all_horses"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false")
        if not isinstance(self.track, Track):
            raise ConfigError("track must be a track")
        field = len(HORSES) if self.all_horses else self.players
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


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {value}")


def derby_config(options: Mapping[str, Any]) -> DerbyConfig:
    """Options from a CLI, a record or a lobby -> a validated config; unknown keys are errors."""
    known = {f.name for f in fields(DerbyConfig)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ConfigError(
            f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    values = dict(options)
    if "track" in values:
        values["track"] = resolve_track(values["track"])
    return DerbyConfig(**values)


def derby_config_dict(config: DerbyConfig) -> dict[str, Any]:
    data = {f.name: getattr(config, f.name) for f in fields(DerbyConfig)}
    data["track"] = config.track.to_dict()
    return data


class Phase(Enum):
    SELECT = "select"  # seats take a silk, then a horse, in the race's order
    ODDS = "odds"  # each seat's odds die
    WAGER = "wager"
    SCRATCH = "scratch"
    RACE = "race"
    OVER = "over"


@dataclass(frozen=True)
class DerbyState:
    """The whole table. Nothing is hidden, so a view is the same for every seat."""

    config: DerbyConfig
    race_number: int
    phase: Phase
    order: tuple[int, ...]  # the seats in the order they pick this race
    turn_index: int  # position in `order` (select, odds, wager)
    silks: tuple[int, ...]  # per seat, 0 = none yet
    horses: tuple[int, ...]  # per seat, 0 = none yet
    odds: tuple[int, ...]  # per seat, 0 = not rolled yet
    wagers: tuple[int, ...]  # per seat, on the table this race
    scratched: tuple[int, ...]
    scratches_left: int
    race: RaceState | None
    ledger: Ledger
    podiums: tuple[tuple[int, ...], ...] = ()  # Win/Place/Show horses of each race run

    @property
    def seat_to_act(self) -> int:
        return self.order[self.turn_index]

    @property
    def field(self) -> tuple[int, ...]:
        """Horses entered in this race so far (owned ones, or all 20 with house horses)."""
        if self.config.all_horses:
            return HORSES
        return tuple(sorted(h for h in self.horses if h))

    def owner(self, horse: int) -> int | None:
        for seat, owned in enumerate(self.horses):
            if owned == horse:
                return seat
        return None

    def money(self, seat: int) -> int:
        return self.ledger.balances[seat]

    @property
    def bank(self) -> int:
        return self.ledger.balances[self.config.bank_account]


@dataclass(frozen=True)
class DerbyView:
    """What a seat (or a spectator, seat None) knows: everything on the table."""

    seat: int | None
    config: DerbyConfig
    race_number: int
    phase: Phase
    order: tuple[int, ...]
    to_act: int | None
    silks: tuple[int, ...]
    horses: tuple[int, ...]
    odds: tuple[int, ...]
    wagers: tuple[int, ...]
    money: tuple[int, ...]
    bank: int
    scratched: tuple[int, ...]
    scratches_left: int
    race: RaceState | None
    podiums: tuple[tuple[int, ...], ...]

    @property
    def track(self) -> Track:
        return self.config.track

    @property
    def field(self) -> tuple[int, ...]:
        if self.config.all_horses:
            return HORSES
        return tuple(sorted(h for h in self.horses if h))

    def owner(self, horse: int) -> int | None:
        return self.horses.index(horse) if horse in self.horses else None


# --- actions -------------------------------------------------------------------------------------


def _number(text: str, word: str, low: int, high: int) -> int | None:
    """'word N' or a bare 'N' -> N (None if the text is neither); out of range is an error."""
    parts = text.strip().lower().removeprefix("$").split()
    if len(parts) == 2 and parts[0] == word:
        parts = [parts[1].removeprefix("$")]
    if len(parts) != 1 or not parts[0].isdigit():
        return None
    value = int(parts[0])
    if not low <= value <= high:
        raise InvalidAction(f"{word} must be {low} to {high}, not {value}")
    return value


@dataclass(frozen=True)
class ChooseSilk:
    silk: int

    @property
    def text(self) -> str:
        return f"silk {self.silk}"

    @classmethod
    def parse(cls, text: str) -> ChooseSilk:
        value = _number(text, "silk", 1, len(SILKS))
        if value is None:
            raise InvalidAction(f"{text!r} is not a silk; write it like 'silk 5' or just '5'")
        return cls(value)


@dataclass(frozen=True)
class ChooseHorse:
    horse: int

    @property
    def text(self) -> str:
        return f"horse {self.horse}"

    @classmethod
    def parse(cls, text: str) -> ChooseHorse:
        value = _number(text, "horse", 1, len(HORSES))
        if value is None:
            raise InvalidAction(f"{text!r} is not a horse; write it like 'horse 12' or just '12'")
        return cls(value)


@dataclass(frozen=True)
class Wager:
    amount: int

    @property
    def text(self) -> str:
        return f"wager {self.amount}"

    @classmethod
    def parse(cls, text: str) -> Wager:
        value = _number(text, "wager", 0, 10**9)
        if value is None:
            raise InvalidAction(f"{text!r} is not a wager; write it like 'wager 2' or just '2'")
        return cls(value)


@dataclass(frozen=True)
class D20Roll:
    """Chance: a twenty-sided die (a race die or a scratch roll)."""

    value: int

    @property
    def text(self) -> str:
        return f"d20 {self.value}"

    @classmethod
    def parse(cls, text: str) -> D20Roll:
        value = _number(text, "d20", 1, D20_SIDES)
        if value is None:
            raise InvalidAction(f"{text!r} is not a d20 roll; write it like 'd20 7' or just '7'")
        return cls(value)


@dataclass(frozen=True)
class OddsDie:
    """Chance: a seat's six-sided odds die."""

    value: int

    @property
    def text(self) -> str:
        return f"odds {self.value}"

    @classmethod
    def parse(cls, text: str) -> OddsDie:
        value = _number(text, "odds", 1, ODDS_SIDES)
        if value is None:
            raise InvalidAction(f"{text!r} is not an odds die; write it like 'odds 4' or just '4'")
        return cls(value)


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
class AccelDie:
    """Chance: the accelerator die's bonus spaces."""

    bonus: int

    @property
    def text(self) -> str:
        return f"accel {self.bonus}"

    @classmethod
    def parse(cls, text: str) -> AccelDie:
        value = _number(text, "accel", 1, 100)
        if value is None:
            raise InvalidAction(f"{text!r} is not an accelerator roll; write it like 'accel 2'")
        return cls(value)
