"""The Derby kernels' inputs and outputs as numbers: a track, a race state (from the start line
or in the middle of a turn) and a sample of races.

Per-horse arrays are indexed by horse 1..20 (0 unused). A race under way keeps its dice down,
a mud try or an accelerator roll, and the movements queued after them in `RaceStart.pending`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from horserace.families.derby.rules.race import DERBY_HORSES, RaceState
from horserace.families.derby.rules.track import DerbyTrack
from horserace.kernels import Array

__all__ = ["RaceSample", "RaceStart", "TrackNumbers", "race_start"]

FIELD = len(
    DERBY_HORSES
)  # horses 1..20, one a face of the d20; arrays are indexed by horse (0 unused)
# rows of the start array (the first five) and of the work space: then the finish check's
# base place, the horses a die moves (running, place not settled), the runners' numbers, the
# dice, and per space whether a landing there needs a look (mud, accelerator, the finish)
POS, STUCK, RUNNER, RANK, SETTLED, BASE, ACTIVE, IDS, DICE_ROW, EVENT = range(10)
ROWS = 10
# the start's pending numbers: [dice down, d1..d6, mud horse, spaces, attempt, accel horse,
# queued moves, then (horse, spaces) pairs]
DICE_DOWN, DICE, MUD_HORSE, MUD_SPACES, MUD_ATTEMPT = 0, 1, 7, 8, 9
ACCEL, QUEUED, QUEUE = 10, 11, 12


@dataclass(frozen=True)
class TrackNumbers:
    """A track as the kernel reads it: per space 0..finish its zone value, mud and
    accelerator flags; the mud die's faces and the accelerator die's faces."""

    finish: int
    zone: Array
    mud: Array
    accel: Array
    shoe: int
    blank: int
    faces: Array

    @classmethod
    def of(cls, track: DerbyTrack) -> TrackNumbers:
        spaces = range(track.finish + 1)
        return cls(
            finish=track.finish,
            zone=np.array([track.zone_moves(s) for s in spaces], dtype=np.int64),
            mud=np.array([track.is_mud(s) for s in spaces], dtype=np.int64),
            accel=np.array([track.is_accelerator(s) for s in spaces], dtype=np.int64),
            shoe=track.mud_shoe,
            blank=track.mud_blank,
            faces=np.array(track.accelerator_faces, dtype=np.int64),
        )

    def arrays(self) -> tuple[np.int64, Array, Array, Array, Array, np.int64, np.int64]:
        """The track as the kernels take it, one argument: (finish, zone, mud, accel, faces,
        shoe, blank)."""
        return (
            np.int64(self.finish), self.zone, self.mud, self.accel, self.faces,
            np.int64(self.shoe), np.int64(self.blank),
        )  # fmt: skip


@dataclass(frozen=True)
class RaceStart:
    """Where the kernel's races start: per-horse rows (position, stuck, runner, rank, settled)
    and the turn under way (dice down, a mud try, an accelerator roll, queued moves)."""

    horses: Array  # (6, 21)
    pending: Array
    turn: int  # turns finished before this state
    runners: tuple[int, ...]


def race_start(race: RaceState) -> RaceStart:
    """The kernel's form of a race state (from the start line or in the middle of a turn)."""
    horses = np.zeros((6, FIELD + 1), dtype=np.int64)
    for horse in race.runners:
        horses[POS, horse] = race.position(horse)
        horses[STUCK, horse] = horse in race.stuck
        horses[RUNNER, horse] = 1
    place = 1
    for block in race.blocks:
        for horse in block:
            horses[RANK, horse] = place
            horses[SETTLED, horse] = len(block) == 1
        place += len(block)
    queue = race.queue
    pending = np.zeros(QUEUE + 2 * len(queue), dtype=np.int64)
    pending[DICE_DOWN] = len(race.dice)
    pending[DICE : DICE + len(race.dice)] = race.dice
    if race.mud_try is not None:
        trying = race.mud_try
        pending[MUD_HORSE : MUD_ATTEMPT + 1] = (trying.horse, trying.spaces, trying.attempt)
    pending[ACCEL] = race.accelerating
    pending[QUEUED] = len(queue)
    for index, move in enumerate(queue):
        pending[QUEUE + 2 * index : QUEUE + 2 * index + 2] = (move.horse, move.spaces)
    return RaceStart(horses, pending, race.turn - 1, race.runners)


@dataclass(frozen=True)
class RaceSample:
    """The outcome of simulated races: podium horses (0 = no such place) and turns."""

    podium: Array  # (races, 3)
    turns: Array  # (races,): the race's length in whole turns, as RaceFinished counts it
    runners: tuple[int, ...]
