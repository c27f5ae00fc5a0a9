"""Whole games of the dice board game's Classic Mode with the house rules whose seats decide,
compiled with numba, with the bots that decide them. Each house rule is a flag of the spec, read
at run time (one compiled kernel plays them all). The round: the deal from the Classic deck
(Husted's keeps the aces, kings and jokers in), the ante; under Husted's rule two betting rounds
round a draw of up to two cards; the scratch phase, the race (under Husted's rule with a J, Q
or K offered to each roller who pays for a scratched horse, and chips under a horse that stop
its rolls), the payout to the cards of the players who did not fold, and the reset. Husted's
betting rounds, draw and face cards are played by `husted_turns`.

Chance comes from the game's own SplitMix64 stream, or, for the equality tests, from a tape of
the engine's game in its order (dealt and drawn ranks, dice sums, and each seat's pick
whenever it had more than one legal action), as for the Advanced kernel (`advanced_game`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.advanced_ev import DICE, ev_tables
from horserace.kernels.advanced_numbers import (
    CHIPS,
    DEALER,
    DECK,
    FINISH,
    GATHER,
    HUSTED,
    MARKET,
    PLAYERS,
    RANKS,
    REPEAT,
    ROBERTSON,
    ROTATE,
    ROUNDS,
    VALUES,
    bot_kinds,
)
from horserace.kernels.advanced_rules import (
    AMOUNT,
    DEBTOR,
    JOCKEY_POT,
    PAID,
    POT,
    antes,
    pay,
    race_starter,
    scratch_roll,
    share_pots,
)
from horserace.kernels.board_numbers import GameOutcomes
from horserace.kernels.classic_numbers import (
    BUY_WORTHS,
    BUYS,
    REMAINING,
    TABLES,
    TRADE,
    VALUED,
    WIN,
    WORK,
    WORTHS,
    ClassicSpec,
)
from horserace.kernels.compiled import njit
from horserace.kernels.deck_game import (
    EMPTY_TAPE,
    MOVE,
    REROLL,
    replay_on_tape,
    roll,
    run_in_blocks,
    take,
)
from horserace.kernels.husted_turns import face_card, husted_betting
from horserace.kernels.market import (
    MARKET_HAND,
    deal_to,
    hands_dealt,
    market_space,
    market_turn,
    open_market,
)
from horserace.kernels.race_odds import odds_scratch
from horserace.kernels.rng import game_state
from horserace.kernels.robertson import FOUR_SPACE, pair_dice
from horserace.kernels.trading import trade_space, trading_window
from horserace.kernels.trading_numbers import AFTER, BEFORE, EACH

__all__ = ["ClassicSpec", "bot_kinds", "replay_tape", "run_games"]


@njit(cache=True)
def _deal(
    spec: Array, z: Word, tape: Array, at: Array, dealer: Word, deck: Array, cards: Array,
    hands: Array, market: Array,
) -> tuple[Word, Word, Word]:  # fmt: skip
    """Whole turns round the table from the dealer's left while cards last, the market (when
    there is one) last in each turn; returns (stream, the cards dealt, the deck's size): the
    stub is cards[dealt:size]."""
    n = spec[PLAYERS]
    size = 0
    for rank in range(RANKS):
        for _ in range(deck[rank]):
            cards[size] = rank
            size += 1
    round_of = hands_dealt(n, spec[MARKET])
    to_deal = size // round_of * round_of
    for index in range(to_deal):
        z = take(z, tape, at, cards, index, np.int64(size))
        seat = deal_to(index, dealer, n, spec[MARKET])
        if seat == MARKET_HAND:
            market[cards[index]] += 1
        else:
            hands[seat, cards[index]] += 1
        deck[cards[index]] -= 1
    return z, to_deal, size


@njit(cache=True)
def _scratch(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, dealer: Word, line_of: Array,
    hands: Array, deck: Array, given_up: Array, discards: Array, chips: Array, money: Array,
    queue: Array, ev: Any,
) -> tuple[Word, Word]:  # fmt: skip
    """The scratch rolls from the dealer's left until four horses are scratched (four rolls
    under the move rule), each penalty paid at once, Perry's window after each if the table
    trades then; returns (stream, the last roller)."""
    n, repeat = spec[PLAYERS], spec[REPEAT]
    rolls, scratched = 0, 0
    roller = (dealer + 1) % n
    while True:
        z, horse = roll(z, tape, at)
        earlier = line_of[horse]
        if earlier and repeat == REROLL:
            continue  # the same seat rolls again
        scratched, waiting = scratch_roll(
            spec, horse, roller, np.int64(rolls), np.int64(scratched), np.int64(1), line_of,
            hands, given_up, discards, queue,
        )  # fmt: skip
        for k in range(waiting):  # Classic penalties are paid at once, in chips
            pay(chips, money, queue[DEBTOR, k], queue[AMOUNT, k], np.int64(POT))
        rolls += 1
        left = 4 - (rolls if repeat == MOVE else scratched)
        if not left:  # (the last scratch's window follows the market's opening)
            return z, roller
        if repeat == MOVE or not earlier:  # a new line: the window after each scratch
            z = trading_window(
                np.int64(EACH), spec, ev[TRADE], z, tape, at, kinds, dealer, hands, discards,
                deck.sum(), money[POT], line_of, left, ev[TABLES][DICE],
            )  # fmt: skip
        roller = (roller + 1) % n


@njit(cache=True)
def _race(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, roller: Word, hands: Array,
    deck: Array, discards: Array, chips: Array, money: Array, line_of: Array, position: Array,
    blocks: Array, four: Array, market: Array, ev: Any,
) -> tuple[Word, Word, Word, Word]:  # fmt: skip
    """Roll until a horse crosses the line; returns (stream, winner, rolls, the seat that moved
    it across). A scratched horse costs the roller its line's value, then under Husted's rule
    the roller may play a face card; a horse with chips under it loses one instead of moving.
    Under Robertson's rule a roll is four dice paired by the roller: two sums, in its order.
    After a roll that does not end the race the roller may buy from the market."""
    n = spec[PLAYERS]
    rolls = 0
    while True:
        rolls += 1
        if spec[ROBERTSON]:
            z, horse, then = pair_dice(  # the unit an int64, as the Advanced kernel's: one compile
                spec, z, tape, at, kinds[roller], np.int64(1), roller, hands, discards, deck.sum(),
                money[POT], line_of, position, four, ev[TABLES], ev[WORK], ev[WIN],
                ev[REMAINING], ev[VALUED], ev[WORTHS],
            )  # fmt: skip
        else:
            z, horse = roll(z, tape, at)
            then = 0
        while horse:
            line = line_of[horse]
            if line:
                pay(chips, money, roller, spec[VALUES + line - 1], np.int64(POT))
                if spec[HUSTED]:
                    z = face_card(
                        spec, z, tape, at, kinds[roller], roller, hands, deck, discards, chips,
                        money, line_of, position, blocks, ev,
                    )  # fmt: skip
            elif blocks[horse]:
                blocks[horse] -= 1
            else:
                position[horse] += 1
                if position[horse] >= spec[FINISH + horse]:
                    return z, horse, rolls, roller
            horse, then = then, 0
        if spec[MARKET]:
            z = market_turn(
                spec, z, tape, at, kinds[roller], roller, hands, market, discards, deck.sum(),
                chips, money, line_of, position, ev[BUYS], ev[BUY_WORTHS], ev[TABLES], ev[WORK],
                ev[WIN], ev[REMAINING], ev[VALUED],
            )  # fmt: skip
        roller = (roller + 1) % n


@njit(cache=True)
def play_game(
    spec: Array, z: Word, tape: Array, at: Array, kinds: Array, chips: Array,
    winner: Array, rolls: Array, paid: Array, ev: Any,
) -> tuple[Word, Word]:  # fmt: skip
    """Play one game into the output rows; returns (stream, chips left in the pots)."""
    n, rounds = spec[PLAYERS], spec[ROUNDS]
    deck = spec[DECK : DECK + RANKS].copy()
    cards = np.zeros(deck.sum(), dtype=np.int64)
    table = np.zeros((2 * n, RANKS), dtype=np.int64)
    hands, given_up = table[:n], table[n:]
    discards, line_of = np.zeros(RANKS, dtype=np.int64), np.zeros(13, dtype=np.int64)
    market = np.zeros(RANKS, dtype=np.int64)
    position, blocks = np.zeros(13, dtype=np.int64), np.zeros(13, dtype=np.int64)
    seats = np.zeros((4, n), dtype=np.int64)
    folded, wagered = seats[0], seats[1]
    money = np.zeros(3, dtype=np.int64)
    queue = np.zeros((3, n + 1), dtype=np.int64)  # a scratch roll's penalties, in order
    four = np.zeros(FOUR_SPACE, dtype=np.int64)
    chips[:] = spec[CHIPS]
    dealer = spec[DEALER]
    for race in range(rounds):
        z, dealt, size = _deal(spec, z, tape, at, dealer, deck, cards, hands, market)
        antes(spec, dealer, chips, money)
        if spec[HUSTED]:
            z = husted_betting(
                spec, z, tape, at, kinds, dealer, hands, deck, discards, cards, dealt, size,
                chips, money, seats, ev,
            )  # fmt: skip
        # int64 moments and rolls, not constants: numba would compile the window for each
        z = trading_window(
            np.int64(BEFORE), spec, ev[TRADE], z, tape, at, kinds, dealer, hands, discards,
            deck.sum(), money[POT], line_of, np.int64(4), ev[TABLES][DICE],
        )  # fmt: skip
        z, last = _scratch(
            spec, z, tape, at, kinds, dealer, line_of, hands, deck, given_up, discards, chips,
            money, queue, ev,
        )  # fmt: skip
        open_market(line_of, market, discards)
        for moment in (EACH, AFTER):  # the last scratch's window opens with the market open
            z = trading_window(
                moment, spec, ev[TRADE], z, tape, at, kinds, dealer, hands, discards, deck.sum(),
                money[POT], line_of, np.int64(0), ev[TABLES][DICE],
            )  # fmt: skip
        first = race_starter(spec, last, dealer)
        z, horse, race_rolls, mover = _race(
            spec, z, tape, at, kinds, first, hands, deck, discards, chips, money, line_of,
            position, blocks, four, market, ev,
        )  # fmt: skip
        winner[race], rolls[race], paid[race] = horse, race_rolls, money[PAID]
        money[PAID] = 0
        share_pots(spec, horse, mover, hands, folded, chips, money)
        if spec[GATHER]:
            deck[:] = spec[DECK : DECK + RANKS]
            hands[:] = 0
        else:  # hands pass left; the stub, the discards and the market are dealt again
            deck += discards + market
            last_hand = hands[n - 1].copy()
            for seat in range(n - 1, 0, -1):
                hands[seat] = hands[seat - 1]
            hands[0] = last_hand
        given_up[:] = 0
        discards[:] = 0
        market[:] = 0
        line_of[:] = 0
        position[:] = 0
        blocks[:] = 0
        folded[:] = 0
        wagered[:] = 0
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


def ev_space(spec: ClassicSpec) -> tuple[Any, ...]:
    """The bots' arrays for one thread's games (TABLES ... TRADE above)."""
    tables = ev_tables(spec.finish, spec.repeat_rule != MOVE)
    options = 1 + 14 + 14 * 15 // 2  # no discard, one card, two cards
    return (
        tables,
        odds_scratch(max(spec.finish)),
        np.zeros(13),
        np.zeros(13, dtype=np.int64),
        np.zeros(13),
        np.zeros(14),
        np.zeros(options, dtype=np.int64),
        np.zeros(options, dtype=np.int64),
        np.zeros((2, 13)),
        np.zeros(options),
        *market_space(),
        trade_space(spec.trade, spec.players, spec.finish, spec.repeat_rule == MOVE),
    )


def run_games(
    spec: ClassicSpec, base: int, start: int, stop: int, mix: Array, threads: int | None = None
) -> GameOutcomes:
    """Play games start..stop-1 of the run seeded `base` between the bots `mix` (kinds from
    `bot_kinds`, one a seat, rotated a seat a game), on `threads` threads of this process."""
    return run_in_blocks(
        play_games, lambda: ev_space(spec), spec.numbers(), spec.players, spec.rounds, base,
        start, stop, mix, threads,
    )  # fmt: skip


def replay_tape(spec: ClassicSpec, kinds: Array, tape: list[int]) -> tuple[GameOutcomes, int]:
    """Play one game on a tape of the engine's game (dealt and drawn ranks, dice sums and
    seats' picks, in its order) with the bots `kinds` at the seats; returns the outcomes (one
    row) and how many tape entries the game used."""
    return replay_on_tape(
        play_game, ev_space(spec), spec.numbers(), spec.players, spec.rounds, kinds, tape
    )
