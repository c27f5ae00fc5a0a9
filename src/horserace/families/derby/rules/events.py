"""What happens at the Derby table, in the words a race caller would use. All of it is public:
Derby has no hidden information (odds dice and wagers lie open beside the silks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from horserace.core.events import WORDS, PublicEvent, seat_name
from horserace.families.derby.rules.silks import silk

PLACE_NAMES = {1: "Win", 2: "Place", 3: "Show"}


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


dollars = WORDS["dollars"]


# --- setting up a race -------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceCalled(PublicEvent):
    """A race begins: who picks first (the previous race's top three, then seat order)."""

    kind = "race-called"
    race: int
    races: int
    order: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        first = seat_name(names, self.order[0]) if self.order else "nobody"
        return f"Race {self.race} of {self.races}: {first} picks first"


@dataclass(frozen=True)
class SilkChosen(PublicEvent):
    kind = "silk-chosen"
    says = "{seat:seat} takes silk {silk} ({silk_name})"
    seat: int
    silk: int

    @property
    def silk_name(self) -> str:
        return silk(self.silk).name


@dataclass(frozen=True)
class HorseChosen(PublicEvent):
    kind = "horse-chosen"
    says = "{seat:seat} takes horse {horse}"
    seat: int
    horse: int


@dataclass(frozen=True)
class OddsRolled(PublicEvent):
    kind = "odds-rolled"
    says = "{seat:seat} rolls odds {odds} for horse {horse}"
    seat: int
    horse: int
    odds: int


@dataclass(frozen=True)
class WagerPlaced(PublicEvent):
    kind = "wager-placed"
    says = "{seat:seat} wagers {amount:dollars} on horse {horse}"
    seat: int
    horse: int
    amount: int


@dataclass(frozen=True)
class ScratchRolled(PublicEvent):
    """A scratch d20; `scratched` is False when it named no running horse (rolled again)."""

    kind = "scratch-rolled"
    value: int
    scratched: bool

    def describe(self, names: Sequence[str]) -> str:
        if self.scratched:
            return f"Scratch roll {self.value}: horse {self.value} is scratched from the race!"
        return f"Scratch roll {self.value}: no horse {self.value} can be scratched, roll again"


@dataclass(frozen=True)
class WagerForfeited(PublicEvent):
    """A scratched horse's wager is left in the pot: the bank keeps it."""

    kind = "wager-forfeited"
    says = (
        "{seat:seat}'s wager of {amount:dollars} on scratched horse {horse} is left in the pot"
        " (the bank keeps it)"
    )
    seat: int
    horse: int
    amount: int


@dataclass(frozen=True)
class RaceStarted(PublicEvent):
    kind = "race-started"
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

    kind = "die-rolled"
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

    kind = "horse-moved"
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
    kind = "stuck-in-mud"
    says = "Horse {horse} is stuck in the mud at space {space}"
    horse: int
    space: int


@dataclass(frozen=True)
class MudRolled(PublicEvent):
    kind = "mud-rolled"
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
    kind = "accelerator-rolled"
    says = "Horse {horse} hits the accelerator: +{bonus}"
    horse: int
    bonus: int


@dataclass(frozen=True)
class HorsePlaced(PublicEvent):
    """A horse's finishing place is decided; `past` = spaces past the finish line."""

    kind = "horse-placed"
    horse: int
    place: int
    past: int

    def describe(self, names: Sequence[str]) -> str:
        label = PLACE_NAMES.get(self.place, ordinal(self.place))
        return f"Horse {self.horse} finishes {ordinal(self.place)} ({label}), {self.past} past"


@dataclass(frozen=True)
class TieRunsOn(PublicEvent):
    """Horses level on or past the line share places `place`.. and keep running."""

    kind = "tie-runs-on"
    horses: tuple[int, ...]
    place: int
    space: int

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(map(str, self.horses))
        return f"Horses {who} are tied for {ordinal(self.place)} at space {self.space}: they run on"


@dataclass(frozen=True)
class RaceFinished(PublicEvent):
    kind = "race-finished"
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

    kind = "payout"
    says = (
        "{seat:seat} keeps {wager:dollars} and wins {winnings:dollars}"
        " ({multiplier} x {wager:dollars} x odds {odds})"
    )
    seat: int
    horse: int
    place: int
    wager: int
    odds: int
    winnings: int

    @property
    def multiplier(self) -> int:
        return 4 - self.place


@dataclass(frozen=True)
class WagerLost(PublicEvent):
    kind = "wager-lost"
    says = (
        "{seat:seat} loses {amount:dollars} on horse {horse}: it is left in the pot"
        " (the bank keeps it)"
    )
    seat: int
    horse: int
    amount: int


@dataclass(frozen=True)
class GameOver(PublicEvent):
    kind = "game-over"
    says = "Game over: {winners:winners} with {best:dollars}"
    winners: tuple[int, ...]
    money: tuple[int, ...]

    @property
    def best(self) -> int:
        return max(self.money) if self.money else 0
