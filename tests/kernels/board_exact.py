"""Exact figures of the dice board game that the kernels' distribution tests hold them to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from horserace.components.board import HORSES
from horserace.families.board.odds.race import race_odds

CHI2_10_DF_P001 = 29.588  # the chi-square distribution's 0.999 quantile with 10 degrees of freedom


def win_chi2(winners: np.ndarray, win: Mapping[int, float]) -> float:
    """Pearson's chi-square of the winners (horses 2..12) against each horse's exact chance."""
    counts = np.bincount(winners.ravel(), minlength=13)[2:13]
    expected = winners.size * np.array([win[h] for h in HORSES])
    return float(((counts - expected) ** 2 / expected).sum())


def exact_paid_in_first_round(
    players: int, decks: int, values: Sequence[int], lanes: Mapping[int, int]
) -> float:
    """Chips paid into the pot in round 1 with the reroll rule (four distinct horses on lines
    1-4 in the order rolled) and purses too deep to run short: each dealt card of the horse on
    line k pays values[k - 1], and so does each race roll naming it (Wald: its chance x the
    rolls). The deal gives every seat the same number of cards, so a given card is dealt with
    chance (cards // players x players) / cards. `lanes`: advances to finish per horse."""
    p = {h: (6 - abs(h - 7)) / 36 for h in HORSES}
    cards = 44 * decks
    dealt = cards // players * players / cards
    rolls: dict[frozenset[int], float] = {}
    total = 0.0

    def walk(order: tuple[int, ...], chance: float) -> None:
        nonlocal total
        if len(order) == 4:
            key = frozenset(order)
            if key not in rolls:
                running = {h: k for h, k in lanes.items() if h not in key}
                rolls[key] = race_odds(running).expected_rolls
            for line, horse in enumerate(order, 1):
                value = values[line - 1]
                total += chance * value * (4 * decks * dealt + p[horse] * rolls[key])
            return
        free = 1 - sum(p[h] for h in order)
        for horse in HORSES:
            if horse not in order:
                walk((*order, horse), chance * p[horse] / free)

    walk((), 1.0)
    return total
