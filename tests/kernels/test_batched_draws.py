"""The whole-game kernel's batched draws: several exact outcomes from one random word, the
rejection on their product, and the race in five-throw blocks, against plain Python."""

from __future__ import annotations

import random
from itertools import product as cartesian
from typing import Any

import numpy as np
import pytest
from numba import njit

from horserace.kernels.batched_draws import (
    PAIRS,
    THROW_CODES,
    THROW_FLOOR,
    exact_fraction,
    next_digit,
    picks_word,
    throws_of_half,
)
from horserace.kernels.race_fields import FIELD, LANE, race_fields
from horserace.kernels.rng import DICE_SUM

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _words(z: int) -> Any:
    """SplitMix64's outputs after state z, in plain Python."""
    while True:
        z = (z + GOLDEN) & MASK
        yield z, _mix64(z)


def _chi2(counts: np.ndarray[Any, Any], expected: np.ndarray[Any, Any]) -> float:
    return float(((counts - expected) ** 2 / expected).sum())


def _chi2_bound(cells: int) -> float:
    """A bound the chi-square statistic of `cells` cells passes with probability about 0.9999
    (Wilson-Hilferty with z = 3.72)."""
    df = cells - 1
    return float(df * (1 - 2 / (9 * df) + 3.72 * (2 / (9 * df)) ** 0.5) ** 3)


@njit(cache=True)
def _fractions(z: Any, product: Any, count: Any) -> Any:
    out = np.zeros((count, 2), dtype=np.uint64)
    for i in range(count):
        z, x = exact_fraction(z, np.uint64(product))
        out[i, 0], out[i, 1] = z, x
    return out


def test_a_rejected_word_is_skipped_for_the_next_one_lemire_accepts() -> None:
    product = (1 << 31) + 1  # 2**32 mod product = 2**31 - 1: about half the words rejected
    floor = (1 << 32) % product
    starts = random.Random(1).sample(range(1 << 62), 200)
    rejected = 0
    for start in starts:
        (z, x), *_ = _fractions(np.uint64(start), product, 1).tolist()
        expected = None
        for state, word in _words(start):
            top = word >> 32
            if (top * product) & 0xFFFFFFFF >= floor:
                expected = (state, top)
                break
            rejected += 1
        assert (z, x) == expected
    assert rejected > 50  # the rejection path really ran


@njit(cache=True)
def _digits(xs: Any, radices: Any) -> Any:
    out = np.zeros((xs.shape[0], radices.shape[0]), dtype=np.uint64)
    for i in range(xs.shape[0]):
        x = xs[i]
        for k in range(radices.shape[0]):
            x, out[i, k] = next_digit(x, radices[k])
    return out


def test_digits_are_the_mixed_radix_digits_of_lemires_value() -> None:
    """floor(x * P / 2**32) written in the radices b_1 x b_2 x ... is what next_digit reads:
    so the digits of an accepted word are uniform and independent exactly when the value is."""
    pick = random.Random(2)
    radices = [88, 87, 86, 85]
    xs = [pick.randrange(1 << 32) for _ in range(5000)] + [0, (1 << 32) - 1]
    got = _digits(np.array(xs, dtype=np.uint64), np.array(radices, dtype=np.uint64)).tolist()
    total = 88 * 87 * 86 * 85
    for x, digits in zip(xs, got, strict=True):
        value = (x * total) >> 32
        expected = []
        for radix in reversed(radices):
            value, digit = divmod(value, radix)
            expected.append(digit)
        assert digits == expected[::-1]


@njit(cache=True)
def _positions(z: Any, bound: Any, count: Any, draws: Any) -> Any:
    out = np.zeros((draws, 4), dtype=np.int64)
    for i in range(draws):
        z, x = picks_word(z, np.uint64(bound), np.uint64(count))
        for t in range(4):
            x, out[i, t] = next_digit(x, np.uint64(max(bound - t, 1) if t < count else 1))
    return out


@pytest.mark.parametrize(("bound", "count"), [(5, 4), (6, 3), (3, 2)])
def test_every_tuple_of_a_words_positions_is_equally_likely(bound: int, count: int) -> None:
    draws = 120_000
    got = _positions(np.uint64(12345 + bound), bound, count, draws)
    assert np.all(got[:, count:] == 0)  # past count the radix is 1
    cells = list(cartesian(*(range(bound - t) for t in range(count))))
    index = {cell: k for k, cell in enumerate(cells)}
    counts = np.zeros(len(cells))
    for row in got[:, :count].tolist():
        counts[index[tuple(row)]] += 1
    expected = np.full(len(cells), draws / len(cells))
    assert _chi2(counts, expected) < _chi2_bound(len(cells))


@njit(cache=True)
def _halves(xs: Any) -> Any:
    out = np.zeros((xs.shape[0], 6), dtype=np.int64)
    for i in range(xs.shape[0]):
        accepted, a, b, c, d, e = throws_of_half(xs[i])
        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4], out[i, 5] = accepted, a, b, c, d, e
    return out


def _plain_half(x: int) -> tuple[bool, list[int]]:
    value = (x * THROW_CODES) >> 32
    pairs = []
    for _ in range(5):
        value, pair = divmod(value, PAIRS)
        pairs.append(pair)
    accepted = (x * THROW_CODES) & 0xFFFFFFFF >= THROW_FLOOR
    return accepted, [int(DICE_SUM[p]) for p in reversed(pairs)]


def test_a_half_word_is_five_throws_of_two_dice_or_rejected_whole() -> None:
    pick = random.Random(3)
    xs = [pick.randrange(1 << 32) for _ in range(20_000)] + [0, 1, (1 << 32) - 1]
    got = _halves(np.array(xs, dtype=np.uint64)).tolist()
    for x, row in zip(xs, got, strict=True):
        accepted, sums = _plain_half(x)
        assert (bool(row[0]), row[1:]) == (accepted, sums)
    assert got[-3][0] == 0 and got[-1][0] == 1  # x = 0 falls in the rejected low products


def test_the_first_two_throws_of_a_half_are_independent_fair_pairs() -> None:
    xs = np.array(random.Random(4).sample(range(1 << 32), 150_000), dtype=np.uint64)
    got = _halves(xs)
    got = got[got[:, 0] == 1]
    chance = np.bincount(DICE_SUM, minlength=13)[2:] / 36
    joint = np.zeros((11, 11))
    np.add.at(joint, (got[:, 1] - 2, got[:, 5] - 2), 1)
    expected = got.shape[0] * np.outer(chance, chance)
    assert _chi2(joint, expected) < _chi2_bound(121)


def _plain_race(start: int, finish: list[int], cost: list[int], active: int) -> tuple[Any, ...]:
    """The race roll by roll in plain Python on the same throws: (state, winner, rolls, owed)."""
    to_go = dict(zip(range(2, 13), finish, strict=True))
    owed, rolls = [0] * active, 0
    for state, word in _words(start):
        for half in (word >> 32, word & 0xFFFFFFFF):
            accepted, sums = _plain_half(half)
            if not accepted:
                continue
            for horse in sums:
                owed[rolls % active] += cost[horse - 2]
                rolls += 1
                to_go[horse] -= 1
                if to_go[horse] == 0:
                    return state, horse, rolls, owed
    raise AssertionError("unreachable")


def test_a_race_in_fields_is_the_race_roll_by_roll_on_the_same_throws() -> None:
    pick = random.Random(5)
    for _ in range(300):
        lanes = [pick.randint(1, LANE) for _ in range(11)]  # advances to finish, 1..16
        scratched = set(pick.sample(range(2, 13), pick.randint(0, 4)))
        active = pick.randint(2, 12)
        cost = [pick.randint(1, 9) if h in scratched else 0 for h in range(2, 13)]
        finish = [1 << 40 if h in scratched else lanes[h - 2] for h in range(2, 13)]
        advance = np.zeros(13, dtype=np.int64)
        fields = 0
        for horse in range(2, 13):
            if horse not in scratched:
                advance[horse] = 1 << (FIELD * (horse - 2))
                fields += (LANE - lanes[horse - 2]) << (FIELD * (horse - 2))
        owed = np.zeros(active, dtype=np.int64)
        start = pick.randrange(1 << 64)
        z, winner, rolls = race_fields(
            np.uint64(start), advance, np.array([0, 0, *cost]), owed, active, fields
        )
        expected = _plain_race(start, finish, cost, active)
        assert (int(z), int(winner), int(rolls), owed.tolist()) == expected
