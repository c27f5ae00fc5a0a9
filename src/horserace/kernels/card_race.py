"""Whole games of the card race compiled with numba: Basic, Scarne, faltering and stumbling
courses; the dealer's book, the tote's win pool and the party's prizes.

A game here is the rules' game card for card (`families/cards/rules/`): the course dealt one
card at a time (a joker turned there is discarded and another card dealt, or lies on its
link where the table leaves it there, moving nobody when turned; the whole course
dealt again when one suit could not finish), the bets, the race cards turned until the places
the bets need are known (a joker lifts every horse but the leaders, a faltering course turns
its links as horses reach them and throws back the horse of the link's suit), the payout, the
deal passing left. Every seat bets as the `blind` bettor does: a horse
drawn at random, for the most it may stake (book: within the dealer's cover; tote: a win
ticket; party: the pick). The kernel only knows suits: a card is its suit 0..3, or 4 for the
joker.

Chance comes from the game's SplitMix64 stream, or, for the equality tests, from a tape of
outcomes in the engine's order: a dealt card (its card number) or a bettor's horse.
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.card_money import split, stake_limit
from horserace.kernels.card_numbers import (
    BANK,
    CARD_STYLES,
    CHIPS,
    DEALER,
    FALTER,
    JOKER,
    JOKER_CARD,
    JOKER_STAYS,
    LENGTH,
    LIMIT,
    NEED,
    PER,
    PLAYERS,
    PRIZE,
    PRIZES,
    RACES,
    RANKS,
    REDEAL,
    REDEAL_AT,
    STUMBLE,
    STYLE,
    SUITS,
    TAKEOUT,
    TICKS,
    WIN,
    CardGames,
    card_spec,
    outputs,
)
from horserace.kernels.compiled import njit
from horserace.kernels.rng import bounded, game_state, next_outcome, read_tape, tape_array

NO_TAPE = np.zeros(0, dtype=np.int64)

__all__ = ["CARD_STYLES", "CardGames", "card_spec", "replay_tape", "run_games"]


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


@njit(cache=True, inline="always")
def _deal(z: Word, tape: Array, at: Array, deck: Array, size: Word) -> tuple[Word, Word]:
    """A card off the deck's first `size` (its suit, 4 = the joker), moved to slot size - 1.
    Inlined where it is called: a call passing arrays costs as much as the card."""
    if tape.shape[0]:
        card = read_tape(tape, at)
        suit = JOKER if card >= JOKER_CARD else card // 13
        index = 0
        while deck[index] != suit:
            index += 1
    else:
        z, index = bounded(z, np.int64(size))
    suit = deck[index]
    deck[index] = deck[size - 1]
    deck[size - 1] = suit
    return z, suit


@njit(cache=True)
def workspace(spec: Array) -> tuple[Array, Array, Array, Array, Array]:
    """Scratch space for `play_game`, made once per run: the deck, the course, the per-suit
    rows, the per-seat rows and the race's bets (seat, horse, stake) in betting order."""
    return (
        np.zeros(4 * spec[RANKS] + 1, dtype=np.int64),
        np.zeros(spec[LENGTH], dtype=np.int64),
        np.zeros((9, SUITS + 1), dtype=np.int64),
        np.zeros((3, spec[PLAYERS]), dtype=np.int64),
        np.zeros((spec[PLAYERS], 3), dtype=np.int64),
    )


@njit(cache=True)
def play_game(  # type: ignore[no-untyped-def]
    spec, z, tape, at, deck, course, suits, seats, row, chips, order, counts, cards, redeals,
    bet_horse, bet_stake, pool, takeout,
):  # fmt: skip
    """Play one game into the output rows; returns (table, bank, steps). The race is one body
    (a call passing arrays costs more than a card): positions, standing order and the
    unseen counts are kept as the cards fall. The scratch rows come from `workspace`."""
    n, styles, need, length = spec[PLAYERS], spec[STYLE], spec[NEED], spec[LENGTH]
    falter = spec[FALTER]
    chips[:] = spec[CHIPS]
    table, bank, steps = 0, spec[BANK], 0
    dealer = spec[DEALER]
    full = _fill(deck, spec[RANKS], spec[STUMBLE])
    pos, seq, run, ahead, in_deck, hidden = (
        suits[0],
        suits[1],
        suits[2],
        suits[3],
        suits[4],
        suits[5],
    )
    owed, wins, pers = (
        suits[6],
        suits[7],
        suits[8],
    )  # the book: what the dealer owes if a horse wins
    staked, weights, shares = seats[0], seats[1], seats[2]
    for race in range(spec[RACES]):
        # the course, dealt again while one suit holds too many of its links
        while True:
            size = full  # what was dealt lies at the end: the whole deck, in some order
            counts[race, :] = 0
            link = 0
            while link < length:
                z, suit = _deal(z, tape, at, deck, size)
                size -= 1
                steps += 1
                if suit == JOKER and not spec[JOKER_STAYS]:  # discarded: the link gets another
                    counts[race, JOKER] += 1
                    continue
                course[link] = suit
                counts[race, suit] += 1
                link += 1
            if not spec[REDEAL]:
                break
            most = 0
            for suit in range(SUITS):
                most = max(most, counts[race, suit])
            if most < spec[REDEAL_AT]:
                break
            redeals[race] += 1
        # the bets: each seat from the dealer's left draws a horse
        row[:, :] = 0
        row[:, 1] = -1
        staked[:] = 0
        owed[:] = 0
        for suit in range(SUITS):  # the book's price of each horse: win-per, per 0 = no price
            wins[suit], pers[suit] = spec[WIN + counts[race, suit]], spec[PER + counts[race, suit]]
        nbets = 0
        for offset in range(1, n + 1):
            seat = (dealer + offset) % n
            if styles == 0:  # the book: the dealer does not bet; a seat with no room is skipped
                if seat == dealer:
                    continue
                room = min(spec[LIMIT] - staked[seat], chips[seat])
                most = 0
                for suit in range(SUITS):
                    cover = chips[dealer] - owed[suit]
                    most = max(most, stake_limit(room, cover, wins[suit], pers[suit]))
                if most == 0:
                    continue
                z, pick = next_outcome(z, tape, at, SUITS)
                steps += 1
                stake = stake_limit(room, chips[dealer] - owed[pick], wins[pick], pers[pick])
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
                    if stake_limit(room, chips[dealer] - owed[suit], wins[suit], pers[suit]):
                        steps += 1
                        break
            elif styles == 1:  # the tote: a win ticket for all the room the seat has
                room = min(spec[LIMIT] - staked[seat], chips[seat])
                if room <= 0:
                    continue
                z, pick = next_outcome(z, tape, at, SUITS)
                steps += 1
                row[nbets, 0], row[nbets, 1], row[nbets, 2] = seat, pick, room
                nbets += 1
                chips[seat] -= room
                table += room
                staked[seat] += room
            else:  # the party: a pick each
                z, pick = next_outcome(z, tape, at, SUITS)
                steps += 1
                row[seat, 0], row[seat, 1] = seat, pick
        bet_horse[race, :] = -1
        bet_stake[race, :] = 0
        for b in range(n):  # each seat's bet, by seat
            if row[b, 1] >= 0:
                bet_horse[race, row[b, 0]], bet_stake[race, row[b, 0]] = row[b, 1], row[b, 2]
        places = spec[PRIZES] if styles == 2 else 1
        # the race: the standing order is by position, then by arrival (`seq`: the mover
        # arrives last at its spot; at the gate `seq` is the suit, below every arrival), and
        # is sorted only once the race is over
        for suit in range(SUITS):
            pos[suit], seq[suit], run[suit] = 0, suit, 1
        running, done, frontier, turned, clock = SUITS, 0, 0, 0, SUITS
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
            for s in range(SUITS):
                able |= (run[s] == 1) & (pos[s] + in_deck[s] + hidden[s] + joker >= need)
            if not able:
                break
            z, suit = _deal(z, tape, at, deck, size)
            size -= 1
            in_deck[suit] -= 1
            turned += 1
            if suit == JOKER:  # every running horse but the leaders moves up one link,
                top = 0  # keeping its place in the standing order
                for s in range(SUITS):
                    top = max(top, pos[s] * run[s])
                for s in range(SUITS):
                    ahead[s] = -1
                    if run[s] and pos[s] < top:
                        ahead[s] = 0
                        for t in range(SUITS):
                            before = pos[t] * TICKS - seq[t] > pos[s] * TICKS - seq[s]
                            ahead[s] += run[t] and pos[t] < top and before
                moved = 0
                for s in range(SUITS):
                    if ahead[s] >= 0:
                        pos[s] += 1
                        seq[s] = clock + ahead[s]
                        moved += 1
                clock += moved
                continue
            if not run[suit]:
                continue
            pos[suit] += 1
            seq[suit] = clock
            clock += 1
            if pos[suit] >= need:  # finished: out of the standing order, into the places
                run[suit] = 0
                running -= 1
                order[race, done] = suit
                done += 1
                continue
            if falter and frontier < pos[suit] <= length:
                for link in range(frontier, pos[suit]):
                    hidden[course[link]] -= 1
                frontier = int(pos[suit])
                back = course[frontier - 1]  # thrown back: it arrives last at its new spot,
                if back != JOKER and run[back] and pos[back] > 0:  # a joker moves nobody
                    pos[back] -= 1
                    if pos[back] == 0:  # but the gate is not a link: there, suit order
                        seq[back] = back
                    else:
                        seq[back] = clock
                        clock += 1
        for s in range(SUITS):  # the rest, in the standing order
            if run[s]:
                place = done
                for t in range(SUITS):
                    place += run[t] and pos[t] * TICKS - seq[t] > pos[s] * TICKS - seq[s]
                order[race, place] = s
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
            table -= total
            backing, held = 0, 0
            for b in range(nbets):
                if row[b, 1] == winner:
                    weights[held] = row[b, 2]
                    backing += row[b, 2]
                    held += 1
            if held == 0:  # nobody backed the winner: the net pool goes back by stake
                for b in range(nbets):
                    weights[b] = row[b, 2]
                kept += split(net, weights, np.int64(nbets), shares)  # the odd chips: the house's
                for b in range(nbets):
                    chips[row[b, 0]] += shares[b]
            elif net < backing:  # a minus pool: the house makes every winning stake whole
                kept -= backing - net
                for b in range(nbets):
                    if row[b, 1] == winner:
                        chips[row[b, 0]] += row[b, 2]
            else:  # stakes back and the profit by stake, rounded down
                kept += split(net - backing, weights, np.int64(held), shares)
                k = 0
                for b in range(nbets):
                    if row[b, 1] == winner:
                        chips[row[b, 0]] += row[b, 2] + shares[k]
                        k += 1
            pool[race], takeout[race] = total, kept  # what the house keeps of the pool
            bank += kept
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
    spec, base, first, chips, table, bank, steps, order, counts, cards, redeals, horse, stake,
    pool, take,
):  # fmt: skip
    """Games first.. of the run seeded `base`, each from its own stream, into row i - first."""
    at = np.zeros(1, dtype=np.int64)
    deck, course, suits, seats, bets = workspace(spec)
    for g in range(chips.shape[0]):
        table[g], bank[g], steps[g] = play_game(
            spec, game_state(base, first + g), NO_TAPE, at, deck, course, suits, seats, bets,
            chips[g], order[g], counts[g], cards[g], redeals[g], horse[g], stake[g], pool[g],
            take[g],
        )  # fmt: skip


def run_games(spec: Array, base: int, first: int, count: int) -> CardGames:
    """Games first..first+count-1 of the run seeded `base` (a 64-bit word) on the kernel."""
    out = outputs(spec, count)
    play_games(
        spec, np.uint64(base), np.int64(first), out.chips, out.table, out.bank, out.steps,
        out.order, out.course, out.cards, out.redeals, out.bet_horse, out.bet_stake, out.pool,
        out.takeout,
    )  # fmt: skip
    return out


def replay_tape(spec: Array, tape: list[int]) -> tuple[CardGames, int]:
    """One game on a tape of outcomes (dealt cards and bettors' horses, in the engine's order);
    returns the outcomes (one row) and how many tape entries the game used."""
    out = outputs(spec, 1)
    at = np.zeros(1, dtype=np.int64)
    deck, course, suits, seats, bets = workspace(spec)
    out.table[0], out.bank[0], out.steps[0] = play_game(
        spec, np.uint64(0), tape_array(tape), at, deck, course, suits, seats,
        bets, out.chips[0], out.order[0], out.course[0], out.cards[0], out.redeals[0],
        out.bet_horse[0], out.bet_stake[0], out.pool[0], out.takeout[0],
    )  # fmt: skip
    return out, int(at[0])
