"""The compiled race odds the kernels' EV bot prices moves with, against the family's
`race_odds`: every win chance and the expected rolls within 1e-12, from random positions of
one to eleven running horses, and exact values on a hand-checked race."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np

from horserace.components.dice import two_dice_sum_probabilities
from horserace.families.board.odds.race import exact_race_odds, race_odds
from horserace.kernels.race_odds import odds_scratch
from horserace.kernels.race_odds import race_odds as compiled_odds

DICE = np.zeros(13)
for _horse, _chance in two_dice_sum_probabilities().items():
    DICE[_horse] = float(_chance)


def compiled(remaining: dict[int, int]) -> tuple[np.ndarray, float]:
    rows = np.zeros(13, dtype=np.int64)
    for horse, left in remaining.items():
        rows[horse] = left
    win = np.zeros(13)
    expected = compiled_odds(rows, DICE, odds_scratch(max(remaining.values())), win)
    return win, expected


def test_the_compiled_odds_equal_race_odds_within_1e_12() -> None:
    pick = random.Random(7)
    worst = 0.0
    for _ in range(2_000):
        horses = pick.sample(range(2, 13), pick.randint(1, 11))
        remaining = {horse: pick.randint(1, pick.choice([3, 8, 16])) for horse in horses}
        win, expected = compiled(remaining)
        reference = race_odds(remaining)
        assert set(np.flatnonzero(win)) <= set(horses)
        for horse in horses:
            worst = max(worst, abs(win[horse] - reference.win[horse]))
        worst = max(worst, abs(expected - reference.expected_rolls) / reference.expected_rolls)
    assert worst < 1e-12


def test_a_two_horse_race_by_hand() -> None:
    """Horses 7 (6/36 a roll) and 2 (1/36), one advance each to go: 7 wins 6/7 of the time,
    and the race takes 36/7 rolls on average."""
    win, expected = compiled({7: 1, 2: 1})
    assert abs(win[7] - 6 / 7) < 1e-15 and abs(win[2] - 1 / 7) < 1e-15
    assert abs(expected - 36 / 7) < 1e-13
    exact = exact_race_odds({7: 3, 2: 1, 12: 2})
    win, expected = compiled({7: 3, 2: 1, 12: 2})
    assert all(abs(win[h] - float(exact.win[h])) < 1e-15 for h in (7, 2, 12))
    assert abs(expected - float(exact.expected_rolls)) < 1e-12
    assert exact.win[7] + exact.win[2] + exact.win[12] == Fraction(1)
