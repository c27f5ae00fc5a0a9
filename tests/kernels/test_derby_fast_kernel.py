"""The fast Derby loop plays the reference kernel's races: race i of a run is the same race
(podium and length) from the start line, after scratches, half-way through a turn, on random
tracks, and through ties that run on past its table."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from horserace.families.derby.rules.race import start_race, with_positions
from horserace.families.derby.rules.track import DerbyTrack, Zone, packaged_track
from horserace.kernels.derby_fast import run_races
from horserace.kernels.derby_race import RaceStart, TrackNumbers, race_start
from horserace.kernels.derby_table import KEYS, TOLD, MoveTable
from horserace.kernels.rng import mix64
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


def test_the_dice_table_ends_every_draw_where_the_plain_rule_does() -> None:
    """The rows the loop reads: every movement without dice as in the table, the zone's value
    last; a movement that needs dice points at a row of `ends` that gives, per key (misses x
    faces + face), the row the plain rule ends on: the first horseshoe after `misses` splats
    moves the rest (mud stops the horse, an accelerator adds the face's bonus), too many splats
    leave it stuck, and dice a key cannot settle (more tries than it covers, a landing past the
    table, a rejected word: the last key) are -1, rolled one by one by the loop."""
    pick = random.Random(5)
    for _ in range(30):
        track = random_track(pick)
        numbers = TrackNumbers.of(track)
        table = MoveTable.of(numbers)
        stride, width, off = table.stride, table.most + 1, table.offset
        plain = table.rows(numbers).reshape(-1, stride)
        dice = table.dice(numbers)
        assert dice is not None
        rows, ends, draws = dice[0].reshape(-1, stride), dice[1], dice[2]
        faces, told, keys = track.accelerator_faces, int(draws[TOLD]), int(draws[KEYS])
        assert not rows[0].any()  # a horse that no longer moves stays put, in no zone
        assert ends[0] == 0  # the entry a movement without dice reads, or-ed into its row

        def row_of(
            space: int, mud: frozenset[int] = track.mud, off: int = off, stride: int = stride
        ) -> int:
            return (2 * (space + 1) + (space in mud) + off) * stride

        assert rows.shape[0] == table.zone.size + off
        line = 2 * (track.finish + 1) + off  # the first row on the line: a power of two
        assert line & (line - 1) == 0 and line < 2 * (2 * (track.finish + 1))
        for state in range(2, table.zone.size):
            row = state + off  # the first state on the line is a power of two
            assert rows[row, stride - 1] == table.zone[state]
            space, stuck = state // 2 - 1, state % 2
            for spaces in range(1, width):
                if plain[row, spaces] >= 0:
                    assert rows[row, spaces] == plain[row, spaces]
                    continue
                start = ~int(rows[row, spaces])
                assert start % keys == 0
                if stuck and min(space, track.finish) not in track.mud:  # never reached
                    assert start == keys and (ends[keys : 2 * keys] == -1).all()
                    continue
                for misses in range(told + 1):
                    for face, bonus in enumerate(faces):
                        got = ends[start + misses * len(faces) + face]
                        land = space + (spaces - misses if stuck else spaces)
                        if stuck and misses >= spaces:
                            want = -1 if misses == told < spaces else row * stride
                        elif land > table.last:
                            want = -1
                        elif land in track.accelerators:
                            want = row_of(land + bonus)
                        else:
                            want = row_of(land)
                        assert got == want, (state, spaces, misses, face)
                assert ends[start + keys - 1] == -1


def test_races_from_a_start_with_a_tie_on_the_line_replay_its_places_each_time() -> None:
    """A start with a tie running on inside the table and a horse already placed: every race
    of a run starts from the same places and tie (the loop reuses the start's rows), and
    each is the reference's race."""
    track = packaged_track("derby")
    line = track.finish + 1
    race = with_positions(start_race((1, 2, 3, 4, 5)), {1: line + 3, 2: line, 3: line, 4: 20})
    race = replace(race, blocks=((1,), (2, 3)))
    same_races(race_start(race), track, 3000)
    sample = run_races(race_start(race), track, 5, 0, 3000)
    assert (sample.podium[:, 0] == 1).all()
    assert {tuple(p) for p in sample.podium[:, 1:].tolist()} == {(2, 3), (3, 2)}


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


def test_dice_that_the_keys_leave_open_are_rolled_as_on_the_reference() -> None:
    """A hundred-faced accelerator die and a mud die that mostly splats: a draw covers 8 mud
    tries, so a horse called 10 spaces or more often needs a second draw, and about one draw in
    700 is a word `bounded` rejects; the fast loop plays those turns again one die at a time."""
    track = DerbyTrack(
        name="heavy",
        finish=30,
        zones=(Zone("all", 0, 29, 10),),
        mud=frozenset({4, 9, 15, 22, 27}),
        accelerators=frozenset({6, 12, 19}),
        mud_shoe=1,
        mud_blank=3,
        accelerator_faces=tuple(range(1, 21)) * 5,
    )
    dice = MoveTable.of(TrackNumbers.of(track)).dice(TrackNumbers.of(track))
    assert dice is not None and dice[2][TOLD] == 8
    for field in (3, 8, 20):
        same_races(race_start(start_race(tuple(range(1, field + 1)))), track, 3000, field // 4)


def _unmix(word: int) -> int:
    """The inverse of SplitMix64's finaliser (`rng.mix64`)."""
    mask = (1 << 64) - 1

    def unshift(value: int, by: int) -> int:
        out = value
        for _ in range(64 // by + 1):
            out = value ^ (out >> by)
        return out

    word = unshift(word, 31)
    word = word * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
    word = unshift(word, 27)
    word = word * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
    return unshift(word, 30)


@pytest.mark.parametrize("field", [8, 20])
def test_a_rejected_word_anywhere_in_the_second_stream(field: int) -> None:
    """Seeds made so that race 0's second stream has the word 0 as its k-th word, for every k
    across the first blocks of keys: `bounded` rejects it whatever it draws, so the loop must
    skip exactly that word, at a block's start, middle or end, and hand on the stream."""
    golden, mask = 0x9E3779B97F4A7C15, (1 << 64) - 1
    track = packaged_track("derby")
    start = race_start(start_race(tuple(range(1, field + 1))))
    mixed = _unmix(0)  # mix64(x) == 0 only for x == 0
    assert mixed == 0
    salt = int(mix64(np.uint64(2 * golden & mask)))  # game_state(base, 1): base ^ this, mixed
    for k in range(1, 70):
        state = -golden * k & mask  # the stream's k-th word: mix64(state + k * golden) = 0
        base = _unmix(state) ^ salt
        fast = run_races(start, track, base, 0, 1)
        slow = run_races(start, track, base, 0, 1, method="reference")
        assert np.array_equal(fast.podium, slow.podium), k
        assert np.array_equal(fast.turns, slow.turns), k
