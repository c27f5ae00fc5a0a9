"""The Derby fast loop's table of movements: for every horse state (space, stuck in the mud)
and every movement of 0..most spaces, the state it leads to, mud and all, so that a turn's
movement is one look-up; and the keys that settle a movement whose dice (mud tries, the
accelerator die) are drawn ahead. Built once per track, in numpy; `derby_fast` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from horserace.kernels import Array
from horserace.kernels.derby_race import dice_draw
from horserace.kernels.derby_state import TrackNumbers

OUT = 0  # the state of a horse that no longer moves
NEEDS_DICE = -1
MAX_DRAWS = 1 << 22  # the largest table of draws' outcomes the loop takes on (32 MB)
# the draws' numbers the loop reads: tries per draw, mud outcomes, outcomes, tries told apart
# in a key (at most the longest movement), the keys (the last one: a word to reject)
TRIES, MUD, OUTCOMES, TOLD, KEYS = range(5)


@dataclass(frozen=True)
class MoveTable:
    """Per state and movement (0..most) the next state, NEEDS_DICE, plus each state's zone
    value (0 for OUT). States cover spaces 0..last: one turn from any space up to `safe`."""

    nxt: Array  # (states * (most + 1),)
    zone: Array  # (states,)
    most: int
    last: int
    safe: int

    @classmethod
    def of(cls, numbers: TrackNumbers) -> MoveTable:
        finish = numbers.finish
        most = max(2, 4 * int(numbers.zone.max()))
        reach = most + 2 + 2 * int(numbers.faces.max())  # one turn, bonuses included
        safe, last = finish + reach, finish + 2 * reach
        states = 2 * (last + 2)
        nxt = np.full((states, most + 1), NEEDS_DICE, dtype=np.int64)
        zone = np.zeros(states, dtype=np.int64)
        nxt[OUT, :] = OUT
        for space in range(last + 1):
            spot = min(space, finish)
            for stuck in (0, 1):
                state = 2 * (space + 1) + stuck
                zone[state] = numbers.zone[spot]
                nxt[state, 0] = state
                if stuck:
                    continue
                for spaces in range(1, most + 1):
                    land = space + spaces
                    if land <= last and not numbers.accel[min(land, finish)]:
                        nxt[state, spaces] = 2 * (land + 1) + numbers.mud[min(land, finish)]
        return cls(nxt.ravel(), zone, most, last, safe)

    @property
    def offset(self) -> int:
        """The rows' states are numbered from `offset` on, so that the first state on the line
        is a power of two: a turn ORs its six rows and compares once to tell a finish."""
        line = 2 * (2 * self.safe - self.last + 1)  # the finish is 2 x safe - last
        return (1 << (line - 1).bit_length()) - line

    @property
    def stride(self) -> int:
        """The row length of `rows`: a power of two with room for every movement and the zone."""
        return 1 << (self.most + 1).bit_length()

    def rows(self, numbers: TrackNumbers) -> Array:
        """The table as the fast loop reads it: a state's row starts at (state + offset) x stride
        (OUT's at 0) and holds the row of the state each movement leads to, or NEEDS_DICE, or
        for a landing on an accelerator -2 - its space; its last entry is the state's zone
        value. A horse is the start of its row."""
        stride, width, off = self.stride, self.most + 1, self.offset
        states = self.zone.shape[0]
        nxt = self.nxt.reshape(states, width)[2:]
        rows = np.zeros((states + off, stride), dtype=np.int64)
        rows[off + 2 :, :width] = np.where(nxt == NEEDS_DICE, NEEDS_DICE, (nxt + off) * stride)
        for space in range(self.last + 1):
            for spaces in range(1, width):
                land = space + spaces
                if land <= self.last and numbers.accel[min(land, numbers.finish)]:
                    rows[off + 2 * (space + 1), spaces] = NEEDS_DICE - 1 - land
        rows[off + 2 :, stride - 1] = self.zone[2:]
        return rows.ravel()

    def dice(self, numbers: TrackNumbers) -> tuple[Array, Array, Array] | None:
        """The table for a movement's dice, drawn ahead: (`rows()` with every movement that needs
        dice pointing into `ends`, the rows each draw's outcome ends on, the draws' numbers). A
        movement's key is its draw decoded, misses x faces + face (misses: the splats before the
        first horseshoe, counted up to TOLD, enough for any movement that the draw covers), so
        its row is ends[~rows[...] + key]. The last key of a row, and a whole row for a landing
        past the table, is -1: the loop rolls those dice one by one. None: too large a table."""
        faces, finish = numbers.faces, numbers.finish
        tries, mud, outcomes = (int(x) for x in dice_draw(numbers.shoe, numbers.blank, faces.size))
        told = min(tries, self.most)
        keys = (told + 1) * faces.size + 1
        stride, off = self.stride, self.offset
        rows = self.rows(numbers).reshape(-1, stride)
        misses = np.arange(told + 1).repeat(faces.size)
        face = np.tile(np.arange(faces.size), told + 1)

        def row_at(space: Array) -> Array:
            spot = np.minimum(space, finish)
            return (2 * (space + 1) + numbers.mud[spot] + off) * stride

        ends = [np.zeros(keys, dtype=np.int64), np.full(keys, -1, dtype=np.int64)]
        for state in range(2, self.zone.shape[0]):
            space, stuck = state // 2 - 1, state % 2
            for spaces in range(1, self.most + 1):
                then = int(rows[state + off, spaces])
                if then >= 0:
                    continue
                never = stuck and not numbers.mud[min(space, finish)]  # a state never reached
                if never or (not stuck and then == NEEDS_DICE):  # or a landing past the table
                    rows[state + off, spaces] = ~keys
                    continue
                accelerator = NEEDS_DICE - 1 - then  # where a horse not stuck lands
                land = space + spaces - misses if stuck else np.full(misses.size, accelerator)
                free = misses < spaces if stuck else np.ones(misses.size, dtype=bool)
                land = np.where(free, land, space)
                bonus = free & (numbers.accel[np.minimum(land, finish)] > 0)
                end = land + np.where(bonus, faces[face], 0)
                row = np.where(free, row_at(end), (state + off) * stride)
                row[(land > self.last) | (~free & (misses == told) & (spaces > told))] = -1
                rows[state + off, spaces] = ~(len(ends) * keys)
                ends.append(np.append(row, -1))
                if len(ends) * keys > MAX_DRAWS:
                    return None
        drawn = np.array([tries, mud, outcomes, told, keys], dtype=np.int64)
        return rows.ravel(), np.concatenate(ends), drawn
