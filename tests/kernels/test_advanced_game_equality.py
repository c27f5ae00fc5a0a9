"""The Advanced whole-game kernel against the reference engine, with its bots: on the tape of
the engine's game (dealt ranks, dice sums, and every pick a seat made among several legal
actions) the kernel plays the same game seat by seat and chip by chip. A random bot's pick is
read from the tape, so the kernel must offer the same legal actions in the same order; the
heuristic bot's pick is the kernel's own, and must be the engine's. Random tables of 4 to 12
players, short purses, every repeat rule, race start, payout, ante and board, with and without
the draft and the Jockey Pot."""

from __future__ import annotations

import random
from typing import Any

import pytest

import horserace.kernels.advanced_game as advanced_game
from horserace.components.board import HORSES
from horserace.kernels.advanced_game import AdvancedSpec
from tests.kernels.advanced_tape import KernelGames
from tests.kernels.test_board_game_equality import SHIPPED

BATCHES, SEEDS_PER_BATCH = 2, 60  # tables of random and heuristic bots (about 5 s a batch)
EV_BATCHES, EV_SEEDS = 2, 25  # tables with EV bots at about half the seats (about 5 s)
PLAIN_BOTS, EV_BOTS = ("random", "heuristic"), ("random", "heuristic", "ev", "ev")


def advanced_table(
    seed: int, bots: tuple[str, ...] = PLAIN_BOTS
) -> tuple[dict[str, Any], list[str]]:
    """A varied Advanced table and its bots, drawn from `bots` seat by seat."""
    pick = random.Random(seed)
    players = pick.randint(4, 12)
    options: dict[str, Any] = {
        "players": players,
        "rounds": pick.randint(1, 3),
        "starting_chips": pick.choice([0, 4, 10, 25, 100]),
        "ante": pick.choice([1, 1, 2, 3]),
        "repeat_scratch": pick.choice(["chain", "chain", "move", "reroll"]),
        "race_starts": pick.choice(["last-scratcher", "after-last-scratch", "dealer-left"]),
        "rotate_dealer": pick.random() < 0.8,
        "first_dealer": pick.randrange(players),
        "draft": pick.random() < 0.85,
        "scratch_values": pick.choice([(1, 2, 3, 4), (1, 2, 3, 4), (0, 1, 5, 2)]),
        "open_hands": pick.random() < 0.25,  # the EV bot then counts the others' cards
    }
    if pick.random() < 0.2:  # no Jockey Pot: a split or a share of the Main Pot
        options |= {"jockey_pot": False, "payout": pick.choice(["split", "share"])}
    roll = pick.random()
    if roll < 0.2:
        options["board"] = pick.choice(SHIPPED)
    elif roll < 0.55:  # short lanes, mostly: more Jokers carry a horse across the line
        longest = pick.choice([4, 6, 12])
        lanes = {str(h): pick.randint(1, longest) for h in HORSES}
        options["board"] = {"name": "random", "lanes": lanes}
    kinds = [pick.choice(bots) for _ in range(players)]
    return options, kinds


GAMES = KernelGames(advanced_game, AdvancedSpec, "advanced", advanced_table)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_the_advanced_kernel_plays_the_engines_game_with_the_same_decisions(
    batch: int, monkeypatch: Any
) -> None:
    first = batch * SEEDS_PER_BATCH
    seen = GAMES.batch(range(first, first + SEEDS_PER_BATCH), PLAIN_BOTS, monkeypatch)
    # the batch really plays the decisions: picks, Aces, Kings (doubled too) and Jokers
    assert seen["choices"] > 2_000
    assert min(seen[name] for name in ("AcePlayed", "KingPlayed", "JokerPlayed")) > 120
    assert min(seen[name] for name in ("KingDoubled", "JokerBack", "JokerWon")) > 0


@pytest.mark.parametrize("batch", range(EV_BATCHES))
def test_the_ev_bots_decide_as_the_engines_do(batch: int, monkeypatch: Any) -> None:
    """The EV bot's every pick (the draft by the hand's worth, an Ace against the penalty it
    would save later, a King towards the neighbour with fewer cards, the Joker move that leaves
    the hand worth the most, by the race's exact odds) is the engine's EV bot's."""
    first = 10_000 + batch * EV_SEEDS
    seen = GAMES.batch(range(first, first + EV_SEEDS), EV_BOTS, monkeypatch)
    assert seen["choices"] > 600
    assert min(seen[name] for name in ("AcePlayed", "KingPlayed", "JokerPlayed")) > 60


def test_a_heuristic_bot_that_answers_otherwise_is_caught() -> None:
    """The tape holds the engine's heuristic picks: a kernel bot deciding otherwise is an
    error, not a game that happens to end alike (here the engine's picks are moved on)."""
    GAMES.other_pick_is_caught()
