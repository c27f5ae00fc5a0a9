"""Husted's turns in a Classic game, seat by seat with the bots' picks: the two betting rounds
round the draw (check, wager, meet, raise or fold; up to two cards thrown away and drawn from
the stub), and the J, Q or K a roller who paid for a scratched horse may play. The Classic
kernel (`classic_game`) calls them when Husted's flag is on; the bots' choices are
`husted_bots`'s."""

from __future__ import annotations

from typing import Any

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_numbers import ANTE, EV, HEURISTIC, PLAYERS
from horserace.kernels.advanced_rules import POT, decide, pay
from horserace.kernels.classic_numbers import (
    FIRST,
    HELD_BACK,
    JACK,
    QUEEN,
    REMAINING,
    SECOND,
    TABLES,
    VALUED,
    VALUES_OF,
    WIN,
    WORK,
    WORTHS,
)
from horserace.kernels.compiled import njit
from horserace.kernels.deck_game import take
from horserace.kernels.husted_bots import (
    draw_options,
    ev_bet,
    ev_draw,
    ev_power,
    heuristic_draw,
    heuristic_power,
    power_options,
)

MAX_WAGER, MAX_TOTAL = 2, 5  # in antes: one wager or raise, and a player's wagers in a round


@njit(cache=True)
def _betting(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word, hands: Array,
    deck: Array, discards: Array, chips: Array, money: Array, folded: Array, wagered: Array,
    bets: Array, queue: Array, ev: Any,
) -> Word:  # fmt: skip
    """One betting round from the dealer's left: check or wager (1 to 2A); facing a wager,
    meet, raise (1 to 2A) or fold; each player's wagers at most 5A. A player short of the
    wager may only fold. It ends when everyone still in has answered the last wager."""
    n, ante = spec[PLAYERS], spec[ANTE]
    tail = 0
    for k in range(n):
        seat = (dealer + 1 + k) % n
        if not folded[seat]:
            queue[tail] = seat
            tail += 1
    if tail < 2:
        return z
    bets[:] = 0
    level, head, still_in = 0, 0, tail
    while head < tail:
        seat = queue[head]
        head += 1
        owe = level - bets[seat]
        room = MAX_TOTAL * ante - wagered[seat] - owe  # what a new wager may still add
        top = max(0, min(MAX_WAGER * ante, room, chips[seat] - owe))
        short = owe > chips[seat]
        options = 1 if short else 1 + top if owe == 0 else 2 + top
        own = 0
        if kinds[seat] == EV and options > 1:
            own = ev_bet(
                spec, seat, hands, discards, deck.sum(), money[POT], folded, owe, top,
                ev[TABLES], ev[VALUED],
            )  # fmt: skip
        z, index = decide(z, tape, at, kinds[seat], np.int64(options), np.int64(own))
        if short or (owe > 0 and index == options - 1):
            folded[seat] = 1
            still_in -= 1
        elif owe > 0 or index > 0:  # meet, wager or raise
            added = owe + index
            pay(chips, money, seat, added, np.int64(POT))
            bets[seat] += added
            wagered[seat] += added
            if index > 0:  # everyone else still in answers the new level, round from the seat
                level = bets[seat]
                head, tail = 0, 0
                for k in range(1, n):
                    other = (seat + k) % n
                    if not folded[other]:
                        queue[tail] = other
                        tail += 1
        if still_in < 2:
            return z
    return z


@njit(cache=True)
def _draw(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word, hands: Array,
    deck: Array, discards: Array, cards: Array, dealt: Word, size: Word, money: Array,
    folded: Array, ev: Any,
) -> Word:  # fmt: skip
    """Each player still in, from the dealer's left, discards up to two cards face up and
    draws as many from the stub."""
    n = spec[PLAYERS]
    first, second = ev[FIRST], ev[SECOND]
    for k in range(n):
        seat = (dealer + 1 + k) % n
        if folded[seat]:
            continue
        hand = hands[seat]
        most = min(2, size - dealt, hand.sum())
        count = draw_options(hand, most, first, second)
        own = 0
        if kinds[seat] == HEURISTIC:
            own = heuristic_draw(first, second, count)
        elif kinds[seat] == EV and count > 1:
            own = ev_draw(
                spec, seat, hands, discards, size - dealt, money[POT], ev[TABLES], ev[VALUED],
                ev[VALUES_OF], first, second, count, ev[WORTHS],
            )  # fmt: skip
        z, index = decide(z, tape, at, kinds[seat], np.int64(count), np.int64(own))
        for rank in (first[index], second[index]):
            if rank >= 0:
                hand[rank] -= 1
                discards[rank] += 1
        for rank in (first[index], second[index]):
            if rank >= 0:
                z = take(z, tape, at, cards, dealt, np.int64(size))
                hand[cards[dealt]] += 1
                deck[cards[dealt]] -= 1
                dealt += 1
    return z


@njit(cache=True)
def face_card(
    spec: Array, z: Word, tape: Array, at: Array, kind: Word, seat: Word, hands: Array,
    deck: Array, discards: Array, chips: Array, money: Array, line_of: Array, position: Array,
    blocks: Array, ev: Any,
) -> Word:  # fmt: skip
    """The roller who paid for a scratched horse may play a J (a horse back a slot), a Q (a
    chip under a horse: its next roll does not move it) or a K (two chips, two rolls)."""
    cards, horses = ev[FIRST], ev[SECOND]
    hand = hands[seat]
    count = power_options(hand, chips[seat], line_of, position, cards, horses)
    own = 0
    if kind == HEURISTIC:
        own = heuristic_power(spec, hand, line_of, position, cards, horses, count)
    elif kind == EV and count > 1:
        own = ev_power(
            spec, seat, hands, discards, deck.sum(), money[POT], line_of, position, cards,
            horses, count, ev[TABLES], ev[WORK], ev[WIN], ev[REMAINING], ev[VALUED],
            ev[HELD_BACK], ev[WORTHS],
        )  # fmt: skip
    z, index = decide(z, tape, at, kind, np.int64(count), np.int64(own))
    if index == 0:
        return z
    card, horse = cards[index], horses[index]
    hand[card] -= 1
    discards[card] += 1
    if card == JACK:
        position[horse] -= 1
    else:
        held = 1 if card == QUEEN else 2
        pay(chips, money, seat, held, np.int64(POT))
        blocks[horse] += held
    return z


@njit(cache=True)
def husted_betting(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word, hands: Array,
    deck: Array, discards: Array, cards: Array, dealt: Word, size: Word, chips: Array,
    money: Array, seats: Array, ev: Any,
) -> Word:  # fmt: skip
    """Husted's two betting rounds, and the draw between them when the deal left a stub."""
    folded, wagered, bets, queue = seats[0], seats[1], seats[2], seats[3]
    z = _betting(
        spec, z, tape, at, kinds, dealer, hands, deck, discards, chips, money, folded,
        wagered, bets, queue, ev,
    )  # fmt: skip
    if dealt < size:
        z = _draw(
            spec, z, tape, at, kinds, dealer, hands, deck, discards, cards, dealt, size,
            money, folded, ev,
        )  # fmt: skip
    return _betting(
        spec, z, tape, at, kinds, dealer, hands, deck, discards, chips, money, folded,
        wagered, bets, queue, ev,
    )  # fmt: skip
