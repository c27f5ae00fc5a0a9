"""Derby races in bulk: the race kernel's races, the same dice and the same results, faster.

`derby_race.race` is the reference: it reads a tape of the engine's outcomes as readily as its
own streams, so every branch of its turn asks which. This loop serves the streams alone. A
horse is one number, its state (2 x (space + 1) + 1 if stuck; 0 for a horse that no longer
moves: not running, or its place decided), kept as the start of its row in a table built once
per track (`derby_table.MoveTable`): the row gives the state (row) a movement of k spaces leads
to, mud and all, and the zone's value. A turn is then six look-ups and six stores. The turns'
dice are decoded ahead, BLOCK words of the d20 stream at a time, in a loop without branches
that the compiler vectorises. A movement that needs dice (a horse in the mud called to move, a
landing on an accelerator) is one draw of the second stream (`derby_race.roll_dice`); those
draws are decoded ahead too, into keys, and the table points such a movement at a row of
`ends` that the next key indexes. Every movement reads the next key and takes it only if it
needs dice, with no branch: which movements need dice is the dice's choice, a branch the
processor could not foresee (about 32 a race). Dice a key cannot settle (rare) send the turn
back to its start, to be played again one die at a time. Only a turn that someone finished
looks at places, and only at its movers and the horses in a tie. Races from the same start
reuse its rows. The loop allocates nothing and counts no references (numba's atomic counts
on the arrays its inlined helpers capture cost 1-3% of a race). Dice come from both
streams in exactly `race`'s order, so race i of a run is the same race on either kernel
(tested race by race). A race that starts in the middle of a turn finishes that turn on
`race`, and so does a tie that runs on past the table's last space.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from horserace.families.derby.rules.race import PODIUM, TURN_DICE
from horserace.families.derby.rules.track import DerbyTrack
from horserace.kernels import NO_REFCOUNTS, Array, Word
from horserace.kernels import derby_state as rows
from horserace.kernels.compiled import njit
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
from horserace.kernels.derby_table import KEYS, MUD, OUT, OUTCOMES, TOLD, TRIES, MoveTable
from horserace.kernels.rng import game_state, mix64

TURN_CODES = FIELD**TURN_DICE  # the six d20s of a turn as one number
_GOLDEN, _LOW32 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xFFFFFFFF)  # as in rng.py
_FLOOR = np.uint64((1 << 32) % TURN_CODES)  # `bounded` rejects a word whose low part is below
BLOCK = 20  # turns decoded at a time
# rows of the decoded turns: the dice, each die's movement (zone dice: the count before the
# zone's value), whether the word is a turn
A, B, C, D, E, F, MA, MB, MC, MD, ME, MF, OK = range(13)
TURN_ROWS = 13
DICE_BLOCK = 32  # draws of the second stream decoded at a time
_TWO32 = np.uint64(1 << 32)
_SPENT = np.uint64(0x9E3779B97F4A7C15 * DICE_BLOCK % (1 << 64))  # a block of the stream
# the rows of the loop's scratch space: the tape position, the horses' rows in the table, the
# horses on the line, the keys, the draws' mud parts, the mud bounds, a start with no turn under way
AT, STATES, NEAR, KEY_ROW, REST, BOUNDS, NO_PENDING, START_STATES, PODIUM_ROW = range(9)
SCRATCH_ROWS = 9


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
        z, moved, face = roll_dice(z, shoe, blank, draw, np.int64(spaces * stuck))
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
    stride 1 << shift and its states numbered from `off` on (`MoveTable.offset`). Allocates
    the loop's scratch space; the loop itself counts no references."""
    w, moves = workspace(pending, track[0])
    scratch = np.zeros((SCRATCH_ROWS, max(FIELD + 1, DICE_BLOCK + 1, draws[TRIES])), np.int64)
    _races(
        horses, pending, scratches, track, table, ends, draws, shift, off, safe, base, first,
        podium, turns, w, moves, scratch, np.zeros((TURN_ROWS, BLOCK), dtype=np.int64),
        np.zeros((rows.SETTLED + 1, FIELD + 1), dtype=np.int64),
    )  # fmt: skip


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _races(  # type: ignore[no-untyped-def]
    horses, pending, scratches, track, table, ends, draws, shift, off, safe, base, first, podium,
    turns, w, moves, scratch, turn, start,
):  # fmt: skip
    """`run_fast`'s races in the scratch space it allocates, compiled without reference
    counts (NO_REFCOUNTS): so nothing here allocates, and slices are copied by loops."""
    finish, _, _, _, faces, shoe, blank = track
    at = scratch[AT, :1]
    pos, stuck, runner = w[rows.POS], w[rows.STUCK], w[rows.RUNNER]
    rank, settled, ids, base_row = w[rows.RANK], w[rows.SETTLED], w[rows.IDS], w[rows.BASE]
    s = scratch[STATES, : FIELD + 1]
    near = scratch[NEAR, :FIELD]  # the horses on or past the line, not yet placed
    s0 = scratch[START_STATES, : FIELD + 1]  # the start's rows and podium, for the next race
    top3 = scratch[PODIUM_ROW, :PODIUM]
    zone_at = (1 << shift) - 1
    line, top = (2 * (finish + 1) + off) << shift, (2 * (safe + 1) + off) << shift
    mid_turn = pending[0] > 0

    def at_row(state: Word) -> Word:
        return (state + off) << shift

    def off_table(field: Word) -> bool:
        """Whether a horse is past the table's end, or on or past the line with no place yet
        (only a made-up start has one): such a race goes on on the reference, so that every
        horse there is placed or in a tie. Checked at the start and while a tie runs on."""
        far = False
        for i in range(field):
            far = far or s[ids[i]] > top or (s[ids[i]] >= line and rank[ids[i]] == 0)
        return far

    keys = scratch[KEY_ROW, : DICE_BLOCK + 1]  # the second stream's next draws, decoded
    rest = scratch[REST, :DICE_BLOCK].view(np.uint64)
    n_faces, tries, told, last_key = faces.shape[0], draws[TRIES], draws[TOLD], draws[KEYS] - 1
    keys[DICE_BLOCK] = last_key  # the key of a spent block: the movement's dice by `exact`
    mud_part, outcomes = np.uint64(draws[MUD]), np.uint64(draws[OUTCOMES])
    below = _TWO32 % outcomes  # `bounded` rejects a word whose low part is below
    halves = shoe == 1 and blank == 1  # then the misses are the draw's leading zero bits
    bounds = scratch[BOUNDS, :tries].view(np.uint64)  # at least m + 1 misses below bounds[m]
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
            _, played, z_d20, z = race(  # (int64 arguments: a literal compiles `race` anew)
                horses, pending, scratches, track, z_d20, z, NO_TAPE, at, w, moves, np.int64(1)
            )
        elif row == 0 or scratches:  # the horses' rows, then the runners scratched, as `race`
            runners = 0
            for h in range(1, FIELD + 1):
                for r in range(rows.SETTLED + 1):
                    w[r, h] = horses[r, h]
                runners += runner[h]
            z = scratch_runners(z, runner, runners, scratches)
        if mid_turn or scratches or row == 0:  # the start in the loop's terms
            field, ranked, waiting = 0, 0, 0  # waiting: the horses in a tie
            for place in range(PODIUM):
                top3[place] = 0
            for h in range(1, FIELD + 1):
                s[h] = OUT
                if runner[h]:
                    ids[field] = h
                    field += 1
                    ranked += rank[h] > 0
                    if not settled[h]:
                        s[h] = at_row(2 * (pos[h] + 1) + stuck[h])
                        waiting |= (rank[h] > 0) << h
            needed = min(PODIUM, field)
            placed = 0
            for i in range(field):
                h = ids[i]
                if settled[h] and 0 < rank[h] <= needed:
                    placed += 1
                    top3[rank[h] - 1] = h
            for h in range(FIELD + 1):
                s0[h] = s[h]
            ranked0, waiting0, placed0 = ranked, waiting, placed
            start_far = off_table(field)
        else:  # the same start as the last race: its places and rows again
            for i in range(field):
                h = ids[i]
                rank[h], settled[h] = horses[rows.RANK, h], horses[rows.SETTLED, h]
            for h in range(FIELD + 1):
                s[h] = s0[h]
            ranked, waiting, placed = ranked0, waiting0, placed0
        tied = waiting != 0
        for place in range(PODIUM):
            podium[row, place] = top3[place]
        zb, used = z - _SPENT, DICE_BLOCK  # the second stream: a spent block, then `used` draws
        beyond, checking = False, start_far  # checking: at a start off the table, in a tie
        block, word = (
            z_d20 - _GOLDEN * np.uint64(BLOCK),
            np.uint64(BLOCK),
        )  # the stream: block + word
        while placed < needed and played < MAX_TURNS:
            if checking:
                beyond, checking = off_table(field), False
                if beyond:
                    break
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
            # the finish: new finishers rank after every horse ranked before, ties by space.
            # The horses on or past the line are the ones in a tie and the turn's movers there
            near_mask = waiting
            for h in (a, b, c, d, e, f):
                near_mask |= np.int64(s[h] >= line) << h
            count, fresh = 0, 0
            while near_mask:
                h = trailing_zeros(near_mask)  # type: ignore[call-arg]
                near_mask &= near_mask - 1
                near[count] = h
                count += 1
                state = (s[h] >> shift) - off
                pos[h], stuck[h] = state // 2 - 1, state % 2
                base_row[h] = rank[h] if rank[h] else ranked + 1
                fresh += rank[h] == 0
            ranked += fresh
            waiting = 0
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
                    if rank[h] <= needed:
                        placed += 1
                        podium[row, rank[h] - 1] = h
                else:
                    waiting |= 1 << h
            tied = checking = waiting != 0
        z_d20 = block + _GOLDEN * word
        z = zb + _GOLDEN * np.uint64(used)
        if beyond:  # a long tie: on the reference from here
            for h in range(1, FIELD + 1):
                if s[h] != OUT:
                    state = (s[h] >> shift) - off
                    pos[h], stuck[h] = state // 2 - 1, state % 2
            for h in range(1, FIELD + 1):
                for r in range(rows.SETTLED + 1):
                    start[r, h] = w[r, h]
            _, more, _, _ = race(
                start, scratch[NO_PENDING, : rows.QUEUE], np.int64(0), track, z_d20, z, NO_TAPE,
                at, w, moves, MAX_TURNS - played,
            )  # fmt: skip
            played += more
            for place in range(PODIUM):
                podium[row, place] = 0
            for i in range(field):
                h = ids[i]
                if settled[h] and rank[h] <= needed:
                    podium[row, rank[h] - 1] = h
        turns[row] = played


@lru_cache(maxsize=16)
def tables(track: DerbyTrack) -> tuple[TrackNumbers, MoveTable, tuple[Array, Array, Array] | None]:
    """A track's numbers, move table and dice table (`MoveTable.dice`), built once per track:
    they take about 13 ms, and live odds ask for races in chunks of 50 ms. The loop only
    reads them."""
    numbers = TrackNumbers.of(track)
    table = MoveTable.of(numbers)
    return numbers, table, table.dice(numbers)


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
    numbers, table, dice = tables(track)
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
