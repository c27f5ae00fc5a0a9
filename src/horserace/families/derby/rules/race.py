"""The race itself (RULINGS §3), as a pure component: six d20s a turn, singles before zones,
mud escapes, accelerators, and the finish order with ties running on.

Every die is its own chance step: the six d20s one at a time (singles first), then whatever mud
or accelerator dice the movements call for. Between steps a race always waits for exactly one
kind of die (`RaceState.waiting_for`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from horserace.core.events import Event
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.track import DerbyTrack

DERBY_HORSES: tuple[int, ...] = tuple(range(1, 21))
D20_SIDES = 20
SINGLE_DICE = 2
ZONE_DICE = 4
TURN_DICE = SINGLE_DICE + ZONE_DICE
PODIUM = 3  # Win, Place, Show


@dataclass(frozen=True)
class Move:
    """A movement still to make this turn (`cause`: single, double or zone)."""

    horse: int
    spaces: int
    cause: str


@dataclass(frozen=True)
class MudTry:
    """A horse in the mud called to move `spaces`: try `attempt` of `spaces` comes next."""

    horse: int
    spaces: int
    attempt: int
    cause: str


@dataclass(frozen=True)
class RaceState:
    """Positions are spaces from the start line (0), kept per horse 1..20 (index horse - 1).

    `blocks` lists the finished horses in finishing order, grouped: a block of one has its
    place; a block of two or more is a tie that keeps running until it breaks.
    """

    runners: tuple[int, ...]
    positions: tuple[int, ...] = (0,) * len(DERBY_HORSES)
    stuck: frozenset[int] = frozenset()
    turn: int = 1
    dice: tuple[int, ...] = ()
    last_dice: tuple[int, ...] = ()
    queue: tuple[Move, ...] = ()
    mud_try: MudTry | None = None
    accelerating: int = 0  # the horse waiting for its accelerator roll, 0 if none
    blocks: tuple[tuple[int, ...], ...] = ()

    def position(self, horse: int) -> int:
        return self.positions[horse - 1]

    @property
    def waiting_for(self) -> str:
        """The die rolled next: 'mud', 'accel' or 'd20'."""
        if self.mud_try is not None:
            return "mud"
        if self.accelerating:
            return "accel"
        return "d20"

    @property
    def finished(self) -> frozenset[int]:
        return frozenset(h for block in self.blocks for h in block)

    @property
    def settled(self) -> frozenset[int]:
        """Horses whose place is decided (they no longer move)."""
        return frozenset(block[0] for block in self.blocks if len(block) == 1)

    def moving(self, horse: int) -> bool:
        """A d20 naming this horse moves it: it runs and its place is not yet decided."""
        return horse in self.runners and horse not in self.settled

    @property
    def needed(self) -> int:
        """Places to decide: Win, Place, Show (fewer when fewer horses run)."""
        return min(PODIUM, len(self.runners))

    def places(self) -> dict[int, int]:
        """Horse -> place for every decided place."""
        out: dict[int, int] = {}
        place = 1
        for block in self.blocks:
            if len(block) == 1:
                out[block[0]] = place
            place += len(block)
        return out

    @property
    def over(self) -> bool:
        place = 1
        for block in self.blocks:
            if place > self.needed:
                break
            if len(block) > 1:
                return False
            place += 1
        return place > self.needed

    @property
    def podium(self) -> tuple[int, ...]:
        """Win, Place, Show horses, as far as decided in order (Show alone is no podium)."""
        horses: list[int] = []
        for block in self.blocks:
            if len(block) > 1 or len(horses) == self.needed:
                break
            horses.append(block[0])
        return tuple(horses)


def start_race(runners: tuple[int, ...]) -> RaceState:
    return RaceState(runners=tuple(sorted(runners)))


# --- the dice ----------------------------------------------------------------------------------


def roll_d20(race: RaceState, track: DerbyTrack, value: int) -> tuple[RaceState, list[Event]]:
    """The next of the turn's six d20s; the sixth sets the whole turn moving."""
    dice = (*race.dice, value)
    events: list[Event] = [ev.DieRolled(race.turn, len(dice), value, race.moving(value))]
    race = replace(race, dice=dice)
    if len(dice) < TURN_DICE:
        return race, events
    race = replace(race, queue=turn_moves(race, track))
    return _resolve(race, track, events)


def turn_moves(race: RaceState, track: DerbyTrack) -> tuple[Move, ...]:
    """The turn's movements from its six dice, singles first.

    Both single dice on one horse make one movement of 2. Zone dice move a horse by the zone
    it stands in now, at the start of the turn; several on one horse add up to one movement.
    """
    singles, zones = race.dice[:SINGLE_DICE], race.dice[SINGLE_DICE:]
    moves: list[Move] = []
    if singles[0] == singles[1]:
        if race.moving(singles[0]):
            moves.append(Move(singles[0], 2, "double"))
    else:
        moves += [Move(h, 1, "single") for h in singles if race.moving(h)]
    for horse, count in Counter(zones).items():  # first appearance order
        if race.moving(horse):
            moves.append(Move(horse, count * track.zone_moves(race.position(horse)), "zone"))
    return tuple(moves)


def roll_mud(race: RaceState, track: DerbyTrack, shoe: bool) -> tuple[RaceState, list[Event]]:
    """A horseshoe on try i of k moves the horse k - i + 1 spaces; a splat uses up the try."""
    trying = race.mud_try
    assert trying is not None
    events: list[Event] = [ev.MudRolled(trying.horse, trying.attempt, trying.spaces, shoe)]
    if shoe:
        spaces = trying.spaces - trying.attempt + 1
        race = replace(race, mud_try=None, stuck=race.stuck - {trying.horse})
        race = _land(race, track, trying.horse, spaces, trying.cause, trying.attempt, events)
    elif trying.attempt < trying.spaces:
        race = replace(race, mud_try=replace(trying, attempt=trying.attempt + 1))
        return race, events
    else:
        race = replace(race, mud_try=None)
    return _resolve(race, track, events)


def roll_accelerator(
    race: RaceState, track: DerbyTrack, bonus: int
) -> tuple[RaceState, list[Event]]:
    """The bonus moves on at once; it triggers no accelerator but can end in the mud."""
    horse = race.accelerating
    events: list[Event] = [ev.AcceleratorRolled(horse, bonus)]
    race = replace(race, accelerating=0)
    race = _land(race, track, horse, bonus, "accelerator", 0, events)
    return _resolve(race, track, events)


# --- movement ------------------------------------------------------------------------------------


def _land(
    race: RaceState,
    track: DerbyTrack,
    horse: int,
    spaces: int,
    cause: str,
    mud_try: int,
    events: list[Event],
) -> RaceState:
    """Move `horse` on; passing mud counts as a space, ending on it sticks the horse."""
    start = race.position(horse)
    end = start + spaces
    positions = list(race.positions)
    positions[horse - 1] = end
    race = replace(race, positions=tuple(positions))
    events.append(ev.HorseMoved(horse, start, end, cause, mud_try))
    if track.is_mud(end):
        events.append(ev.StuckInMud(horse, end))
        return replace(race, stuck=race.stuck | {horse})
    if cause != "accelerator" and track.is_accelerator(end):
        return replace(race, accelerating=horse)
    return race


def _resolve(
    race: RaceState, track: DerbyTrack, events: list[Event]
) -> tuple[RaceState, list[Event]]:
    """Make the queued movements until one needs a die; at the turn's end, check the finish."""
    while race.waiting_for == "d20" and race.queue:
        move, rest = race.queue[0], race.queue[1:]
        race = replace(race, queue=rest)
        if move.horse in race.stuck:
            race = replace(race, mud_try=MudTry(move.horse, move.spaces, 1, move.cause))
        else:
            race = _land(race, track, move.horse, move.spaces, move.cause, 0, events)
    if race.waiting_for != "d20" or race.queue or len(race.dice) < TURN_DICE:
        return race, events
    race = _finish_turn(race, track, events)
    return race, events


def _finish_turn(race: RaceState, track: DerbyTrack, events: list[Event]) -> RaceState:
    """After a whole turn: new finishers rank after earlier ones, farther past the line first;
    horses still level keep running, and only their order among themselves is at stake."""
    old = set(race.blocks)
    blocks: list[tuple[int, ...]] = []
    for block in race.blocks:
        blocks += [block] if len(block) == 1 else _split(race, block)
    finished = race.finished
    newcomers = tuple(
        h for h in race.runners if h not in finished and race.position(h) >= track.finish
    )
    blocks += _split(race, newcomers)
    place = 1
    for block in blocks:
        if block not in old:
            space = race.position(block[0])
            if len(block) == 1:
                events.append(ev.HorsePlaced(block[0], place, space - track.finish))
            else:
                events.append(ev.TieRunsOn(block, place, space))
        place += len(block)
    return replace(
        race, blocks=tuple(blocks), turn=race.turn + 1, dice=(), last_dice=race.dice, queue=()
    )


def _split(race: RaceState, horses: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Group horses by position, farthest first (each group in horse order)."""
    spaces = sorted({race.position(h) for h in horses}, reverse=True)
    return [tuple(sorted(h for h in horses if race.position(h) == s)) for s in spaces]


def with_positions(
    race: RaceState, positions: dict[int, int], stuck: frozenset[int] = frozenset()
) -> RaceState:
    """The race with some horses placed on given spaces (scenarios, tests, benchmarks)."""
    spaces = list(race.positions)
    for horse, space in positions.items():
        spaces[horse - 1] = space
    return replace(race, positions=tuple(spaces), stuck=race.stuck | stuck)
