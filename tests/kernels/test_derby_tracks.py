"""The Derby kernels on the track files the package ships, read from disk as `--track FILE`
reads them: the reference kernel runs the rules' race die for die on the same tape (from the
start line and from the middle of a turn), the fast loop runs the reference kernel's races,
and on the sprint track every horse at the start line has the same chance of every place."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import horserace.families.derby as derby_family
from horserace.families.derby.rules.race import RaceState, start_race
from horserace.families.derby.rules.track import DerbyTrack, load_track, packaged_track
from horserace.kernels.derby_fast import run_races
from horserace.kernels.derby_race import race_start, replay_tape
from tests.kernels.test_derby_race_kernel import CHI2_DF_P001, play_cut

TRACK_FILES = sorted((Path(derby_family.__file__).parent / "tracks").glob("*.toml"))
TRACKS = [load_track(path) for path in TRACK_FILES]
NAMES = [track.name for track in TRACKS]
BATCHES, RACES_PER_BATCH = 2, 250  # 500 races against the rules on each shipped track


def test_the_package_ships_the_default_track_and_another() -> None:
    assert {"derby", "sprint"} <= set(NAMES)
    for track in TRACKS:
        assert track == packaged_track(track.name)  # the file on disk is the packaged track
        assert track.mud and track.accelerators  # both kinds of space are exercised


def play_on(track: DerbyTrack, seed: int) -> tuple[RaceState, RaceState, list[int]]:
    """A race on `track` by the rules, cut at a random step: see `play_cut`."""
    return play_cut(track, random.Random(seed))


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("track", TRACKS, ids=NAMES)
def test_the_kernel_runs_the_rules_race_on_a_shipped_track(track: DerbyTrack, batch: int) -> None:
    mid_turn, muddy = 0, 0
    for seed in range(batch * RACES_PER_BATCH, (batch + 1) * RACES_PER_BATCH):
        middle, final, tape = play_on(track, seed)
        mid_turn += bool(middle.dice)
        muddy += any(final.stuck)
        podium, turns, positions, used = replay_tape(race_start(middle), track, tape)
        assert used == len(tape), seed
        assert tuple(podium) == final.podium, seed
        assert turns == final.turn - 1, seed
        assert positions.tolist() == list(final.positions), seed
    assert mid_turn > RACES_PER_BATCH // 10  # many races start half-way through a turn
    assert muddy > RACES_PER_BATCH // 10  # and many end with a horse stuck in the mud


@pytest.mark.parametrize("track", TRACKS, ids=NAMES)
def test_the_fast_loop_runs_the_reference_races_on_a_shipped_track(track: DerbyTrack) -> None:
    """From the start line (2 to 20 horses, 0 to 2 scratches) and from 60 states cut half-way
    through races, race i of a run is the same race on both loops."""

    def same(start_state: RaceState, count: int, scratches: int = 0) -> None:
        start = race_start(start_state)
        fast = run_races(start, track, 13, 5, count, scratches=scratches)
        slow = run_races(start, track, 13, 5, count, scratches=scratches, method="reference")
        assert np.array_equal(fast.podium, slow.podium)
        assert np.array_equal(fast.turns, slow.turns)

    for field, scratches in ((2, 0), (3, 1), (8, 2), (13, 0), (20, 2)):
        same(start_race(tuple(range(1, field + 1))), 1500, scratches)
    for seed in range(60):
        same(play_on(track, 10_000 + seed)[0], 150)


@pytest.mark.parametrize(("field", "scratches"), [(8, 0), (12, 2)])
def test_every_horse_at_the_sprint_start_has_an_equal_chance(field: int, scratches: int) -> None:
    """The horses at the start line differ only by their numbers, and the dice name each number
    alike (ties run on whoever is in them, scratches draw any horse), so on the sprint track too
    each wins, places and shows with chance 1/field; chi-square at p = 0.001 on every place."""
    track = TRACKS[NAMES.index("sprint")]
    races = 150_000
    start = race_start(start_race(tuple(range(1, field + 1))))
    sample = run_races(start, track, 17, 0, races, scratches=scratches)
    for place in range(3):
        counts = np.bincount(sample.podium[:, place], minlength=field + 1)[1:]
        assert counts.sum() == races
        expected = races / field
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < CHI2_DF_P001[field - 1], (place, chi2, counts.tolist())
