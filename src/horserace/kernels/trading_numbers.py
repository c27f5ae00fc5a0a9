"""Perry's trading window as the kernels read it: when the table trades, how many offers a seat
may make, and the odds every window reads, worked out once per board by the family's own odds
(`view_odds`, with the same arguments as the engine's bot asks, so the same floats).

Every window opens before the race's first roll, so its odds depend only on the horses
scratched and the scratch rolls still to come.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from horserace.components.board import HORSES
from horserace.families.board.odds.race import race_odds
from horserace.families.board.odds.view import _cached_odds
from horserace.kernels import Array

WINDOWS = ("none", "before-scratch", "after-each-scratch", "after-scratch")
NONE, BEFORE, EACH, AFTER = range(4)
# The settings row: the window, offers a seat may make in it, the penalty unit, and whether a
# seat may ask for any rank of the deck (the Advanced deck) or the horses' alone.
WINDOW, OFFERS, UNIT, EVERY_RANK = range(4)


def trade_settings(config: Mapping[str, Any]) -> tuple[int, int, int, bool]:
    """(window, offers, penalty unit, any rank may be asked) for a board config's plain data."""
    advanced = config.get("deck") == "advanced"
    unit = (int(config["ante"]) or 1) if advanced else 1  # BoardConfig.penalty_unit
    window = WINDOWS.index(config.get("trade_window", "none"))
    return window, int(config.get("trade_offers", 3)), unit, advanced


def _scratched_sets(window: int, move: bool) -> list[tuple[int, tuple[int, ...]]]:
    """(scratch rolls left, horses scratched) at every window the table can open."""
    if window == BEFORE:
        return [(4, ())]
    moments: list[tuple[int, tuple[int, ...]]] = []
    for done in range(1, 5):
        if window == AFTER and done < 4:
            continue
        for size in range(1, done + 1) if move else (done,):
            moments += [(4 - done, combo) for combo in combinations(HORSES, size)]
    return moments


@lru_cache(maxsize=32)
def trade_tables(finish: tuple[int, ...], window: int, repeat_move: bool) -> tuple[Array, Array]:
    """odds[rolls left, set, horse] (sets as bits of horse - 2) at each window the table can
    open, and the expected rolls of the race from the start with the set scratched (the pot
    estimate of `HandValuer` in the race)."""
    odds = np.zeros((5, 1 << 11, 13), dtype=np.float64)
    rolls = np.zeros(1 << 11, dtype=np.float64)
    if window == NONE:
        return odds, rolls
    slots = tuple(f - 1 for f in finish)
    start = (0,) * len(HORSES)
    for left, scratched in _scratched_sets(window, repeat_move):
        mask = sum(1 << (h - 2) for h in scratched)
        for horse, chance in _cached_odds(slots, start, scratched, left, not repeat_move):
            odds[left, mask, horse] = chance
        if not left:
            running = {h: finish[h - 2] for h in HORSES if h not in scratched}
            rolls[mask] = race_odds(running).expected_rolls
    return odds, rolls
