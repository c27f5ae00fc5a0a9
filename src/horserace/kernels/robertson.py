"""Robertson's race roll for the compiled kernels (Classic and Advanced): four dice, the legal
pairings in the engine's order (`rules/phases/race.pair_legal`: each way of splitting the dice
into two sums, in both orders, sorted, without repeats), and the bots' pick among them as
`families/board/bots.py` makes it: the heuristic's `helps` (a scratched horse -3, else the
cards held of it; the first best wins), the EV bot's hand worth after the two moves less the
penalties they cost, with the race's exact odds (the first within TIE of the best wins).
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import (
    DICE,
    _valuer,
    first_best,
    hand_value,
    odds_from,
    roll_waste,
)
from horserace.kernels.advanced_numbers import EV, FINISH, HEURISTIC, VALUES
from horserace.kernels.advanced_rules import decide
from horserace.kernels.compiled import njit
from horserace.kernels.rng import bounded, read_tape

FOUR_DICE = 1 << 16  # a tape's four dice a <= b <= c <= d: FOUR_DICE + abcd in decimal digits
PAIRS = 6  # at most six ordered pairings
# Places in a roll's array (FOUR_SPACE long): the dice, then each pairing's first and second.
DIE, FIRST, SECOND = 0, 4, 4 + PAIRS
FOUR_SPACE = 4 + 2 * PAIRS


def four_dice_entry(dice: tuple[int, ...]) -> int:
    """The tape entry of a roll of four dice (in any order)."""
    a, b, c, d = sorted(dice)
    return FOUR_DICE + a * 1000 + b * 100 + c * 10 + d


@njit(cache=True)
def _roll_four(z: Word, tape: Array, at: Array, four: Array) -> Word:
    """Four dice into four[DIE:DIE + 4], sorted: the tape's, or from the stream."""
    if tape.shape[0] > 0:
        entry = read_tape(tape, at) - FOUR_DICE
        if not 1111 <= entry <= 6666:
            raise ValueError("the tape holds no roll of four dice here")
        for k in range(4):
            four[DIE + 3 - k] = entry % 10
            entry //= 10
        return z
    z, drawn = bounded(z, np.int64(1296))
    for k in range(4):
        four[DIE + k] = drawn % 6 + 1
        drawn //= 6
    four[DIE : DIE + 4].sort()
    return z


@njit(cache=True)
def _pairings(four: Array) -> Word:
    """The legal ordered pairs of sums, sorted, without repeats; returns how many."""
    a, b, c, d = four[DIE], four[DIE + 1], four[DIE + 2], four[DIE + 3]
    count = 0
    for x, y in ((a + b, c + d), (a + c, b + d), (a + d, b + c), (c + d, a + b),
                 (b + d, a + c), (b + c, a + d)):  # fmt: skip
        at = count
        for k in range(count):
            if four[FIRST + k] == x and four[SECOND + k] == y:
                at = -1
                break
            if four[FIRST + k] > x or (four[FIRST + k] == x and four[SECOND + k] > y):
                at = k
                break
        if at < 0:
            continue
        for k in range(count, at, -1):
            four[FIRST + k], four[SECOND + k] = four[FIRST + k - 1], four[SECOND + k - 1]
        four[FIRST + at], four[SECOND + at] = x, y
        count += 1
    return count


@njit(cache=True)
def _helps(hand: Array, line_of: Array, four: Array, count: Word) -> Word:
    """The heuristic: the pairing whose horses' cards in hand count most (-3 a scratched one)."""
    best, pick = 0, 0
    for k in range(count):
        score = 0
        for horse in (four[FIRST + k], four[SECOND + k]):
            score += -3 if line_of[horse] else hand[horse]
        if k == 0 or score > best:
            best, pick = score, k
    return pick


@njit(cache=True)
def _odds_from(
    spec: Array, line_of: Array, position: Array, p: Array, work: Array, win: Array,
    remaining: Array,
) -> float:  # fmt: skip
    """The race's exact odds from these positions into `win`; returns the rolls expected. A
    horse past its finish has won: its chance is 1."""
    for horse in range(2, 13):
        if position[horse] >= spec[FINISH + horse]:
            win[:] = 0.0
            win[horse] = 1.0
            return 0.0
    return odds_from(spec, line_of, position, p, work, win, remaining)


@njit(cache=True)
def _ev_pick(
    spec: Array, unit: Word, seat: Word, hands: Array, discards: Array, stub: Word, pot: Word,
    line_of: Array, position: Array, four: Array, count: Word, tables: Array, work: Array,
    win: Array, remaining: Array, valued: Array, worths: Array,
) -> Word:  # fmt: skip
    """The EV bot: each pairing's hand worth once its sums are moved (the race over when the
    first crosses the line), less what its scratched horses cost (`unit`: chips a line's
    value counts); the pot expected is the pot now and the penalties the race still brings."""
    rolls = _odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
    estimate = pot + rolls * roll_waste(spec, line_of, tables[DICE], unit)
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    hand = hands[seat]
    for k in range(count):
        first, second = four[FIRST + k], four[SECOND + k]
        cost = 0.0
        moved = 0  # horses moved: 1 the first, 2 the second, 3 both
        won = False
        for which, horse in ((1, first), (2, second)):
            line = line_of[horse]
            if line:
                cost += spec[VALUES + line - 1] * unit
                continue
            position[horse] += 1
            moved += which
            if position[horse] >= spec[FINISH + horse]:
                won = True
                break
        # the same two sums the other way round, no horse home: the same board and cost
        same = -1
        if not won:
            for j in range(k):
                if four[FIRST + j] == second and four[SECOND + j] == first:
                    same = j
        if same < 0:
            _odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
            worths[k] = hand_value(spec, hand, win, estimate, valued, in_hands) - cost
        else:
            worths[k] = worths[same]
        if moved & 1:
            position[first] -= 1
        if moved & 2:
            position[second] -= 1
    return first_best(worths, np.int64(count))


@njit(cache=True)
def pair_dice(
    spec: Array, z: Word, tape: Array, at: Array, kind: Word, unit: Word, seat: Word,
    hands: Array, discards: Array, stub: Word, pot: Word, line_of: Array, position: Array,
    four: Array, tables: Array, work: Array, win: Array, remaining: Array, valued: Array,
    worths: Array,
) -> tuple[Word, Word, Word]:  # fmt: skip
    """Four dice rolled and paired by the roller's bot; returns (stream, first sum, second)."""
    z = _roll_four(z, tape, at, four)
    count = _pairings(four)
    own = 0
    if kind == HEURISTIC:
        own = _helps(hands[seat], line_of, four, count)
    elif kind == EV and count > 1:
        own = _ev_pick(
            spec, unit, seat, hands, discards, stub, pot, line_of, position, four, count,
            tables, work, win, remaining, valued, worths,
        )  # fmt: skip
    z, index = decide(z, tape, at, kind, np.int64(count), np.int64(own))
    return z, four[FIRST + index], four[SECOND + index]
