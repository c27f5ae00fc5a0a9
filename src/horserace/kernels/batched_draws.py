"""Several exact draws from one random word: the whole-game kernel's deal and dice, cheaper.

A kernel's own stream need only give each outcome its exact probability; it need not spend a
word on each. Lemire's method maps a 32-bit word x to floor(x * P / 2**32), uniform on
[0, P) once the words whose low product falls below 2**32 mod P are rejected. Read that value
in a mixed radix b_1 x b_2 x ... (P their product) and its digits are independent, each uniform
on [0, b_k): the first digit is the top 32 bits of x * b_1, the next the top of the low 32 bits
times b_2, and so on, one multiply a digit. So a shuffle's positions (bounds size, size - 1,
...) come four to a word, and the dice five throws to each 32-bit half of a word (36**5 <
2**32; six would reject almost half the words). Every draw stays exact: the rejection is on
the product.
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import Word
from horserace.kernels.compiled import njit
from horserace.kernels.rng import DICE_SUM, step

_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
PAIRS = 36  # a throw of two dice, as one of 36 equally likely pairs
THROWS_PER_HALF = 5  # throws from each 32-bit half of a word
THROW_CODES = PAIRS**THROWS_PER_HALF
THROW_FLOOR = (1 << 32) % THROW_CODES  # a half below this low product is rejected (1 in 2,300)
THROW_SUM = DICE_SUM.astype(np.uint64)  # unsigned, so an index by a sum needs no sign check
PICKS_PER_WORD = 4  # a shuffle's positions from one word: 96**4 < 2**32 (decks of up to 96)


@njit(cache=True, inline="always")
def exact_fraction(z: Word, product: Word) -> tuple[Word, Word]:
    """The stream's next 32-bit word x that Lemire's method accepts for `product` outcomes
    (0 < product <= 2**32, unsigned): floor(x * product / 2**32) is uniform on [0, product)."""
    while True:
        z, word = step(z)
        x = word >> np.uint64(32)
        low = (x * product) & _LOW32
        if low >= product or low >= (_TWO32 - product) % product:  # (modulo only when low)
            return z, x


@njit(cache=True, inline="always")
def next_digit(x: Word, radix: Word) -> tuple[Word, Word]:
    """(the fraction left, the next digit in [0, radix)) of an accepted 32-bit word x."""
    x *= radix
    return x & _LOW32, x >> np.uint64(32)


@njit(cache=True, inline="always")
def picks_word(z: Word, bound: Word, count: Word) -> tuple[Word, Word]:
    """The word for the next PICKS_PER_WORD positions of a shuffle, with bounds bound,
    bound - 1, ... (`count` of them still to draw, radix 1 past them; bound and count unsigned,
    count > 0): an exact fraction for their product, read by `next_digit` with each bound."""
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    b1 = one + (bound - two) * np.uint64(count > one)  # (no branch: the deal's last word)
    b2 = one + (bound - three) * np.uint64(count > two)
    b3 = one + (bound - np.uint64(4)) * np.uint64(count > three)
    return exact_fraction(z, bound * b1 * (b2 * b3))


@njit(cache=True, inline="always")
def throws_of_half(x: Word) -> tuple[bool, Word, Word, Word, Word, Word]:
    """(accepted, five dice sums, unsigned) from a 32-bit half x: its value over 36**5 outcomes
    read as five throws of two dice. A rejected half must be skipped whole."""
    accepted = ((x * np.uint64(THROW_CODES)) & _LOW32) >= np.uint64(THROW_FLOOR)
    pairs = np.uint64(PAIRS)
    x, first = next_digit(x, pairs)
    x, second = next_digit(x, pairs)
    x, third = next_digit(x, pairs)
    x, fourth = next_digit(x, pairs)
    x, fifth = next_digit(x, pairs)
    sums = THROW_SUM
    return accepted, sums[first], sums[second], sums[third], sums[fourth], sums[fifth]
