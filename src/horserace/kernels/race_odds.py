"""The exact win odds of a dice horse race from any position, compiled: the same sums as
`families/board/odds/race.race_odds` (the negative multinomial, leave-one-out products from
prefix and suffix products, coefficients scaled by s^m and turned back in log space), for the
kernels' EV bot, which prices every move of a race with them. Equal to `race_odds` within
1e-12 (tested); no allocation per call beyond the scratch the caller passes."""

from __future__ import annotations

import math

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.compiled import njit

HORSES = 13  # rows indexed by horse 0..12; horses are 2..12


@njit(cache=True)
def odds_scratch(longest: Word) -> Array:
    """Scratch space for `race_odds` on lanes of at most `longest` advances each."""
    degree = 11 * longest + 2
    return np.zeros((4 * HORSES + 4, degree), dtype=np.float64)


@njit(cache=True)
def _convolve(a: Array, la: Word, b: Array, lb: Word, out: Array) -> Word:
    """out[: la + lb - 1] = a[:la] * b[:lb] as polynomials; returns the length."""
    length = la + lb - 1
    out[:length] = 0.0
    for i in range(la):
        x = a[i]
        for j in range(lb):
            out[i + j] += x * b[j]
    return length


@njit(cache=True)
def race_odds(remaining: Array, p: Array, work: Array, win: Array) -> Word:
    """win[h] = the chance horse h wins from `remaining[h]` advances to go (0: not running),
    with p[h] the chance a roll names h; returns the expected number of rolls."""
    running = 0
    total, degree, longest = 0.0, 0, 0
    for horse in range(2, HORSES):
        win[horse] = 0.0
        if remaining[horse] > 0:
            running += 1
            total += p[horse]
            degree += remaining[horse] - 1
            longest = max(longest, remaining[horse])
    scale = max(degree, 1) / math.e
    polys = work[:HORSES]  # polys[h, k] = (q_h s)^k / k!
    prefix = work[HORSES : 2 * HORSES]  # product of the polys of the running horses up to h
    suffix = work[2 * HORSES : 3 * HORSES]  # product of those after h
    loo = work[3 * HORSES : 4 * HORSES]
    steps = work[4 * HORSES]
    sizes = np.zeros(HORSES + 1, dtype=np.int64)  # prefix lengths (index: horses taken)
    order = np.zeros(HORSES, dtype=np.int64)
    k = 0
    for horse in range(2, HORSES):
        if remaining[horse] > 0:
            order[k] = horse
            k += 1
            q = p[horse] / total
            polys[horse, 0] = 1.0
            for t in range(1, remaining[horse]):
                polys[horse, t] = polys[horse, t - 1] * (q * scale) / t
    # prefix products: prefix[order[i]] = polys[order[0]] ... polys[order[i]]
    first = order[0]
    prefix[first, : remaining[first]] = polys[first, : remaining[first]]
    sizes[0] = remaining[first]
    for i in range(1, running):
        h, before = order[i], order[i - 1]
        sizes[i] = _convolve(prefix[before], sizes[i - 1], polys[h], remaining[h], prefix[h])
    length = degree + 1
    if running == 1:
        loo[first, :length] = 0.0
        loo[first, 0] = 1.0
    else:
        last = order[running - 1]
        loo[last, :length] = 0.0
        loo[last, : sizes[running - 2]] = prefix[order[running - 2], : sizes[running - 2]]
        tail = suffix[last]
        tail[: remaining[last]] = polys[last, : remaining[last]]
        tail_size = remaining[last]
        for i in range(running - 2, 0, -1):
            h = order[i]
            loo[h, :length] = 0.0
            _convolve(prefix[order[i - 1]], sizes[i - 1], tail, tail_size, loo[h])
            tail_size = _convolve(tail, tail_size, polys[h], remaining[h], suffix[h])
            tail = suffix[h]
        loo[first, :length] = 0.0
        loo[first, :tail_size] = tail[:tail_size]
    for t in range(1, degree + 1):
        steps[t - 1] = math.log(t / scale)
    full = prefix[order[running - 1]]
    expected, log_rise = 0.0, 0.0
    for m in range(degree + 1):
        if m:
            log_rise += steps[m - 1]
        if full[m] > 0.0:
            expected += math.exp(log_rise + math.log(full[m]))
    for i in range(running):
        h = order[i]
        r = remaining[h]
        base = r * math.log(p[h] / total)
        rise, terms = 0.0, 0.0
        for m in range(degree + 2 - r):
            if m:
                rise += steps[min(r - 1 + m - 1, degree - 1)]
            if loo[h, m] > 0.0:
                terms += math.exp(base + rise + math.log(loo[h, m]))
        win[h] = terms
    return expected / total
