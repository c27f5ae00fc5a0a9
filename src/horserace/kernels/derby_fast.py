"""Derby races in bulk: the race kernel's races, the same dice and the same results, faster.

`derby_race.race` is the reference: it reads a tape of the engine's outcomes as readily as its
own streams, so every branch of its turn asks which. This loop serves the streams alone. A
horse is one number, its state (2 x (space + 1) + 1 if stuck; 0 for a horse that no longer
moves: not running, or its place decided), and a table built once per track gives the state a
movement of k spaces leads to, mud and all, or -1 when the movement needs dice (a horse in the
mud, a landing on an accelerator). A turn is then six look-ups and six stores; the horses'
spaces are written out only on a turn that someone finished. Dice come from both streams in
exactly `race`'s order, so race i of a run is the same race on either kernel (tested race by
race). A race that starts in the middle of a turn finishes that turn on `race`, and so does a
tie that runs on past the table's last space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from horserace.families.derby.rules.race import PODIUM, TURN_DICE
from horserace.kernels import Array, Word
from horserace.kernels.derby_race import (
    IDS,
    MAX_TURNS,
    NO_TAPE,
    POS,
    RANK,
    RUNNER,
    SETTLED,
    SIDES,
    STUCK,
    TrackNumbers,
    _finish_check,
    _over,
    race,
    workspace,
)
from horserace.kernels.rng import bounded, game_state

TURN_CODES = SIDES**TURN_DICE  # the six d20s of a turn as one number
OUT = 0  # the state of a horse that no longer moves
NEEDS_DICE = -1


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


@njit(cache=True)
def _start(w: Array, horses: Array, scratches: Word, z: Word) -> Word:
    """The horses' rows into `w`, then a uniform choice of the runners scratched (as `race`
    does it, from the second stream); returns that stream's state."""
    runners = 0
    for h in range(1, SIDES + 1):
        for row in range(RANK + 2):  # position, stuck, runner, rank, settled
            w[row, h] = horses[row, h]
        runners += horses[RUNNER, h]
    for out in range(scratches):
        z, pick = bounded(z, runners - out)
        for h in range(1, SIDES + 1):
            if w[RUNNER, h]:
                if pick == 0:
                    w[RUNNER, h] = 0
                    break
                pick -= 1
    return z


@njit(cache=True)
def _write_out(w: Array, s: Array) -> None:
    """The horses' spaces and mud into `w` from their states (a horse out keeps its last)."""
    for h in range(1, SIDES + 1):
        if s[h] != OUT:
            w[POS, h], w[STUCK, h] = s[h] // 2 - 1, s[h] % 2


@njit(cache=True)
def _turns(  # type: ignore[no-untyped-def]
    w,
    s,
    field,
    needed,
    finish,
    mud,
    accel,
    faces,
    shoe,
    blank,
    nxt,
    zone,
    width,
    safe,
    z_d20,
    z,
    turns,
):
    """Whole turns from a turn's start (states in `s`, the rest in `w`) until the podium is
    decided or a tie runs past `safe`; returns (over, turns played in all, both streams)."""
    ids, rank, settled = w[IDS], w[RANK], w[SETTLED]
    line = 2 * (finish + 1)  # states from here on are on or past the finish
    tied = False
    for i in range(field):
        h = ids[i]
        tied = tied or (rank[h] > 0 and settled[h] == 0)
    over = _over(w, ids, field, needed)
    checking = True  # at the start and while a tie runs on: is every horse within the table?
    while not over and turns < MAX_TURNS:
        if checking:
            for i in range(field):
                if s[ids[i]] > 2 * (safe + 1):
                    return False, turns, z_d20, z
            checking = False
        z_d20, code = bounded(z_d20, TURN_CODES)
        a, b, c = code % SIDES + 1, code // SIDES % SIDES + 1, code // 400 % SIDES + 1
        d, e, f = code // 8000 % SIDES + 1, code // 160_000 % SIDES + 1, code // 3_200_000 + 1
        # a double is one movement of 2; zone dice by the zone at the turn's start, added up
        # on one horse (0 spaces for a die seen earlier in the turn)
        zc = (1 + (c == d) + (c == e) + (c == f)) * zone[s[c]]
        zd = (d != c) * (1 + (d == e) + (d == f)) * zone[s[d]]
        ze = (e != c) * (e != d) * (1 + (e == f)) * zone[s[e]]
        zf = (f != c) * (f != d) * (f != e) * zone[s[f]]
        crossed = tied
        for h, spaces in ((a, 1 + (a == b)), (b, np.int64(a != b)), (c, zc), (d, zd), (e, ze),
                          (f, zf)):  # fmt: skip
            state = s[h]
            then = nxt[state * width + spaces]
            if then == NEEDS_DICE:  # a horse in the mud, or a landing on an accelerator
                pos, stuck = state // 2 - 1, state % 2
                if stuck:  # one try per space called; a horseshoe on try i moves the rest
                    called, spaces = spaces, 0
                    for attempt in range(1, called + 1):
                        z, face = bounded(z, shoe + blank)
                        if face < shoe:
                            stuck = 0
                            spaces = called - attempt + 1
                            break
                if spaces > 0:
                    pos += spaces
                    if mud[min(pos, finish)]:
                        stuck = 1
                    elif accel[min(pos, finish)]:  # the bonus never chains, may end in mud
                        z, face = bounded(z, faces.shape[0])
                        pos += faces[face]
                        stuck = mud[min(pos, finish)]
                then = 2 * (pos + 1) + stuck
            s[h] = then
            crossed |= (then >= line) & (spaces > 0)
        if crossed:
            _write_out(w, s)
            tied = _finish_check(w, ids, field, finish)
            over = _over(w, ids, field, needed)
            checking = tied
            for i in range(field):
                if settled[ids[i]]:
                    s[ids[i]] = OUT
        turns += 1
    return True, turns, z_d20, z


@njit(cache=True, nogil=True)  # other threads (a server's event loop) run meanwhile
def run_fast(  # type: ignore[no-untyped-def]
    horses, pending, scratches, finish, zone, mud, accel, faces, shoe, blank, nxt, zone_of,
    width, safe, base, first, podium, turns,
):  # fmt: skip
    """Races first.. of the run seeded `base`, into podium (races x 3) and turns: the same
    races as `derby_race._run`."""
    at = np.zeros(1, dtype=np.int64)
    w, moves = workspace(pending, finish)
    s = np.zeros(SIDES + 1, dtype=np.int64)
    mid_turn = pending[0] > 0
    for row in range(turns.shape[0]):
        index = first + row
        z_d20 = game_state(base, 2 * index)
        z = game_state(base, 2 * index + 1)
        played = 0
        if mid_turn:  # the start and the turn under way, on the reference
            _, played, z_d20, z = race(
                horses, pending, scratches, finish, zone, mud, accel, faces, shoe, blank,
                z_d20, z, NO_TAPE, at, w, moves, 1,
            )  # fmt: skip
        else:
            z = _start(w, horses, scratches, z)
        field = 0
        for h in range(1, SIDES + 1):
            s[h] = OUT
            if w[RUNNER, h]:
                w[IDS, field] = h
                field += 1
                if not w[SETTLED, h]:
                    s[h] = 2 * (w[POS, h] + 1) + w[STUCK, h]
        needed = min(PODIUM, field)
        over, played, z_d20, z = _turns(
            w, s, field, needed, finish, mud, accel, faces, shoe, blank, nxt, zone_of, width,
            safe, z_d20, z, played,
        )  # fmt: skip
        if not over:  # a long tie: on the reference from here
            _write_out(w, s)
            start = w[:5, : SIDES + 1].copy()
            _, more, _, _ = race(
                start, np.zeros(TURN_DICE + 6, dtype=np.int64), 0, finish, zone, mud, accel,
                faces, shoe, blank, z_d20, z, NO_TAPE, at, w, moves, MAX_TURNS - played,
            )  # fmt: skip
            played += more
        turns[row] = played
        for place in range(PODIUM):
            podium[row, place] = 0
        for place in range(needed, 0, -1):
            for i in range(field):
                h = w[IDS, i]
                if w[SETTLED, h] and w[RANK, h] == place:
                    podium[row, place - 1] = h


def fast_races(
    start_horses: Array, pending: Array, numbers: TrackNumbers, scratches: int, base: Word,
    first: int, podium: Array, turns: Array,
) -> None:  # fmt: skip
    """Fill podium and turns with races first.. of the run seeded `base` (see `run_fast`)."""
    table = MoveTable.of(numbers)
    run_fast(
        start_horses, pending, np.int64(scratches), np.int64(numbers.finish), numbers.zone,
        numbers.mud, numbers.accel, numbers.faces, np.int64(numbers.shoe),
        np.int64(numbers.blank), table.nxt, table.zone, np.int64(table.most + 1),
        np.int64(table.safe), np.uint64(base), np.int64(first), podium, turns,
    )  # fmt: skip
