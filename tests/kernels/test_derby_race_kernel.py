"""The Derby race kernel: the rules' race die for die on the same chance tape (from the start
line and from the middle of a turn, on random tracks), and the figures theory predicts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from horserace.families.derby.rules.race import (
    DERBY_HORSES,
    RaceState,
    roll_accelerator,
    roll_d20,
    roll_mud,
    start_race,
)
from horserace.families.derby.rules.track import DerbyTrack, Zone, packaged_track
from horserace.kernels.derby_fast import run_races
from horserace.kernels.derby_race import dice_draw, misses_of, race_start, replay_tape

BATCHES, RACES_PER_BATCH = 4, 250  # 1,000 races against the rules


def random_track(pick: random.Random) -> DerbyTrack:
    """Any finish, 1-4 zones, mud and accelerators anywhere inside, any dice."""
    finish = pick.randint(4, 45)
    cuts = sorted(pick.sample(range(1, finish), k=min(pick.randint(0, 3), finish - 1)))
    bounds = [0, *cuts, finish]
    zones = tuple(
        Zone(f"z{i}", bounds[i], bounds[i + 1] - 1, pick.randint(1, 4))
        for i in range(len(bounds) - 1)
    )
    inside = list(range(1, finish))
    pick.shuffle(inside)
    mud_count = pick.randint(0, min(5, len(inside)))
    mud = frozenset(inside[:mud_count])
    accelerators = frozenset(inside[mud_count : mud_count + pick.randint(0, 4)])
    return DerbyTrack(
        name="random",
        finish=finish,
        zones=zones,
        mud=mud,
        accelerators=accelerators,
        mud_shoe=pick.randint(1, 3),
        mud_blank=pick.randint(0, 3),
        accelerator_faces=tuple(pick.randint(1, 5) for _ in range(pick.randint(1, 4))),
    )


def roll(race: RaceState, track: DerbyTrack, pick: random.Random) -> tuple[RaceState, int]:
    """One chance step of the rules' race, as the engine weighs it; returns the tape value."""
    waiting = race.waiting_for
    if waiting == "mud":
        shoe = pick.randrange(track.mud_shoe + track.mud_blank) < track.mud_shoe
        return roll_mud(race, track, shoe)[0], int(shoe)
    if waiting == "accel":
        bonus = pick.choice(track.accelerator_faces)
        return roll_accelerator(race, track, bonus)[0], bonus
    value = pick.randint(1, 20)
    return roll_d20(race, track, value)[0], value


def play_rules(seed: int) -> tuple[DerbyTrack, RaceState, RaceState, list[int]]:
    """A random race on a random track, cut at a random step: (track, the state at the cut,
    the final state, the tape from the cut on)."""
    pick = random.Random(seed)
    track = random_track(pick)
    return (track, *play_cut(track, pick))


def play_cut(track: DerbyTrack, pick: random.Random) -> tuple[RaceState, RaceState, list[int]]:
    """A race of 1 to 20 horses on `track` by the rules, cut at a random step (or at the start
    line): (the state at the cut, the final state, the tape from the cut on)."""
    race = start_race(tuple(sorted(pick.sample(DERBY_HORSES, pick.randint(1, 20)))))
    cut = 0 if pick.random() < 0.4 else pick.randint(0, 300)
    steps = 0
    while steps < cut and not race.over:
        race, _ = roll(race, track, pick)
        steps += 1
    middle = race
    tape: list[int] = []
    while not race.over:
        race, value = roll(race, track, pick)
        tape.append(value)
    return middle, race, tape


@pytest.mark.parametrize("batch", range(BATCHES))
def test_kernel_runs_the_rules_race_die_for_die(batch: int) -> None:
    mid_turn = 0
    for seed in range(batch * RACES_PER_BATCH, (batch + 1) * RACES_PER_BATCH):
        track, middle, final, tape = play_rules(seed)
        mid_turn += bool(middle.dice)
        podium, turns, positions, used = replay_tape(race_start(middle), track, tape)
        assert used == len(tape), seed
        assert tuple(podium) == final.podium, seed
        assert turns == final.turn - 1, seed
        assert positions.tolist() == list(final.positions), seed
    assert mid_turn > RACES_PER_BATCH // 10  # many races start half-way through a turn


def test_races_are_reproducible_and_split_by_race_index() -> None:
    track = packaged_track("derby")
    start = race_start(start_race(tuple(range(1, 9))))
    whole = run_races(start, track, 99, 0, 3000)
    first, second = run_races(start, track, 99, 0, 1200), run_races(start, track, 99, 1200, 1800)
    assert np.array_equal(whole.podium, np.concatenate([first.podium, second.podium]))
    assert np.array_equal(whole.turns, np.concatenate([first.turns, second.turns]))
    assert not np.array_equal(whole.podium, run_races(start, track, 98, 0, 3000).podium)


CHI2_DF_P001 = {7: 24.322, 9: 27.877, 11: 31.264}


@pytest.mark.parametrize("field", [8, 12])
@pytest.mark.parametrize("scratches", [0, 3])
def test_every_horse_at_the_start_line_has_an_equal_chance(field: int, scratches: int) -> None:
    """Horses at the start line are exchangeable: each wins, places and shows with 1/field
    (a scratched horse never places); chi-square at p = 0.001 on every place."""
    track = packaged_track("derby")
    races = 200_000
    sample = run_races(race_start(start_race(tuple(range(1, field + 1)))), track, 5, 0, races,
                       scratches=scratches)  # fmt: skip
    for place in range(3):
        counts = np.bincount(sample.podium[:, place], minlength=field + 1)[1:]
        assert counts.sum() == races
        expected = races / field
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < CHI2_DF_P001[field - 1], (place, chi2, counts.tolist())


@pytest.mark.parametrize(("shoe", "blank"), [(1, 1), (1, 3), (2, 1), (3, 2), (2, 0)])
def test_one_draw_rolls_the_mud_tries_with_their_exact_chances(shoe: int, blank: int) -> None:
    """The kernels' streams roll a movement's mud tries in one draw: over every equally likely
    value of its mud part, m splats before the first horseshoe come up blank**m * shoe *
    (shoe + blank)**(tries - m - 1) times, as m tries in a row would; all splats blank**tries."""
    sides, tries = shoe + blank, 5
    counts = [0] * (tries + 1)
    for rest in range(sides**tries):
        counts[misses_of(rest, shoe, blank, sides**tries, tries)] += 1
    want = [blank**m * shoe * sides ** (tries - m - 1) for m in range(tries)] + [blank**tries]
    assert counts == want
    assert dice_draw(1, 1, 3) == (16, 1 << 16, 3 << 16)  # the default dice: 16 tries a draw
    assert dice_draw(1, 99, 100)[0] == 2  # never past 2**24 outcomes, at least one try
