"""The EV bot of the dice board game, compiled for the Advanced kernel: the same valuation as
`families/board/bots.EvBot` and `bot_values.HandValuer`, from what the seat's view holds (its
own hand, the others' hand sizes or, with open hands, their cards; the discards, the stub's size,
the pots, the board), with the race odds of `race_odds.py` in the race and the odds before the
scratch worked out once by the family's odds (`EvTables`).

Each choice takes the first legal action whose worth is within TIE of the best, as the engine's
EV bot does: both agree on the odds to 1e-12, so they choose alike.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from horserace.components.dice import two_dice_sum_probabilities
from horserace.families.board.odds.race import scratch_phase_odds, scratch_set_chances
from horserace.kernels import Array, Word
from horserace.kernels.advanced_numbers import (
    ACE,
    ANTE,
    DECK,
    DECKS,
    FINISH,
    JOKER,
    KING,
    OPEN,
    PLAYERS,
    SPLIT,
    VALUES,
)
from horserace.kernels.compiled import njit
from horserace.kernels.race_odds import race_odds

TIE = 1e-9  # worths closer than this are equal (families/board/bot_values.py says the same)
KING_KEPT = 0.75  # the share of a penalty a King is expected to keep away (bot_values.py)
GATE, DICE, RISK = 0, 1, 2  # rows of the EV tables


@lru_cache(maxsize=64)
def _tables(finish: tuple[int, ...], reroll: bool) -> Array:
    """GATE: each horse's chance before the scratch (the family's scratch_phase_odds, as the
    bot's view_odds asks it); DICE: a roll's chance of each horse; RISK: the chance a horse is
    among the four scratched when repeats are rolled again."""
    tables = np.zeros((3, 13), dtype=np.float64)
    remaining = {horse: finish[horse - 2] for horse in range(2, 13)}
    gate = scratch_phase_odds(remaining, (), 4, reroll_repeats=reroll)
    for horse, chance in gate.items():
        tables[GATE, horse] = chance
    for horse, fraction in two_dice_sum_probabilities().items():
        tables[DICE, horse] = float(fraction)
    for scratched, chance in scratch_set_chances(4, reroll_repeats=True).items():
        for horse in scratched:
            tables[RISK, horse] += chance
    return tables


def ev_tables(finish: tuple[int, ...], reroll: bool) -> Array:
    """The EV bot's tables for a board (advances to finish, horses 2..12) and repeat rule."""
    return _tables(finish, reroll)


@njit(cache=True)
def mean_line(spec: Array, unit: Word) -> float:
    """The scratch lines' average value, each line's value counting `unit` chips."""
    total = 0
    for line in range(4):
        total += spec[VALUES + line] * unit
    return total / 4


@njit(cache=True)
def mean_penalty(spec: Array) -> float:
    return mean_line(spec, max(spec[ANTE], 1))


@njit(cache=True)
def odds_from(
    spec: Array, line_of: Array, position: Array, dice: Array, work: Array, win: Array,
    remaining: Array,
) -> float:  # fmt: skip
    """The race's exact odds from these positions into `win` (the advances each running horse
    has to go into `remaining`), `dice` naming each horse's chance a roll; returns the rolls
    expected."""
    for horse in range(2, 13):
        running = line_of[horse] == 0
        remaining[horse] = (spec[FINISH + horse] - position[horse]) * running
    return race_odds(remaining, dice, work, win)  # type: ignore[no-any-return]


@njit(cache=True)
def roll_waste(spec: Array, line_of: Array, dice: Array, unit: Word) -> float:
    """What a race roll is expected to pay for scratched horses, line by line, each line's
    value counting `unit` chips."""
    waste = 0.0
    for line in range(1, 5):
        for horse in range(2, 13):
            if line_of[horse] == line:
                waste += dice[horse] * (spec[VALUES + line - 1] * unit)
    return waste


@njit(cache=True)
def _valuer(
    spec: Array, seat: Word, hands: Array, discards: Array, stub: Word, valued: Array
) -> float:
    """valued[h]: the cards of horse h the others are reckoned to hold, less the seat's own
    (the unseen ones times the share of unseen cards in hands; with open hands, their count);
    returns that share."""
    n = spec[PLAYERS]
    elsewhere = 0
    for other in range(n):
        if other != seat:
            elsewhere += hands[other].sum()
    pool = elsewhere + stub
    in_hands = elsewhere / pool if pool else 0.0
    for horse in range(2, 13):
        if spec[OPEN]:
            known = 0
            for other in range(n):
                if other != seat:
                    known += hands[other, horse]
            valued[horse] = known
        else:
            valued[horse] = max(0, spec[DECK + horse] - discards[horse])  # unseen; less mine later
    return in_hands


@njit(cache=True)
def hand_value(
    spec: Array, hand: Array, odds: Array, pot: float, valued: Array, in_hands: float
) -> float:
    """Σ over horses of their chance times what the hand's cards of them collect."""
    value = 0.0
    for horse in range(2, 13):
        mine = hand[horse]
        if not mine:
            payout = 0.0
        elif not spec[SPLIT]:
            payout = mine * (pot // (4 * spec[DECKS]))
        else:
            others = valued[horse] if spec[OPEN] else max(0.0, valued[horse] - mine) * in_hands
            payout = pot * mine / (mine + others)
        value += odds[horse] * payout
    return value


@njit(cache=True)
def first_best(worths: Array, count: Word) -> Word:
    """The first of the `count` options whose worth is within TIE of the best, as the engine's
    bots choose (`bot_values.first_best`); every compiled EV choice ends here."""
    top = worths[0]
    for k in range(1, count):
        top = max(top, worths[k])
    for k in range(count):
        if worths[k] >= top - TIE:
            return k
    return 0


@njit(cache=True)
def ev_keep(
    spec: Array, seat: Word, hands: Array, packet: Array, discards: Array, stub: Word,
    pot: Word, scratched: Word, tables: Array, valued: Array, worths: Array,
) -> Word:  # fmt: skip
    """The draft: the kept card that adds the most expected chips (a power by its use)."""
    mean = mean_penalty(spec)
    estimate = pot + mean * spec[PLAYERS]  # the pot now and the penalties still to come
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    hand, odds = hands[seat], tables[GATE]
    base = hand_value(spec, hand, odds, estimate, valued, in_hands)
    options = 0
    for rank in range(14):
        if not packet[rank]:
            continue
        if rank == ACE:
            worth = mean
        elif rank == KING:
            worth = mean * KING_KEPT
        elif rank == JOKER:
            worth = float(max(spec[ANTE], 1))
        else:
            hand[rank] += 1
            gain = hand_value(spec, hand, odds, estimate, valued, in_hands) - base
            hand[rank] -= 1
            worth = gain - tables[RISK, rank] * (1 - scratched / 4) * mean
        worths[options] = worth
        options += 1
    return first_best(worths, np.int64(options))


@njit(cache=True)
def future_penalty(
    spec: Array, racing: bool | np.bool_, line_of: Array, position: Array, tables: Array,
    work: Array, win: Array, remaining: Array,
) -> float:  # fmt: skip
    """What an Ace kept now is expected to cancel later."""
    mean = mean_penalty(spec)
    if not racing:
        return mean
    rolls = odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
    waste = 0.0
    for line in range(1, 5):
        for horse in range(2, 13):
            if line_of[horse] == line:
                waste += tables[DICE, horse]
    another = 1 - (1 - waste) ** (rolls / spec[PLAYERS])
    return float(another * mean)


@njit(cache=True)
def ev_joker(
    spec: Array, seat: Word, hands: Array, discards: Array, stub: Word, pot: Word,
    jockey: Word, line_of: Array, position: Array, moves: Array, options: Word,
    tables: Array, work: Array, win: Array, remaining: Array, valued: Array, worths: Array,
) -> Word:  # fmt: skip
    """Pass, or the Joker move (moves[1:options], +horse forward, -horse back) that leaves the
    hand worth the most; a Joker that carries a horse across wins the Jockey Pot too."""
    unit = max(spec[ANTE], 1)
    rolls = odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
    estimate = pot + rolls * roll_waste(spec, line_of, tables[DICE], unit)
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    hand = hands[seat]
    worths[0] = hand_value(spec, hand, win, estimate, valued, in_hands) - 4 * unit + unit
    for k in range(1, options):
        horse = abs(moves[k])
        step = 1 if moves[k] > 0 else -1
        position[horse] += step
        if position[horse] >= spec[FINISH + horse]:
            win[:] = 0.0
            win[horse] = 1.0
            worths[k] = hand_value(spec, hand, win, estimate, valued, in_hands) + jockey
        else:
            odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
            worths[k] = hand_value(spec, hand, win, estimate, valued, in_hands)
        position[horse] -= step
    return first_best(worths, np.int64(options))
