"""Derby odds: exact at the start line by symmetry; the NumPy kernel agrees with that exact answer
and with the reference rules engine (races played by `DerbyRules.apply`) within 4 sigma."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from horserace.core.chance import sample_weighted
from horserace.families.derby.rules.model import DerbyPhase, DerbyState
from horserace.families.derby.rules.race import start_race
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.track import DEFAULT_TRACK, packaged_track
from horserace.families.derby.rules.transcript import place_horses, play_texts, setup_texts
from horserace.families.derby.sampled_odds import (
    CHUNK,
    exact_start_odds,
    race_odds,
    simulate_races,
    table_odds,
    widest_interval,
)

RULES = DerbyRules()
SPRINT = packaged_track("sprint")
SIGMAS = 4.0


def close(p: float, n: int, q: float, m: int | None = None) -> bool:
    """p (from n races) and q (exact, or from m races) agree within 4 sigma."""
    pooled = q if m is None else (p * n + q * m) / (n + m)
    spread = pooled * (1 - pooled) * (1 / n + (0 if m is None else 1 / m))
    return abs(p - q) <= SIGMAS * math.sqrt(spread) + 1e-12


def test_start_odds_are_exactly_one_over_the_field() -> None:
    assert exact_start_odds((3, 7, 9, 12)) == {h: Fraction(1, 4) for h in (3, 7, 9, 12)}
    odds = race_odds(start_race((1, 2, 3, 4, 5)), DEFAULT_TRACK, scratches=2)
    assert odds.exact and odds.ci95(1, 1) == (0.2, 0.2)
    assert odds.chance(4, 3) == pytest.approx(0.2) and odds.chance(6, 1) == 0.0
    two = race_odds(start_race((1, 2)), DEFAULT_TRACK)
    assert (two.win(1), two.chance(1, 2), two.chance(1, 3)) == (0.5, 0.5, 0.0)


@pytest.mark.parametrize(("field", "scratches"), [(8, 0), (7, 2)])
def test_the_kernel_from_the_start_line_matches_the_exact_odds(field: int, scratches: int) -> None:
    runners = tuple(range(1, field + 1))
    n = 12_000
    sample = simulate_races(start_race(runners), DEFAULT_TRACK, n, seed=5, scratches=scratches)
    for k in range(3):
        counts = np.bincount(sample.podium[:, k], minlength=field + 1)[1:]
        assert counts.sum() == n  # exactly one horse per place in every race
        for horse, count in zip(runners, counts, strict=True):
            assert close(count / n, n, 1 / field), (horse, k + 1, count / n)


def engine_races(
    state: DerbyState, races: int, seed: int
) -> tuple[dict[tuple[int, int], int], list[int]]:
    """Play the race on `races` times through the rules engine: (horse, place) counts, turns."""
    rng = random.Random(seed)
    counts: dict[tuple[int, int], int] = {}
    turns: list[int] = []
    for _ in range(races):
        current = state
        while current.phase is DerbyPhase.RACE:
            outcomes, weights = RULES.chance_weights(current)
            current, _ = RULES.apply(current, sample_weighted(rng, outcomes, weights))
        assert current.race is not None
        for place, horse in enumerate(current.podiums[-1], start=1):
            counts[horse, place] = counts.get((horse, place), 0) + 1
        turns.append(current.race.turn - 1)
    return counts, turns


def sprint_race() -> DerbyState:
    config = RULES.make_config({"players": 4, "races": 1, "track": "sprint"})
    texts = setup_texts((1, 2, 3, 4), (1, 1, 1, 1), (0, 0, 0, 0))
    state, _ = play_texts(RULES, RULES.initial_state(config), texts)
    return state


def mid_race() -> DerbyState:
    """Horse 2 stuck in the mud, 3 in zone 3; two dice of the turn already rolled."""
    state = place_horses(sprint_race(), {1: 4, 2: 5, 3: 8, 4: 0}, stuck=[2])
    return play_texts(RULES, state, ["d20 2", "d20 9"])[0]


def mid_turn() -> DerbyState:
    """The six dice are down: horse 4 waits for its accelerator, zone moves still queued."""
    state = place_horses(sprint_race(), {1: 9, 2: 5, 3: 10, 4: 1}, stuck=[2])
    state, _ = play_texts(RULES, state, ["d20 4", "d20 20", "d20 1", "d20 2", "d20 3", "d20 2"])
    assert state.race is not None and state.race.accelerating == 4 and state.race.queue
    return state


def tie_running_on() -> DerbyState:
    """Horses 1 and 2 level past the line, 3 close behind, 4 far back."""
    state = place_horses(sprint_race(), {1: 11, 2: 11, 3: 9, 4: 3})
    state, _ = play_texts(RULES, state, [f"d20 {v}" for v in (1, 2, 20, 20, 20, 20)])
    assert state.race is not None and state.race.blocks == ((1, 2),)
    return state


@pytest.mark.parametrize("make", [mid_race, mid_turn, tie_running_on])
def test_the_kernel_agrees_with_the_rules_engine(make: Callable[[], DerbyState]) -> None:
    state = make()
    assert state.race is not None
    engine_n, kernel_n = 700, 20_000
    counts, turns = engine_races(state, engine_n, seed=3)
    odds = race_odds(state.race, SPRINT, samples=kernel_n, seed=8)
    for horse in (1, 2, 3, 4):
        for place in (1, 2, 3):
            engine = counts.get((horse, place), 0) / engine_n
            kernel = odds.chance(horse, place)
            assert close(engine, engine_n, kernel, kernel_n), (horse, place, engine, kernel)
    mean = sum(turns) / engine_n
    spread = math.sqrt(sum((t - mean) ** 2 for t in turns) / (engine_n - 1))
    assert odds.mean_turns is not None
    assert abs(mean - odds.mean_turns) <= SIGMAS * spread * math.sqrt(1 / engine_n + 1 / kernel_n)


def test_odds_sum_to_one_per_place_and_a_seed_repeats() -> None:
    state = mid_race()
    assert state.race is not None
    odds = race_odds(state.race, SPRINT, samples=3000, seed=1)
    for place in (1, 2, 3):
        assert sum(odds.chance(h, place) for h in odds.horses) == pytest.approx(1.0)
    assert race_odds(state.race, SPRINT, samples=3000, seed=1) == odds
    low, high = odds.ci95(1, 1)
    assert low < odds.win(1) < high


def test_a_precision_plays_the_same_races_in_parts_until_it_is_reached() -> None:
    """Chunked by CHUNK races, the run is the same races as at once; it stops at the first
    chunk whose widest 95% interval is within the precision, and runs to the cap otherwise."""
    state = mid_race()
    assert state.race is not None
    whole = race_odds(state.race, SPRINT, samples=2 * CHUNK + 7, seed=4)
    capped = race_odds(state.race, SPRINT, samples=2 * CHUNK + 7, seed=4, precision=0.0)
    assert capped == whole
    wide = widest_interval(np.array(whole.chances) * CHUNK, CHUNK) * 1.2  # met after one chunk
    first = race_odds(state.race, SPRINT, samples=2 * CHUNK + 7, seed=4, precision=wide)
    assert first.samples == CHUNK
    assert first == race_odds(state.race, SPRINT, samples=CHUNK, seed=4)
    counts = np.array(first.chances) * first.samples
    assert widest_interval(counts, first.samples) <= wide


def test_table_odds_through_the_phases() -> None:
    config = RULES.make_config({"players": 3, "races": 1, "scratches": 1})
    state = RULES.initial_state(config)
    assert table_odds(state) is None  # horses are being picked
    state, _ = play_texts(RULES, state, ["silk 1", "horse 5", "silk 2", "horse 6"])
    assert table_odds(state) is None
    state, _ = play_texts(RULES, state, ["silk 3", "horse 7", "odds 1"])
    before = table_odds(state)
    assert before is not None and before.exact and before.win(5) == pytest.approx(1 / 3)
    state, _ = play_texts(RULES, state, ["odds 2", "odds 3", "wager 1", "wager 1", "wager 1"])
    state, _ = play_texts(RULES, state, ["d20 6"])  # horse 6 scratched: two run
    during = table_odds(RULES.view(state, 0))
    assert during is not None and during.horses == (5, 7) and during.win(5) == 0.5
    state = place_horses(state, {5: 28, 7: 28})
    state, _ = play_texts(RULES, state, [f"d20 {v}" for v in (5, 5, 7, 20, 20, 20)])
    assert state.phase is DerbyPhase.OVER
    after = table_odds(state)
    assert after is not None and (after.win(5), after.chance(7, 2)) == (1.0, 1.0)
