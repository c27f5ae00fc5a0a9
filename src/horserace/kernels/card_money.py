"""The card race's money rules that the game's body calls: the most a seat may stake at the book,
and a sum split in whole chips by weight, rounded down (the tote's pool).

Both take numbers or a few arrays once a race: inside a card's or a seat's loop a call that passes
arrays costs more than the work (numba counts references to each array it passes).
"""

from __future__ import annotations

from horserace.kernels import Array, Word
from horserace.kernels.compiled import njit


@njit(cache=True)
def stake_limit(room: Word, cover: Word, win: Word, per: Word) -> Word:
    """The most a seat may stake on a horse at the book: its room (limit and chips) and the
    dealer's cover (what the dealer holds less what it would owe if the horse won)."""
    if per == 0:
        return 0
    by_cover = ((cover + 1) * per - 1) // win if cover >= 0 else -1
    return max(0, min(room, by_cover))


@njit(cache=True)
def split(amount: Word, weights: Array, count: Word, out: Array) -> Word:
    """`amount` in whole chips by weight, each share rounded down; returns the odd chips left
    over (the house keeps them)."""
    whole = 0
    for i in range(count):
        whole += weights[i]
    left = amount
    for i in range(count):
        out[i] = amount * weights[i] // whole
        left -= out[i]
    return left
