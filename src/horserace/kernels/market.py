"""Schellenberg's market, compiled for the Classic kernels, as `families/board/rules/phases/
market.py` plays it: an extra hand dealt last in each turn round, its scratched cards
discarded when the scratch phase ends, and after a race roll that does not end the race the
roller's buy of one market card for the highest occupied scratch line's value, giving a card
of their hand in its place (offered only when the roller can pay that in full).

The legal buys come in the engine's order (pass, then each market rank taken, each other rank
of the hand given), so a random bot's pick on a tape means the same buy. The EV bot's buy is
`families/board/bots.EvBot._buy`: each swap's change to the hand's worth (horse cards by the
race's exact odds times the pot they would collect, the powers card by card) less the price,
the first within TIE of the best, passing worth nothing. The heuristic bot never buys.
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import KING_KEPT, _valuer, first_best, hand_value
from horserace.kernels.advanced_numbers import ACE, EV, JOKER, KING, RANKS
from horserace.kernels.advanced_numbers import VALUES as LINE_VALUES
from horserace.kernels.advanced_rules import POT, decide, pay
from horserace.kernels.compiled import njit
from horserace.kernels.husted_bots import mean_penalty, race_pot

MARKET_HAND = -1  # the hand a card is dealt to when it is the market's
OPTIONS = 1 + RANKS * (RANKS - 1)  # pass, and a market rank taken for another rank given
TAKES, GIVES = 0, 1  # rows of a buy's options: the rank taken, the rank given


def market_space() -> tuple[Array, Array]:
    """The market's arrays for one thread's games: each option's ranks (TAKES, GIVES) and the
    EV bot's worth of it."""
    return np.zeros((2, OPTIONS), dtype=np.int64), np.zeros(OPTIONS)


@njit(cache=True)
def hands_dealt(n: Word, market: Word) -> Word:
    """Hands a deal goes round: the seats, and the market when there is one."""
    return n + (1 if market else 0)


@njit(cache=True)
def deal_to(index: Word, dealer: Word, n: Word, market: Word) -> Word:
    """The seat the `index`th card of a deal goes to, from the dealer's left, or MARKET_HAND: the
    market takes the last card of each turn round, after the dealer."""
    k = index % hands_dealt(n, market)
    return MARKET_HAND if k == n else (dealer + 1 + k) % n


@njit(cache=True)
def open_market(line_of: Array, market: Array, discards: Array) -> None:
    """The scratch phase is over: the market's cards of scratched horses go to the discards."""
    for horse in range(2, 13):
        if line_of[horse]:
            discards[horse] += market[horse]
            market[horse] = 0


@njit(cache=True)
def price(spec: Array, line_of: Array) -> Word:
    """The highest occupied scratch line's value (in chips, as every Classic penalty)."""
    line = 0
    for horse in range(2, 13):
        line = max(line, line_of[horse])
    return spec[LINE_VALUES + line - 1] if line else 0


@njit(cache=True)
def buy_options(hand: Array, market: Array, options: Array) -> Word:
    """The legal actions in the engine's order: pass, then for each rank in the market each
    other rank of the hand to give for it; returns how many."""
    count = 1
    for take in range(RANKS):
        if not market[take]:
            continue
        for give in range(RANKS):
            if hand[give] and give != take:
                options[TAKES, count], options[GIVES, count] = take, give
                count += 1
    return count


@njit(cache=True)
def _worth(
    spec: Array, hand: Array, odds: Array, pot: float, valued: Array, in_hands: float,
    mean: float,
) -> Word:  # fmt: skip
    """The hand's worth as the engine's `Swaps` weighs it: its horse cards by the odds, and
    each power by its use (an Ace a mean penalty, a King most of one, a Joker a chip)."""
    powers = hand[ACE] * mean + hand[KING] * (mean * KING_KEPT) + hand[JOKER] * 1.0
    return hand_value(spec, hand, odds, pot, valued, in_hands) + powers


@njit(cache=True)
def ev_buy(
    spec: Array, seat: Word, hands: Array, discards: Array, stub: Word, pot: Word,
    line_of: Array, position: Array, cost: Word, options: Array, worths: Array, count: Word,
    tables: Array, work: Array, win: Array, remaining: Array, valued: Array,
) -> Word:  # fmt: skip
    """The EV bot's pick among `count` options: the buy whose swap gains the hand the most
    over the price, or pass; the pot is the Main Pot and the penalties the race still
    expects, as in `bot_values.HandValuer`."""
    estimate = race_pot(spec, pot, line_of, position, tables, work, win, remaining)
    in_hands = _valuer(spec, seat, hands, discards, stub, valued)
    mean = mean_penalty(spec)
    hand = hands[seat]
    base = _worth(spec, hand, win, estimate, valued, in_hands, mean)
    worths[0] = 0.0
    for k in range(1, count):
        take, give = options[TAKES, k], options[GIVES, k]
        hand[give] -= 1
        hand[take] += 1
        worths[k] = _worth(spec, hand, win, estimate, valued, in_hands, mean) - base - cost
        hand[take] -= 1
        hand[give] += 1
    return first_best(worths, np.int64(count))


@njit(cache=True)
def market_turn(
    spec: Array, z: Word, tape: Array, at: Array, kind: Word, seat: Word, hands: Array,
    market: Array, discards: Array, stub: Word, chips: Array, money: Array, line_of: Array,
    position: Array, options: Array, worths: Array, tables: Array, work: Array, win: Array,
    remaining: Array, valued: Array,
) -> Word:  # fmt: skip
    """After the roller's race roll (and its penalty): the roller may buy, if the market and
    their hand hold cards and they can pay the price in full; returns the stream."""
    cost = price(spec, line_of)
    hand = hands[seat]
    if market.sum() == 0 or hand.sum() == 0 or chips[seat] < cost:
        return z
    count = buy_options(hand, market, options)
    own = 0
    if kind == EV and count > 1:
        own = ev_buy(
            spec, seat, hands, discards, stub, money[POT], line_of, position, cost, options,
            worths, count, tables, work, win, remaining, valued,
        )  # fmt: skip
    z, index = decide(z, tape, at, kind, np.int64(count), np.int64(own))
    if index:
        take, give = options[TAKES, index], options[GIVES, index]
        pay(chips, money, seat, cost, np.int64(POT))
        hand[give] -= 1
        hand[take] += 1
        market[take] -= 1
        market[give] += 1
    return z
