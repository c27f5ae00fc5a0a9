"""Whole games of the card race compiled with numba: Basic, Scarne, faltering and stumbling
courses; the dealer's book, the tote's win pool and the party's prizes.

A game here is the rules' game card for card (`families/cards/rules/`): the course dealt one
card at a time (dealt again when one suit could not finish), the bets, the race cards turned
until the places the bets need are known (a joker lifts every horse but the leaders, a
faltering course turns its links as horses reach them and throws back the horse of the link's
suit), the payout, the deal passing left. Every seat bets as the `blind` bettor does: a horse
drawn at random, for the most it may stake (book: within the dealer's cover; tote: a win
ticket; party: the pick). The kernel only knows suits: a card is its suit 0..3, or 4 for the
joker.

Chance comes from the game's SplitMix64 stream, or, for the equality tests, from a tape of
outcomes in the engine's order: a dealt card (its card number) or a bettor's horse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from horserace.families.cards.rules.config import CardsConfig
from horserace.kernels import Array, Word
from horserace.kernels.rng import bounded, game_state

__all__ = ["CARD_STYLES", "CardGames", "card_spec", "replay_tape", "run_games"]

CARD_STYLES = ("book", "tote", "party")
JOKER, SUITS, JOKER_CARD = 4, 4, 52
# positions in the spec array
(PLAYERS, RACES, CHIPS, DEALER, LENGTH, NEED, RANKS, REDEAL, FALTER, STUMBLE, STYLE) = range(11)
LIMIT, TAKEOUT, BANK, REDEAL_AT, PRIZES, PRIZE, WIN, PER = 11, 12, 13, 14, 15, 16, 20, 40
SPEC_SIZE = 60
NO_TAPE = np.zeros(0, dtype=np.int64)


def card_spec(config: CardsConfig) -> Array | None:
    """The kernel's numbers for a config it plays exactly, or None (the engine must play it)."""
    if config.betting not in CARD_STYLES or config.cut_for_deal:
        return None
    spec = np.zeros(SPEC_SIZE, dtype=np.int64)
    spec[:11] = (
        config.players,
        config.races,
        config.starting_chips,
        config.first_dealer,
        config.course_length,
        config.need,
        config.ranks,
        config.redeal,
        config.faltering,
        config.stumbling,
        CARD_STYLES.index(config.betting),
    )
    spec[LIMIT], spec[TAKEOUT], spec[BANK] = config.bet_limit, config.takeout, config.bank_funds
    spec[REDEAL_AT], spec[PRIZES] = config.redeal_at, len(config.prizes)
    spec[PRIZE : PRIZE + len(config.prizes)] = config.prizes
    for count, win, per in config.book_odds.prices:
        if count < PER - WIN:  # counts 0..19 fit the table
            spec[WIN + count], spec[PER + count] = win, per
    return spec


@dataclass(frozen=True)
class CardGames:
    """Per game: chips per seat, what is left on the table and in the bank, steps played;
    per race (games x races): the finishing order, course cards per suit (and the joker),
    race cards turned, redeals, each seat's bet (horse, -1 for none, and stake), the pool."""

    chips: Array
    table: Array
    bank: Array
    steps: Array
    order: Array  # (games, races, 4)
    course: Array  # (games, races, 5)
    cards: Array
    redeals: Array
    bet_horse: Array  # (games, races, players)
    bet_stake: Array
    pool: Array  # tote: the win pool (0: no tickets)
    takeout: Array


@njit(cache=True)
def _next(z: Word, tape: Array, at: Array, bound: Word) -> tuple[Word, Word]:
    """The tape's next outcome, or a uniform 0..bound-1 from the stream."""
    if tape.shape[0] == 0:
        return bounded(z, bound)
    if at[0] >= tape.shape[0]:
        raise IndexError("the tape of chance outcomes ran out")
    at[0] += 1
    return z, tape[at[0] - 1]


@njit(cache=True)
def _fill(deck: Array, ranks: Word, stumbling: Word) -> Word:
    """A full deck (suits, and the joker when horses may stumble); returns its size."""
    size = 0
    for suit in range(SUITS):
        for _ in range(ranks):
            deck[size] = suit
            size += 1
    if stumbling:
        deck[size] = JOKER
        size += 1
    return size


@njit(cache=True)
def _deal(z: Word, tape: Array, at: Array, deck: Array, size: Word) -> tuple[Word, Word]:
    """A card off the deck's first `size` (its suit, 4 = the joker), moved to slot size - 1.
    The race inlines the same steps: a call passing arrays costs as much as the card."""
    if tape.shape[0]:
        z, card = _next(z, tape, at, 0)
        suit = JOKER if card >= JOKER_CARD else card // 13
        index = 0
        while deck[index] != suit:
            index += 1
    else:
        z, index = bounded(z, size)
    suit = deck[index]
    deck[index] = deck[size - 1]
    deck[size - 1] = suit
    return z, suit


@njit(cache=True)
def _stake(room: Word, cover: Word, win: Word, per: Word) -> Word:
    """The most a seat may stake on a horse at the book: its room (limit and chips) and the
    dealer's cover (what the dealer holds less what it would owe if the horse won)."""
    if per == 0:
        return 0
    by_cover = ((cover + 1) * per - 1) // win if cover >= 0 else -1
    return max(0, min(room, by_cover))


@njit(cache=True)
def _split(amount: Word, weights: Array, count: Word, out: Array) -> None:
    """`amount` in whole chips by weight, largest remainder first, earlier first on a tie."""
    whole = 0
    for i in range(count):
        whole += weights[i]
    left = amount
    for i in range(count):
        out[i] = amount * weights[i] // whole
        left -= out[i]
    for _ in range(left):
        best, best_rest = -1, -1
        for i in range(count):
            rest = amount * weights[i] % whole
            if out[i] == amount * weights[i] // whole and rest > best_rest:
                best, best_rest = i, rest
        out[best] += 1


@njit(cache=True)
def play_game(  # type: ignore[no-untyped-def]
    spec, z, tape, at, deck, course, chips, order, counts, cards, redeals, bets, pool, takeout
):
    """Play one game into the output rows; returns (table, bank, steps). The race is one body
    (a call passing arrays costs more than a card): positions, standing order and the
    unseen counts are kept as the cards fall."""
    n, styles, need, length = spec[PLAYERS], spec[STYLE], spec[NEED], spec[LENGTH]
    taped = tape.shape[0] > 0
    falter = spec[FALTER]
    chips[:] = spec[CHIPS]
    table, bank, steps = 0, spec[BANK], 0
    dealer = spec[DEALER]
    full = _fill(deck, spec[RANKS], spec[STUMBLE])
    pos = np.zeros(SUITS, dtype=np.int64)
    standing = np.zeros(SUITS, dtype=np.int64)
    in_deck = np.zeros(SUITS + 1, dtype=np.int64)
    hidden = np.zeros(SUITS + 1, dtype=np.int64)
    staked = np.zeros(n, dtype=np.int64)
    owed = np.zeros(SUITS, dtype=np.int64)  # the book: what the dealer owes if a horse wins
    wins = np.zeros(SUITS, dtype=np.int64)
    pers = np.zeros(SUITS, dtype=np.int64)
    weights = np.zeros(n, dtype=np.int64)
    shares = np.zeros(n, dtype=np.int64)
    for race in range(spec[RACES]):
        # the course, dealt again while one suit holds too many of its links
        while True:
            size = full  # what was dealt lies at the end: the whole deck, in some order
            counts[race, :] = 0
            for link in range(length):
                if taped:
                    z, suit = _deal(z, tape, at, deck, size)
                else:  # the same as _deal, inlined: a call passing arrays costs as much
                    z, index = bounded(z, size)
                    suit = deck[index]
                    deck[index] = deck[size - 1]
                    deck[size - 1] = suit
                size -= 1
                course[link] = suit
                counts[race, suit] += 1
            steps += length
            if not spec[REDEAL]:
                break
            most = 0
            for suit in range(SUITS):
                most = max(most, counts[race, suit])
            if most < spec[REDEAL_AT]:
                break
            redeals[race] += 1
        # the bets: each seat from the dealer's left draws a horse
        bets[race, :, :] = 0
        bets[race, :, 1] = -1
        staked[:] = 0
        owed[:] = 0
        for suit in range(SUITS):  # the book's price of each horse: win-per, per 0 = no price
            wins[suit], pers[suit] = spec[WIN + counts[race, suit]], spec[PER + counts[race, suit]]
        nbets = 0
        row = bets[race]
        for offset in range(1, n + 1):
            seat = (dealer + offset) % n
            if styles == 0:  # the book: the dealer does not bet; a seat with no room is skipped
                if seat == dealer:
                    continue
                room = min(spec[LIMIT] - staked[seat], chips[seat])
                most = 0
                for suit in range(SUITS):
                    cover = chips[dealer] - owed[suit]
                    most = max(most, _stake(room, cover, wins[suit], pers[suit]))
                if most == 0:
                    continue
                z, pick = _next(z, tape, at, SUITS)
                steps += 1
                stake = _stake(room, chips[dealer] - owed[pick], wins[pick], pers[pick])
                if stake == 0:
                    continue
                row[nbets, 0], row[nbets, 1], row[nbets, 2] = seat, pick, stake
                nbets += 1
                chips[seat] -= stake
                table += stake
                staked[seat] += stake
                for suit in range(SUITS):  # the dealer would owe this much if `suit` won
                    owed[suit] += stake * wins[pick] // pers[pick] if suit == pick else -stake
                room -= stake
                for suit in range(SUITS):  # asked again while it could bet more: it is done
                    if _stake(room, chips[dealer] - owed[suit], wins[suit], pers[suit]):
                        steps += 1
                        break
            elif styles == 1:  # the tote: a win ticket for all the room the seat has
                room = min(spec[LIMIT] - staked[seat], chips[seat])
                if room <= 0:
                    continue
                z, pick = _next(z, tape, at, SUITS)
                steps += 1
                row[nbets, 0], row[nbets, 1], row[nbets, 2] = seat, pick, room
                nbets += 1
                chips[seat] -= room
                table += room
                staked[seat] += room
            else:  # the party: a pick each
                z, pick = _next(z, tape, at, SUITS)
                steps += 1
                row[seat, 0], row[seat, 1] = seat, pick
        places = spec[PRIZES] if styles == 2 else 1
        # the race
        for suit in range(SUITS):
            pos[suit] = 0
            standing[suit] = suit
        running, done, frontier, turned = SUITS, 0, 0, 0
        for suit in range(SUITS):
            in_deck[suit] = spec[RANKS] - counts[race, suit]
        in_deck[JOKER] = spec[STUMBLE] - counts[race, JOKER]
        hidden[:] = 0
        if falter:
            for link in range(length):
                hidden[course[link]] += 1
        while True:
            # settled: the places are known, the deck is out, or no runner can finish
            if done >= min(places, SUITS - 1) or size == 0:
                break
            joker = in_deck[JOKER] + hidden[JOKER] > 0
            able = False
            for i in range(running):
                suit = standing[i]
                able = able or pos[suit] + in_deck[suit] + hidden[suit] + joker >= need
            if not able:
                break
            if taped:
                z, card = _next(z, tape, at, 0)
                suit = JOKER if card >= JOKER_CARD else card // 13
                index = 0
                while deck[index] != suit:
                    index += 1
            else:
                z, index = bounded(z, size)
            suit = deck[index]
            deck[index] = deck[size - 1]
            deck[size - 1] = suit
            size -= 1
            in_deck[suit] -= 1
            turned += 1
            if suit == JOKER:  # every running horse but the leaders moves up one link
                top = 0
                for i in range(running):
                    top = max(top, pos[standing[i]])
                for i in range(running):
                    if pos[standing[i]] < top:
                        pos[standing[i]] += 1
                continue
            alive = False
            for i in range(running):
                alive = alive or standing[i] == suit
            if not alive:
                continue
            pos[suit] += 1
            moved, back = suit, -1
            if pos[suit] >= need:  # finished: out of the standing order, into the places
                k = 0
                for i in range(running):
                    if standing[i] != suit:
                        standing[k] = standing[i]
                        k += 1
                running -= 1
                order[race, done] = suit
                done += 1
                continue
            if falter and frontier < pos[suit] <= length:
                for link in range(frontier, pos[suit]):
                    hidden[course[link]] -= 1
                frontier = int(pos[suit])
                back = course[frontier - 1]
            for step in range(2):  # the mover arrives last at its spot; then the one thrown back
                horse = moved if step == 0 else back
                if step == 1:
                    alive = False
                    for i in range(running):
                        alive = alive or standing[i] == horse
                    if horse == JOKER or horse < 0 or not alive or pos[horse] == 0:
                        break
                    pos[horse] -= 1
                k = 0
                for i in range(running):
                    if standing[i] != horse:
                        standing[k] = standing[i]
                        k += 1
                at_spot = 0
                while at_spot < running - 1 and pos[standing[at_spot]] >= pos[horse]:
                    at_spot += 1
                for i in range(running - 1, at_spot, -1):
                    standing[i] = standing[i - 1]
                standing[at_spot] = horse
        for i in range(running):
            order[race, done + i] = standing[i]
        cards[race] = turned
        steps += turned
        # the payout
        winner = order[race, 0]
        if styles == 0:
            win, per = spec[WIN + counts[race, winner]], spec[PER + counts[race, winner]]
            for b in range(nbets):
                if row[b, 1] != winner:
                    table -= row[b, 2]
                    chips[dealer] += row[b, 2]
            for b in range(nbets):
                if row[b, 1] == winner:
                    won = row[b, 2] * win // per
                    table -= row[b, 2]
                    chips[row[b, 0]] += row[b, 2] + won
                    chips[dealer] -= won
        elif styles == 1 and nbets:
            total = 0
            for b in range(nbets):
                total += row[b, 2]
            kept = total * spec[TAKEOUT] // 100
            net = total - kept
            pool[race], takeout[race] = total, kept
            table -= total
            bank += kept
            backing, held = 0, 0
            for b in range(nbets):
                if row[b, 1] == winner:
                    weights[held] = row[b, 2]
                    backing += row[b, 2]
                    held += 1
            if held == 0:  # nobody backed the winner: the net pool goes back by stake
                for b in range(nbets):
                    weights[b] = row[b, 2]
                _split(net, weights, nbets, shares)
                for b in range(nbets):
                    chips[row[b, 0]] += shares[b]
            else:
                profit = net - backing
                _split(net if profit < 0 else profit, weights, held, shares)
                k = 0
                for b in range(nbets):
                    if row[b, 1] == winner:
                        chips[row[b, 0]] += shares[k] + (row[b, 2] if profit >= 0 else 0)
                        k += 1
        elif styles == 2:
            for offset in range(1, n + 1):
                seat = (dealer + offset) % n
                for place in range(spec[PRIZES]):
                    if order[race, place] == row[seat, 1]:
                        amount = min(spec[PRIZE + place], bank)
                        bank -= amount
                        chips[seat] += amount
        dealer = (dealer + 1) % n
    return table, bank, steps


@njit(cache=True)
def play_games(  # type: ignore[no-untyped-def]
    spec, base, first, chips, table, bank, steps, order, counts, cards, redeals, bets, pool, take
):
    """Games first.. of the run seeded `base`, each from its own stream, into row i - first."""
    at = np.zeros(1, dtype=np.int64)
    deck = np.zeros(4 * spec[RANKS] + 1, dtype=np.int64)
    course = np.zeros(spec[LENGTH], dtype=np.int64)
    for row in range(chips.shape[0]):
        table[row], bank[row], steps[row] = play_game(
            spec, game_state(base, first + row), NO_TAPE, at, deck, course, chips[row],
            order[row], counts[row], cards[row], redeals[row], bets[row], pool[row], take[row],
        )  # fmt: skip


def _outputs(spec: Array, games: int) -> CardGames:
    n, races = int(spec[PLAYERS]), int(spec[RACES])
    zeros: Any = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
    return CardGames(
        chips=zeros(games, n),
        table=zeros(games),
        bank=zeros(games),
        steps=zeros(games),
        order=zeros(games, races, SUITS),
        course=zeros(games, races, SUITS + 1),
        cards=zeros(games, races),
        redeals=zeros(games, races),
        bet_horse=zeros(games, races, n),
        bet_stake=zeros(games, races, n),
        pool=zeros(games, races),
        takeout=zeros(games, races),
    )


def _bets_by_seat(out: CardGames, bets: Array) -> None:
    """Rows (seat, horse, stake) -> per seat: horse (-1 none) and stake."""
    out.bet_horse[:] = -1
    g, r, b = np.nonzero(bets[:, :, :, 1] >= 0)
    seats = bets[g, r, b, 0]
    out.bet_horse[g, r, seats] = bets[g, r, b, 1]
    out.bet_stake[g, r, seats] = bets[g, r, b, 2]


def run_games(spec: Array, base: int, first: int, count: int) -> CardGames:
    """Games first..first+count-1 of the run seeded `base` (a 64-bit word) on the kernel."""
    out = _outputs(spec, count)
    bets = np.zeros((count, int(spec[RACES]), int(spec[PLAYERS]), 3), dtype=np.int64)
    play_games(
        spec, np.uint64(base), np.int64(first), out.chips, out.table, out.bank, out.steps,
        out.order, out.course, out.cards, out.redeals, bets, out.pool, out.takeout,
    )  # fmt: skip
    _bets_by_seat(out, bets)
    return out


def replay_tape(spec: Array, tape: list[int]) -> tuple[CardGames, int]:
    """One game on a tape of outcomes (dealt cards and bettors' horses, in the engine's order);
    returns the outcomes (one row) and how many tape entries the game used."""
    out = _outputs(spec, 1)
    bets = np.zeros((1, int(spec[RACES]), int(spec[PLAYERS]), 3), dtype=np.int64)
    at = np.zeros(1, dtype=np.int64)
    deck = np.zeros(4 * int(spec[RANKS]) + 1, dtype=np.int64)
    course = np.zeros(int(spec[LENGTH]), dtype=np.int64)
    out.table[0], out.bank[0], out.steps[0] = play_game(
        spec, np.uint64(0), np.array(tape, dtype=np.int64), at, deck, course, out.chips[0],
        out.order[0], out.course[0], out.cards[0], out.redeals[0], bets[0], out.pool[0],
        out.takeout[0],
    )  # fmt: skip
    _bets_by_seat(out, bets)
    return out, int(at[0])
