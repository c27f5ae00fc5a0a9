"""The Classic kernel under Schellenberg's market against the reference engine, with its bots: on
the tape of the engine's game (dealt ranks, the market's among them, dice sums, and every pick
a seat made among several legal actions) the kernel plays the same game seat by seat and chip
by chip. A random bot's buy is read from the tape, so the kernel must offer the same buys in the
same order; the heuristic bot passes and the EV bot's buy or pass is the kernel's own, and must
be the engine's. Random tables of 2 to 12 players (the market a thirteenth hand), short purses
(a buy is offered only to a roller who can pay its price), every repeat rule, race start,
payout and reset, with and without the Jockey Pot; about a third with Husted's rule
(schellenberg+husted: hidden hands, the betting and the draw before the market opens, a face
card before the buy) and a third with Robertson's (the buy after both sums of four dice)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

import horserace.kernels.classic_game as classic_game
from horserace.drivers.cli.app import app
from horserace.families.presets import get_preset
from horserace.kernels.classic_game import ClassicSpec
from tests.conformance.board_matrix import GOLDEN_BOTS, GOLDEN_SEED, ROWS
from tests.kernels.advanced_tape import KernelGames, decided_game
from tests.kernels.classic_tables import classic_table

BATCHES, SEEDS_PER_BATCH = 1, 60  # tables of random and heuristic bots
EV_BATCHES, EV_SEEDS = 1, 40  # tables with EV bots at about half the seats
PLAIN_BOTS, EV_BOTS = ("random", "heuristic"), ("random", "heuristic", "ev", "ev")


MARKET = {"market": True, "repeat_scratch": ["move", "chain", "reroll"]}
# a third with Husted's rule (hidden hands, betting, the draw and face cards before the market
# opens), a third with Robertson's four dice (the buy after both sums)
WITH_MARKET = (
    (0.3, {"husted": True, "open_hands": False, "ante": [1, 2]}),
    (0.3, {"robertson": True}),
)


def market_table(seed: int, bots: tuple[str, ...] = PLAIN_BOTS) -> tuple[dict[str, Any], list[str]]:
    """A varied Schellenberg table and its bots, drawn from `bots` seat by seat."""
    return classic_table(seed, bots, MARKET, WITH_MARKET)


GAMES = KernelGames(classic_game, ClassicSpec, "classic", market_table)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_the_classic_kernel_plays_schellenbergs_market_as_the_engine(
    batch: int, monkeypatch: Any
) -> None:
    first = batch * SEEDS_PER_BATCH
    seen = GAMES.batch(range(first, first + SEEDS_PER_BATCH), PLAIN_BOTS, monkeypatch)
    # the batch really buys: many offers, and cards bought by the random seats
    assert seen["choices"] > 1_000
    assert min(seen["CardBought"], seen["FaceCardPlayed"], seen["PairChosen"]) > 30


@pytest.mark.parametrize("batch", range(EV_BATCHES))
def test_the_ev_bots_buy_from_the_market_as_the_engines_do(batch: int, monkeypatch: Any) -> None:
    """The EV bot's every buy or pass (the swap that gains the hand most over the price, by the
    race's exact odds and the pot the race still expects) is the engine's."""
    first = 10_000 + batch * EV_SEEDS
    seen = GAMES.batch(range(first, first + EV_SEEDS), EV_BOTS, monkeypatch)
    assert seen["choices"] > 500
    assert seen["CardBought"] > 50


def test_the_conformance_rows_with_the_market_play_on_the_kernel_as_on_the_engine(
    monkeypatch: Any,
) -> None:
    """Each row of the conformance matrix with Schellenberg's rule (every one: with Husted's,
    Robertson's and Perry's rules too), its golden game's seed and bots, four seeds more."""
    played = []
    for row in ROWS:
        preset = get_preset(row.preset)
        plain = preset.rules.config_to_dict(preset.config(row.options))
        if "schellenberg" not in row.name or ClassicSpec.from_config(plain) is None:
            continue
        played.append(row.name)
        for seed in range(GOLDEN_SEED, GOLDEN_SEED + 5):
            kinds = [GOLDEN_BOTS[seat % len(GOLDEN_BOTS)] for seat in range(row.options["players"])]
            GAMES.matches(decided_game(row.preset, row.options, seed, kinds), kinds, monkeypatch)
    assert played == [
        "classic+schellenberg",
        "classic+husted+schellenberg",
        "classic+perry+schellenberg",
        "classic+robertson+schellenberg",
        "classic+husted+perry+schellenberg",
        "classic+husted+robertson+schellenberg",
        "classic+perry+robertson+schellenberg",
        "classic+husted+perry+robertson+schellenberg",
    ]


def test_a_heuristic_bot_that_buys_otherwise_is_caught() -> None:
    """The tape holds the engine's heuristic passes: a kernel bot deciding otherwise is an
    error, not a game that happens to end alike (here the engine's first pick is moved on)."""
    GAMES.other_pick_is_caught()


def test_simulate_schellenberg_takes_the_classic_kernel_and_names_it() -> None:
    """A random bot pays for buys that lose it chips; the EV bot buys only what gains."""
    args = ["simulate", "classic", "--house", "schellenberg", "--games", "200", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--bots", "ev,random", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["engine"], report["kernel"], report["games"]) == ("kernel", "classic", 200)
    edge = report["bot_edge"]
    assert edge["first"] == "ev" and edge["ci95"][0] > 100
