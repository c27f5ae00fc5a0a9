"""What the kernels of the dice board game whose seats decide (Advanced, Classic) share: a roll
and a card drawn from the game's stream or from a tape of the engine's game, and the plain
Python drivers that play a run's games on threads or one game on a tape.

Each kernel passes its own compiled `play_games` or `play_game` and its bots' arrays; the
drivers only cut the run into blocks and lay out the outcome rows. (One compiled `play_games`
taking the kernel's `play_game` as an argument compiles as fast, but numba's cache does not
keep a function that takes another: every process would compile it again, about 8 s of CPU.)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from horserace.core.chunks import kernel_threads
from horserace.kernels import Array, Word
from horserace.kernels.board_numbers import GameOutcomes
from horserace.kernels.compiled import njit
from horserace.kernels.rng import bounded, dice, read_tape, tape_array

MOVE, REROLL = 0, 1  # repeat rules (board_numbers.REPEAT_RULES); 2 is chain
BLOCK_GAMES = 500  # games a thread plays at a time when a run uses threads
EMPTY_TAPE = np.zeros(0, dtype=np.int64)


@njit(cache=True)
def roll(z: Word, tape: Array, at: Array) -> tuple[Word, Word]:
    """A dice sum: the tape's next entry when there is a tape, else from the stream."""
    if tape.shape[0] > 0:
        return z, read_tape(tape, at)
    return dice(z)


@njit(cache=True)
def take(z: Word, tape: Array, at: Array, cards: Array, index: Word, size: Word) -> Word:
    """Move the next card from cards[index:size] (the tape's rank, else a random one) to
    cards[index]; returns the stream."""
    if tape.shape[0] > 0:
        rank = read_tape(tape, at)
        pick = index
        while cards[pick] != rank:
            pick += 1
            if pick >= size:
                raise ValueError("the tape deals a card the deck does not hold")
    else:
        z, drawn = bounded(z, np.int64(size - index))
        pick = index + drawn
    rank = cards[pick]
    cards[pick] = cards[index]
    cards[index] = rank
    return z


def run_in_blocks(
    play_games: Callable[..., Any],
    ev_space: Callable[[], tuple[Array, ...]],
    numbers: Array,
    players: int,
    rounds: int,
    base: int,
    start: int,
    stop: int,
    mix: Array,
    threads: int | None,
) -> GameOutcomes:
    """Games start..stop-1 of the run seeded `base` by a kernel's `play_games` (numbers: its
    spec's; `ev_space()`: fresh bots' arrays, one set a thread), on `threads` threads."""
    threads = kernel_threads() if threads is None else threads
    out = GameOutcomes.zeros(stop - start, players, rounds)
    out.races[:] = rounds
    rows = (out.chips, out.pot_left, out.winner, out.rolls, out.paid)
    seed = np.uint64(base)

    def block(first: int) -> None:
        last = min(first + BLOCK_GAMES, stop)
        part = (row[first - start : last - start] for row in rows)
        play_games(numbers, seed, mix, np.int64(first), np.int64(last), ev_space(), *part)

    if threads > 1 and stop - start > BLOCK_GAMES:
        with ThreadPoolExecutor(threads, thread_name_prefix="horserace-kernel") as pool:
            for _ in pool.map(block, range(start, stop, BLOCK_GAMES)):
                pass  # (an error in a block is raised here)
    else:
        play_games(numbers, seed, mix, np.int64(start), np.int64(stop), ev_space(), *rows)
    return out


def replay_on_tape(
    play_game: Callable[..., Any],
    ev: tuple[Array, ...],
    numbers: Array,
    players: int,
    rounds: int,
    kinds: Array,
    tape: list[int],
) -> tuple[GameOutcomes, int]:
    """One game by a kernel's `play_game` on a tape of the engine's game with the bots `kinds`
    at the seats; returns the outcomes (one row) and how many tape entries the game used."""
    out = GameOutcomes.zeros(1, players, rounds)
    out.races[0] = rounds
    at = np.zeros(1, dtype=np.int64)
    _, out.pot_left[0] = play_game(
        numbers, np.uint64(0), tape_array(tape), at, kinds,
        out.chips[0], out.winner[0], out.rolls[0], out.paid[0], ev,
    )  # fmt: skip
    return out, int(at[0])
