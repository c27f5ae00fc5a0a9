"""The Husted whole-game kernel against the reference engine, with its bots: on the tape of the
engine's game (dealt and drawn ranks, dice sums, and every pick a seat made among several legal
actions) the kernel plays the same game seat by seat and chip by chip. A random bot's pick is
read from the tape, so the kernel must offer the same legal actions in the same order (wagers,
raises, discards, face cards); the heuristic and EV bots' picks are the kernel's own, and must
be the engine's. Random tables of 2 to 12 players, short purses, every repeat rule, race start,
payout, reset and ante, with and without the Jockey Pot."""

from __future__ import annotations

from typing import Any

import pytest

import horserace.kernels.classic_game as classic_game
from horserace.kernels.classic_game import ClassicSpec
from tests.kernels.advanced_tape import KernelGames
from tests.kernels.classic_tables import classic_table

BATCHES, SEEDS_PER_BATCH = 2, 50  # tables of random and heuristic bots
EV_BATCHES, EV_SEEDS = 2, 25  # tables with EV bots at about half the seats
PLAIN_BOTS, EV_BOTS = ("random", "heuristic"), ("random", "heuristic", "ev", "ev")


HUSTED = {"husted": True, "open_hands": False, "ante": [1, 1, 2, 3]}


def husted_table(seed: int, bots: tuple[str, ...] = PLAIN_BOTS) -> tuple[dict[str, Any], list[str]]:
    """A varied Husted table and its bots, drawn from `bots` seat by seat."""
    return classic_table(seed, bots, HUSTED)


GAMES = KernelGames(classic_game, ClassicSpec, "classic", husted_table)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_the_husted_kernel_plays_the_engines_game_with_the_same_decisions(
    batch: int, monkeypatch: Any
) -> None:
    first = batch * SEEDS_PER_BATCH
    seen = GAMES.batch(range(first, first + SEEDS_PER_BATCH), PLAIN_BOTS, monkeypatch)
    # the batch really plays the decisions: bets and folds, draws, face cards and their chips
    assert seen["choices"] > 1_000
    assert min(seen[name] for name in ("Folded", "CardsDrawn", "FaceCardPlayed")) > 30
    assert min(seen[name] for name in ("HorseBlocked", "NoDraw")) > 0


@pytest.mark.parametrize("batch", range(EV_BATCHES))
def test_the_ev_bots_decide_husted_as_the_engines_do(batch: int, monkeypatch: Any) -> None:
    """The EV bot's every pick (the largest wager while a chip comes back more than once, a
    meet or fold by the hand's worth, the draw by each card's marginal worth, the face card
    that gains the hand more than it costs, by the race's exact odds) is the engine's."""
    first = 10_000 + batch * EV_SEEDS
    seen = GAMES.batch(range(first, first + EV_SEEDS), EV_BOTS, monkeypatch)
    assert seen["choices"] > 300
    assert min(seen[name] for name in ("Folded", "CardsDrawn", "FaceCardPlayed")) > 10


def test_a_heuristic_bot_that_answers_otherwise_is_caught() -> None:
    """The tape holds the engine's heuristic picks: a kernel bot deciding otherwise is an
    error, not a game that happens to end alike (here the engine's first pick is moved on)."""
    GAMES.other_pick_is_caught()
