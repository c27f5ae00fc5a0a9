"""Whole games of the dice board game with no decisions (Classic, Northwoods and their options),
compiled with numba.

A game here is the reference rules' game, step for step: the deal one card at a time from the
dealer's left, the four scratch rolls (repeat rule move, reroll or chain), the race, the
payout (shares of the pot or a split), the reset (hands passed left, or everything gathered),
and Northwoods' elimination as RULINGS.md reads it: a player who cannot pay pays all and plays
on; at the round's end a player holding nothing is out.

Chance comes from the game's own SplitMix64 stream, or, for the equality tests, from a tape of
the outcomes in the order the reference engine asks for them (a dealt card's rank, a dice
sum). The stream serves the deal four positions a word and the races five throws a half word
(`batched_draws`), each hand's cards from one run of the shuffle, each race in blocks of five
throws (`race_fields`): the same games in distribution as card by card and roll by roll,
which the tape's path still plays (tested against the exact odds, and equal to the engine).
`board_numbers.BoardGameSpec` turns a board preset's plain-data config into the kernel's
numbers and says which configs the kernel plays.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from horserace.core.chunks import kernel_threads
from horserace.kernels import NO_REFCOUNTS, Array, Word
from horserace.kernels.batched_draws import next_digit, picks_word
from horserace.kernels.board_numbers import (
    CHIPS,
    DEALER,
    DECKS,
    ELIM,
    FINISH,
    GATHER,
    PLAYERS,
    REPEAT,
    ROTATE,
    ROUNDS,
    SPLIT,
    START,
    VALUES,
    BoardGameSpec,
    GameOutcomes,
)
from horserace.kernels.compiled import njit
from horserace.kernels.race_fields import FIELD, LANE, race_fields
from horserace.kernels.rng import dice, game_state, read_tape, tape_array

__all__ = ["BoardGameSpec", "GameOutcomes", "replay_tape", "run_games"]

RANKS = 13  # per-horse rows are indexed by rank 0..12; horses are 2..12
HELD = (1 << FIELD) - 1  # a hand is one word: FIELD bits a rank, rank r at bits FIELD x (r - 2)
EMPTY_TAPE = np.zeros(0, dtype=np.int64)
NEVER = 1 << 60  # the advances "needed" by a horse that cannot win
BLOCK_GAMES = 2_000  # games a thread plays at a time (about 6 ms) when a run uses threads


@njit(cache=True)
def _seat_after(out: Array, nxt: Array) -> None:
    """nxt[seat] = the next seat to the left still in (itself when it is the only one)."""
    n = out.shape[0]
    for seat in range(n):
        nxt[seat] = seat
        for offset in range(1, n + 1):
            candidate = (seat + offset) % n
            if not out[candidate]:
                nxt[seat] = candidate
                break


@njit(cache=True, inline="always")
def _pay(chips: Array, seat: Word, owed: Word) -> Word:
    """Pay what the seat can of `owed`; returns the amount paid."""
    paid = min(owed, chips[seat])
    chips[seat] -= paid
    return paid


@njit(cache=True, **NO_REFCOUNTS)
def _race(z, tape, at, to_go, cost, owed, active):  # type: ignore[no-untyped-def]
    """Roll until a horse finishes; returns (stream, winner, rolls). owed[k] is what the k-th
    roller (round the seats still in) owes for the scratched horses it rolled: no chips come
    in during a race, so a seat paying all it owes at once, or all it has when that is less,
    pays what it would roll by roll. Its own function: inside the game's body this loop ran
    a third slower, and taking the chips out of it saves a read and a write a roll."""
    taped = tape.shape[0] > 0
    rolls, slot = 0, 0
    owed[:active] = 0
    while True:
        if taped:
            horse = read_tape(tape, at)
        else:
            z, horse = dice(z)
        rolls += 1
        owed[slot] += cost[horse]
        slot += 1
        if slot == active:
            slot = 0
        left = to_go[horse] - 1
        to_go[horse] = left
        if left == 0:
            return z, horse, rolls


@njit(cache=True)
def workspace(spec: Array) -> Array:
    """Scratch space for play_game: cards given up, lines, seats, hands, the deck as cards."""
    n = spec[PLAYERS]
    return np.zeros((RANKS + 8, max(RANKS + 2 * n, 48 * spec[DECKS])), dtype=np.int64)


@njit(cache=True, inline="always")
def _card(rank: Word) -> Word:
    """A card of `rank` as a hand counts it: one in the rank's field of a hand's word. A hand is
    then the sum of its cards, and dealing a card one add (no count to read and write back)."""
    return np.int64(1) << np.int64(FIELD * (rank - 2))


@njit(cache=True, inline="always")
def _held(hand: Word, rank: Word) -> Word:
    """How many cards of `rank` the hand's word holds."""
    return (hand >> np.int64(FIELD * (rank - 2))) & HELD


@njit(cache=True, inline="always")
def _fill_deck(cards: Array, decks: Word) -> Word:
    """The full deck as cards (2..12, 4 x decks of each); returns its size."""
    size = 0
    for rank in range(2, RANKS):
        for _ in range(4 * decks):
            cards[size] = _card(rank)
            size += 1
    return size


@njit(cache=True, **NO_REFCOUNTS)  # type: ignore[untyped-decorator]
def play_game(
    spec: Array,
    z: Word,
    tape: Array,
    at: Array,
    work: Array,
    chips: Array,
    out_round: Array,
    winner: Array,
    rolls: Array,
    paid: Array,
) -> tuple[Word, Word]:
    """Play one game into the output rows; returns (races, pot left). `work` is scratch space
    from `workspace(spec)`, reused from game to game (allocating costs more than a round).
    Compiled without reference counts (NO_REFCOUNTS; it allocates nothing): numba counted a
    reference, an atomic add, for each of its arrays and the views of `work` in every game,
    an eighth of a game's time. Indices that cannot be negative are unsigned where it pays:
    numba checks a signed index for a negative value on every read."""
    n, rounds = spec[PLAYERS], spec[ROUNDS]
    taped = tape.shape[0] > 0
    decks, repeat, values = spec[DECKS], spec[REPEAT], spec[VALUES : VALUES + 4]
    line_value = work[RANKS + 6, 2 * n : 2 * n + 5]  # what a roll costs by line, 0 = runs
    copies = 4 * decks
    given_up = work[:RANKS, :n]  # given_up[horse, seat]: the seats' loops read a row
    line_of = work[RANKS, :RANKS]  # the scratch line a horse stands on, 0 = runs
    to_go = work[RANKS + 1, :RANKS]  # advances a running horse still needs
    cost = work[RANKS + 2, :RANKS]  # what rolling a scratched horse costs
    nxt, out = work[RANKS + 3, :n], work[RANKS + 4, :n]
    order = work[RANKS + 3, n : 2 * n]  # the seats in dealing order
    hands = work[RANKS + 4, n : 2 * n]  # the hand each seat holds, one word (`_card`)
    cards = work[RANKS + 5]  # the deck, card by card: cards[:size]
    out[:] = 0  # (the other rows are written before they are read)
    hands[:] = 0
    owed = work[RANKS + 6, n : 2 * n]  # what each roller of a race owes
    advance = work[RANKS + 7, :RANKS]  # a roll of the horse in `race_fields`'s fields
    short = True  # every lane short enough for `race_fields`
    for horse in range(2, RANKS):
        short &= spec[FINISH + horse] <= LANE
    line_value[0] = 0
    for line in range(1, 5):
        line_value[line] = values[line - 1]
    chips[:] = spec[CHIPS]
    out_round[:] = 0
    size = _fill_deck(cards, decks)
    _seat_after(out, nxt)
    active = n
    pot = 0
    dealer = spec[DEALER]
    for round_number in range(1, rounds + 1):
        # The deal: whole turns round the seats still in, one card at a time (the first
        # to_deal cards of a partial shuffle); the cards left over stay in the deck.
        seat = nxt[dealer]
        for k in range(active):
            order[k] = seat
            seat = nxt[seat]
        per = size // active
        to_deal = per * active
        if taped:
            k = 0
            for index in range(to_deal):
                card = _card(read_tape(tape, at))
                pick = index
                while cards[pick] != card:
                    pick += 1
                    if pick >= size:
                        raise ValueError("the tape deals a card the deck does not hold")
                cards[pick] = cards[index]
                hands[order[k]] += card
                k += 1
                if k == active:
                    k = 0
        else:  # each hand's cards in one run of the shuffle: the same deal in distribution
            k, dealt, x = 0, 0, np.uint64(0)
            bound, undealt, boundary = np.uint64(size), np.uint64(to_deal), np.uint64(per)
            for index in range(np.uint64(to_deal)):  # (unsigned: no check for negative indices)
                if index & np.uint64(3) == 0:
                    z, x = picks_word(z, bound, undealt)
                x, digit = next_digit(x, bound)
                drawn = index + digit
                dealt += cards[drawn]
                cards[drawn] = cards[index]
                bound -= np.uint64(1)
                undealt -= np.uint64(1)
                if index + np.uint64(1) == boundary:
                    hands[order[k]] += dealt
                    dealt = 0
                    k += 1
                    boundary += np.uint64(per)
        left = size - to_deal  # (Northwoods discards them, and the discards join the deck)
        for index in range(left):
            cards[index] = cards[to_deal + index]
        size = left
        # The scratch phase.
        line_of[:] = 0
        scratch_rolls, scratched, paid_round = 0, 0, 0
        roller = nxt[dealer]
        last = roller
        while True:
            if taped:
                horse = read_tape(tape, at)
            else:
                z, horse = dice(z)
            earlier = line_of[horse]
            if earlier and repeat == 1:  # reroll: the same player rolls again
                continue
            if earlier and repeat == 0:  # move: the horse moves down, its holders pay again
                line = scratch_rolls + 1
                line_of[horse] = line
                value = values[line - 1]
                for seat in range(np.uint64(n)):  # (unsigned: no negative indices)
                    given = given_up[horse, seat] * (1 - out[seat])
                    paid_round += _pay(chips, seat, value * given)
            elif earlier:  # chain: only the roller pays the horse's position
                paid_round += _pay(chips, roller, values[earlier - 1])
            else:
                line = scratch_rolls + 1 if repeat == 0 else scratched + 1
                line_of[horse] = line
                scratched += 1
                value = values[line - 1]
                card = _card(horse)
                cards[size : size + copies] = card  # the cards given up go back to the deck
                for seat in range(np.uint64(n)):
                    held = _held(hands[seat], horse)
                    given_up[horse, seat] = held  # read again only if the horse moves lines
                    given = held * (1 - out[seat])
                    hands[seat] -= given * card
                    size += given
                    paid_round += _pay(chips, seat, value * given)
            scratch_rolls += 1
            last = roller
            roller = nxt[roller]
            if (scratch_rolls if repeat == 0 else scratched) == 4:
                break
        if spec[START] == 1:
            roller = last
        elif spec[START] == 2:
            roller = nxt[dealer]
        # The race: each roll's cost is its scratch line's value, or the horse advances (no
        # branch on the line: which horses are scratched is the dice's choice).
        fields = 0
        for horse in range(2, RANKS):
            line = line_of[horse]
            to_go[horse] = spec[FINISH + horse] + (line > 0) * NEVER
            cost[horse] = line_value[line]
            runs = np.int64(line == 0) << np.int64(FIELD * (horse - 2))
            advance[horse] = runs
            fields += (LANE - spec[FINISH + horse]) * runs
        if short and not taped:
            z, horse, race_rolls = race_fields(z, advance, cost, owed, active, np.int64(fields))
        else:
            z, horse, race_rolls = _race(z, tape, at, to_go, cost, owed, active)
        for k in range(min(race_rolls, active)):  # a seat short of chips pays what it has
            paid_round += _pay(chips, roller, owed[k])
            roller = nxt[roller]
        pot += paid_round
        # The payout to the holders of the winning rank.
        portion = pot // copies
        if spec[SPLIT]:
            held = 0
            for seat in range(np.uint64(n)):
                held += _held(hands[seat], horse) * (1 - out[seat])
            portion = pot // held if held else 0
        for seat in range(np.uint64(n)):
            won = _held(hands[seat], horse) * (1 - out[seat]) * portion
            chips[seat] += won
            pot -= won
        race = round_number - 1
        winner[race], rolls[race], paid[race] = horse, race_rolls, paid_round
        # The round's end: Northwoods puts out whoever holds nothing.
        if spec[ELIM]:
            for seat in range(n):
                if not out[seat] and chips[seat] == 0:
                    out[seat] = 1
                    out_round[seat] = round_number
            _seat_after(out, nxt)
            active = 0
            for seat in range(n):
                active += not out[seat]
            if active <= 1:
                return round_number, pot
        if round_number == rounds:
            break
        # Reset for the next round.
        if spec[GATHER]:
            hands[:] = 0
            size = _fill_deck(cards, decks)
        else:
            carried = hands[n - 1]
            for seat in range(n - 1, 0, -1):
                hands[seat] = hands[seat - 1]
            hands[0] = carried
        if spec[ROTATE]:
            dealer = nxt[dealer]
        if out[dealer]:
            dealer = nxt[dealer]
    return rounds, pot


@njit(cache=True, nogil=True)  # threads of one process play blocks of a run side by side
def play_games(  # type: ignore[no-untyped-def]
    spec, base, start, stop, chips, out_round, pot_left, races, winner, rolls, paid
):
    """Games start..stop-1 of the run seeded `base`, each from its own stream, into row i-start."""
    at = np.zeros(1, dtype=np.int64)
    work = workspace(spec)
    rows = (chips, out_round, pot_left, races, winner, rolls, paid)
    _play_range(spec, base, start, stop, at, work, *rows)


@njit(cache=True, nogil=True, **NO_REFCOUNTS)  # no reference counts: see play_game
def _play_range(  # type: ignore[no-untyped-def]
    spec, base, start, stop, at, work, chips, out_round, pot_left, races, winner, rolls, paid
):
    """play_games' loop, its arrays made once by the caller."""
    for index in range(start, stop):
        row = index - start
        races[row], pot_left[row] = play_game(
            spec,
            game_state(base, index),
            EMPTY_TAPE,
            at,
            work,
            chips[row],
            out_round[row],
            winner[row],
            rolls[row],
            paid[row],
        )


def run_games(
    spec: BoardGameSpec, base: int, start: int, stop: int, threads: int | None = None
) -> GameOutcomes:
    """Play games start..stop-1 of the run seeded `base` (a 64-bit word) on the kernel, on
    `threads` threads of this process (None: as many as the run asks, `kernel_threads()`).
    Each game draws from its own stream into its own row, so the outcomes are the same
    whatever the threads; the blocks are handed out as threads come free, so a thread that
    the machine's other work slows down holds no other back."""
    threads = kernel_threads() if threads is None else threads
    out = GameOutcomes.zeros(stop - start, spec.players, spec.rounds)
    rows = (out.chips, out.out_round, out.pot_left, out.races, out.winner, out.rolls, out.paid)
    numbers, seed = spec.numbers(), np.uint64(base)

    def block(first: int) -> None:
        last = min(first + BLOCK_GAMES, stop)
        part = (row[first - start : last - start] for row in rows)
        play_games(numbers, seed, np.int64(first), np.int64(last), *part)

    if threads > 1 and stop - start > BLOCK_GAMES:
        with ThreadPoolExecutor(threads, thread_name_prefix="horserace-kernel") as pool:
            for _ in pool.map(block, range(start, stop, BLOCK_GAMES)):
                pass  # (an error in a block is raised here)
    else:
        play_games(numbers, seed, np.int64(start), np.int64(stop), *rows)
    return out


def replay_tape(spec: BoardGameSpec, tape: list[int]) -> tuple[GameOutcomes, int]:
    """Play one game on a tape of outcomes (dealt ranks and dice sums, in the engine's order);
    returns the outcomes (one row) and how many tape entries the game used."""
    out = GameOutcomes.zeros(1, spec.players, spec.rounds)
    at = np.zeros(1, dtype=np.int64)
    numbers = spec.numbers()
    out.races[0], out.pot_left[0] = play_game(
        numbers, np.uint64(0), tape_array(tape), at, workspace(numbers),
        out.chips[0], out.out_round[0], out.winner[0], out.rolls[0], out.paid[0],
    )  # fmt: skip
    return out, int(at[0])
