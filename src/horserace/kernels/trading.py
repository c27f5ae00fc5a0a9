"""Perry's trading window, compiled for the kernels whose seats decide (Advanced, Classic): the
seats in turn from the dealer's left offer cards of theirs for a partner's or pass, each offer
is accepted or declined, and the window closes when every seat has passed or made all its
offers, as `families/board/rules/phases/trade.py` plays it.

The legal offers are listed in the engine's order (`trade.offers`: partners from the seat's
left, then one or two of the seat's cards, then nothing or one card wanted), so a random bot's
pick is an index into the same list. The EV bot prices swaps as `bots.Swaps` and `card_worth`
do, with the window's odds worked out once by the family's own odds (`trade_tables`): every
window opens before the race's first roll, so the odds depend only on the horses scratched
and the scratch rolls still to come, and the kernel reads the very numbers the engine's bot
reads. The heuristic bot never offers; it accepts more cards for fewer, no power asked.

A kernel keeps the window's arrays in one tuple (`trade_space`) and calls `trading_window`
at each moment a table may trade (`trading_numbers.WINDOWS`); the window opens at the table's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import _valuer, hand_value, mean_line, roll_waste
from horserace.kernels.advanced_numbers import ACE, DECK, EV, HEURISTIC, JOKER, KING, OPEN, PLAYERS
from horserace.kernels.advanced_rules import decide
from horserace.kernels.compiled import njit
from horserace.kernels.trading_numbers import EVERY_RANK, OFFERS, UNIT, WINDOW, trade_tables

# The tuple of `trade_space`: settings, the window's odds [rolls left, scratched set, horse],
# the race's expected rolls [scratched set], then work arrays.
SETTINGS, ODDS, ROLLS, QUEUE, LEFT, GIVES, WANTED, ROWS, GAINS, WORTHS, MIND = range(11)
IN_HANDS = 0  # MIND's row: [share of unseen cards in hands, valued 1..12, worths 0..13]
KING_KEPT = 0.75  # bot_values.KING_KEPT
MAX_GIVES = 14 + 14 * 15 // 2  # one card of a rank, or two (of one rank or two)
RANKS = 14


def trade_space(
    settings: tuple[int, int, int, bool], players: int, finish: tuple[int, ...], repeat_move: bool
) -> tuple[Array, ...]:
    """The window's arrays for one thread's games (`SETTINGS` ... `MIND`), for the settings of
    `trade_settings` at a table of `players` on a board (advances to finish, horses 2..12)."""
    window, offers = settings[WINDOW], settings[OFFERS]
    odds, rolls = trade_tables(finish, window, repeat_move)
    partners = max(players - 1, 1)
    return (
        np.array(settings, dtype=np.int64),
        odds,
        rolls,
        np.zeros(players * (offers + 1), dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros((2, MAX_GIVES), dtype=np.int64),
        np.zeros(RANKS, dtype=np.int64),
        np.zeros((3, partners * MAX_GIVES * (RANKS + 1)), dtype=np.int64),
        np.zeros((MAX_GIVES, RANKS), dtype=np.float64),
        np.zeros(RANKS, dtype=np.float64),
        np.zeros(13 + RANKS, dtype=np.float64),
    )


@njit(cache=True)
def _gives(hand: Array, gives: Array) -> Word:
    """What a seat may give, in the engine's order: each rank it holds, then two cards
    (combinations with repetition of the ranks held, a pair only when it holds two)."""
    count = 0
    for rank in range(RANKS):
        if hand[rank]:
            gives[0, count], gives[1, count] = rank, -1
            count += 1
    for first in range(RANKS):
        if not hand[first]:
            continue
        for second in range(first, RANKS):
            if hand[second] and (second != first or hand[first] >= 2):
                gives[0, count], gives[1, count] = first, second
                count += 1
    return count


@njit(cache=True)
def list_offers(
    settings: Array, open_hands: Word, n: Word, seat: Word, hands: Array, gives: Array,
    wanted: Array, rows: Array,
) -> Word:  # fmt: skip
    """The seat's legal offers after the pass, in the engine's order, into rows (partner, give
    index, rank asked or -1); returns how many."""
    count = 0
    given = _gives(hands[seat], gives)
    for step in range(1, n):
        target = (seat + step) % n
        asks = 0
        for rank in range(RANKS):
            if open_hands:
                ok = hands[target, rank] > 0
            else:
                ok = settings[EVERY_RANK] > 0 or 2 <= rank <= 12
            if ok:
                wanted[asks] = rank
                asks += 1
        for g in range(given):
            for k in range(-1, asks):
                rank = wanted[k] if k >= 0 else -1
                if rank >= 0 and (gives[0, g] == rank or gives[1, g] == rank):
                    continue
                rows[0, count], rows[1, count], rows[2, count] = target, g, rank
                count += 1
    return count


@njit(cache=True)
def _worth(spec: Array, hand: Array, odds: Array, estimate: float, mind: Array) -> Word:
    """`Swaps._hand_worth`: the horse cards by the pot they would collect (by the seat's own
    reckoning of the others' cards, `mind`: VALUED's row, then the share of unseen cards in
    hands), the powers card by card (`mind`'s worths after it)."""
    worths = mind[13:]
    powers = hand[ACE] * worths[ACE] + hand[KING] * worths[KING] + hand[JOKER] * worths[JOKER]
    return hand_value(spec, hand, odds, estimate, mind, mind[IN_HANDS]) + powers


@njit(cache=True)
def _swap_gain(
    spec: Array, hand: Array, out_a: Word, out_b: Word, in_a: Word, in_b: Word, odds: Array,
    estimate: float, mind: Array, base: float,
) -> Word:  # fmt: skip
    """`Swaps.gain`: the change in the hand's worth giving out_a (and out_b) for in_a (and
    in_b); -1 for no card."""
    for rank, step in ((out_a, -1), (out_b, -1), (in_a, 1), (in_b, 1)):
        if rank >= 0:
            hand[rank] += step
    after = _worth(spec, hand, odds, estimate, mind)
    for rank, step in ((out_a, 1), (out_b, 1), (in_a, -1), (in_b, -1)):
        if rank >= 0:
            hand[rank] += step
    return after - base


@njit(cache=True)
def _reckon(
    spec: Array,
    seat: Word,
    hands: Array,
    discards: Array,
    stub: Word,
    worths: Array,
    mind: Array,
) -> None:
    """The seat's view of the others' cards into `mind` (`HandValuer`), the card worths after."""
    mind[IN_HANDS] = _valuer(spec, seat, hands, discards, stub, mind)
    mind[13:] = worths


@njit(cache=True)
def _card_worths(
    spec: Array, settings: Array, odds: Array, pot: Word, mean: float, worths: Array
) -> None:
    """`bot_values.card_worth` of every rank: a power's use, or the horse's chance times an even
    share of the pot among the cards of its rank."""
    share = max(float(pot), mean * spec[PLAYERS])
    for rank in range(2, 13):
        worths[rank] = odds[rank] * share / max(1, spec[DECK + rank])
    worths[ACE] = mean
    worths[KING] = mean * KING_KEPT
    worths[JOKER] = float(settings[UNIT])


@njit(cache=True)
def _ev_offer(
    spec: Array, hand: Array, odds: Array, estimate: float, mind: Array, gives: Array,
    rows: Array, count: Word, gains: Array,
) -> Word:  # fmt: skip
    """`EvBot._offer`: the offer (index into the legal actions, 0 the pass) that gains the seat
    the most among cards-for-cards offers the partner gains by too, card by card."""
    gains[:] = np.nan
    worths = mind[13:]
    base = _worth(spec, hand, odds, estimate, mind)
    best, best_gain = 0, 0.0
    for k in range(count):
        g, take = rows[1, k], rows[2, k]
        if take < 0:
            continue
        give_a, give_b = gives[0, g], gives[1, g]
        if np.isnan(gains[g, take]):
            gains[g, take] = _swap_gain(
                spec, hand, give_a, give_b, take, np.int64(-1), odds, estimate, mind, base
            )
        theirs = worths[give_a] + (worths[give_b] if give_b >= 0 else 0.0) - worths[take]
        if gains[g, take] > best_gain and theirs > 0:
            best, best_gain = k + 1, gains[g, take]
    return best


@njit(cache=True)
def card_worths(spec: Array, trade: Any, odds: Array, pot: Word) -> None:
    """Every rank's `card_worth` at the window, into the window's WORTHS."""
    settings = trade[SETTINGS]
    _card_worths(spec, settings, odds, pot, estimate_mean(spec, settings), trade[WORTHS])


@njit(cache=True)
def ev_offer(
    spec: Array, trade: Any, seat: Word, hands: Array, discards: Array, stub: Word,
    odds: Array, estimate: float, count: Word,
) -> Word:  # fmt: skip
    """The EV bot's pick among the pass and the `count` offers `list_offers` wrote (after
    `card_worths`)."""
    mind = trade[MIND]
    _reckon(spec, seat, hands, discards, stub, trade[WORTHS], mind)
    return _ev_offer(
        spec, hands[seat], odds, estimate, mind, trade[GIVES], trade[ROWS], count, trade[GAINS]
    )


@njit(cache=True)
def answer_offer(
    spec: Array, trade: Any, kind: Word, hands: Array, target: Word, give_a: Word,
    give_b: Word, take: Word, odds: Array, estimate: float, discards: Array, stub: Word,
) -> Word:  # fmt: skip
    """The target's own answer when it can give what is asked: 0 accept, 1 decline. The EV bot
    accepts a swap that raises its worth; the heuristic more cards for fewer, no power asked."""
    if kind == HEURISTIC:
        more = (give_b >= 0) + 1 > (take >= 0)
        power = (take == ACE) | (take == KING) | (take == JOKER)
        return 0 if more and not power else 1
    if kind != EV:
        return 1
    mind = trade[MIND]
    _reckon(spec, target, hands, discards, stub, trade[WORTHS], mind)
    hand = hands[target]
    base = _worth(spec, hand, odds, estimate, mind)
    gain = _swap_gain(spec, hand, take, np.int64(-1), give_a, give_b, odds, estimate, mind, base)
    return 0 if gain > 0 else 1


@njit(cache=True)
def _scratched(line_of: Array) -> Word:
    mask = 0
    for horse in range(2, 13):
        if line_of[horse]:
            mask |= 1 << (horse - 2)
    return mask


@njit(cache=True)
def window_odds(spec: Array, trade: Any, line_of: Array, rolls_left: Word) -> Word:
    """Each horse's chance at the window (`view_odds`), read from the window's table."""
    return trade[ODDS][rolls_left, _scratched(line_of)]


@njit(cache=True)
def estimate_mean(spec: Array, settings: Array) -> Word:
    """`bot_values.mean_penalty`: the scratch lines' average value."""
    return mean_line(spec, settings[UNIT])


@njit(cache=True)
def pot_estimate(
    spec: Array, trade: Any, pot: Word, line_of: Array, rolls_left: Word, dice: Array
) -> Word:
    """`HandValuer._expected_pot`: the Main Pot and the penalties still expected (an average
    penalty a seat before the race; in it, its expected rolls times a roll's waste)."""
    settings = trade[SETTINGS]
    if rolls_left:
        return pot + estimate_mean(spec, settings) * spec[PLAYERS]
    waste = roll_waste(spec, line_of, dice, settings[UNIT])
    return pot + trade[ROLLS][_scratched(line_of)] * waste


@njit(cache=True)
def trading_window(
    moment: Word, spec: Array, trade: Any, z: Word, tape: Array, at: Array, kinds: Array,
    dealer: Word, hands: Array, discards: Array, stub: Word, pot: Word, line_of: Array,
    rolls_left: Word, dice: Array,
) -> Word:  # fmt: skip
    """The window, when the table trades at `moment` (`WINDOWS`), from the dealer's left until
    every seat has passed or made its offers; returns the stream. `rolls_left`: scratch rolls
    to come (0: the race is next)."""
    settings, queue, left, gives = trade[SETTINGS], trade[QUEUE], trade[LEFT], trade[GIVES]
    if settings[WINDOW] != moment:
        return z
    wanted, rows = trade[WANTED], trade[ROWS]
    n = spec[PLAYERS]
    odds = window_odds(spec, trade, line_of, rolls_left)
    estimate = pot_estimate(spec, trade, pot, line_of, rolls_left, dice)
    card_worths(spec, trade, odds, pot)
    for k in range(n):
        queue[k] = (dealer + 1 + k) % n
        left[k] = settings[OFFERS]
    head, tail = 0, n
    while head < tail:
        seat = queue[head]
        head += 1
        count = list_offers(settings, spec[OPEN], n, seat, hands, gives, wanted, rows)
        own = 0
        if kinds[seat] == EV and count:
            own = ev_offer(spec, trade, seat, hands, discards, stub, odds, estimate, count)
        z, index = decide(z, tape, at, kinds[seat], np.int64(count + 1), np.int64(own))
        if index == 0:
            continue  # a pass: the seat is done for this window
        left[seat] -= 1
        target, g, take = rows[0, index - 1], rows[1, index - 1], rows[2, index - 1]
        give_a, give_b = gives[0, g], gives[1, g]
        can_give = take < 0 or hands[target, take] > 0
        own = 1
        if can_give:
            own = answer_offer(
                spec, trade, kinds[target], hands, target, give_a, give_b, take, odds, estimate,
                discards, stub,
            )  # fmt: skip
        z, answer = decide(
            z, tape, at, kinds[target], np.int64(2 if can_give else 1), np.int64(own)
        )
        if can_give and answer == 0:  # (a seat that cannot give may only decline)
            for rank, step in ((give_a, -1), (give_b, -1), (take, 1)):
                if rank >= 0:
                    hands[seat, rank] += step
                    hands[target, rank] -= step
        if left[seat]:
            queue[tail] = seat
            tail += 1
    return z
