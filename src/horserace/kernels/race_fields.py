"""A race of the whole-game kernel from its own stream, five throws at a time.

Each running horse's advances are a 5-bit field of one word: LANE (16) less the advances it
still needs, so a horse finishes when its field's top bit comes on. Five throws add at most 5
to a field, so no field carries into the next, and five throws that leave every top bit off
finished no horse: the race adds five throws' advances at once and goes roll by roll only
through the block that ends it. Lanes of up to 15 slots fit (the printed board's longest has
14); a longer lane's race is `board_game._race`, roll by roll.
"""

from __future__ import annotations

import numpy as np

from horserace.kernels import NO_REFCOUNTS
from horserace.kernels.batched_draws import throws_of_half
from horserace.kernels.compiled import njit
from horserace.kernels.rng import step

FIELD = 5  # bits a horse (and a rank in a hand's word)

LANE = 1 << (FIELD - 1)  # the most advances to finish a race in fields takes
LANE_TOPS = sum(LANE << (FIELD * k) for k in range(11))
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _owe(owed, slot, seats, amount):  # type: ignore[no-untyped-def]
    """A throw's cost owed by the roller in `slot`; returns the next roller's slot (round the
    `seats` still in). Inlined into the race, arrays and all."""
    owed[slot] += amount
    slot += np.uint64(1)
    return np.uint64(0) if slot == seats else slot


@njit(cache=True, **NO_REFCOUNTS)
def race_fields(z, advance, cost, owed, active, fields):  # type: ignore[no-untyped-def]
    """Roll until a horse finishes; returns (stream, winner, rolls), as `board_game._race`.
    `fields` is the start (LANE less each running horse's advances to finish, in its field;
    0 for a scratched horse), `advance[horse]` one in a running horse's field (0 when
    scratched), owed[k] what the k-th roller owes (cost[horse] for each scratched horse it
    rolled). A word's halves give five throws each (`throws_of_half`); a rejected half is
    skipped."""
    rolls, slot, seats = 0, np.uint64(0), np.uint64(active)  # (unsigned: no negative indices)
    owed[:active] = 0
    tops = np.int64(LANE_TOPS)
    while True:
        z, word = step(z)
        for half in range(2):
            x = (word >> np.uint64(32)) if half == 0 else (word & _LOW32)
            accepted, h0, h1, h2, h3, h4 = throws_of_half(x)
            if not accepted:
                continue
            after = fields + advance[h0] + advance[h1] + advance[h2] + advance[h3] + advance[h4]
            if after & tops == 0:
                for horse in (h0, h1, h2, h3, h4):
                    slot = _owe(owed, slot, seats, cost[horse])
                rolls += 5
                fields = after
                continue
            for horse in (h0, h1, h2, h3, h4):
                slot = _owe(owed, slot, seats, cost[horse])
                rolls += 1
                fields += advance[horse]
                if fields & tops:
                    return z, np.int64(horse), rolls
