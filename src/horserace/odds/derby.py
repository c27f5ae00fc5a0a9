"""Derby odds: each horse's chance to finish 1st, 2nd and 3rd from any state of the table.

Before a race the answer is exact: every horse of the field starts on the start line, so the
horses are exchangeable and each has 1/field of every place (a pending scratch changes nothing:
it removes each horse with the same chance). Once horses have moved, a NumPy Monte Carlo kernel
plays thousands of races at once from the current state, turn by turn, with 95% intervals.

The kernel follows the rules engine (`rules/derby/race.py`) step for step: singles before zones,
a double as one movement of 2, zone moves by the zone at the start of the turn, mud tries with
shrinking movement, accelerators on an exact landing (the bonus never chains), and the finish
order with ties running on. The tests hold it to the engine within 4 sigma.

Randomness comes in separate streams (d20s, special dice, scratches), all from one seed: the
d20s of race i in turn t are the same whatever the track, so a track without mud or
accelerators can be raced on exactly the same dice (`paired` comparisons in simulate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from horserace.rules.derby.model import DerbyState, DerbyView, Phase
from horserace.rules.derby.race import (
    HORSES,
    PODIUM,
    SINGLE_DICE,
    TURN_DICE,
    RaceState,
    start_race,
)
from horserace.rules.derby.track import Track
from horserace.simulate.stats import Proportion

DEFAULT_SAMPLES = 4000
MAX_TURNS = 100_000

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class PlaceOdds:
    """P(place k) per horse for k = 1..3, from `samples` races (0 samples = exact)."""

    horses: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...]  # chances[i][k - 1]: horses[i] finishing k-th
    samples: int
    mean_turns: float | None = None  # the race's expected length, when simulated

    @property
    def exact(self) -> bool:
        return self.samples == 0

    def chance(self, horse: int, place: int) -> float:
        if horse not in self.horses:
            return 0.0
        return self.chances[self.horses.index(horse)][place - 1]

    def win(self, horse: int) -> float:
        return self.chance(horse, 1)

    def in_money(self, horse: int) -> float:
        """P(Win, Place or Show)."""
        return sum(self.chance(horse, k) for k in range(1, PODIUM + 1))

    def ci95(self, horse: int, place: int) -> tuple[float, float]:
        """Wilson 95% interval of one chance (a point when exact)."""
        p = self.chance(horse, place)
        if self.exact:
            return (p, p)
        return Proportion(round(p * self.samples), self.samples).wilson95()


def exact_start_odds(field: Sequence[int], scratches: int = 0) -> dict[int, Fraction]:
    """P(any given place k <= min(3, runners)) for each horse of a field at the start line.

    By symmetry every horse has the same chance of every place: 1/(field - scratches) if it
    runs, and it runs with chance (field - scratches)/field, so 1/field in all."""
    size = len(field)
    return {horse: Fraction(1, size) for horse in field}


# --- the kernel ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceSample:
    """The outcome of `samples` simulated races: podium horses (0 = no such place) and turns."""

    podium: IntArray  # (samples, 3)
    turns: IntArray  # (samples,): the race's length in whole turns, as RaceFinished counts it
    runners: tuple[int, ...]


class _PerHorse:
    """One special die per race and horse: the j-th roll a horse makes in race i is the same
    whatever happened before it, so paired races share their mud and accelerator rolls as far
    as they can. Rolls come in blocks of BLOCK per horse, block b always from the b-th child of
    the die's seed, drawn only when some horse first needs it."""

    BLOCK = 4

    def __init__(
        self,
        seed: np.random.SeedSequence,
        shape: tuple[int, int],
        draw: Callable[[np.random.Generator, tuple[int, int, int]], IntArray],
    ) -> None:
        self._seed = seed
        self._shape = shape
        self._draw = draw
        self._rolls: npt.NDArray[np.int32] = np.zeros((*shape, 0), dtype=np.int32)
        self._used = np.zeros(shape, dtype=np.int64)

    def take(self, rows: IntArray, mask: BoolArray) -> IntArray:
        """The next roll of every (active race, column) cell in `mask`, in row-major order."""
        r, c = np.nonzero(mask)
        ids = rows[r]
        index = self._used[ids, c]
        self._used[ids, c] += 1
        while self._rolls.shape[2] <= int(index.max()):
            generator = np.random.Generator(np.random.PCG64(self._seed.spawn(1)[0]))
            values = self._draw(generator, (*self._shape, self.BLOCK))
            block = np.minimum(values, 2**31 - 1).astype(np.int32)
            self._rolls = np.concatenate((self._rolls, block), axis=2)
        return self._rolls[ids, c, index].astype(np.int64)


# pos, stuck, rank, settled, runner: one row per race, one column per runner (+ the dummy)
_State = tuple[IntArray, BoolArray, IntArray, BoolArray, BoolArray]


class _Kernel:
    """Arrays over (active races, columns); column j is horse `runners[j]`, plus one dummy
    column that every number not running points at."""

    def __init__(self, track: Track, runners: tuple[int, ...], samples: int, seed: int) -> None:
        self.track = track
        self.runners = runners
        self.columns = len(runners) + 1
        lookup = np.full(len(HORSES) + 1, len(runners), dtype=np.int64)
        for column, horse in enumerate(runners):
            lookup[horse] = column
        self.lookup = lookup
        size = track.finish + 1
        self.mud = np.zeros(size, dtype=np.bool_)
        self.accel = np.zeros(size, dtype=np.bool_)
        self.mud[list(track.mud)] = True
        self.accel[list(track.accelerators)] = True
        self.zone = np.array([track.zone_moves(s) for s in range(size)], dtype=np.int64)
        self.faces = np.array(track.accelerator_faces, dtype=np.int64)
        d20, mud, accel, scratch = np.random.SeedSequence(seed).spawn(4)
        self.d20 = np.random.Generator(np.random.PCG64(d20))
        self.scratch = np.random.Generator(np.random.PCG64(scratch))
        shape = (samples, self.columns)
        shoe = track.mud_shoe / (track.mud_shoe + track.mud_blank)
        self.mud_tries = _PerHorse(mud, shape, lambda g, size: g.geometric(shoe, size=size))
        faces = len(self.faces)
        self.bonus = _PerHorse(accel, shape, lambda g, size: g.integers(faces, size=size))
        self.rows = np.arange(samples)  # the original number of each active race

    def _spot(self, pos: IntArray) -> IntArray:
        return np.minimum(pos, self.track.finish)

    def move(
        self, pos: IntArray, stuck: BoolArray, amount: IntArray, bonus: bool = False
    ) -> tuple[IntArray, BoolArray]:
        """One movement of `amount` (0 = none) for every cell, as race._land does it."""
        called = amount > 0
        if not called.any():
            return pos, stuck
        trying = called & stuck
        if trying.any():  # draw only for the horses in the mud that are called
            tries = np.zeros_like(amount)
            tries[trying] = self.mud_tries.take(self.rows, trying)
            out = trying & (tries <= amount)
            amount = np.where(trying, np.where(out, amount - tries + 1, 0), amount)
            stuck = stuck & ~out
        landed = amount > 0
        pos = pos + amount
        mud = landed & self.mud[self._spot(pos)]
        if not bonus:
            boost = landed & self.accel[self._spot(pos)]
            if boost.any():
                pos[boost] += self.faces[self.bonus.take(self.rows, boost)]
                mud |= boost & self.mud[self._spot(pos)]
        return pos, stuck | mud


def _finish_check(
    pos: IntArray, rank: IntArray, settled: BoolArray, runner: BoolArray, finish: int
) -> None:
    """Rank the turn's finishers after earlier ones and split ties by position (in place).

    `rank` is a block's first place (0 = not finished); a block of one is settled."""
    new = runner & (pos >= finish) & (rank == 0)
    open_tie = (rank > 0) & ~settled
    candidates = new | open_tie
    rows = np.flatnonzero(candidates.any(axis=1))
    if rows.size == 0:
        return
    p, r, c = pos[rows], rank[rows], candidates[rows]
    next_place = 1 + (r > 0).sum(axis=1)
    base = np.where(new[rows], next_place[:, None], r)
    pair = (base[:, :, None] == base[:, None, :]) & c[:, :, None] & c[:, None, :]
    ahead = (pair & (p[:, None, :] > p[:, :, None])).sum(axis=2)
    level = (pair & (p[:, None, :] == p[:, :, None])).sum(axis=2)
    rank[rows] = np.where(c, base + ahead, r)
    settled[rows] |= c & (level == 1)


def simulate_races(
    race: RaceState,
    track: Track,
    samples: int,
    seed: int,
    *,
    scratches: int = 0,
) -> RaceSample:
    """Play `samples` races on from `race` (after `scratches` more scratches among its runners)."""
    runners = race.runners
    kernel = _Kernel(track, runners, samples, seed)
    n, cols = samples, kernel.columns
    start = np.array([race.position(h) for h in runners] + [0], dtype=np.int64)
    pos = np.tile(start, (n, 1))
    stuck = np.tile(np.array([h in race.stuck for h in runners] + [False]), (n, 1))
    runner = np.ones((n, cols), dtype=np.bool_)
    runner[:, -1] = False
    if scratches:  # each race scratches a uniform choice of its runners
        out = np.argsort(kernel.scratch.random((n, len(runners))), axis=1)[:, :scratches]
        runner[np.arange(n)[:, None], out] = False
    needed = min(PODIUM, len(runners) - scratches)
    rank = np.zeros((n, cols), dtype=np.int64)
    settled = np.zeros((n, cols), dtype=np.bool_)
    place = 1
    for block in race.blocks:
        for horse in block:
            rank[:, runners.index(horse)] = place
            settled[:, runners.index(horse)] = len(block) == 1
        place += len(block)
    turns = np.full(n, race.turn - 1, dtype=np.int64)
    state: _State = (pos, stuck, rank, settled, runner)
    prefix = race.dice
    if len(race.dice) == TURN_DICE:  # the dice are down, the turn is being resolved
        state = _finish_pending(kernel, race, state)
        turns += 1
        prefix = ()
    podium = np.zeros((n, PODIUM), dtype=np.int64)
    horse_of = np.array([*runners, 0], dtype=np.int64)
    active = np.arange(n)
    for _ in range(MAX_TURNS):
        rank, settled = state[2], state[3]
        done = (settled & (rank >= 1) & (rank <= needed)).sum(axis=1) == needed
        if done.any():
            rows = active[done]
            for k in range(needed):
                podium[rows, k] = horse_of[np.argmax(settled[done] & (rank[done] == k + 1), axis=1)]
            keep = ~done
            active = active[keep]
            kernel.rows = active
            state = _rows(state, keep)
        if active.size == 0:
            break
        dice = kernel.d20.integers(1, 21, size=(n, TURN_DICE))[active]
        if prefix:
            dice[:, : len(prefix)] = prefix
            prefix = ()
        turns[active] += 1
        state = _turn(kernel, dice, state)
    return RaceSample(podium=podium, turns=turns, runners=runners)


def _rows(state: _State, keep: BoolArray) -> _State:
    pos, stuck, rank, settled, runner = state
    return pos[keep], stuck[keep], rank[keep], settled[keep], runner[keep]


def _turn(kernel: _Kernel, dice: IntArray, state: _State) -> _State:
    """One whole turn for every active race: singles, then zones, then the finish."""
    pos, stuck, rank, settled, runner = state
    moving = runner & ~settled
    races, columns = pos.shape
    cells = kernel.lookup[dice] + (np.arange(races) * columns)[:, None]  # flat (race, column)
    size = races * columns
    singles = np.bincount(cells[:, :SINGLE_DICE].ravel(), minlength=size).reshape(pos.shape)
    zones = np.bincount(cells[:, SINGLE_DICE:].ravel(), minlength=size).reshape(pos.shape)
    singles = singles * moving
    zones = zones * moving * kernel.zone[kernel._spot(pos)]
    pos, stuck = kernel.move(pos, stuck, singles)
    pos, stuck = kernel.move(pos, stuck, zones)
    rank, settled = rank.copy(), settled.copy()
    _finish_check(pos, rank, settled, runner, kernel.track.finish)
    return pos, stuck, rank, settled, runner


def _finish_pending(kernel: _Kernel, race: RaceState, state: _State) -> _State:
    """The rest of a turn whose six dice are down: the mud try or accelerator under way, then
    the queued movements, then the finish check."""
    pos, stuck, rank, settled, runner = state
    runners = race.runners

    def one(horse: int, spaces: int | IntArray, bonus: bool = False) -> tuple[IntArray, BoolArray]:
        amount = np.zeros_like(pos)
        amount[:, runners.index(horse)] = spaces
        return kernel.move(pos, stuck, amount, bonus)

    if race.mud_try is not None:
        trying = race.mud_try
        pos, stuck = one(trying.horse, trying.spaces - trying.attempt + 1)
    elif race.accelerating:
        column = np.arange(pos.shape[1]) == runners.index(race.accelerating)
        draws = kernel.bonus.take(kernel.rows, np.broadcast_to(column, pos.shape))
        pos, stuck = one(race.accelerating, kernel.faces[draws], bonus=True)
    for queued in race.queue:
        pos, stuck = one(queued.horse, queued.spaces)
    rank, settled = rank.copy(), settled.copy()
    _finish_check(pos, rank, settled, runner, kernel.track.finish)
    return pos, stuck, rank, settled, runner


# --- from a table to odds ------------------------------------------------------------------------


def race_odds(
    race: RaceState,
    track: Track,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    scratches: int = 0,
) -> PlaceOdds:
    """P(1st), P(2nd), P(3rd) per runner from a race state (exact at the start line)."""
    runners = race.runners
    fresh = not race.blocks and not race.dice and not any(race.position(h) for h in runners)
    if fresh and not race.stuck:
        exact = exact_start_odds(runners, scratches)
        places = min(PODIUM, len(runners) - scratches)
        chances = tuple(
            tuple(float(exact[h]) if k < places else 0.0 for k in range(PODIUM)) for h in runners
        )
        return PlaceOdds(runners, chances, 0)
    sample = simulate_races(race, track, samples, seed, scratches=scratches)
    counts = np.zeros((len(runners), PODIUM), dtype=np.int64)
    for k in range(PODIUM):
        placed = sample.podium[:, k]
        for index, horse in enumerate(runners):
            counts[index, k] = int(np.count_nonzero(placed == horse))
    chances = tuple(tuple(float(c) / samples for c in row) for row in counts)
    return PlaceOdds(runners, chances, samples, float(sample.turns.mean()))


def table_odds(
    table: DerbyState | DerbyView, *, samples: int = DEFAULT_SAMPLES, seed: int = 0
) -> PlaceOdds | None:
    """The odds the table shows now: none while horses are being picked; from the odds dice
    on, the race from the start line (with the scratches still to roll); then the race."""
    track = table.config.track
    if table.phase in (Phase.ODDS, Phase.WAGER, Phase.SCRATCH):
        field = tuple(h for h in table.field if h not in table.scratched)
        left = table.scratches_left if table.phase is Phase.SCRATCH else table.config.scratches
        return race_odds(start_race(field), track, samples=samples, seed=seed, scratches=left)
    race = table.race
    if race is None or table.phase is Phase.SELECT:
        return None
    if race.over:
        places = race.places()
        chances = tuple(
            tuple(1.0 if places.get(h) == k else 0.0 for k in range(1, PODIUM + 1))
            for h in race.runners
        )
        return PlaceOdds(race.runners, chances, 0)
    return race_odds(race, track, samples=samples, seed=seed)
