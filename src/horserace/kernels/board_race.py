"""Races of the dice board alone (no cards, no money): the winner, the number of rolls, and how
many rolls named the horse on each scratch line, from any position. Two kernels:

`rolls`: roll by roll, exactly as at the table.

`table`: the same distribution from a table. The exact chance of each (winner, running rolls R)
comes from the odds module's generating functions (`win_terms`); the rolls naming scratched
horses between them are negative binomial, S ~ NB(R, Λ) with Λ the running horses' share of the
dice, independent of who wins; each of those S rolls names scratched horse s with chance
p_s / (1 - Λ). So one alias-table draw gives (winner, R, S) and S small draws give the lines:
about 3 + S random words per race instead of about 55.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from horserace.families.board.odds.race import win_terms
from horserace.kernels import Array, Word
from horserace.kernels.compiled import njit
from horserace.kernels.rng import bounded, dice, game_state, unit

METHODS = ("table", "rolls")
MAX_TABLE = 1_000_000  # entries (40 MB); past this (lanes of many dozens of slots) races are rolled
LINES = 4


@dataclass(frozen=True)
class RaceStart:
    """Where the race starts: advances each horse still needs (0 = scratched) and the scratch
    line of each scratched horse (1..4), both indexed by horse 2..12."""

    to_go: tuple[int, ...]
    line: tuple[int, ...]

    def arrays(self) -> tuple[Array, Array]:
        to_go = np.zeros(13, dtype=np.int64)
        line = np.zeros(13, dtype=np.int64)
        to_go[2:] = self.to_go
        line[2:] = self.line
        return to_go, line


@dataclass(frozen=True)
class RaceOutcomes:
    """Per race: the winning horse, the rolls it took, and rolls naming each line's horse."""

    winner: Array
    rolls: Array
    line_rolls: Array  # races x 4


@njit(cache=True)
def _races_by_rolls(
    to_go: Array, line: Array, base: Word, start: Word, winner: Array, rolls: Array, hits: Array
) -> None:
    left = np.zeros(13, dtype=np.int64)
    never = np.int64(1) << np.int64(60)
    for index in range(winner.shape[0]):
        z = game_state(base, start + index)
        for horse in range(13):
            left[horse] = to_go[horse] if to_go[horse] > 0 else never
        count = 0
        while True:
            z, horse = dice(z)
            count += 1
            if line[horse]:
                hits[index, line[horse] - 1] += 1
            left[horse] -= 1
            if left[horse] == 0:
                break
        winner[index], rolls[index] = horse, count


@dataclass(frozen=True)
class RaceTable:
    """Vose's alias table over (winner, running rolls, scratched rolls), and the lines."""

    keep: Array  # float64: chance of keeping the drawn column rather than its alias
    alias: Array
    winner: Array
    running: Array
    scratched: Array
    line_of_weight: Array  # the scratch line (0..3) named by each 36th of a scratched roll


def race_table(start: RaceStart) -> RaceTable | None:
    """The alias table for races from `start` (None when it would be too large)."""
    weights = {h: 6 - abs(h - 7) for h in range(2, 13)}
    running = {h: k for h, k in zip(range(2, 13), start.to_go, strict=True) if k > 0}
    share = sum(weights[h] for h in running) / 36
    terms = win_terms(running)
    longest = max(running[h] + len(t) - 1 for h, t in terms.items())
    spread = longest * (1 - share)
    most = 0 if share == 1 else int(spread / share + 12 * np.sqrt(spread) / share + 30)
    size = sum(len(t) for t in terms.values()) * (most + 1)
    if size > MAX_TABLE:
        return None
    parts: list[tuple[Array, Array, Array, Array]] = []
    others = np.arange(most + 1)
    for horse, chances in terms.items():
        rolls = running[horse] + np.arange(len(chances))
        if share == 1:
            scratched_chance = np.ones((len(rolls), 1))
        else:  # NB(R, Λ) in log space: log C(R+S-1, S) + R log Λ + S log(1 - Λ)
            steps = np.log((rolls[:, None] + others[None, :-1]) / (others[None, :-1] + 1))
            log_c = np.concatenate([np.zeros((len(rolls), 1)), np.cumsum(steps, axis=1)], axis=1)
            scratched_chance = np.exp(
                log_c + rolls[:, None] * np.log(share) + others[None, :] * np.log1p(-share)
            )
        joint = chances[:, None] * scratched_chance
        keep = joint > 0
        grid_r, grid_s = np.broadcast_arrays(rolls[:, None], others[None, :])
        parts.append((joint[keep], np.full(int(keep.sum()), horse), grid_r[keep], grid_s[keep]))
    chance = np.concatenate([part[0] for part in parts])
    keep_chance, alias = _vose(chance / chance.sum())
    lines = [
        line - 1
        for h, line in zip(range(2, 13), start.line, strict=True)
        if line
        for _ in range(weights[h])
    ]
    return RaceTable(
        keep=keep_chance,
        alias=alias,
        winner=np.concatenate([part[1] for part in parts]).astype(np.int64),
        running=np.concatenate([part[2] for part in parts]).astype(np.int64),
        scratched=np.concatenate([part[3] for part in parts]).astype(np.int64),
        line_of_weight=np.array(lines or [0], dtype=np.int64),
    )


@njit(cache=True)
def _vose(chance: Array) -> tuple[Array, Array]:
    """Vose's alias method: column i keeps itself with keep[i], else gives alias[i]. The
    columns still to settle are a stack of the small ones (scaled below 1) at the front of
    `waiting` and one of the large ones at its back."""
    n = chance.shape[0]
    scaled = chance * n
    keep = np.ones(n, dtype=np.float64)
    alias = np.arange(n)
    waiting = np.empty(n, dtype=np.int64)
    ns, nl, i = 0, 0, 0
    while True:
        if i < n:
            column = i
            i += 1
        elif ns and nl:
            ns -= 1
            less, more = waiting[ns], waiting[n - nl]
            nl -= 1
            keep[less] = scaled[less]
            alias[less] = more
            scaled[more] = scaled[more] + scaled[less] - 1.0
            column = more
        else:
            break
        if scaled[column] < 1.0:
            waiting[ns] = column
            ns += 1
        else:
            nl += 1
            waiting[n - nl] = column
    return keep, alias


@njit(cache=True)
def _races_by_table(  # type: ignore[no-untyped-def]
    keep, alias, winners, running, scratched, line_of_weight, base, start, winner, rolls, hits
):
    columns = keep.shape[0]
    share = line_of_weight.shape[0]
    for index in range(winner.shape[0]):
        z = game_state(base, start + index)
        z, column = bounded(z, np.int64(columns))
        z, coin = unit(z)
        entry = column if coin < keep[column] else alias[column]
        others = scratched[entry]
        for _ in range(others):
            z, weight = bounded(z, np.int64(share))
            hits[index, line_of_weight[weight]] += 1
        winner[index] = winners[entry]
        rolls[index] = running[entry] + others


def run_races(start: RaceStart, base: int, first: int, stop: int, method: str) -> RaceOutcomes:
    """Races first..stop-1 of the run seeded `base`, race i from its own stream. `table` falls
    back to `rolls` when the table would be too large (lanes of many dozens of slots)."""
    races = stop - first
    outcomes = RaceOutcomes(
        winner=np.zeros(races, dtype=np.int64),
        rolls=np.zeros(races, dtype=np.int64),
        line_rolls=np.zeros((races, LINES), dtype=np.int64),
    )
    table = race_table(start) if method == "table" else None
    into = (np.uint64(base), np.int64(first), outcomes.winner, outcomes.rolls, outcomes.line_rolls)
    if table is not None:
        arrays = (table.keep, table.alias, table.winner, table.running, table.scratched)
        _races_by_table(*arrays, table.line_of_weight, *into)
    else:
        to_go, line = start.arrays()
        _races_by_rolls(to_go, line, *into)
    return outcomes
