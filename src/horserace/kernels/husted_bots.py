"""Husted's decisions for the compiled bots, as `families/board/husted_bots.py` makes them: the
EV bot's wager, meet or fold by what a chip brings back through the pot, its draw by each
card's marginal worth, its J, Q or K by the race's exact odds with the horse held back; the
heuristic bot's check or meet, its dead Aces and Jokers thrown away, its face card on the
leader it does not hold. The valuation is the Advanced kernel's (`advanced_ev.hand_value`);
Husted's penalties count in chips, not antes.

Each choice among several actions takes the first whose worth is within TIE of the best, as
the engine's bots do (`bot_values.first_best`): the race's compiled odds agree with the
family's to 1e-12, so they choose alike.
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import (
    DICE,
    GATE,
    _valuer,
    first_best,
    hand_value,
    mean_line,
    odds_from,
    roll_waste,
)
from horserace.kernels.advanced_numbers import ACE, DECK, DECKS, FINISH, JOKER, KING, PLAYERS
from horserace.kernels.classic_numbers import JACK, QUEEN
from horserace.kernels.compiled import njit

NONE = -1  # no card in this place of a discard


@njit(cache=True)
def mean_penalty(spec: Array) -> float:
    """The mean scratch line's value (Husted's penalties are chips, whatever the ante)."""
    return mean_line(spec, np.int64(1))


@njit(cache=True)
def _chip_return(spec: Array, hand: Array, odds: Array) -> float:
    """What one chip added to the pot brings back to this hand: its winning cards' shares."""
    per_card = 1 / (4 * spec[DECKS])
    back = 0.0
    for horse in range(2, 13):
        back += odds[horse] * hand[horse] * per_card
    return back


@njit(cache=True)
def ev_bet(
    spec: Array, seat: Word, hands: Array, discards: Array, stub: Word, pot: Word,
    folded: Array, owe: Word, top: Word, tables: Array, valued: Array,
) -> Word:  # fmt: skip
    """The betting: the largest wager while a chip drawn from each player still in pays back
    more than one; else check, or meet when the hand's worth covers what meeting costs."""
    hand, odds = hands[seat], tables[GATE]
    players_in = 0
    for other in range(spec[PLAYERS]):
        players_in += not folded[other]
    back = _chip_return(spec, hand, odds)
    if top > 0 and back * players_in > 1:
        return top  # the largest wager or raise
    if owe == 0:
        return 0
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    estimate = pot + mean_penalty(spec) * spec[PLAYERS]
    value = hand_value(spec, hand, odds, estimate, valued, in_hands)
    return 0 if value + back * owe >= owe else top + 1  # meet, or fold (the last action)


@njit(cache=True)
def draw_options(hand: Array, most: Word, first: Array, second: Array) -> Word:
    """The legal discards in the engine's order: none, one card of each rank held, then each
    pair of ranks held (the same rank twice when held twice); returns how many."""
    first[0], second[0] = NONE, NONE
    count = 1
    if most >= 1:
        for rank in range(14):
            if hand[rank]:
                first[count], second[count] = rank, NONE
                count += 1
    if most >= 2:
        for low in range(14):
            if not hand[low]:
                continue
            for high in range(low, 14):
                if hand[high] and (high != low or hand[low] >= 2):
                    first[count], second[count] = low, high
                    count += 1
    return count


@njit(cache=True)
def _dead(rank: Word) -> bool:
    """An Ace or a Joker: in Husted's deck they match no horse and have no power."""
    return rank in (ACE, JOKER)


@njit(cache=True)
def heuristic_draw(first: Array, second: Array, count: Word) -> Word:
    """The most dead cards (Aces and Jokers, which match no horse) thrown away, or none."""
    best, size = 0, 0
    for k in range(1, count):
        dead = _dead(first[k]) and (second[k] == NONE or _dead(second[k]))
        length = 1 if second[k] == NONE else 2
        if dead and length > size:
            best, size = k, length
    return best


@njit(cache=True)
def ev_draw(
    spec: Array, seat: Word, hands: Array, discards: Array, stub: Word, pot: Word,
    tables: Array, valued: Array, values: Array, first: Array, second: Array, count: Word,
    worths: Array,
) -> Word:  # fmt: skip
    """The discard that gains the most: each card thrown away is worth a draw's mean value
    less its own marginal value (a J or Q one more for its power, a K as a Q and one more)."""
    hand, odds = hands[seat], tables[GATE]
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    estimate = pot + mean_penalty(spec) * spec[PLAYERS]
    base = hand_value(spec, hand, odds, estimate, valued, in_hands)
    values[:] = 0.0
    for rank in range(2, 13):
        hand[rank] += 1
        values[rank] = hand_value(spec, hand, odds, estimate, valued, in_hands) - base
        hand[rank] -= 1
    values[KING] = values[QUEEN] + 1.0
    values[JACK] += 1.0
    values[QUEEN] += 1.0
    weighed, total = 0.0, 0
    for rank in range(14):
        weight = max(0, spec[DECK + rank] - discards[rank] - hand[rank])
        weighed += values[rank] * weight
        total += weight
    draw_value = weighed / (total if total else 1)
    worths[0] = 0.0  # no discard gains nothing
    for k in range(1, count):
        worths[k] = _discard_gain(draw_value, values, first[k], second[k])
    return first_best(worths, np.int64(count))


@njit(cache=True)
def _discard_gain(draw_value: float, values: Array, first: Word, second: Word) -> Word:
    """What a discard gains: a draw's mean value less each thrown card's value."""
    gain = draw_value - values[first]
    if second != NONE:
        gain += draw_value - values[second]
    return gain


@njit(cache=True)
def power_options(
    hand: Array, chips: Word, line_of: Array, position: Array, cards: Array, horses: Array
) -> Word:
    """Pass, then for each running horse a J (the horse past the gate), a Q (a chip to pay), a
    K (two chips), as the seat holds them; returns how many."""
    count = 1
    if not (hand[JACK] or hand[QUEEN] or hand[KING]):
        return count
    for horse in range(2, 13):
        if line_of[horse]:
            continue
        if hand[JACK] and position[horse] > 0:
            cards[count], horses[count] = JACK, horse
            count += 1
        if hand[QUEEN] and chips >= 1:
            cards[count], horses[count] = QUEEN, horse
            count += 1
        if hand[KING] and chips >= 2:
            cards[count], horses[count] = KING, horse
            count += 1
    return count


@njit(cache=True)
def heuristic_power(
    spec: Array, hand: Array, line_of: Array, position: Array, cards: Array, horses: Array,
    count: Word,
) -> Word:  # fmt: skip
    """Hold back the leader among the running horses the seat holds no card of: a J, else a
    Q, else a K on it; else pass."""
    leader, best = 0, -1.0
    for horse in range(2, 13):
        if line_of[horse] or hand[horse]:
            continue
        ahead = position[horse] / spec[FINISH + horse]
        if ahead > best:
            leader, best = horse, ahead
    for card in (JACK, QUEEN, KING):
        for k in range(1, count):
            if cards[k] == card and horses[k] == leader:
                return k
    return 0


@njit(cache=True)
def race_pot(
    spec: Array, pot: Word, line_of: Array, position: Array, tables: Array, work: Array,
    win: Array, remaining: Array,
) -> float:  # fmt: skip
    """The Main Pot and the penalties the race is still expected to bring in (the rolls to
    go times a roll's expected cost), as `bot_values.HandValuer` reckons it; the race's exact
    odds are left in `win`."""
    rolls = odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
    return float(pot + rolls * roll_waste(spec, line_of, tables[DICE], np.int64(1)))


@njit(cache=True)
def ev_power(
    spec: Array, seat: Word, hands: Array, discards: Array, stub: Word, pot: Word,
    line_of: Array, position: Array, cards: Array, horses: Array, count: Word,
    tables: Array, work: Array, win: Array, remaining: Array, valued: Array, held_back: Array,
    worths: Array,
) -> Word:  # fmt: skip
    """The face card whose hold on a horse gains the hand more than its chips and the card
    itself (one chip) are worth; else pass. The hand's worth with a horse held back one or two
    slots is worked out once (held_back[slots - 1, horse]; NaN until then): a J and a Q hold it
    back alike, and a horse at the gate not at all."""
    hand = hands[seat]
    estimate = race_pot(spec, pot, line_of, position, tables, work, win, remaining)
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    base = hand_value(spec, hand, win, estimate, valued, in_hands)
    held_back[:] = np.nan
    worths[0] = 0.0  # passing keeps the hand as it is
    for k in range(1, count):
        worths[k] = _power_gain(
            spec, hand, line_of, position, cards[k], horses[k], base, estimate, valued, in_hands,
            tables, work, win, remaining, held_back,
        )  # fmt: skip
    return first_best(worths, np.int64(count))


@njit(cache=True)
def _power_gain(
    spec: Array, hand: Array, line_of: Array, position: Array, card: Word, horse: Word,
    base: float, estimate: float, valued: Array, in_hands: float, tables: Array, work: Array,
    win: Array, remaining: Array, held_back: Array,
) -> float:  # fmt: skip
    """The hand's worth with the horse held back by the card, less the base worth, the card's
    chips and one chip for the card itself."""
    held = position[horse]
    slots = min(held, 2 if card == KING else 1)
    if slots == 0:
        value = base
    elif np.isnan(held_back[slots - 1, horse]):
        position[horse] = held - slots
        odds_from(spec, line_of, position, tables[DICE], work, win, remaining)
        position[horse] = held
        value = hand_value(spec, hand, win, estimate, valued, in_hands)
        held_back[slots - 1, horse] = value
    else:
        value = held_back[slots - 1, horse]
    cost = 2 if card == KING else 1 if card == QUEEN else 0
    return value - base - cost - 1.0
