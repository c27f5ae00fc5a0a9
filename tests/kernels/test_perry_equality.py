"""Perry's trading on the compiled kernels against the reference engine: on the tape of the
engine's game the kernel plays the same game, offer by offer and answer by answer. A random
bot's offer is an index into the engine's legal list, so the kernel must list the same offers
in the same order; the EV bot's offers and the EV and heuristic bots' answers are the kernel's
own and must be the engine's. Advanced and Classic tables as their equality tests draw them
(hidden or open hands, every repeat rule and board; Classic with Husted's rule at a fifth of
them; Robertson's four dice at a fifth, Classic's market at a fifth), at each window moment,
1 to 4 offers a seat."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

import horserace.kernels.advanced_game as advanced_game
import horserace.kernels.classic_game as classic_game
from horserace.drivers.cli.app import app
from horserace.kernels.advanced_game import AdvancedSpec
from horserace.kernels.classic_game import ClassicSpec
from tests.kernels.advanced_tape import KernelGames
from tests.kernels.test_advanced_game_equality import advanced_table
from tests.kernels.test_classic_game_equality import husted_table

WINDOWS = ("before-scratch", "after-each-scratch", "after-scratch")
BATCHES, SEEDS_PER_BATCH = 1, 20  # tables of random and heuristic bots (about 6 s a batch)
EV_BATCHES, EV_SEEDS = 1, 8  # tables with EV bots at about half the seats (about 5 s)
PLAIN_BOTS, EV_BOTS = ("random", "heuristic"), ("random", "heuristic", "ev", "ev")


def advanced_perry_table(
    seed: int, bots: tuple[str, ...] = PLAIN_BOTS
) -> tuple[dict[str, Any], list[str]]:
    """An Advanced table that trades at one of the three moments (Robertson's four dice at a
    fifth), for one round (each round's window is the same code; the engine's bots take a while
    over thousands of offers)."""
    options, kinds = advanced_table(seed, bots)
    pick = random.Random(-seed)
    options |= {"trade_window": pick.choice(WINDOWS), "trade_offers": pick.randint(1, 4)}
    options |= {"rounds": 1, "robertson": pick.random() < 0.2}
    return options, kinds


ADVANCED = KernelGames(advanced_game, AdvancedSpec, "advanced", advanced_perry_table)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_the_advanced_kernel_trades_as_the_engine_does(batch: int, monkeypatch: Any) -> None:
    first = 20_000 + batch * SEEDS_PER_BATCH
    seen = ADVANCED.batch(range(first, first + SEEDS_PER_BATCH), PLAIN_BOTS, monkeypatch)
    assert seen["TradeOffered"] > 200
    assert seen["TradeAccepted"] > 50


@pytest.mark.parametrize("batch", range(EV_BATCHES))
def test_the_ev_bots_trade_advanced_as_the_engines_do(batch: int, monkeypatch: Any) -> None:
    first = 30_000 + batch * EV_SEEDS
    seen = ADVANCED.batch(range(first, first + EV_SEEDS), EV_BOTS, monkeypatch)
    assert seen["TradeOffered"] > 80
    assert seen["TradeAccepted"] > 8


def test_simulate_advanced_with_perry_takes_the_kernel() -> None:
    args = ["simulate", "advanced", "--house", "perry", "--games", "200", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--bots", "ev,random", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["engine"], report["kernel"], report["games"]) == ("kernel", "advanced", 200)
    assert report["bot_edge"]["first"] == "ev" and report["bot_edge"]["ci95"][0] > 0


def classic_perry_table(
    seed: int, bots: tuple[str, ...] = PLAIN_BOTS
) -> tuple[dict[str, Any], list[str]]:
    """A Classic table that trades at one of the three moments (open hands mostly; a fifth of
    them under Husted's rule too, hidden hands, bets and face cards), for one round."""
    options, kinds = husted_table(seed, bots)
    pick = random.Random(-seed)
    options |= {"trade_window": pick.choice(WINDOWS), "trade_offers": pick.randint(1, 4)}
    options |= {"rounds": 1, "robertson": pick.random() < 0.2, "market": pick.random() < 0.2}
    if pick.random() < 0.8:
        options |= {"husted": False, "open_hands": pick.random() < 0.8}
        if not options.get("jockey_pot"):
            options["ante"] = 0
    return options, kinds


CLASSIC = KernelGames(classic_game, ClassicSpec, "classic", classic_perry_table)


def test_the_classic_kernel_trades_as_the_engine_does(monkeypatch: Any) -> None:
    seen = CLASSIC.batch(range(40_000, 40_012), PLAIN_BOTS, monkeypatch)
    assert seen["TradeOffered"] > 150
    assert seen["TradeAccepted"] > 60


def test_the_ev_bots_trade_classic_as_the_engines_do(monkeypatch: Any) -> None:
    seen = CLASSIC.batch(range(50_000, 50_008), EV_BOTS, monkeypatch)
    assert seen["TradeOffered"] > 80
    assert seen["TradeAccepted"] > 15
