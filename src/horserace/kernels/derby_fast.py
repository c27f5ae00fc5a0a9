"""Derby races in bulk: the race kernel's races, the same dice and the same results, faster.

`derby_race.race` is the reference: it reads a tape of the engine's outcomes as readily as its
own streams, so every branch of its turn asks which. This loop serves the streams alone. A
horse is one number, its state (2 x (space + 1) + 1 if stuck; 0 for a horse that no longer
moves: not running, or its place decided), kept as the start of its row in a table built once
per track: the row gives the state (row) a movement of k spaces leads to, mud and all, and the
zone's value. A turn is then six look-ups and six stores. The turns' dice are decoded ahead, 32
words of the d20 stream at a time, in a loop without branches that the compiler vectorises.
A movement that needs dice (a horse in the mud called to move, a landing on an accelerator)
is one draw of the second stream (`derby_race.roll_dice`); those draws are decoded ahead too,
into keys, and the table points such a movement at a row of `ends` that the next key indexes.
Every movement reads the next key and takes it only if it needs dice, with no branch: which
movements need dice is the dice's choice, a branch the processor could not foresee (about 32 a
race). Dice a key cannot settle (rare) send the turn back to its start, to be played again one
die at a time. The spaces of the horses on or past the line are written out only on a turn
that someone finished, and only they are ranked. The whole run is one function: a call that
passes arrays costs about as much as a turn. Dice come from both streams in exactly `race`'s
order, so race i of a run is the same race on either kernel (tested race by race). A race
that starts in the middle of a turn finishes that turn on `race`, and so does a tie that runs
on past the table's last space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from horserace.families.derby.rules.race import PODIUM, TURN_DICE
from horserace.families.derby.rules.track import DerbyTrack
from horserace.kernels import Array, Word
from horserace.kernels import derby_state as rows
from horserace.kernels.derby_race import (
    MAX_TURNS,
    NO_TAPE,
    dice_draw,
    race,
    roll_dice,
    run_reference,
    scratch_runners,
    workspace,
)
from horserace.kernels.derby_state import FIELD, RaceSample, RaceStart, TrackNumbers
from horserace.kernels.rng import game_state, mix64

TURN_CODES = FIELD**TURN_DICE  # the six d20s of a turn as one number
_GOLDEN, _LOW32 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xFFFFFFFF)  # as in rng.py
_FLOOR = np.uint64((1 << 32) % TURN_CODES)  # `bounded` rejects a word whose low part is below
BLOCK = 32  # turns decoded at a time
# rows of the decoded turns: the dice, each die's movement (zone dice: the count before the
# zone's value), whether the word is a turn
A, B, C, D, E, F, MA, MB, MC, MD, ME, MF, OK = range(13)
TURN_ROWS = 13
OUT = 0  # the state of a horse that no longer moves
NEEDS_DICE = -1
DICE_BLOCK = 32  # draws of the second stream decoded at a time
_TWO32 = np.uint64(1 << 32)
_SPENT = np.uint64(0x9E3779B97F4A7C15 * DICE_BLOCK % (1 << 64))  # a block of the stream
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


@njit(cache=True)
def exact(z: Word, now: Word, spaces: Word, shift: Word, off: Word, track) -> tuple[Word, Word]:  # type: ignore[no-untyped-def]
    """A movement whose dice the keys leave open, rolled by `roll_dice` from the stream state
    `z`: (the stream, the row it ends on). A function of its own, out of the loop's way."""
    finish, _, mud, accel, faces, shoe, blank = track
    state = (now >> shift) - off
    space, stuck = state // 2 - 1, state % 2
    land = space + spaces
    if stuck or accel[min(land, finish)]:
        draw = dice_draw(shoe, blank, faces.shape[0])
        z, moved, face = roll_dice(z, shoe, blank, draw, spaces * stuck)
        if stuck:
            if moved == 0:
                return z, now
            land = space + moved
        if accel[min(land, finish)]:
            land += faces[face]
    return z, (2 * (land + 1) + mud[min(land, finish)] + off) << shift


@njit(cache=True, nogil=True)  # other threads (a server's event loop) run meanwhile
def run_fast(  # type: ignore[no-untyped-def]
    horses, pending, scratches, track, table, ends, draws, shift, off, safe, base, first, podium,
    turns,
):  # fmt: skip
    """Races first.. of the run seeded `base`, into podium (races x 3) and turns: the same
    races as `derby_race._run`. (`table`, `ends`, `draws`) is `MoveTable.dice()`, the table's
    stride 1 << shift and its states numbered from `off` on (`MoveTable.offset`)."""
    finish, _, _, _, faces, shoe, blank = track
    at = np.zeros(1, dtype=np.int64)
    w, moves = workspace(pending, finish)
    pos, stuck, runner = w[rows.POS], w[rows.STUCK], w[rows.RUNNER]
    rank, settled, ids, base_row = w[rows.RANK], w[rows.SETTLED], w[rows.IDS], w[rows.BASE]
    s = np.zeros(FIELD + 1, dtype=np.int64)
    near = np.zeros(FIELD, dtype=np.int64)  # the horses on or past the line, not yet placed
    zone_at = (1 << shift) - 1
    line, top = (2 * (finish + 1) + off) << shift, (2 * (safe + 1) + off) << shift
    mid_turn = pending[0] > 0

    def at_row(state: Word) -> Word:
        return (state + off) << shift

    keys = np.zeros(DICE_BLOCK + 1, dtype=np.int64)  # the second stream's next draws, decoded
    rest = np.zeros(DICE_BLOCK, dtype=np.uint64)
    n_faces, tries, told, last_key = faces.shape[0], draws[TRIES], draws[TOLD], draws[KEYS] - 1
    keys[DICE_BLOCK] = last_key  # the key of a spent block: the movement's dice by `exact`
    mud_part, outcomes = np.uint64(draws[MUD]), np.uint64(draws[OUTCOMES])
    below = _TWO32 % outcomes  # `bounded` rejects a word whose low part is below
    halves = shoe == 1 and blank == 1  # then the misses are the draw's leading zero bits
    bounds = np.zeros(tries, dtype=np.uint64)  # at least m + 1 misses below bounds[m]
    bound = draws[MUD]
    for m in range(tries):
        bound = bound // (shoe + blank) * blank
        bounds[m] = bound

    def fill_dice(before: Word) -> None:
        """The keys of the next DICE_BLOCK draws of the second stream, whose state is `before`:
        `roll_dice`'s face and misses (up to `told`), read from the top of each word as `fill`
        reads the d20s, in loops with no branch; a word `bounded` would reject gets the key that
        sends the movement to `exact`."""
        for t in range(DICE_BLOCK):
            x = mix64(before + _GOLDEN * np.uint64(t + 1)) >> np.uint64(32)
            y = x * np.uint64(n_faces)
            rejected = np.int64(((x * outcomes) & _LOW32) < below)
            keys[t] = np.int64(y >> np.uint64(32)) - (rejected << 40)
            rest[t] = ((y & _LOW32) * mud_part) >> np.uint64(32)
        if halves:
            for t in range(DICE_BLOCK):
                lz = leading_zeros(rest[t]) + np.uint64(tries - 64)  # type: ignore[call-arg]
                keys[t] += np.int64(min(lz, np.uint64(told))) * n_faces
        else:
            for t in range(DICE_BLOCK):
                misses = 0
                for m in range(told):
                    misses += rest[t] < bounds[m]
                keys[t] += misses * n_faces
        for t in range(DICE_BLOCK):
            keys[t] = last_key if keys[t] < 0 else keys[t]

    def move(h: Word, spaces: Word, used: Word, rows_or: Word) -> tuple[Word, Word, Word]:
        """One of the turn's six movements (0 spaces: none); returns the draws used of the
        block, `rows_or` ORed with the row it ends on (negative: dice the keys left open) and
        the row it started on. A movement that needs dice reads the next key, with no branch:
        the processor cannot foresee which movements those are. Dice that the keys leave open
        (rare) leave the horse where it was, and the turn is played again by `exact`. A closure:
        numba inlines it, arrays and all, where a call of a function that passes arrays would
        cost about a turn."""
        now = s[np.uint64(h)]
        then = table[np.uint64(now + spaces)]
        dice = then >> 63  # all ones when the movement needs dice
        key = keys[np.uint64(used)]
        used -= dice
        then = (then & ~dice) | ends[np.uint64((~then + key) & dice)]
        s[np.uint64(h)] = now if then < 0 else then
        return used, rows_or | then, now

    turn = np.zeros((TURN_ROWS, BLOCK), dtype=np.int64)

    def fill(before: Word) -> None:
        """The turns of the next BLOCK words of the d20 stream, whose state is `before`: each
        word's six dice and movements, and whether the word is a turn at all (a bounded draw
        rejects a few words). One loop with no branch, which the compiler vectorises; the
        digits are `bounded`'s code in base 20, read from the top by multiplying the word."""
        for t in range(BLOCK):
            x = mix64(before + _GOLDEN * np.uint64(t + 1)) >> np.uint64(32)
            turn[OK, t] = ((x * np.uint64(TURN_CODES)) & _LOW32) >= _FLOOR
            x *= np.uint64(FIELD)
            die_f = np.int64(x >> np.uint64(32)) + 1
            x = (x & _LOW32) * np.uint64(FIELD)
            die_e = np.int64(x >> np.uint64(32)) + 1
            x = (x & _LOW32) * np.uint64(FIELD)
            die_d = np.int64(x >> np.uint64(32)) + 1
            x = (x & _LOW32) * np.uint64(FIELD)
            die_c = np.int64(x >> np.uint64(32)) + 1
            x = (x & _LOW32) * np.uint64(FIELD)
            die_b = np.int64(x >> np.uint64(32)) + 1
            x = (x & _LOW32) * np.uint64(FIELD)
            die_a = np.int64(x >> np.uint64(32)) + 1
            turn[A, t], turn[B, t], turn[C, t] = die_a, die_b, die_c
            turn[D, t], turn[E, t], turn[F, t] = die_d, die_e, die_f
            # a double is one movement of 2; a zone die counts the dice showing its horse at
            # its first showing (0 afterwards), times the zone at the turn's start
            turn[MA, t], turn[MB, t] = 1 + (die_a == die_b), die_a != die_b
            turn[MC, t] = 1 + (die_c == die_d) + (die_c == die_e) + (die_c == die_f)
            turn[MD, t] = (die_d != die_c) * (1 + (die_d == die_e) + (die_d == die_f))
            turn[ME, t] = (die_e != die_c) * (die_e != die_d) * (1 + (die_e == die_f))
            turn[MF, t] = (die_f != die_c) * (die_f != die_d) * (die_f != die_e)

    for row in range(turns.shape[0]):
        index = first + row
        z_d20 = game_state(base, 2 * index)
        z = game_state(base, 2 * index + 1)
        played = 0
        if mid_turn:  # the start and the turn under way, on the reference
            _, played, z_d20, z = race(
                horses, pending, scratches, track, z_d20, z, NO_TAPE, at, w, moves, 1
            )
        else:  # the horses' rows, then a uniform choice of the runners scratched, as `race`
            runners = 0
            w[: rows.SETTLED + 1, : FIELD + 1] = horses[: rows.SETTLED + 1]
            for h in range(1, FIELD + 1):
                runners += runner[h]
            z = scratch_runners(z, runner, runners, scratches)
        zb, used = z - _SPENT, DICE_BLOCK  # the second stream: a spent block, then `used` draws
        field, ranked, tied = 0, 0, False
        for h in range(1, FIELD + 1):
            s[h] = OUT
            if runner[h]:
                ids[field] = h
                field += 1
                ranked += rank[h] > 0
                if not settled[h]:
                    s[h] = at_row(2 * (pos[h] + 1) + stuck[h])
                    tied = tied or rank[h] > 0
        needed = min(PODIUM, field)
        placed = 0
        for i in range(field):
            placed += settled[ids[i]] and 0 < rank[ids[i]] <= needed
        # at the start and while a tie runs on: a horse past the table's end, or at the start
        # one on or past the line with no place yet (only a made-up state has one), sends the
        # race to the reference, so that every horse there is placed or in a tie
        checking, beyond = True, False
        block, word = (
            z_d20 - _GOLDEN * np.uint64(BLOCK),
            np.uint64(BLOCK),
        )  # the stream: block + word
        while placed < needed and played < MAX_TURNS:
            if checking:
                for i in range(field):
                    far = s[ids[i]] > top or (s[ids[i]] >= line and rank[ids[i]] == 0)
                    beyond = beyond or far
                if beyond:
                    break
                checking = False
            if word == np.uint64(BLOCK):  # the next block of turns
                block += _GOLDEN * np.uint64(BLOCK)
                fill(block)
                word = np.uint64(0)
            if not turn[OK, word]:  # a draw rejected: the stream's next word (rare)
                word += np.uint64(1)
                continue
            if used > DICE_BLOCK - TURN_DICE:  # the next block of draws
                zb += _GOLDEN * np.uint64(used)
                fill_dice(zb)
                used = 0
            a, b, c, d, e, f = (
                turn[A, word],
                turn[B, word],
                turn[C, word],
                turn[D, word],
                turn[E, word],
                turn[F, word],
            )
            zc = turn[MC, word] * table[np.uint64(s[np.uint64(c)] + zone_at)]
            zd = turn[MD, word] * table[np.uint64(s[np.uint64(d)] + zone_at)]
            ze = turn[ME, word] * table[np.uint64(s[np.uint64(e)] + zone_at)]
            zf = turn[MF, word] * table[np.uint64(s[np.uint64(f)] + zone_at)]
            before = used
            used, rows_or, now_a = move(a, turn[MA, word], used, 0)
            used, rows_or, now_b = move(b, turn[MB, word], used, rows_or)
            used, rows_or, now_c = move(c, zc, used, rows_or)
            used, rows_or, now_d = move(d, zd, used, rows_or)
            used, rows_or, now_e = move(e, ze, used, rows_or)
            used, rows_or, now_f = move(f, zf, used, rows_or)
            # a row on or past the line (a horse there that did not move is in a tie), or dice
            # left open (a negative row): `line` is a power of two, so the ORed rows tell
            crossed = bool(tied | (np.uint64(rows_or) >= np.uint64(line)))  # ties: every turn
            if rows_or < 0:  # the turn again from its start, its dice by `exact`
                s[f], s[e], s[d], s[c], s[b], s[a] = now_f, now_e, now_d, now_c, now_b, now_a
                z, crossed = zb + _GOLDEN * np.uint64(before), tied
                for h, spaces in (
                    (a, turn[MA, word]),
                    (b, turn[MB, word]),
                    (c, zc),
                    (d, zd),
                    (e, ze),
                    (f, zf),
                ):
                    then = table[np.uint64(s[h] + spaces)]
                    if then < 0:
                        z, then = exact(z, s[h], spaces, shift, off, track)
                    s[h] = then
                    crossed = crossed or then >= line
                zb, used = z - _SPENT, DICE_BLOCK  # a new block at the next turn
            word += np.uint64(1)
            played += 1
            if not crossed:
                continue
            # the finish: new finishers rank after every horse ranked before, ties by space
            count, fresh = 0, 0
            for i in range(field):
                h = ids[i]
                if s[h] >= line:
                    near[count] = h
                    count += 1
                    state = (s[h] >> shift) - off
                    pos[h], stuck[h] = state // 2 - 1, state % 2
                    base_row[h] = rank[h] if rank[h] else ranked + 1
                    fresh += rank[h] == 0
            ranked += fresh
            tied = False
            for j in range(count):
                h = near[j]
                ahead, level = 0, 0
                for k in range(count):
                    g = near[k]
                    if base_row[g] == base_row[h]:
                        ahead += pos[g] > pos[h]
                        level += pos[g] == pos[h]
                rank[h] = base_row[h] + ahead
                if level == 1:
                    settled[h], s[h] = 1, OUT
                    placed += rank[h] <= needed
                tied = tied or level > 1
            checking = tied
        z_d20 = block + _GOLDEN * word
        z = zb + _GOLDEN * np.uint64(used)
        if beyond:  # a long tie: on the reference from here
            for h in range(1, FIELD + 1):
                if s[h] != OUT:
                    state = (s[h] >> shift) - off
                    pos[h], stuck[h] = state // 2 - 1, state % 2
            start = w[: rows.SETTLED + 1, : FIELD + 1].copy()
            _, more, _, _ = race(
                start, np.zeros(rows.QUEUE, dtype=np.int64), 0, track, z_d20, z, NO_TAPE, at, w,
                moves, MAX_TURNS - played,
            )  # fmt: skip
            played += more
        turns[row] = played
        podium[row, :] = 0
        for i in range(field):
            h = ids[i]
            if settled[h] and rank[h] <= needed:
                podium[row, rank[h] - 1] = h


def run_races(
    start: RaceStart,
    track: DerbyTrack,
    base: int,
    first: int,
    count: int,
    *,
    scratches: int = 0,
    method: str = "fast",
) -> RaceSample:
    """Races first..first+count-1 of the run seeded `base` from `start` on `track`: the same
    races on this loop and on the reference kernel (`method="reference"`)."""
    if method == "reference":
        return run_reference(start, track, base, first, count, scratches=scratches)
    numbers = TrackNumbers.of(track)
    table = MoveTable.of(numbers)
    dice = table.dice(numbers)
    if dice is None:  # dice with so many outcomes that the table would not fit: the same races
        return run_reference(start, track, base, first, count, scratches=scratches)
    podium = np.zeros((count, PODIUM), dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    run_fast(
        start.horses, start.pending, np.int64(scratches), numbers.arrays(), *dice,
        np.int64(table.stride.bit_length() - 1), np.int64(table.offset), np.int64(table.safe),
        np.uint64(base),
        np.int64(first), podium, turns,
    )  # fmt: skip
    return RaceSample(podium, turns + start.turn, start.runners)
