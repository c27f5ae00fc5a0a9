"""Robertson's four dice on the compiled kernels against the reference engine: on the tape of
the engine's game (dealt ranks, each race roll's four dice, and every pick a seat made among
several legal actions) the Classic kernel, with and without Husted's rule, and the Advanced
kernel play the same game seat by seat and chip by chip. A random bot's pairing is read from
the tape, so the kernel must list the same pairings in the same order; the heuristic and EV
bots' pairings are the kernel's own, and must be the engine's."""

from __future__ import annotations

from typing import Any

import pytest

import horserace.kernels.advanced_game as advanced_game
import horserace.kernels.classic_game as classic_game
from horserace.families.presets import get_preset
from horserace.kernels.advanced_numbers import AdvancedSpec
from horserace.kernels.classic_numbers import ClassicSpec
from tests.conformance.board_matrix import GOLDEN_BOTS, GOLDEN_SEED
from tests.conformance.board_matrix import ROWS as MATRIX
from tests.kernels.advanced_tape import KernelGames, decided_game
from tests.kernels.classic_tables import classic_table
from tests.kernels.test_advanced_game_equality import advanced_table
from tests.kernels.test_classic_game_equality import husted_table

SEEDS = 60  # tables a batch
BOTS = ("random", "heuristic", "ev")


ROBERTSON = {"robertson": True, "ante": [0, 0, 1, 2], "open_hands": [True] * 7 + [False] * 3}


def robertson_table(seed: int, bots: tuple[str, ...] = BOTS) -> tuple[dict[str, Any], list[str]]:
    """A varied Classic table with Robertson's rule alone, and its bots."""
    return classic_table(seed, bots, ROBERTSON)


def _with_robertson(table: Any) -> Any:
    """A table drawer's tables with Robertson's rule on."""

    def robertson_table(seed: int, bots: tuple[str, ...] = BOTS) -> tuple[dict[str, Any], Any]:
        options, kinds = table(seed, bots)
        return {**options, "robertson": True}, kinds

    return robertson_table


ROWS = {
    "classic": KernelGames(classic_game, ClassicSpec, "classic", robertson_table),
    "classic+husted": KernelGames(
        classic_game, ClassicSpec, "classic", _with_robertson(husted_table)
    ),
    "advanced": KernelGames(
        advanced_game, AdvancedSpec, "advanced", _with_robertson(advanced_table)
    ),
}


@pytest.mark.parametrize("row", sorted(ROWS))
def test_robertsons_pairings_are_the_engines(row: str, monkeypatch: Any) -> None:
    """Every pairing (the random bot's from the tape, the heuristic's cards held, the EV bot's
    hand worth by the race's exact odds) and every game's chips are the engine's."""
    seen = ROWS[row].batch(range(20_000, 20_000 + SEEDS), BOTS, monkeypatch)
    assert seen["PairChosen"] > 1_000
    assert seen["FirstSumWon"] > 20  # races that end before the second sum


def test_the_conformance_rows_with_four_dice_play_on_the_kernels_as_on_the_engine(
    monkeypatch: Any,
) -> None:
    """Each row of the conformance matrix with Robertson's rule that a kernel plays (but
    Schellenberg's, which its own file plays), at its golden game's seed and bots, and two
    seeds more."""
    played = []
    for row in MATRIX:
        preset = get_preset(row.preset)
        plain = preset.rules.config_to_dict(preset.config(row.options))
        games = ROWS["classic" if row.preset == "classic" else "advanced"]
        if "robertson" not in row.name or "schellenberg" in row.name:
            continue
        if games.spec.from_config(plain) is None:
            continue
        played.append(row.name)
        kinds = [GOLDEN_BOTS[seat % len(GOLDEN_BOTS)] for seat in range(row.options["players"])]
        for seed in range(GOLDEN_SEED, GOLDEN_SEED + 3):
            games.matches(decided_game(row.preset, row.options, seed, kinds), kinds, monkeypatch)
    assert played == [
        "classic+robertson",
        "classic+husted+robertson",
        "classic+perry+robertson",
        "classic+husted+perry+robertson",
        "advanced+robertson",
        "advanced+classic-scratch+robertson",
        "advanced+perry+robertson",
        "advanced+classic-scratch+perry+robertson",
    ]


def test_a_heuristic_pairing_that_differs_is_caught() -> None:
    ROWS["classic"].other_pick_is_caught()
