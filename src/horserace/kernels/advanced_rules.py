"""The parts of an Advanced round, compiled: the deal, the draft, the antes, the penalties and
their answers (Aces and Kings), and each seat's choice by its bot.

The table lives in a few int64 arrays that the round's parts share (`TableRows` below names
their rows); money moves only through `pay`, which counts what goes into the pots as the
engine's ChipsPaid events do. Where the engine asks a seat to choose among several legal
actions, `decide` takes the pick: from the tape when the kernel replays the engine's game (the
random bots' picks, and the engine's own pick for the other bots, which the kernel's must
equal), else from the game's stream for a random bot, else the bot's own rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import ev_keep, future_penalty
from horserace.kernels.advanced_numbers import (
    ACE,
    ANTE,
    CHOICE,
    DECKS,
    DRAFT,
    EV,
    HAND,
    JOCKEY,
    KING,
    PLAYERS,
    RANDOM,
    RANKS,
    REPEAT,
    SPAN,
    SPLIT,
    START,
    VALUES,
)
from horserace.kernels.compiled import njit
from horserace.kernels.deck_game import MOVE, take
from horserace.kernels.rng import bounded, read_tape

# Rows of `money`: the Main Pot, the Jockey Pot, chips paid in since the last race was won.
POT, JOCKEY_POT, PAID = 0, 1, 2
# Rows of `queue` (penalties waiting to be answered, in order): debtor, amount, kings played.
DEBTOR, AMOUNT, KINGS = 0, 1, 2
# The EV bot's arrays, one tuple (`advanced_game.ev_space`): its tables, the odds' scratch, a
# row of chances, of advances to go, of cards valued, of worths, the stub's size, and Perry's
# window's arrays (`trading.trade_space`).
TABLES, WORK, WIN, REMAINING, VALUED, WORTHS, STUB, TRADE = range(8)
# The heuristic bot's draft: the lowest of these keeps first (A, K, then the horses 2 and 12...)
KEEP_ORDER = np.array([5, 0, 2, 3, 4, 6, 6, 6, 6, 6, 4, 3, 2, 1], dtype=np.int64)


@njit(cache=True)
def pay(chips: Array, money: Array, seat: Word, owed: Word, into: Word) -> Word:
    """The seat pays `owed` into a pot, or all it holds when that is less."""
    paid = min(owed, chips[seat])
    chips[seat] -= paid
    money[into] += paid
    money[PAID] += paid
    return paid


@njit(cache=True)
def decide(
    z: Word, tape: Array, at: Array, kind: Word, options: Word, own: Word
) -> tuple[Word, Word]:
    """The index of the legal action a seat takes among `options` (`own`: its bot's pick when
    the bot is not the random one). A single legal action is taken without a draw, as the
    engine's bots do."""
    if options == 1:
        return z, 0
    if tape.shape[0] > 0:
        entry = read_tape(tape, at)
        if entry < CHOICE or (entry - CHOICE) // SPAN != options:
            raise ValueError("the tape holds no seat's choice among this many actions here")
        index = (entry - CHOICE) % SPAN
        if kind != RANDOM and index != own:
            raise ValueError("the kernel's bot chose another action than the engine's")
        return z, index
    if kind == RANDOM:
        return bounded(z, np.int64(options))
    return z, own


@njit(cache=True)
def fill_deck(spec: Array, deck_at: Word, cards: Array) -> Word:
    """The full deck as ranks, rank by rank; returns its size."""
    size = 0
    for rank in range(RANKS):
        for _ in range(spec[deck_at + rank]):
            cards[size] = rank
            size += 1
    return size


@njit(cache=True)
def deal(
    spec: Array,
    deck_at: Word,
    z: Word,
    tape: Array,
    at: Array,
    dealer: Word,
    cards: Array,
    to: Array,
) -> Word:
    """The deal: one card at a time round the table from the dealer's left, `spec[HAND]` each,
    into `to` (hands, or packets for the draft); the cards left are the stub."""
    n = spec[PLAYERS]
    size = fill_deck(spec, deck_at, cards)
    seat = (dealer + 1) % n
    for index in range(spec[HAND] * n):
        z = take(z, tape, at, cards, index, np.int64(size))
        to[seat, cards[index]] += 1
        seat = (seat + 1) % n
    return z


@njit(cache=True)
def draft(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word,
    hands: Array, packets: Array, passed: Array, discards: Array, money: Array, ev: Any,
) -> Word:  # fmt: skip
    """Each seat from the dealer's left keeps one card of its packet; the packets pass left
    after each pass, until every card is kept. Legal keeps are the packet's ranks in order."""
    n = spec[PLAYERS]
    stub = ev[STUB]
    for turn in range(spec[HAND]):
        for k in range(n):
            seat = (dealer + 1 + k) % n
            options, own, best = 0, 0, 99
            for rank in range(RANKS):
                if packets[seat, rank]:
                    if KEEP_ORDER[rank] < best:
                        best, own = KEEP_ORDER[rank], options
                    options += 1
            if kinds[seat] == EV and options > 1:
                own = ev_keep(
                    spec, seat, hands, packets[seat], discards, stub[0], money[POT], 0,
                    ev[TABLES], ev[VALUED], ev[WORTHS],
                )  # fmt: skip
            z, index = decide(z, tape, at, kinds[seat], np.int64(options), np.int64(own))
            for rank in range(RANKS):
                if packets[seat, rank]:
                    if index == 0:
                        packets[seat, rank] -= 1
                        hands[seat, rank] += 1
                        break
                    index -= 1
        if turn + 1 < spec[HAND]:
            for seat in range(n):
                passed[seat] = packets[(seat - 1) % n]
            packets[:] = passed[:n]
    return z


@njit(cache=True)
def antes(spec: Array, dealer: Word, chips: Array, money: Array) -> None:
    """A into the Main Pot and 2A into the Jockey Pot, from the dealer's left."""
    ante, n = spec[ANTE], spec[PLAYERS]
    if not ante:
        return
    for k in range(n):
        seat = (dealer + 1 + k) % n
        pay(chips, money, seat, ante, np.int64(POT))
        if spec[JOCKEY]:
            pay(chips, money, seat, 2 * ante, np.int64(JOCKEY_POT))


@njit(cache=True)
def share_pots(
    spec: Array, horse: Word, mover: Word, hands: Array, folded: Array, chips: Array,
    money: Array,
) -> None:  # fmt: skip
    """The Main Pot in portions to the winning cards of the seats that did not fold; with the
    Jockey Pot, the remainder into it and all of it to the seat that moved the winner."""
    n = spec[PLAYERS]
    held = 0
    for seat in range(n):
        held += hands[seat, horse] * (not folded[seat])
    divisor = held if spec[SPLIT] else 4 * spec[DECKS]
    portion = money[POT] // divisor if divisor else 0
    for seat in range(n):
        if not folded[seat]:
            won = hands[seat, horse] * portion
            chips[seat] += won
            money[POT] -= won
    if spec[JOCKEY]:
        money[JOCKEY_POT] += money[POT]
        money[POT] = 0
        chips[mover] += money[JOCKEY_POT]
        money[JOCKEY_POT] = 0


@njit(cache=True)
def answer_penalties(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, queue: Array, waiting: Word,
    hands: Array, discards: Array, chips: Array, money: Array, line_of: Array, position: Array,
    racing: bool | np.bool_, ev: Any,
) -> Word:  # fmt: skip
    """The waiting penalties, in order: each debtor pays, cancels it with an Ace, or passes it
    to a neighbour with a King (doubled first when a King brought it); legal actions are pay,
    ace (holding one), king left and king right (holding one). Nothing owed is paid at once."""
    n = spec[PLAYERS]
    unit = max(spec[ANTE], 1)
    head = 0
    while head < waiting:
        debtor, amount = queue[DEBTOR, head], queue[AMOUNT, head]
        if amount == 0:
            head += 1
            continue
        ace, king = hands[debtor, ACE] > 0, hands[debtor, KING] > 0
        options = 1 + ace + 2 * king
        own = 0  # the heuristic: an Ace against two antes or more, else a King to the left
        if kinds[debtor] == EV and options > 1:  # an Ace against more than it would save later
            if ace and amount >= future_penalty(
                spec, racing, line_of, position, ev[TABLES], ev[WORK], ev[WIN], ev[REMAINING]
            ):
                own = 1
            elif king and amount >= unit:  # a King towards the neighbour with fewer cards
                fewer_right = hands[(debtor - 1) % n].sum() < hands[(debtor + 1) % n].sum()
                own = 1 + ace + fewer_right
        elif ace and amount >= 2 * unit:
            own = 1
        elif king:
            own = 1 + ace
        z, index = decide(z, tape, at, kinds[debtor], np.int64(options), np.int64(own))
        if index == 0:
            pay(chips, money, debtor, amount, np.int64(POT))
            head += 1
        elif ace and index == 1:
            hands[debtor, ACE] -= 1
            discards[ACE] += 1
            head += 1
        else:
            step = 1 if index == 1 + ace else -1
            hands[debtor, KING] -= 1
            discards[KING] += 1
            if queue[KINGS, head]:
                queue[AMOUNT, head] = 2 * amount
            queue[DEBTOR, head] = (debtor + step) % n
            queue[KINGS, head] += 1
    return z


@njit(cache=True)
def owe(queue: Array, waiting: Word, debtor: Word, amount: Word) -> Word:
    """Put a penalty at the end of the queue; returns the queue's new length."""
    queue[DEBTOR, waiting] = debtor
    queue[AMOUNT, waiting] = amount
    queue[KINGS, waiting] = 0
    return waiting + 1


@njit(cache=True)
def scratch_roll(
    spec: Array, horse: Word, roller: Word, rolls: Word, scratched: Word, unit: Word,
    line_of: Array, hands: Array, given_up: Array, discards: Array, queue: Array,
) -> tuple[Word, Word]:  # fmt: skip
    """The scratch roll `rolls` + 1 naming `horse` (under the reroll rule a repeat is rolled
    again before this): a new horse goes on the next line and every hand gives up its cards;
    a repeat moves down to this roll's line, its former holders paying again (move), or costs
    the roller its line (chain). Each line's value counts `unit` chips; the penalties are
    queued from the roller round (`owe`); returns (horses scratched, the queue's length)."""
    n, repeat = spec[PLAYERS], spec[REPEAT]
    earlier = line_of[horse]
    waiting = 0
    if earlier and repeat == MOVE:
        line = rolls + 1
        line_of[horse] = line
        value = spec[VALUES + line - 1] * unit
        for k in range(n):
            seat = (roller + k) % n
            if given_up[seat, horse]:
                waiting = owe(queue, np.int64(waiting), seat, value * given_up[seat, horse])
    elif earlier:
        waiting = owe(queue, np.int64(waiting), roller, spec[VALUES + earlier - 1] * unit)
    else:
        scratched += 1
        line = rolls + 1 if repeat == MOVE else scratched
        line_of[horse] = line
        value = spec[VALUES + line - 1] * unit
        for k in range(n):
            seat = (roller + k) % n
            held = hands[seat, horse]
            if held:
                hands[seat, horse] = 0
                given_up[seat, horse] += held
                discards[horse] += held
                waiting = owe(queue, np.int64(waiting), seat, value * held)
    return scratched, waiting


@njit(cache=True)
def race_starter(spec: Array, last: Word, dealer: Word) -> Word:
    """The race's first roller (`board_numbers.RACE_STARTS`): the seat after the last scratch
    roller, that roller, or the dealer's left."""
    n = spec[PLAYERS]
    return (last + 1) % n if spec[START] == 0 else last if spec[START] == 1 else (dealer + 1) % n


__all__ = [
    "DRAFT",
    "answer_penalties",
    "antes",
    "deal",
    "decide",
    "draft",
    "owe",
    "pay",
    "race_starter",
    "scratch_roll",
    "share_pots",
]
