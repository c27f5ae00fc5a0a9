"""The kernels' random numbers: SplitMix64, seeded per game, with exact bounded integers.

One 64-bit word of state per stream, passed by value (so it stays in a register); game i of
a run replays alone from `game_state(base, i)`, and the split of games across workers
never changes a figure.
Bounded draws use Lemire's multiply-and-reject method, so every outcome has exactly its
probability (no modulo bias); the dice sum comes from one draw of 36 equally likely pairs.
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import Array, Word
from horserace.kernels.compiled import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)

# DICE_SUM[k] for k = 6 * (first die - 1) + (second die - 1): each of the 36 pairs once.
DICE_SUM = np.array([a + b for a in range(1, 7) for b in range(1, 7)], dtype=np.int64)


@njit(cache=True)
def mix64(z: Word) -> Word:
    """SplitMix64's finaliser: a bijection of 64-bit words that scatters nearby seeds."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def game_state(base: Word, index: Word) -> Word:
    """The starting state of stream `index` under `base` (streams are far apart)."""
    return mix64(base ^ mix64(np.uint64(index) * _GOLDEN + _GOLDEN))


@njit(cache=True)
def step(z: Word) -> tuple[Word, Word]:
    """The stream's next state and its 64-bit output (state kept in a local, not in memory)."""
    z = z + _GOLDEN
    return z, mix64(z)


@njit(cache=True)
def bounded(z: Word, bound: Word) -> tuple[Word, Word]:
    """A uniform whole number in [0, bound), exactly (0 < bound < 2**32)."""
    k = np.uint64(bound)
    z, word = step(z)
    m = (word >> np.uint64(32)) * k
    low = m & _LOW32
    if low < k:
        floor = (_TWO32 - k) % k
        while low < floor:
            z, word = step(z)
            m = (word >> np.uint64(32)) * k
            low = m & _LOW32
    return z, np.int64(m >> np.uint64(32))


@njit(cache=True)
def unit(z: Word) -> tuple[Word, Word]:
    """A uniform float in (0, 1): 53 random bits, never exactly 0 (safe for log)."""
    z, word = step(z)
    return z, (np.float64(word >> np.uint64(11)) + 0.5) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def dice(z: Word) -> tuple[Word, Word]:
    """The sum of two fair six-sided dice."""
    z, pair = bounded(z, np.int64(36))
    return z, DICE_SUM[pair]


def tape_array(tape: list[int]) -> Array:
    """A tape for a kernel, read-only. numba types the kernels' own empty tape (a global array)
    as read-only, and compiles a kernel and its whole call tree anew for each type of its
    arguments: a tape passed writable would compile every game a second time (tens of seconds
    of CPU a kernel family)."""
    array = np.array(tape, dtype=np.int64)
    array.flags.writeable = False
    return array


@njit(cache=True, inline="always")
def read_tape(tape: Array, at: Array) -> Word:
    """The tape's next outcome (a kernel replaying the engine's chance steps). Inlined: a call
    that passes arrays, even one never taken, slows the loop around it (a roll: 1.8 to 2.8 ns)."""
    if at[0] >= tape.shape[0]:
        raise IndexError("the tape of chance outcomes ran out")
    at[0] += 1
    return tape[at[0] - 1]


@njit(cache=True, inline="always")
def next_outcome(z: Word, tape: Array, at: Array, bound: Word) -> tuple[Word, Word]:
    """The tape's next outcome, or with no tape a uniform 0..bound-1 from the stream."""
    if tape.shape[0] == 0:
        return bounded(z, np.int64(bound))
    return z, read_tape(tape, at)
