"""Derby races compiled with numba: any track file, mud, accelerators, ties that run on.

A race here is the rules' race (`families/derby/rules/race.py`) die for die: six d20s a turn,
singles before zones (a double is one movement of 2, zone dice by the zone at the turn's start), a
horse in the mud tries once per space it was called to move and moves the rest on a
horseshoe, an accelerator's bonus on an exact landing (it never chains, it can end in the
mud), and at the turn's end the finishers rank after earlier ones, ties running on.

Chance comes from two SplitMix64 streams per race (the d20s, and the mud, accelerator and
scratch dice), so the same race on a track with its mud or accelerators paved over rolls the
same d20s; or, for the equality tests, from a tape of the outcomes in the engine's order
(a d20's face, 1/0 for a horseshoe or a splat, an accelerator's bonus). On the streams, a
movement that needs dice rolls them all in one draw (`roll_dice`): the accelerator die and up to
`tries` mud tries, so the fast loop can decode the draws ahead and take no branch on them.
"""

from __future__ import annotations

import numpy as np

from horserace.families.derby.rules.race import PODIUM, TURN_DICE
from horserace.families.derby.rules.track import DerbyTrack
from horserace.kernels import Array, Word
from horserace.kernels.compiled import njit
from horserace.kernels.derby_state import (
    ACCEL,
    ACTIVE,
    BASE,
    DICE,
    DICE_DOWN,
    DICE_ROW,
    EVENT,
    FIELD,
    IDS,
    MUD_ATTEMPT,
    MUD_HORSE,
    MUD_SPACES,
    POS,
    QUEUE,
    QUEUED,
    RANK,
    ROWS,
    RUNNER,
    SETTLED,
    STUCK,
    RaceSample,
    RaceStart,
    TrackNumbers,
    race_start,
)
from horserace.kernels.rng import bounded, game_state, read_tape, tape_array

__all__ = ["RaceSample", "RaceStart", "TrackNumbers", "race_start", "replay_tape", "run_reference"]

MAX_TURNS = 100_000
NO_TAPE = np.zeros(0, dtype=np.int64)
MAX_TRIES, DRAW_SPAN = 16, 1 << 24  # the mud tries one draw covers, and its outcomes at most


@njit(cache=True)
def dice_draw(shoe: Word, blank: Word, faces: Word) -> tuple[Word, Word, Word]:
    """(tries, mud outcomes, all outcomes) of one draw for a movement that needs dice: the
    accelerator die's faces times the (shoe + blank) ** tries sequences of that many mud tries,
    as many tries as keep the draw within DRAW_SPAN outcomes (at least one: dice have at most
    100 faces)."""
    tries, mud = 0, 1
    while tries < MAX_TRIES and faces * mud * (shoe + blank) <= DRAW_SPAN:
        tries += 1
        mud *= shoe + blank
    return tries, mud, faces * mud


@njit(cache=True, inline="always")
def misses_of(rest: Word, shoe: Word, blank: Word, mud: Word, tries: Word) -> Word:
    """The splats before the first horseshoe in a draw's mud part `rest` (uniform below `mud`),
    at most `tries`: at least m of them when rest < blank**m * (shoe + blank)**(tries - m),
    which has exactly the chance (blank / (shoe + blank))**m of m splats in a row."""
    misses, bound = 0, mud
    for _ in range(tries):
        bound = bound // (shoe + blank) * blank
        if rest >= bound:
            break
        misses += 1
    return misses


@njit(cache=True)
def roll_dice(
    z: Word, shoe: Word, blank: Word, draw: tuple[Word, Word, Word], called: Word
) -> tuple[Word, Word, Word]:
    """The dice of one movement from the stream `z`: (the stream, the spaces moved out of the
    mud, the accelerator die's face index). A horse in the mud called `called` spaces tries once
    a space and moves the rest on its first horseshoe (0 spaces: still stuck); a horse that is
    not stuck passes called = 0 and reads the face alone. One draw (`draw` is `dice_draw`'s)
    covers the face and `tries` tries; a horse called further that splats on all of them draws
    again for the rest."""
    tries, mud, outcomes = draw
    while True:
        z, code = bounded(z, np.int64(outcomes))
        face, misses = code // mud, misses_of(code % mud, shoe, blank, mud, tries)
        if misses < called:
            return z, called - misses, face
        if called <= tries:
            return z, 0, face
        called -= tries


@njit(cache=True)
def workspace(pending: Array, finish: Word) -> tuple[Array, Array]:
    """Scratch space for `race`: the horses' rows, the runners' numbers and the dice; the
    turn's movements."""
    return (
        np.zeros((ROWS, max(FIELD, finish) + 1), dtype=np.int64),
        np.zeros((TURN_DICE + 2 + pending[QUEUED], 3), dtype=np.int64),
    )


@njit(cache=True)
def _finish_check(w: Array, ids: Array, count: Word, finish: Word) -> bool:
    """Rank the turn's finishers after earlier ones and split ties by position (in place);
    returns whether a tie is still running on. Only the `count` runners in `ids` are read."""
    pos, rank, settled, base_row = w[POS], w[RANK], w[SETTLED], w[BASE]
    done = 0
    for i in range(count):
        done += rank[ids[i]] > 0
    for i in range(count):
        h = ids[i]
        base_row[h] = 0
        if rank[h] > 0 and not settled[h]:
            base_row[h] = rank[h]
        elif rank[h] == 0 and pos[h] >= finish:
            base_row[h] = done + 1
    tied = False
    for i in range(count):
        h = ids[i]
        base = base_row[h]
        if base == 0:
            continue
        ahead, level = 0, 0
        for j in range(count):
            g = ids[j]
            if base_row[g] == base:
                ahead += pos[g] > pos[h]
                level += pos[g] == pos[h]
        rank[h] = base + ahead
        settled[h] = level == 1
        tied = tied or level > 1
    return tied


@njit(cache=True)
def _over(w: Array, ids: Array, count: Word, needed: Word) -> bool:
    """Whether places 1..needed all belong to a settled horse (settled ranks are distinct)."""
    found: int = 0
    for i in range(count):
        h = ids[i]
        found += w[SETTLED, h] == 1 and 0 < w[RANK, h] <= needed
    return bool(found >= needed)


@njit(cache=True, inline="always")
def scratch_runners(z: Word, runner: Array, runners: Word, scratches: Word) -> Word:
    """A uniform choice of `scratches` of the `runners` horses marked in `runner`, unmarked one
    by one; returns the stream's state."""
    for out in range(scratches):
        z, pick = bounded(z, np.int64(runners - out))
        for h in range(1, FIELD + 1):
            if runner[h]:
                if pick == 0:
                    runner[h] = 0
                    break
                pick -= 1
    return z


@njit(cache=True)
def race(  # type: ignore[no-untyped-def]
    horses, pending, scratches, track, z_d20, z, tape, at, w, moves, limit
):
    """A race from the start state into `w`, at most `limit` turns (a turn under way counts as
    one); returns (podium horses as one number base 32, turns played, both streams' states).
    With a tape, both streams are ignored and every outcome comes from it.

    `w` and `moves` come from `workspace(pending, finish)`. The movements of a turn are rows
    (horse, spaces, first mud try) of `moves`; a row with spaces -1 is an accelerator roll
    under way. A turn writes all six dice's movements, 0 spaces for a die that moves nobody
    (a horse not running or already placed, a zone die seen earlier in the turn), and a
    movement that meets nothing (no mud to leave; no mud, accelerator or finish where it lands,
    marked in the EVENT row) is one addition: the common turn takes no branch that the dice
    decide. Everything is in this one body: a call that passes arrays costs more than a whole
    turn. `track` is `TrackNumbers.arrays()`. It allocates nothing (copies are loops): the fast
    loop, compiled without reference counts, calls it, and numba compiles a callee with its
    caller's settings when it has no version yet."""
    finish, zone, mud, accel, faces, shoe, blank = track
    taped = tape.shape[0] > 0
    draw = dice_draw(shoe, blank, faces.shape[0])
    event = w[EVENT]
    for spot in range(finish + 1):
        event[spot] = spot == finish or mud[spot] or accel[spot]
    moves[:, 2] = 1
    for row in range(5):  # loops, not slices: a slice copy may allocate (see `race`'s doc)
        for h in range(FIELD + 1):
            w[row, h] = horses[row, h]
    pos, stuck, runner, rank, settled = w[POS], w[STUCK], w[RUNNER], w[RANK], w[SETTLED]
    active, ids, dice = w[ACTIVE], w[IDS], w[DICE_ROW]
    runners = 0
    for h in range(1, FIELD + 1):
        runners += runner[h]
    z = scratch_runners(z, runner, runners, scratches)
    count = 0
    for h in range(1, FIELD + 1):
        active[h] = runner[h] and not settled[h]
        if runner[h]:
            ids[count] = h
            count += 1
    field = count
    needed = min(PODIUM, runners - scratches)
    down = pending[DICE_DOWN]
    for j in range(down):
        dice[j] = pending[DICE + j]
    count = 0
    if down == TURN_DICE:  # the turn is being resolved: finish what is under way
        if pending[MUD_HORSE]:
            moves[0, 0], moves[0, 1] = pending[MUD_HORSE], pending[MUD_SPACES]
            moves[0, 2] = pending[MUD_ATTEMPT]
            count = 1
        elif pending[ACCEL]:
            moves[0, 0], moves[0, 1], count = pending[ACCEL], -1, 1
        for index in range(pending[QUEUED]):
            moves[count, 0] = pending[QUEUE + 2 * index]
            moves[count, 1], moves[count, 2] = pending[QUEUE + 2 * index + 1], 1
            count += 1
    tied = False
    for h in range(1, FIELD + 1):
        tied = tied or (rank[h] > 0 and settled[h] == 0)
    resolving = down == TURN_DICE
    if resolving:
        down = 0
    over = _over(w, ids, np.int64(field), needed)
    turns = 0
    while not over and turns < limit:
        if not resolving:
            # the six d20s, then the movements they call, singles first
            if taped or down:
                for j in range(down, TURN_DICE):
                    if taped:
                        dice[j] = read_tape(tape, at)
                    else:
                        z_d20, face = bounded(z_d20, np.int64(FIELD))
                        dice[j] = face + 1
                down = 0
                a, b, c, d, e, f = dice[0], dice[1], dice[2], dice[3], dice[4], dice[5]
            else:  # one uniform draw of the 20**6 equally likely turns
                z_d20, code = bounded(z_d20, FIELD**TURN_DICE)
                a, b, c = code % FIELD + 1, code // FIELD % FIELD + 1, code // 400 % FIELD + 1
                d, e, f = (
                    code // 8000 % FIELD + 1,
                    code // 160_000 % FIELD + 1,
                    code // 3_200_000 + 1,
                )
            # a double is one movement of 2; a zone die moves its horse at its first showing,
            # by the zone at the turn's start times the dice showing it
            moves[0, 0], moves[0, 1] = a, active[a] * (1 + (a == b))
            moves[1, 0], moves[1, 1] = b, active[b] * (a != b)
            moves[2, 0], moves[2, 1] = (
                c,
                active[c] * (1 + (c == d) + (c == e) + (c == f)) * zone[min(pos[c], finish)],
            )
            moves[3, 0], moves[3, 1] = (
                d,
                active[d] * (d != c) * (1 + (d == e) + (d == f)) * zone[min(pos[d], finish)],
            )
            moves[4, 0], moves[4, 1] = (
                e,
                active[e] * (e != c) * (e != d) * (1 + (e == f)) * zone[min(pos[e], finish)],
            )
            moves[5, 0], moves[5, 1] = (
                f,
                active[f] * (f != c) * (f != d) * (f != e) * zone[min(pos[f], finish)],
            )
            count = TURN_DICE
        crossed = tied or resolving  # a turn under way may have had its finishers already
        under_way, resolving = resolving, False
        for index in range(count):
            h, spaces = moves[index, 0], moves[index, 1]
            if ((stuck[h] | event[min(pos[h] + spaces, finish)]) != 0) & (spaces > 0) | (
                spaces < 0
            ):
                bonus_allowed = True
                face = -1  # the accelerator die's face rolled with the mud tries, if any
                if spaces < 0:  # the accelerator roll under way: its bonus never chains
                    bonus_allowed = False
                    if taped:
                        spaces = read_tape(tape, at)
                    else:
                        z, _, face = roll_dice(z, shoe, blank, draw, np.int64(0))
                        spaces = faces[face]
                elif stuck[h]:  # one try per space called; a horseshoe on try i moves the rest
                    called, spaces = spaces, 0
                    if taped:
                        for attempt in range(moves[index, 2], called + 1):
                            if read_tape(tape, at) == 1:
                                stuck[h] = 0
                                spaces = called - attempt + 1
                                break
                    else:  # the tries that remain (from the one under way), in one draw
                        left = called - moves[index, 2] + 1
                        z, spaces, face = roll_dice(z, shoe, blank, draw, np.int64(left))
                        stuck[h] = spaces == 0
                if spaces > 0:
                    pos[h] += spaces
                    spot = min(pos[h], finish)
                    if mud[spot]:
                        stuck[h] = 1
                    elif bonus_allowed and accel[spot]:
                        if taped:
                            pos[h] += read_tape(tape, at)
                        else:
                            if face < 0:
                                z, _, face = roll_dice(z, shoe, blank, draw, np.int64(0))
                            pos[h] += faces[face]
                        if mud[min(pos[h], finish)]:
                            stuck[h] = 1
                    crossed = crossed or (pos[h] >= finish and rank[h] == 0)
            else:
                pos[h] += spaces
        if under_way:  # from now on every movement starts with its first mud try
            moves[:, 2] = 1
        if crossed:
            tied = _finish_check(w, ids, np.int64(field), finish)
            over = _over(w, ids, np.int64(field), needed)
            for i in range(field):
                active[ids[i]] = not settled[ids[i]]
        turns += 1
    podium = 0
    for place in range(needed, 0, -1):
        for i in range(field):
            h = ids[i]
            if settled[h] and rank[h] == place:
                podium = podium * 32 + h
    return podium, turns, z_d20, z


@njit(cache=True, nogil=True)  # other threads (a server's event loop) run meanwhile
def _run(horses, pending, scratches, track, base, first, podium, turns):  # type: ignore[no-untyped-def]
    """Races first.. of the run seeded `base`, into podium (races x 3) and turns."""
    at = np.zeros(1, dtype=np.int64)
    w, moves = workspace(pending, track[0])
    for row in range(turns.shape[0]):
        index = first + row
        z_d20 = game_state(base, 2 * index)
        z = game_state(base, 2 * index + 1)
        code, turns[row], _, _ = race(  # np.int64: a literal would compile `race` once more
            horses, pending, scratches, track, z_d20, z, NO_TAPE, at, w, moves, np.int64(MAX_TURNS)
        )
        for place in range(PODIUM):
            podium[row, place] = code % 32
            code //= 32


def run_reference(
    start: RaceStart, track: DerbyTrack, base: int, first: int, count: int, *, scratches: int = 0
) -> RaceSample:
    """Races first..first+count-1 of the run seeded `base` from `start` on `track`, on `race`
    (`derby_fast.run_races` plays the same races faster)."""
    podium = np.zeros((count, PODIUM), dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    arrays = TrackNumbers.of(track).arrays()
    _run(start.horses, start.pending, np.int64(scratches), arrays, np.uint64(base),
         np.int64(first), podium, turns)  # fmt: skip
    return RaceSample(podium, turns + start.turn, start.runners)


def replay_tape(
    start: RaceStart, track: DerbyTrack, tape: list[int]
) -> tuple[list[int], int, Array, int]:
    """One race on a tape of outcomes in the engine's order: (podium, turns, final positions
    per horse 1..20, tape entries used)."""
    numbers = TrackNumbers.of(track)
    at = np.zeros(1, dtype=np.int64)
    w, moves = workspace(start.pending, numbers.finish)
    code, turns, _, _ = race(
        start.horses, start.pending, np.int64(0), numbers.arrays(), np.uint64(0), np.uint64(0),
        tape_array(tape), at, w, moves, MAX_TURNS,
    )  # fmt: skip
    podium = []
    while code:
        podium.append(int(code % 32))
        code //= 32
    return podium, int(turns) + start.turn, w[POS, 1 : FIELD + 1].copy(), int(at[0])
