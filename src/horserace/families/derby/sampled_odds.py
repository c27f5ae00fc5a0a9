"""Derby odds: each horse's chance to finish 1st, 2nd and 3rd from any state of the table.

Before a race the answer is exact: every horse of the field starts on the start line, so the
horses are exchangeable and each has 1/field of every place (a pending scratch changes nothing:
it removes each horse with the same chance). Once horses have moved, the compiled race kernel
(kernels/derby_race.py, tested die for die against the rules) plays a few hundred thousand
races on from the current state, enough to print each chance to a tenth of a percent, with
95% intervals.

Randomness comes in separate streams (d20s; mud, accelerator and scratch dice), all from one
seed: the d20s of race i are the same whatever the track, so a track without mud or
accelerators can be raced on exactly the same dice (`paired` comparisons in simulate).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from horserace.core.rng import derive_seed
from horserace.families.derby.rules.model import DerbyState, DerbyView, Phase
from horserace.families.derby.rules.race import PODIUM, RaceState, start_race
from horserace.families.derby.rules.track import Track
from horserace.kernels.intervals import wilson95

if TYPE_CHECKING:  # the kernel imports numba: only a sampled estimate loads it
    from horserace.kernels.derby_race import RaceSample

# 200,000 races: every chance within 0.15 points (95%) for a field of 8, about 0.6 s a step
LIVE_SAMPLES = 200_000
DEFAULT_SAMPLES = LIVE_SAMPLES
RACES_STREAM = 5


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
    track: Track,
    samples: int,
    seed: int,
    *,
    scratches: int = 0,
) -> RaceSample:
    """Play `samples` races on from `race` (after `scratches` more scratches among its runners)
    on the compiled kernel. Race i rolls its d20s from a stream of its own under `seed`, the
    same whatever the track, so paved versions of a track can be raced on the same d20s."""
    from horserace.kernels.derby_race import race_start, run_races  # loads numba

    return run_races(race_start(race), track, derive_seed(seed, RACES_STREAM), 0, samples,
                     scratches=scratches)  # fmt: skip


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
