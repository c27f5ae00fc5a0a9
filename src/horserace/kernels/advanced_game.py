"""Whole games of the dice board game's Advanced Mode, compiled with numba, with the bots that
decide them: the deal and the draft, the antes into the Main and Jockey Pots, the scratch
(chain, move or reroll), penalties answered with Aces and Kings, the race with a Joker after
each roll, the card fees and the two pots' payout, the reset, as the reference rules play them;
under Robertson's rule (a flag of the spec) each race roll is four dice paired by the roller.

Chance comes from the game's own SplitMix64 stream, or, for the equality tests, from a tape of
the engine's game in its order: the dealt ranks, the dice sums and each seat's pick whenever it
had more than one legal action (a random bot's pick is read from it; the kernel's other bots
must make the pick the engine's made). `advanced_rules` holds the round's parts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import DICE, ev_joker, ev_tables
from horserace.kernels.advanced_numbers import (
    ANTE,
    CHIPS,
    DEALER,
    DECK,
    DRAFT,
    EV,
    FINISH,
    JOKER,
    PLAYERS,
    RANKS,
    REPEAT,
    ROBERTSON,
    ROTATE,
    ROUNDS,
    VALUES,
    AdvancedSpec,
    bot_kinds,
)
from horserace.kernels.advanced_rules import (
    JOCKEY_POT,
    PAID,
    POT,
    REMAINING,
    STUB,
    TABLES,
    TRADE,
    VALUED,
    WIN,
    WORK,
    WORTHS,
    answer_penalties,
    antes,
    deal,
    decide,
    draft,
    owe,
    pay,
    race_starter,
    scratch_roll,
    share_pots,
)
from horserace.kernels.board_numbers import GameOutcomes
from horserace.kernels.compiled import njit
from horserace.kernels.deck_game import (
    EMPTY_TAPE,
    MOVE,
    REROLL,
    replay_on_tape,
    roll,
    run_in_blocks,
)
from horserace.kernels.race_odds import odds_scratch
from horserace.kernels.rng import game_state
from horserace.kernels.robertson import FOUR_SPACE, pair_dice
from horserace.kernels.trading import trade_space, trading_window
from horserace.kernels.trading_numbers import AFTER, BEFORE, EACH

__all__ = ["AdvancedSpec", "bot_kinds", "replay_tape", "run_games"]

FEES = ((13, 2), (1, 3), (0, 4))  # King 2A, Ace 3A, Joker 4A, in the engine's order


@njit(cache=True)
def _trade(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word, hands: Array,
    discards: Array, money: Array, line_of: Array, moment: Word, rolls_left: Word, ev: Any,
) -> Word:  # fmt: skip
    """Perry's window, when the table trades at `moment` (`trading_numbers.WINDOWS`). The
    moment and the rolls left are passed on as int64, not as the constants a caller gives: numba
    would compile the window once for each constant."""
    return trading_window(
        np.int64(moment), spec, ev[TRADE], z, tape, at, kinds, dealer, hands, discards,
        ev[STUB][0], money[POT], line_of, np.int64(rolls_left), ev[TABLES][DICE],
    )  # fmt: skip


@njit(cache=True)
def _scratch(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word, line_of: Array,
    hands: Array, given_up: Array, discards: Array, chips: Array, money: Array, queue: Array,
    position: Array, ev: Any,
) -> tuple[Word, Word]:  # fmt: skip
    """The scratch rolls from the dealer's left until four horses are scratched (four rolls
    under the move rule); returns (stream, the seat that rolled last)."""
    n, repeat = spec[PLAYERS], spec[REPEAT]
    unit = max(spec[ANTE], 1)  # penalties count in antes
    rolls, scratched = 0, 0
    roller = (dealer + 1) % n
    while True:
        z, horse = roll(z, tape, at)
        earlier = line_of[horse]
        if earlier and repeat == REROLL:
            continue  # the same seat rolls again
        new_line = repeat == MOVE or not earlier
        scratched, waiting = scratch_roll(
            spec, horse, roller, np.int64(rolls), np.int64(scratched), unit, line_of, hands,
            given_up, discards, queue,
        )  # fmt: skip
        rolls += 1
        z = answer_penalties(
            spec, z, tape, at, kinds, queue, waiting, hands, discards, chips, money, line_of,
            position, np.bool_(False), ev,
        )  # fmt: skip
        done = (rolls if repeat == MOVE else scratched) == 4
        if new_line:  # the window after each scratch (the race is next after the last)
            left = 0 if done else 4 - (rolls if repeat == MOVE else scratched)
            z = _trade(
                spec, z, tape, at, kinds, dealer, hands, discards, money, line_of, EACH, left, ev
            )
        if done:
            return z, roller
        roller = (roller + 1) % n


@njit(cache=True)
def _joker(
    spec: Array, z: Word, tape: Array, at: Array, kind: Word, seat: Word, line_of: Array,
    position: Array, hands: Array, discards: Array, moves: Array, money: Array, ev: Any,
) -> tuple[Word, Word]:  # fmt: skip
    """The roller's Joker after a race roll: pass, or any running horse one slot forward (or
    back, past the gate). Returns (stream, the horse that crossed the line by it or 0)."""
    hand = hands[seat]
    options = 1
    own, best = 0, -1  # the heuristic: forward the horse it holds most of (then the farthest)
    for horse in range(2, 13):
        if line_of[horse]:
            continue
        moves[options] = horse
        if hand[horse] and hand[horse] * 1000 + position[horse] > best:
            best, own = hand[horse] * 1000 + position[horse], options
        options += 1
        if position[horse] > 0:
            moves[options] = -horse
            options += 1
    if kind == EV:
        own = ev_joker(
            spec, seat, hands, discards, ev[STUB][0], money[POT], money[JOCKEY_POT], line_of,
            position, moves, np.int64(options), ev[TABLES], ev[WORK], ev[WIN], ev[REMAINING],
            ev[VALUED], ev[WORTHS],
        )  # fmt: skip
    z, index = decide(z, tape, at, kind, np.int64(options), np.int64(own))
    if index == 0:
        return z, 0
    hand[JOKER] -= 1
    discards[JOKER] += 1
    moved = moves[index]
    if moved < 0:
        position[-moved] -= 1
        return z, 0
    position[moved] += 1
    return z, moved if position[moved] >= spec[FINISH + moved] else 0


@njit(cache=True)
def _race(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, roller: Word, line_of: Array,
    hands: Array, discards: Array, chips: Array, money: Array, queue: Array, moves: Array,
    position: Array, four: Array, ev: Any,
) -> tuple[Word, Word, Word, Word]:  # fmt: skip
    """Roll until a horse crosses the line; returns (stream, winner, rolls, the seat that moved
    it across). A scratched horse costs the roller its line's value, which may be answered;
    then the roller may play a Joker. Under Robertson's rule a roll is four dice paired by the
    roller: two sums, in its order, before the Joker."""
    n = spec[PLAYERS]
    unit = max(spec[ANTE], 1)
    rolls = 0
    while True:
        rolls += 1
        if spec[ROBERTSON]:
            z, horse, then = pair_dice(
                spec, z, tape, at, kinds[roller], unit, roller, hands, discards, ev[STUB][0],
                money[POT], line_of, position, four, ev[TABLES], ev[WORK], ev[WIN],
                ev[REMAINING], ev[VALUED], ev[WORTHS],
            )  # fmt: skip
        else:
            z, horse = roll(z, tape, at)
            then = 0
        while horse:
            line = line_of[horse]
            if line:
                waiting = owe(queue, np.int64(0), roller, spec[VALUES + line - 1] * unit)
                z = answer_penalties(
                    spec, z, tape, at, kinds, queue, waiting, hands, discards, chips, money,
                    line_of, position, np.bool_(True), ev,
                )  # fmt: skip
            else:
                position[horse] += 1
                if position[horse] >= spec[FINISH + horse]:
                    return z, horse, rolls, roller
            horse, then = then, 0
        if hands[roller, JOKER]:
            z, won = _joker(
                spec, z, tape, at, kinds[roller], roller, line_of, position, hands, discards,
                moves, money, ev,
            )  # fmt: skip
            if won:
                return z, won, rolls, roller
        roller = (roller + 1) % n


@njit(cache=True)
def _payout(
    spec: Array, dealer: Word, horse: Word, mover: Word, hands: Array, folded: Array,
    chips: Array, money: Array,
) -> None:  # fmt: skip
    """Fees for the Kings, Aces and Jokers still held, then the pots shared (nobody folds in
    Advanced: `folded` stays zero)."""
    n, ante = spec[PLAYERS], spec[ANTE]
    for k in range(n):
        seat = (dealer + 1 + k) % n
        for rank, times in FEES:
            if hands[seat, rank]:
                pay(chips, money, seat, hands[seat, rank] * times * ante, np.int64(POT))
    share_pots(spec, horse, mover, hands, folded, chips, money)


@njit(cache=True)
def play_game(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, chips: Array,
    winner: Array, rolls: Array, paid: Array, ev: Any,
) -> tuple[Word, Word]:  # fmt: skip
    """Play one game into the output rows; returns (stream, chips left in the pots)."""
    n, rounds = spec[PLAYERS], spec[ROUNDS]
    cards = np.zeros(spec[DECK : DECK + RANKS].sum(), dtype=np.int64)
    table = np.zeros((4 * n, RANKS), dtype=np.int64)
    hands, packets, given_up, passed = (
        table[:n],
        table[n : 2 * n],
        table[2 * n : 3 * n],
        table[3 * n :],
    )
    discards, line_of = np.zeros(RANKS, dtype=np.int64), np.zeros(13, dtype=np.int64)
    queue = np.zeros((3, n + 1), dtype=np.int64)
    moves = np.zeros(24, dtype=np.int64)
    money = np.zeros(3, dtype=np.int64)
    four = np.zeros(FOUR_SPACE, dtype=np.int64)
    position = np.zeros(13, dtype=np.int64)
    folded = np.zeros(n, dtype=np.int64)
    chips[:] = spec[CHIPS]
    dealer = spec[DEALER]
    for race in range(rounds):
        table[:] = 0
        discards[:] = 0
        line_of[:] = 0
        position[:] = 0
        z = deal(
            spec, np.int64(DECK), z, tape, at, dealer, cards, packets if spec[DRAFT] else hands
        )
        if spec[DRAFT]:
            z = draft(spec, z, tape, at, kinds, dealer, hands, packets, passed, discards, money, ev)
        antes(spec, dealer, chips, money)
        z = _trade(spec, z, tape, at, kinds, dealer, hands, discards, money, line_of, BEFORE, 4, ev)
        z, last = _scratch(
            spec, z, tape, at, kinds, dealer, line_of, hands, given_up, discards, chips, money,
            queue, position, ev,
        )  # fmt: skip
        z = _trade(spec, z, tape, at, kinds, dealer, hands, discards, money, line_of, AFTER, 0, ev)
        first = race_starter(spec, last, dealer)
        z, horse, race_rolls, mover = _race(
            spec, z, tape, at, kinds, first, line_of, hands, discards, chips, money, queue, moves,
            position, four, ev,
        )  # fmt: skip
        winner[race], rolls[race], paid[race] = horse, race_rolls, money[PAID]
        money[PAID] = 0  # the fees below count with the next round's payments, as the engine's
        _payout(spec, dealer, horse, mover, hands, folded, chips, money)
        if spec[ROTATE]:
            dealer = (dealer + 1) % n
    return z, money[POT] + money[JOCKEY_POT]


@njit(cache=True, nogil=True)
def play_games(spec, base, mix, start, stop, ev, chips, pot_left, winner, rolls, paid):  # type: ignore[no-untyped-def]
    """Games start..stop-1 of the run seeded `base`, each from its own stream, into row
    i - start; game i seats bot mix[(seat + i) % players] (the mix rotated one seat a game)."""
    n = spec[PLAYERS]
    kinds = np.zeros(n, dtype=np.int64)
    at = np.zeros(1, dtype=np.int64)
    for index in range(start, stop):
        row = index - start
        for seat in range(n):
            kinds[seat] = mix[(seat + index) % n]
        _, pot_left[row] = play_game(
            spec, game_state(base, index), EMPTY_TAPE, at, kinds, chips[row], winner[row],
            rolls[row], paid[row], ev,
        )  # fmt: skip


def ev_space(spec: AdvancedSpec) -> tuple[Any, ...]:
    """The bots' arrays for one thread's games (`advanced_rules.TABLES` ... `TRADE`)."""
    tables = ev_tables(spec.finish, spec.repeat_rule != MOVE)
    stub = np.array([sum(spec.deck) - spec.hand * spec.players], dtype=np.int64)
    win, valued, worths = np.zeros(13), np.zeros(13), np.zeros(32)
    remaining = np.zeros(13, dtype=np.int64)
    trade = trade_space(spec.trade, spec.players, spec.finish, spec.repeat_rule == MOVE)
    return (tables, odds_scratch(max(spec.finish)), win, remaining, valued, worths, stub, trade)


def run_games(
    spec: AdvancedSpec, base: int, start: int, stop: int, mix: Array, threads: int | None = None
) -> GameOutcomes:
    """Play games start..stop-1 of the run seeded `base` between the bots `mix` (kinds from
    `bot_kinds`, one a seat, rotated a seat a game), on `threads` threads of this process."""
    return run_in_blocks(
        play_games, lambda: ev_space(spec), spec.numbers(), spec.players, spec.rounds, base,
        start, stop, mix, threads,
    )  # fmt: skip


def replay_tape(spec: AdvancedSpec, kinds: Array, tape: list[int]) -> tuple[GameOutcomes, int]:
    """Play one game on a tape of the engine's game (dealt ranks, dice sums and seats' picks,
    in its order) with the bots `kinds` at the seats; returns the outcomes (one row) and how
    many tape entries the game used."""
    return replay_on_tape(
        play_game, ev_space(spec), spec.numbers(), spec.players, spec.rounds, kinds, tape
    )
