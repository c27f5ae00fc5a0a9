"""Race odds checked against sums, dynamic programs and a simulation written independently here."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from functools import cache

import pytest

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.components.dice import two_dice_sum_probabilities
from horserace.core.errors import ConfigError
from horserace.families.board.odds.race import (
    ExactRaceOdds,
    RaceOdds,
    exact_race_odds,
    exact_scratch_phase_odds,
    race_odds,
    scratch_phase_odds,
)

DICE = two_dice_sum_probabilities()
GATE = {h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}


def brute_force(
    remaining: Mapping[int, int], probabilities: Mapping[int, Fraction] = DICE
) -> tuple[dict[int, Fraction], Fraction]:
    """Win chances and expected rolls by a DP over every count vector, one roll at a time.

    A roll naming no running horse leaves the state as it is: V = step + waste * V.
    """
    horses = sorted(remaining)
    goal = tuple(remaining[h] for h in horses)
    ps = [probabilities.get(h, Fraction(0)) for h in horses]
    moving = sum(ps, Fraction(0))

    @cache
    def value(state: tuple[int, ...]) -> tuple[tuple[Fraction, ...], Fraction]:
        wins = [Fraction(0)] * len(horses)
        rolls = Fraction(1)
        for i, p in enumerate(ps):
            if state[i] + 1 == goal[i]:
                wins[i] += p
                continue
            later_wins, later_rolls = value((*state[:i], state[i] + 1, *state[i + 1 :]))
            for j, w in enumerate(later_wins):
                wins[j] += p * w
            rolls += p * later_rolls
        return tuple(w / moving for w in wins), rolls / moving

    wins, rolls = value((0,) * len(horses))
    return dict(zip(horses, wins, strict=True)), rolls


def random_position(rng: random.Random, scratched: int) -> dict[int, int]:
    """Remaining advances of a mid-race position on the default board with some horses out."""
    out = set(rng.sample(HORSES, scratched))
    return {h: rng.randint(1, GATE[h]) for h in HORSES if h not in out}


# --- race odds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("horse", "advances"), [(7, 5), (2, 3), (12, 1)])
def test_a_lone_horse_wins_after_r_over_p_rolls(horse: int, advances: int) -> None:
    exact = exact_race_odds({horse: advances})
    assert exact.win == {horse: 1}
    assert exact.expected_rolls == advances / DICE[horse]
    fast = race_odds({horse: advances})
    assert fast.win == {horse: pytest.approx(1.0, abs=1e-15)}
    assert fast.expected_rolls == pytest.approx(float(advances / DICE[horse]), rel=1e-14)


@pytest.mark.parametrize(("a", "b", "r_a", "r_b"), [(4, 9, 3, 5), (2, 7, 3, 14), (6, 8, 1, 1)])
def test_two_horses_match_the_negative_binomial(a: int, b: int, r_a: int, r_b: int) -> None:
    q_a = DICE[a] / (DICE[a] + DICE[b])
    q_b = 1 - q_a
    a_wins = sum((math.comb(r_a - 1 + k, k) * q_a**r_a * q_b**k for k in range(r_b)), Fraction(0))

    @cache
    def rolls(x: int, y: int) -> Fraction:  # x, y advances made; unnamed rolls are wasted
        later = Fraction(1)
        if x + 1 < r_a:
            later += DICE[a] * rolls(x + 1, y)
        if y + 1 < r_b:
            later += DICE[b] * rolls(x, y + 1)
        return later / (DICE[a] + DICE[b])

    exact = exact_race_odds({a: r_a, b: r_b})
    assert exact.win == {a: a_wins, b: 1 - a_wins}
    assert exact.expected_rolls == rolls(0, 0)


@pytest.mark.parametrize(
    ("remaining", "probabilities"),
    [
        ({3: 2, 7: 3, 10: 4}, DICE),
        ({2: 1, 6: 4, 11: 3}, DICE),
        # dice that name no horse 13/60 of the time, besides horse 4 that is scratched
        (
            {1: 3, 2: 2, 3: 4},
            {1: Fraction(1, 5), 2: Fraction(1, 4), 3: Fraction(1, 4), 4: Fraction(1, 12)},
        ),
    ],
)
def test_three_horses_match_the_brute_force_dp(
    remaining: dict[int, int], probabilities: dict[int, Fraction]
) -> None:
    wins, rolls = brute_force(remaining, probabilities)
    assert exact_race_odds(remaining, probabilities) == ExactRaceOdds(wins, rolls)


def test_random_small_races_match_the_brute_force_dp() -> None:
    rng = random.Random(20240611)
    for _ in range(15):
        horses = rng.sample(HORSES, rng.randint(2, 4))
        remaining = {h: rng.randint(1, 4) for h in horses}
        wins, rolls = brute_force(remaining)
        exact = exact_race_odds(remaining)
        assert exact == ExactRaceOdds(wins, rolls), remaining
        fast = race_odds(remaining)
        assert fast.win == pytest.approx({h: float(w) for h, w in wins.items()}, abs=1e-14)
        assert fast.expected_rolls == pytest.approx(float(rolls), rel=1e-13)


def test_float_and_exact_agree_on_the_default_board() -> None:
    rng = random.Random(7)
    positions = [GATE] + [random_position(rng, rng.randint(0, 4)) for _ in range(12)]
    for remaining in positions:
        exact = exact_race_odds(remaining)
        fast = race_odds(remaining)
        assert sum(exact.win.values()) == 1
        assert sum(fast.win.values()) == pytest.approx(1.0, abs=1e-12)
        assert fast.win.keys() == exact.win.keys() == remaining.keys()
        for horse, p in exact.win.items():
            assert abs(fast.win[horse] - float(p)) < 1e-12, (remaining, horse)
        assert abs(fast.expected_rolls - float(exact.expected_rolls)) < 1e-12
        assert exact.to_float() == RaceOdds(
            {h: float(p) for h, p in exact.win.items()}, float(exact.expected_rolls)
        )


def test_the_gate_odds_are_symmetric_and_favour_the_short_lanes() -> None:
    win = exact_race_odds(GATE).win
    assert all(win[h] == win[14 - h] for h in HORSES)
    assert max(win, key=win.__getitem__) in (2, 12)


def test_monte_carlo_with_four_scratched_horses() -> None:
    """20000 seeded races with real dice: two dice as 36 equally likely pairs."""
    scratched = {4, 6, 9, 11}
    remaining = {h: r for h, r in GATE.items() if h not in scratched}
    odds = exact_race_odds(remaining)
    rng = random.Random(12345)
    races = 20_000
    wins = dict.fromkeys(HORSES, 0)
    total = 0
    total_sq = 0
    for _ in range(races):
        left = dict(remaining)
        rolls = 0
        winner = 0
        while not winner:
            for pair in rng.choices(range(36), k=64):
                rolls += 1
                horse = pair // 6 + pair % 6 + 2
                if horse in left:
                    left[horse] -= 1
                    if left[horse] == 0:
                        winner = horse
                        break
        wins[winner] += 1
        total += rolls
        total_sq += rolls * rolls
    assert all(wins[h] == 0 for h in scratched)
    for horse, p in odds.win.items():
        sigma = math.sqrt(float(p * (1 - p)) / races)
        assert abs(wins[horse] / races - float(p)) < 4 * sigma, horse
    mean = total / races
    sigma = math.sqrt((total_sq / races - mean**2) / races)
    assert abs(mean - float(odds.expected_rolls)) < 4 * sigma


# --- scratch phase ------------------------------------------------------------------------------


def test_no_scratch_rolls_left_is_the_race_itself() -> None:
    remaining = {h: r for h, r in GATE.items() if h not in (3, 8)}
    exact = exact_scratch_phase_odds(GATE, [3, 8], 0)
    assert exact == {3: 0, 8: 0, **exact_race_odds(remaining).win}
    fast = scratch_phase_odds(GATE, [3, 8], 0)
    assert fast == {3: 0.0, 8: 0.0, **race_odds(remaining).win}


def test_pre_race_scratch_phase_sums_to_one_and_depends_on_rerolls() -> None:
    exact = exact_scratch_phase_odds(GATE, (), 4)
    assert sum(exact.values()) == 1
    assert all(exact[h] == exact[14 - h] for h in HORSES)
    fast = scratch_phase_odds(GATE, (), 4)
    assert fast == pytest.approx({h: float(p) for h, p in exact.items()}, abs=1e-12)
    reroll = scratch_phase_odds(GATE, (), 4, reroll_repeats=True)
    assert sum(reroll.values()) == pytest.approx(1.0, abs=1e-12)
    assert max(abs(reroll[h] - fast[h]) for h in HORSES) > 1e-3
    # 7 is the likeliest to be scratched; 2 mostly gains from the rivals that drop out
    full_field = race_odds(GATE).win
    assert fast[7] < full_field[7]
    assert fast[2] > full_field[2]


@pytest.mark.parametrize("reroll", [False, True])
def test_scratch_phase_matches_an_enumeration_of_roll_sequences(reroll: bool) -> None:
    """Horses 2..4 and 10..12 have no lane, so naming them is a wasted scratch roll."""
    remaining_all = {5: 2, 6: 1, 7: 3, 8: 2, 9: 1}
    already = {9}

    def sequences(scratched: frozenset[int], rolls: int) -> list[tuple[Fraction, frozenset[int]]]:
        if rolls == 0:
            return [(Fraction(1), scratched)]
        out = []
        named = [h for h in HORSES if not (reroll and (h in scratched or h not in remaining_all))]
        mass = sum((DICE[h] for h in named), Fraction(0))
        for horse in named:
            after = scratched | {horse} if horse in remaining_all else scratched
            out += [(DICE[horse] / mass * w, s) for w, s in sequences(after, rolls - 1)]
        return out

    expected = dict.fromkeys(remaining_all, Fraction(0))
    for weight, scratched in sequences(frozenset(already), 2):
        wins, _ = brute_force({h: r for h, r in remaining_all.items() if h not in scratched})
        for horse, p in wins.items():
            expected[horse] += weight * p
    assert exact_scratch_phase_odds(remaining_all, already, 2, reroll_repeats=reroll) == expected
    fast = scratch_phase_odds(remaining_all, already, 2, reroll_repeats=reroll)
    assert fast == pytest.approx({h: float(p) for h, p in expected.items()}, abs=1e-14)


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("remaining", "probabilities", "message"),
    [
        ({}, None, "no running horse"),
        ({7: 0}, None, "at least 1"),
        ({7: 3, 8: -2}, None, "at least 1"),
        ({7: True}, None, "at least 1"),
        ({7: 3, 13: 1}, None, "probability 0"),
        ({1: 2, 2: 2}, {1: Fraction(1, 2), 2: Fraction(0)}, "probability 0"),
        ({1: 2}, {1: Fraction(2, 3), 2: Fraction(1, 2)}, "more than 1"),
        ({1: 2}, {1: Fraction(1, 2), 2: Fraction(-1, 4)}, "negative"),
    ],
)
def test_bad_races_raise_config_error(
    remaining: dict[int, int], probabilities: dict[int, Fraction] | None, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        race_odds(remaining, probabilities)
    with pytest.raises(ConfigError, match=message):
        exact_race_odds(remaining, probabilities)


def test_bad_scratch_phases_raise_config_error() -> None:
    with pytest.raises(ConfigError, match="0 or more"):
        scratch_phase_odds(GATE, (), -1)
    with pytest.raises(ConfigError, match="could scratch all"):
        exact_scratch_phase_odds({7: 2, 8: 3}, (), 2)
    with pytest.raises(ConfigError, match="could scratch all"):
        scratch_phase_odds(GATE, HORSES[:7], 4)  # four horses left, four rolls
