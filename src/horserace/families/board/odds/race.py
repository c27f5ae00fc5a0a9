"""Win odds of a dice horse race, exact (Fractions) and fast (numpy), plus the scratch phase.

Method: Poisson embedding / negative multinomial. Restricted to rolls that name a running horse,
the rolls are i.i.d. with probabilities q_h = p_h / Λ (Λ = Σ p over running horses). Horse h wins
iff its r_h-th advance comes while every other horse j has k_j < r_j advances, so

    P(h wins) = q_h^{r_h} Σ_m C(r_h - 1 + m, m) B_{-h}[m],
    B_S[m] = m! [t^m] Π_{j in S} e_j(t),   e_j(t) = Σ_{k < r_j} (q_j t)^k / k!.

B_S[m] is the chance that m running rolls leave every horse of S short of the finish. The
expected number of rolls (wasted ones included) is Σ_m B_all[m] / Λ by Wald's identity, since each
roll names a running horse with probability Λ. Leave-one-out products come from prefix and suffix
products: 3n convolutions instead of n².
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from horserace.components.dice import two_dice_sum_probabilities
from horserace.core.errors import ConfigError

__all__ = [
    "ExactRaceOdds",
    "RaceOdds",
    "exact_race_odds",
    "exact_scratch_phase_odds",
    "race_odds",
    "round_odds",
    "scratch_phase_odds",
    "scratch_set_chances",
    "win_terms",
]

FloatArray = npt.NDArray[np.float64]
Number = TypeVar("Number", float, Fraction)


@dataclass(frozen=True)
class RaceOdds:
    """Win chance per running horse and the expected number of rolls until someone finishes."""

    win: dict[int, float]
    expected_rolls: float


@dataclass(frozen=True)
class ExactRaceOdds:
    """RaceOdds in exact arithmetic: the wins sum to exactly 1, for tests and reference values."""

    win: dict[int, Fraction]
    expected_rolls: Fraction

    def to_float(self) -> RaceOdds:
        return RaceOdds({h: float(p) for h, p in self.win.items()}, float(self.expected_rolls))


@dataclass(frozen=True)
class _Dice:
    """Validated roll probabilities (positive ones only), kept in both arithmetics."""

    exact: dict[int, Fraction]
    floats: dict[int, float]
    unnamed: Fraction  # chance that a roll names no horse at all


def _make_dice(items: tuple[tuple[int, Fraction], ...]) -> _Dice:
    exact: dict[int, Fraction] = {}
    for horse, value in items:
        p = Fraction(value)
        if p < 0:
            raise ConfigError(f"horse {horse}: a probability cannot be negative ({p})")
        if p > 0:
            exact[horse] = p
    unnamed = 1 - sum(exact.values(), Fraction(0))
    if unnamed < 0:
        raise ConfigError("the roll probabilities add up to more than 1")
    return _Dice(exact, {h: float(p) for h, p in exact.items()}, unnamed)


_DEFAULT_DICE = _make_dice(tuple(two_dice_sum_probabilities().items()))
_cached_dice = lru_cache(maxsize=64)(_make_dice)


def _dice(probabilities: Mapping[int, Fraction] | None) -> _Dice:
    """Probabilities not summing to 1 leave the rest to rolls naming no horse (wasted rolls)."""
    if probabilities is None:
        return _DEFAULT_DICE
    return _cached_dice(tuple(sorted(probabilities.items())))


def _running(remaining: Mapping[int, int], dice: _Dice) -> tuple[list[int], list[int]]:
    """Sorted running horses and their remaining advances, or a ConfigError saying what is wrong."""
    if not remaining:
        raise ConfigError("no running horse: a race needs at least one horse still to finish")
    horses = sorted(remaining)
    counts: list[int] = []
    for horse in horses:
        value = remaining[horse]
        count = -1 if isinstance(value, bool) else operator.index(value)
        if count < 1:
            raise ConfigError(
                f"horse {horse}: remaining advances must be at least 1, not {value!r}"
            )
        if horse not in dice.exact:
            raise ConfigError(
                f"horse {horse} is running but the dice never name it (probability 0)"
            )
        counts.append(count)
    return horses, counts


# --- float version ------------------------------------------------------------------------------


def race_odds(
    remaining: Mapping[int, int], probabilities: Mapping[int, Fraction] | None = None
) -> RaceOdds:
    """Win odds in float64 (about 0.1 ms for a full board); horses absent from `remaining` are
    scratched and waste the rolls that name them."""
    terms, expected = _win_terms(remaining, probabilities)
    return RaceOdds({horse: float(t.sum()) for horse, t in terms.items()}, expected)


def win_terms(remaining: Mapping[int, int]) -> dict[int, FloatArray]:
    """terms[h][m] = P(horse h wins with m rolls of other running horses before its last one),
    standard dice: the race's running rolls are then remaining[h] + m (summing over m gives
    race_odds(remaining).win[h])."""
    return _win_terms(remaining, None)[0]


def _win_terms(
    remaining: Mapping[int, int], probabilities: Mapping[int, Fraction] | None
) -> tuple[dict[int, FloatArray], float]:
    dice = _dice(probabilities)
    horses, counts = _running(remaining, dice)
    p = np.array([dice.floats[h] for h in horses])
    total = float(p.sum())
    q = p / total
    r = np.array(counts)
    degree = int(r.sum()) - len(counts)
    # Scaling: substitute t = u / s with s = max(degree, 1) / e, i.e. store c_m s^m for the
    # coefficient c_m of t^m. A geometric factor commutes with convolution, and every product
    # evaluated at u = 1 is at most Π exp(q_j s) = e^s (about e^400 for eleven 99-slot lanes), so
    # no coefficient overflows. The factor m! / s^m that turns them back into B[m] lies between
    # about e^-s and sqrt(2π degree); it is applied in log space, so no huge value is formed.
    # Every term is positive (no cancellation): the relative error stays a few ulps per operation,
    # and a term small enough to underflow was negligible.
    scale = max(degree, 1) / math.e
    table = np.ones((len(counts), int(r.max())))
    if table.shape[1] > 1:
        table[:, 1:] = np.cumprod((q * scale)[:, None] / np.arange(1, table.shape[1]), axis=1)
    polys = [table[i, :count] for i, count in enumerate(counts)]
    loo, full = _products(polys, degree + 1)
    # log(m! / s^m) for m = 0..degree; steps[t - 1] = log(t / s).
    steps = np.log(np.arange(1, degree + 1) / scale)
    log_rise = np.concatenate(([0.0], np.cumsum(steps)))
    # rise[i, m] = log Π_{t=1..m} (r_i - 1 + t) / s, summed from t = 1 so nothing cancels, for
    # every horse at once (past the end of a horse's row the index is clipped: zeros follow).
    rise = np.zeros(loo.shape)
    if degree:
        at = np.minimum((r - 1)[:, None] + np.arange(degree), degree - 1)
        rise[:, 1:] = np.cumsum(steps[at], axis=1)
    with np.errstate(divide="ignore", under="ignore"):
        rows = np.exp((r * np.log(q))[:, None] + rise + np.log(loo))
        expected = float(np.exp(log_rise + np.log(full)).sum()) / total
    sizes = degree + 2 - r  # the length of each horse's row: its terms
    return {horse: rows[i, : sizes[i]] for i, horse in enumerate(horses)}, expected


def _products(polys: list[FloatArray], length: int) -> tuple[FloatArray, FloatArray]:
    """loo[i]: the product of every poly but polys[i] (zeros past its degree), from prefix and
    suffix products (3n convolutions instead of n²), and the product of them all. A product
    with the constant 1 is the other factor bit for bit, so none is computed."""
    prefix = [polys[0]]  # prefix[i] = the product of polys[: i + 1]
    for poly in polys[1:]:
        prefix.append(np.convolve(prefix[-1], poly))
    loo = np.zeros((len(polys), length))
    if len(polys) == 1:
        loo[0, 0] = 1.0
        return loo, prefix[0]
    last = len(polys) - 1
    loo[last, : len(prefix[last - 1])] = prefix[last - 1]
    suffix = polys[last]  # the product of polys[i + 1 :]
    for i in range(last - 1, 0, -1):
        part = np.convolve(prefix[i - 1], suffix)
        loo[i, : len(part)] = part
        suffix = np.convolve(suffix, polys[i])
    loo[0, : len(suffix)] = suffix
    return loo, prefix[-1]


# --- exact version ------------------------------------------------------------------------------


def _convolve(a: list[int], b: list[int]) -> list[int]:
    """Product of integer polynomials; plain loops beat a big-integer (Kronecker) trick here."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def exact_race_odds(
    remaining: Mapping[int, int], probabilities: Mapping[int, Fraction] | None = None
) -> ExactRaceOdds:
    """The same sums in integers over one common denominator, so every value is exact."""
    dice = _dice(probabilities)
    horses, counts = _running(remaining, dice)
    ps = [dice.exact[h] for h in horses]
    total = sum(ps, Fraction(0))
    # q_j = a_j / big_a with integers a_j; then e_j(t) = Σ_k a_j^k R_j!/k! (t/big_a)^k / R_j!
    # where R_j = r_j - 1, so all polynomials have integer coefficients in the variable t/big_a.
    den = math.lcm(*(p.denominator for p in ps))
    a = [p.numerator * (den // p.denominator) for p in ps]
    common = math.gcd(*a)
    a = [x // common for x in a]
    big_a = sum(a)
    degree = sum(counts) - len(counts)
    fact = [1]
    for m in range(1, degree + 1):
        fact.append(fact[-1] * m)
    polys: list[list[int]] = []
    for x, count in zip(a, counts, strict=True):
        poly = [0] * count
        falling = 1  # R!/k! for k going down from R
        for k in range(count - 1, -1, -1):
            poly[k] = x**k * falling
            falling *= k if k else 1
        polys.append(poly)
    prefix = [[1]]
    for poly in polys:
        prefix.append(_convolve(prefix[-1], poly))
    suffix = [[1]]
    for poly in reversed(polys):
        suffix.append(_convolve(suffix[-1], poly))
    suffix.reverse()
    # Each product carries the factor 1 / Π R_j!; the win sums all share the denominator
    # Π R_j! * big_a^(degree + 1) because r_h + max m = degree + 1 for every horse.
    scale = math.prod(fact[count - 1] for count in counts)
    denominator = scale * big_a ** (degree + 1)
    win: dict[int, Fraction] = {}
    for i, horse in enumerate(horses):
        loo = _convolve(prefix[i], suffix[i + 1])
        acc = 0
        for m, c in enumerate(loo):  # Horner in big_a: Σ_m (R+m)! c_m big_a^(M-m)
            acc = acc * big_a + fact[counts[i] - 1 + m] * c
        win[horse] = Fraction(a[i] ** counts[i] * acc, denominator)
    acc = 0
    for m, c in enumerate(prefix[-1]):
        acc = acc * big_a + fact[m] * c
    expected = Fraction(acc * total.denominator, scale * big_a**degree * total.numerator)
    return ExactRaceOdds(win, expected)


# --- scratch phase ------------------------------------------------------------------------------


def _final_scratch_sets(
    start: frozenset[int],
    named: Mapping[int, Number],
    rolls_left: int,
    reroll_repeats: bool,
    unnamed: Number,
) -> dict[frozenset[int], Number]:
    """Distribution of the scratched set after the scratch rolls, merged per set after each roll,
    so each distinct set (at most C(11, <=4) ~ 560) is carried and later raced only once."""
    zero = unnamed * 0
    layer = {start: zero + 1}
    for _ in range(rolls_left):
        following: dict[frozenset[int], Number] = {}
        for scratched, weight in layer.items():
            free = [(h, p) for h, p in named.items() if h not in scratched]
            if reroll_repeats:
                free_mass = zero
                for _, p in free:
                    free_mass += p
                weight = weight / free_mass
            else:  # a roll naming a scratched horse (or no horse) is used up: the set stays
                stay = unnamed  # summed, not 1 - free mass, so it is exactly 0 when it should be
                for h, p in named.items():
                    if h in scratched:
                        stay += p
                if stay:
                    following[scratched] = following.get(scratched, zero) + weight * stay
            for horse, p in free:
                key = scratched | {horse}
                following[key] = following.get(key, zero) + weight * p
        layer = following
    return layer


def _scratch_phase(
    remaining_all: Mapping[int, int],
    scratched: Collection[int],
    rolls_left: int,
    reroll_repeats: bool,
    named: Mapping[int, Number],
    unnamed: Number,
    race: Callable[[dict[int, int]], Mapping[int, Number]],
) -> dict[int, Number]:
    if rolls_left < 0:
        raise ConfigError(f"rolls_left must be 0 or more, not {rolls_left}")
    # A horse the dice name but that has no lane counts as already scratched, as in race_odds.
    start = frozenset(scratched) | frozenset(h for h in named if h not in remaining_all)
    free = [h for h in named if h not in start]
    if len(free) <= rolls_left:
        raise ConfigError(
            f"{rolls_left} scratch roll(s) could scratch all {len(free)} horse(s) still running"
        )
    finals = _final_scratch_sets(start, named, rolls_left, reroll_repeats, unnamed)
    zero = unnamed * 0
    win = dict.fromkeys(sorted(set(remaining_all) | set(scratched)), zero)
    for final, weight in finals.items():
        odds = race({h: r for h, r in remaining_all.items() if h not in final})
        for horse, p in odds.items():
            win[horse] += weight * p
    return win


def scratch_phase_odds(
    remaining_all: Mapping[int, int],
    scratched: Collection[int],
    rolls_left: int,
    *,
    reroll_repeats: bool = False,
    probabilities: Mapping[int, Fraction] | None = None,
) -> dict[int, float]:
    """Win chance of every horse before `rolls_left` scratch rolls (scratched horses get 0).

    Horses absent from `remaining_all` count as scratched. A roll naming a scratched horse is
    used up, or with `reroll_repeats` rolled again until it names a new horse.
    """
    dice = _dice(probabilities)
    given = None if probabilities is None else tuple(sorted(probabilities.items()))
    return _scratch_phase(
        remaining_all,
        scratched,
        rolls_left,
        reroll_repeats,
        dice.floats,
        float(dice.unnamed),
        lambda rem: _race_win(tuple(sorted(rem.items())), given),
    )


@lru_cache(maxsize=4_096)
def _race_win(
    remaining: tuple[tuple[int, int], ...], probabilities: tuple[tuple[int, Fraction], ...] | None
) -> dict[int, float]:
    """race_odds' wins, kept for the scratch phase: before and during it every table on the
    same lanes races the same sets of scratched horses (at most 330, four of eleven), whatever
    was scratched so far, so once they are in, a scratch roll's odds cost sums, not races."""
    return race_odds(dict(remaining), None if probabilities is None else dict(probabilities)).win


def scratch_set_chances(rolls_left: int, *, reroll_repeats: bool) -> dict[frozenset[int], float]:
    """The chance of each set of scratched horses after `rolls_left` scratch rolls from a
    board with none scratched (standard dice); it does not depend on the lanes."""
    dice = _DEFAULT_DICE
    return _final_scratch_sets(frozenset(), dice.floats, rolls_left, reroll_repeats, 0.0)


def round_odds(
    remaining_all: Mapping[int, int], rolls_left: int, *, reroll_repeats: bool = False
) -> RaceOdds:
    """A whole round before its scratch rolls: each horse's win chance and the expected number
    of race rolls, averaged over the scratched sets the rolls leave (standard dice)."""
    dice = _DEFAULT_DICE
    start = frozenset(h for h in dice.floats if h not in remaining_all)
    finals = _final_scratch_sets(start, dice.floats, rolls_left, reroll_repeats, 0.0)
    win = dict.fromkeys(sorted(remaining_all), 0.0)
    expected = 0.0
    for final, weight in finals.items():
        odds = race_odds({h: r for h, r in remaining_all.items() if h not in final})
        for horse, p in odds.win.items():
            win[horse] += weight * p
        expected += weight * odds.expected_rolls
    return RaceOdds(win, expected)


def exact_scratch_phase_odds(
    remaining_all: Mapping[int, int],
    scratched: Collection[int],
    rolls_left: int,
    *,
    reroll_repeats: bool = False,
    probabilities: Mapping[int, Fraction] | None = None,
) -> dict[int, Fraction]:
    """scratch_phase_odds in exact arithmetic; the values sum to exactly 1."""
    dice = _dice(probabilities)
    return _scratch_phase(
        remaining_all,
        scratched,
        rolls_left,
        reroll_repeats,
        dice.exact,
        dice.unnamed,
        lambda rem: exact_race_odds(rem, probabilities).win,
    )
