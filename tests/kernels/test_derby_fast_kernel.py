"""The fast Derby loop plays the reference kernel's races: race i of a run is the same race
(podium and length) from the start line, after scratches, half-way through a turn, on random
tracks, and through ties that run on past its table."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from horserace.families.derby.rules.race import start_race, with_positions
from horserace.families.derby.rules.track import DerbyTrack, packaged_track
from horserace.kernels.derby_fast import MoveTable, run_races
from horserace.kernels.derby_race import RaceStart, TrackNumbers, race_start
from tests.kernels.test_derby_race_kernel import play_rules, random_track


def same_races(start: RaceStart, track: DerbyTrack, count: int, scratches: int = 0) -> None:
    fast = run_races(start, track, 11, 3, count, scratches=scratches)
    slow = run_races(start, track, 11, 3, count, scratches=scratches, method="reference")
    assert np.array_equal(fast.podium, slow.podium)
    assert np.array_equal(fast.turns, slow.turns)


@pytest.mark.parametrize("batch", range(4))
def test_fast_races_are_the_reference_races_on_random_tracks_and_states(batch: int) -> None:
    """Random tracks (any zones, mud, accelerators, dice) cut at random steps: many starts
    are half-way through a turn, with a mud try or an accelerator roll under way."""
    for seed in range(batch * 50, (batch + 1) * 50):
        track, middle, _, _ = play_rules(seed)
        same_races(race_start(middle), track, 300)


@pytest.mark.parametrize("scratches", [0, 2])
def test_fast_races_from_the_start_line(scratches: int) -> None:
    track = packaged_track("derby")
    for field in (3, 8, 20):
        same_races(race_start(start_race(tuple(range(1, field + 1)))), track, 5000, scratches)


def test_a_tie_past_the_table_runs_on_the_reference() -> None:
    """Two horses level far past the finish (a tie running on) are beyond the fast loop's table:
    the race goes on from there on the reference, and a third horse still has to finish."""
    track = packaged_track("derby")
    far = MoveTable.of(TrackNumbers.of(track)).safe + 7
    race = with_positions(start_race((1, 2, 3)), {1: far, 2: far, 3: 20})
    race = replace(race, blocks=((1, 2),))
    sample = run_races(race_start(race), track, 5, 0, 2000)
    same_races(race_start(race), track, 2000)
    assert set(sample.podium[:, 0]) == {1, 2}  # the tie breaks between the two
    assert (sample.podium[:, 2] == 3).all()


def test_the_table_agrees_with_a_plain_movement() -> None:
    """Every state and movement without dice: the table's next state is the plain rule's."""
    pick = random.Random(3)
    for _ in range(30):
        track = random_track(pick)
        numbers = TrackNumbers.of(track)
        table = MoveTable.of(numbers)
        width = table.most + 1
        for space in range(table.last + 1):
            for spaces in range(width):
                then = int(table.nxt[(2 * (space + 1)) * width + spaces])
                land = space + spaces
                if spaces and (land > table.last or land in track.accelerators):
                    assert then == -1
                else:
                    assert then == 2 * (land + 1) + (spaces > 0 and land in track.mud)
                assert table.nxt[(2 * (space + 1) + 1) * width + spaces] == (
                    -1 if spaces else 2 * (space + 1) + 1
                )


def test_the_loops_rows_mark_accelerator_landings_and_their_ends() -> None:
    """The rows the loop reads: every movement's row as in the table, a landing on an
    accelerator marked with its space, the zone's value last; and each bonus ends where the
    plain rule puts it (mud stops the horse there)."""
    pick = random.Random(5)
    for _ in range(30):
        track = random_track(pick)
        numbers = TrackNumbers.of(track)
        table = MoveTable.of(numbers)
        stride, width = table.stride, table.most + 1
        rows = table.rows(numbers).reshape(-1, stride)
        nxt = table.nxt.reshape(-1, width)
        assert not rows[0].any()  # a horse that no longer moves stays put, in no zone
        for state in range(2, rows.shape[0]):
            assert rows[state, stride - 1] == table.zone[state]
            space = state // 2 - 1
            for spaces in range(width):
                land = space + spaces
                if state % 2 == 0 and spaces and land <= table.last and land in track.accelerators:
                    assert rows[state, spaces] == -2 - land
                elif nxt[state, spaces] == -1:
                    assert rows[state, spaces] == -1
                else:
                    assert rows[state, spaces] == nxt[state, spaces] * stride
        ends = table.boosts(numbers).reshape(track.finish + 1, -1)
        for spot in track.accelerators:
            for index, face in enumerate(track.accelerator_faces):
                end = spot + face
                stuck = end in track.mud
                assert ends[spot, index] == (2 * (end + 1) + stuck) * stride


def test_a_horse_past_the_line_with_no_place_yet_is_placed_as_on_the_reference() -> None:
    """Made-up starts with a horse on or past the line, no place yet, stuck in mud that is not
    there: its failed tries leave it where it was, and the reference places it only when a
    finish check comes. Such a race runs on the reference, so every horse that the fast loop
    finds on or past the line has just moved there, or is in a tie."""
    track = packaged_track("derby")
    for space in (track.finish, track.finish + 2):
        race = with_positions(
            start_race((1, 2, 3, 4)), {1: space, 2: 20, 3: 25, 4: 28}, frozenset({1})
        )
        same_races(race_start(race), track, 2000)
        same_races(race_start(race), track, 2000, scratches=1)
