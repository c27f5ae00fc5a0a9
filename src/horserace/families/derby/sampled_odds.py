"""Derby odds: each horse's chance to finish 1st, 2nd and 3rd from any state of the table.

Before a race the answer is exact: every horse of the field starts on the start line, so the
horses are exchangeable and each has 1/field of every place (a pending scratch changes nothing:
it removes each horse with the same chance). Once horses have moved, the compiled race kernel
(kernels/derby_fast.py, which plays the races of kernels/derby_race.py, tested die for die
against the rules) plays races on from the current state: a fixed number, or (`precision`) as
many as it takes for every chance's 95% interval to be that narrow, up to a cap. A chance is
printed to a tenth of a point only when its own interval is within half a tenth (HALF_TENTH),
so that the printed tenth is within a tenth of the truth; a wider one is printed in whole
percents (`PlaceOdds.to_a_tenth`).

Randomness comes in separate streams (d20s; mud, accelerator and scratch dice), all from one
seed: the d20s of race i are the same whatever the track, so a track without mud or
accelerators can be raced on exactly the same dice (`paired` comparisons in simulate).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from horserace.core.rng import derive_seed
from horserace.families.derby.rules.model import DerbyPhase, DerbyState, DerbyView
from horserace.families.derby.rules.race import DERBY_HORSES, PODIUM, RaceState, start_race
from horserace.families.derby.rules.track import DerbyTrack
from horserace.kernels.intervals import Z95, wilson95

if TYPE_CHECKING:  # the kernel imports numba: only a sampled estimate loads it
    from horserace.kernels.derby_race import RaceSample

# 200,000 races: every chance within 0.15 points (95%) for a field of 8, 0.3-0.4 s a step
LIVE_SAMPLES = 200_000
DEFAULT_SAMPLES = LIVE_SAMPLES
RACES_STREAM = 5
TENTH = 0.001  # a tenth of a percentage point
HALF_TENTH = TENTH / 2  # a chance within it (95%) prints to a tenth: 12.3% is then within 12.2-12.4
CHUNK = 50_000  # races between two looks at the precision reached


@dataclass(frozen=True)
class PlaceOdds:
    """P(place k) per horse for k = 1..3, from `samples` races (0 samples = exact)."""

    horses: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...]  # chances[i][k - 1]: horses[i] finishing k-th
    samples: int
    mean_turns: float | None = None  # the race's expected length, when simulated
    rough: bool = False  # a quick estimate, shown in whole percents: a precise one is coming

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

    def to_a_tenth(self, horse: int, place: int) -> bool:
        """Whether the chance is sure enough to print to a tenth of a point: exact, or its 95%
        interval within half a tenth (not a quick `rough` estimate)."""
        if self.exact:
            return True
        p = self.chance(horse, place)
        return not self.rough and half_width(p, self.samples) <= HALF_TENTH

    @property
    def all_to_a_tenth(self) -> bool:
        return all(self.to_a_tenth(h, k) for h in self.horses for k in range(1, PODIUM + 1))

    def ci95(self, horse: int, place: int) -> tuple[float, float]:
        """Wilson 95% interval of one chance (a point when exact)."""
        p = self.chance(horse, place)
        if self.exact:
            return (p, p)
        return wilson95(round(p * self.samples), self.samples)


def exact_start_odds(field: Sequence[int], scratches: int = 0) -> dict[int, Fraction]:
    """P(any given place k <= min(3, runners)) for each horse of a field at the start line.

    By symmetry every horse has the same chance of every place: 1/(field - scratches) if it
    runs, and it runs with chance (field - scratches)/field, so 1/field in all."""
    size = len(field)
    return {horse: Fraction(1, size) for horse in field}


# --- sampled races ----------------------------------------------------------------------------


def simulate_races(
    race: RaceState,
    track: DerbyTrack,
    samples: int,
    seed: int,
    *,
    scratches: int = 0,
    first: int = 0,
) -> RaceSample:
    """Play races first..first+samples-1 on from `race` (after `scratches` more scratches among
    its runners) on the compiled kernel. Race i rolls its d20s from a stream of its own under
    `seed`, the same whatever the track, so paved versions of a track can be raced on the same
    d20s, and a run taken in parts is the same races as the run at once."""
    from horserace.kernels.derby_fast import run_races  # loads numba
    from horserace.kernels.derby_race import race_start

    return run_races(race_start(race), track, derive_seed(seed, RACES_STREAM), first, samples,
                     scratches=scratches)  # fmt: skip


# --- from a table to odds ------------------------------------------------------------------------


def race_odds(
    race: RaceState,
    track: DerbyTrack,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    scratches: int = 0,
    precision: float | None = None,
    going: Callable[[], bool] | None = None,
    after: PlaceOdds | None = None,
) -> PlaceOdds:
    """P(1st), P(2nd), P(3rd) per runner from a race state (exact at the start line): from
    `samples` races, or with a `precision` from as many (in steps of CHUNK, at most `samples`)
    as it takes for every chance's 95% interval to reach +- precision; then, between steps, as
    long as `going()` says (the odds of the races played so far when it says no). `after`, an
    estimate of the same race and seed from a whole number of steps, is gone on from: its
    races are counted, not played again, and the answer is the same as without it."""
    runners = race.runners
    fresh = not race.blocks and not race.dice and not any(race.position(h) for h in runners)
    if fresh and not race.stuck:
        exact = exact_start_odds(runners, scratches)
        places = min(PODIUM, len(runners) - scratches)
        chances = tuple(
            tuple(float(exact[h]) if k < places else 0.0 for k in range(PODIUM)) for h in runners
        )
        return PlaceOdds(runners, chances, 0)
    counts = np.zeros((len(runners), PODIUM), dtype=np.int64)
    done, turns = 0, 0
    if after is not None and after.samples and after.horses == runners:  # its races, counted
        done = after.samples
        counts += np.array([[round(p * done) for p in row] for row in after.chances])
        turns = round((after.mean_turns or 0.0) * done)
    while done < samples:
        size = samples - done if precision is None else min(CHUNK, samples - done)
        sample = simulate_races(race, track, size, seed, scratches=scratches, first=done)
        for k in range(PODIUM):
            placed = np.bincount(sample.podium[:, k], minlength=len(DERBY_HORSES) + 1)
            counts[:, k] += placed[list(runners)]
        done, turns = done + size, turns + int(sample.turns.sum())
        if precision is not None and widest_interval(counts, done) <= precision:
            break
        if going is not None and not going():
            break
    chances = tuple(tuple(float(c) / done for c in row) for row in counts)
    return PlaceOdds(runners, chances, done, turns / done)


def widest_interval(counts: np.typing.NDArray[np.int64], races: int) -> float:
    """The largest half-width of a 95% interval among the chances counted in `races` races."""
    p = counts / races
    return float(Z95 * np.sqrt(p * (1 - p) / races).max())


def half_width(chance: float, races: int) -> float:
    """The half-width of a chance's 95% interval from `races` races (as `widest_interval`)."""
    return Z95 * math.sqrt(chance * (1 - chance) / races)


def table_odds(
    table: DerbyState | DerbyView,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    precision: float | None = None,
    going: Callable[[], bool] | None = None,
    after: PlaceOdds | None = None,
) -> PlaceOdds | None:
    """The odds the table shows now: none while horses are being picked; from the odds dice
    on, the race from the start line (with the scratches still to roll); then the race."""
    track = table.config.track
    if table.phase in (DerbyPhase.ODDS, DerbyPhase.WAGER, DerbyPhase.SCRATCH):
        field = tuple(h for h in table.field if h not in table.scratched)
        left = table.scratches_left if table.phase is DerbyPhase.SCRATCH else table.config.scratches
        return race_odds(start_race(field), track, samples=samples, seed=seed, scratches=left,
                         precision=precision, going=going, after=after)  # fmt: skip
    race = table.race
    if race is None or table.phase is DerbyPhase.SELECT:
        return None
    if race.over:
        places = race.places()
        chances = tuple(
            tuple(1.0 if places.get(h) == k else 0.0 for k in range(1, PODIUM + 1))
            for h in race.runners
        )
        return PlaceOdds(race.runners, chances, 0)
    return race_odds(
        race, track, samples=samples, seed=seed, precision=precision, going=going, after=after
    )
