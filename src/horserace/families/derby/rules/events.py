"""What happens at the Derby table, in the words a race caller would use. All of it is public:
Derby has no hidden information (odds dice and wagers lie open beside the silks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from horserace.core.events import PublicEvent, seat_name
from horserace.families.derby.rules.silks import silk

PLACE_NAMES = {1: "Win", 2: "Place", 3: "Show"}


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def dollars(amount: int) -> str:
    return f"${amount}"


# --- setting up a race -------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceCalled(PublicEvent):
    """A race begins: who picks first (the previous race's top three, then seat order)."""

    kind: ClassVar[str] = "race-called"
    race: int
    races: int
    order: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        first = seat_name(names, self.order[0]) if self.order else "nobody"
        return f"Race {self.race} of {self.races}: {first} picks first"


@dataclass(frozen=True)
class SilkChosen(PublicEvent):
    kind: ClassVar[str] = "silk-chosen"
    seat: int
    silk: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} takes silk {self.silk} ({silk(self.silk).name})"


@dataclass(frozen=True)
class HorseChosen(PublicEvent):
    kind: ClassVar[str] = "horse-chosen"
    seat: int
    horse: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} takes horse {self.horse}"


@dataclass(frozen=True)
class OddsRolled(PublicEvent):
    kind: ClassVar[str] = "odds-rolled"
    seat: int
    horse: int
    odds: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} rolls odds {self.odds} for horse {self.horse}"


@dataclass(frozen=True)
class WagerPlaced(PublicEvent):
    kind: ClassVar[str] = "wager-placed"
    seat: int
    horse: int
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} wagers {dollars(self.amount)} on horse {self.horse}"


@dataclass(frozen=True)
class ScratchRolled(PublicEvent):
    """A scratch d20; `scratched` is False when it named no running horse (rolled again)."""

    kind: ClassVar[str] = "scratch-rolled"
    value: int
    scratched: bool

    def describe(self, names: Sequence[str]) -> str:
        if self.scratched:
            return f"Scratch roll {self.value}: horse {self.value} is scratched from the race!"
        return f"Scratch roll {self.value}: no horse {self.value} can be scratched, roll again"


@dataclass(frozen=True)
class WagerForfeited(PublicEvent):
    """A scratched horse's wager is left in the pot: the bank keeps it."""

    kind: ClassVar[str] = "wager-forfeited"
    seat: int
    horse: int
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{seat_name(names, self.seat)}'s wager of {dollars(self.amount)} on scratched"
            f" horse {self.horse} is left in the pot (the bank keeps it)"
        )


@dataclass(frozen=True)
class RaceStarted(PublicEvent):
    kind: ClassVar[str] = "race-started"
    race: int
    runners: tuple[int, ...]
    house: tuple[int, ...]  # running horses nobody owns

    def describe(self, names: Sequence[str]) -> str:
        field = ", ".join(map(str, self.runners))
        return f"Race {self.race} is off! Running: {field}"


# --- the race itself -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DieRolled(PublicEvent):
    """One of the six d20s of a turn: dice 1-2 are singles, 3-6 zone dice."""

    kind: ClassVar[str] = "die-rolled"
    turn: int
    die: int
    value: int
    runs: bool  # the number names a horse that moves in this race

    @property
    def single(self) -> bool:
        return self.die <= 2

    def describe(self, names: Sequence[str]) -> str:
        what = "single" if self.single else "zone"
        tail = "" if self.runs else " (no move)"
        return f"Turn {self.turn}, {what} die: {self.value}{tail}"


@dataclass(frozen=True)
class HorseMoved(PublicEvent):
    """One movement: `cause` is single, double, zone or accelerator; `mud_try` > 0 when the
    horse got out of the mud on that try (and so moved less)."""

    kind: ClassVar[str] = "horse-moved"
    horse: int
    start: int
    end: int
    cause: str
    mud_try: int

    def describe(self, names: Sequence[str]) -> str:
        spaces = self.end - self.start
        how = {"double": "double single", "accelerator": "accelerator"}.get(self.cause, self.cause)
        mud = f", out of the mud on try {self.mud_try}" if self.mud_try else ""
        return f"Horse {self.horse} moves {spaces} ({how}{mud}) to space {self.end}"


@dataclass(frozen=True)
class StuckInMud(PublicEvent):
    kind: ClassVar[str] = "stuck-in-mud"
    horse: int
    space: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Horse {self.horse} is stuck in the mud at space {self.space}"


@dataclass(frozen=True)
class MudRolled(PublicEvent):
    kind: ClassVar[str] = "mud-rolled"
    horse: int
    attempt: int
    tries: int
    shoe: bool

    def describe(self, names: Sequence[str]) -> str:
        face = "horseshoe" if self.shoe else "mud splat"
        tail = "" if self.shoe or self.attempt < self.tries else ": stays in the mud"
        return f"Horse {self.horse} mud roll {self.attempt}/{self.tries}: {face}{tail}"


@dataclass(frozen=True)
class AcceleratorRolled(PublicEvent):
    kind: ClassVar[str] = "accelerator-rolled"
    horse: int
    bonus: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Horse {self.horse} hits the accelerator: +{self.bonus}"


@dataclass(frozen=True)
class HorsePlaced(PublicEvent):
    """A horse's finishing place is decided; `past` = spaces past the finish line."""

    kind: ClassVar[str] = "horse-placed"
    horse: int
    place: int
    past: int

    def describe(self, names: Sequence[str]) -> str:
        label = PLACE_NAMES.get(self.place, ordinal(self.place))
        return f"Horse {self.horse} finishes {ordinal(self.place)} ({label}), {self.past} past"


@dataclass(frozen=True)
class TieRunsOn(PublicEvent):
    """Horses level on or past the line share places `place`.. and keep running."""

    kind: ClassVar[str] = "tie-runs-on"
    horses: tuple[int, ...]
    place: int
    space: int

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(map(str, self.horses))
        return f"Horses {who} are tied for {ordinal(self.place)} at space {self.space}: they run on"


@dataclass(frozen=True)
class RaceFinished(PublicEvent):
    kind: ClassVar[str] = "race-finished"
    race: int
    podium: tuple[int, ...]  # Win, Place, Show horses
    turns: int

    def describe(self, names: Sequence[str]) -> str:
        parts = [f"{PLACE_NAMES[i + 1]} {h}" for i, h in enumerate(self.podium)]
        return f"Race {self.race} over after {self.turns} turns: " + ", ".join(parts)


# --- money -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayoutMade(PublicEvent):
    """The stake comes back and the bank pays multiplier x wager x odds."""

    kind: ClassVar[str] = "payout"
    seat: int
    horse: int
    place: int
    wager: int
    odds: int
    winnings: int

    def describe(self, names: Sequence[str]) -> str:
        mult = 4 - self.place
        return (
            f"{seat_name(names, self.seat)} keeps {dollars(self.wager)} and wins"
            f" {dollars(self.winnings)} ({mult} x {dollars(self.wager)} x odds {self.odds})"
        )


@dataclass(frozen=True)
class WagerLost(PublicEvent):
    kind: ClassVar[str] = "wager-lost"
    seat: int
    horse: int
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{seat_name(names, self.seat)} loses {dollars(self.amount)} on horse {self.horse}:"
            " it is left in the pot (the bank keeps it)"
        )


@dataclass(frozen=True)
class GameOver(PublicEvent):
    kind: ClassVar[str] = "game-over"
    winners: tuple[int, ...]
    money: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(seat_name(names, s) for s in self.winners)
        verb = "share the win" if len(self.winners) > 1 else "wins"
        best = max(self.money) if self.money else 0
        return f"Game over: {who} {verb} with {dollars(best)}"
