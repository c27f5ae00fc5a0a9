"""The plain Classic loop that the engine benchmark measures against plays the engine's game:
chips are conserved, and its races and money agree with the engine's within statistical bounds."""

from __future__ import annotations

import math
import random

import pytest
from benchmarks.plain_classic import PlainGame, play_classic

from horserace.components.board import HORSES
from horserace.core.stats import RunningStats
from horserace.drivers.simulate.runner import simulate_games
from horserace.families.board.tally import exact_horse_odds

SIGMAS = 4.5  # about 19 comparisons: a false alarm about once in 10,000 runs
OPTIONS = {"players": 6, "rounds": 8}
ENGINE_GAMES = 40


def plain_games(games: int, players: int = 6, chips: int = 100) -> list[PlainGame]:
    return [play_classic(random.Random(seed), players, 8, chips) for seed in range(games)]


def agree(mine: RunningStats, theirs: RunningStats, their_error: float | None = None) -> bool:
    """Two sample means are equal within SIGMAS standard errors of their difference."""
    theirs_error = theirs.standard_error if their_error is None else their_error
    error = math.hypot(mine.standard_error, theirs_error)
    return abs(mine.mean - theirs.mean) <= SIGMAS * error


@pytest.mark.parametrize(("players", "chips"), [(2, 100), (4, 100), (6, 100), (12, 5), (7, 0)])
def test_chips_are_conserved_and_never_negative(players: int, chips: int) -> None:
    for game in plain_games(60, players, chips):
        assert sum(game.chips) + game.pot == players * chips
        assert game.pot == sum(game.paid_in) - game.paid_out
        assert min(game.chips) >= 0
        assert len(game.winners) == len(game.race_rolls) == len(game.paid_in) == 8


def test_winners_follow_the_exact_odds_of_the_classic_scratch_and_race() -> None:
    games = plain_games(400)
    winners = [horse for game in games for horse in game.winners]
    exact = exact_horse_odds("classic", OPTIONS)
    for horse in HORSES:
        expected = exact[horse] * len(winners)
        spread = math.sqrt(expected * (1 - exact[horse]))
        assert abs(winners.count(horse) - expected) <= SIGMAS * spread, horse


def test_races_and_money_agree_with_the_reference_engine() -> None:
    engine = simulate_games("classic", OPTIONS, ENGINE_GAMES, seed=7)
    games = plain_games(400)
    race_length = RunningStats.of(rolls for game in games for rolls in game.race_rolls)
    assert agree(race_length, engine.race_length)
    races = len(games) * 8
    for horse in HORSES:
        wins = sum(game.winners.count(horse) for game in games)
        engine_share = engine.horse_wins[horse].successes / engine.races
        mine = wins / races
        pooled = (wins + engine.horse_wins[horse].successes) / (races + engine.races)
        error = math.sqrt(pooled * (1 - pooled) * (1 / races + 1 / engine.races))
        assert abs(mine - engine_share) <= SIGMAS * error, horse
    assert agree(RunningStats.of(game.pot for game in games), engine.pot_left)
    # Chips paid into the pot: the rounds of one game are not independent, so the error of
    # the mean is bounded as if the 8 rounds of a game were one draw (never smaller).
    paid = RunningStats.of(sum(game.paid_in) / 8 for game in games)
    engine_error = engine.paid_per_round.std / math.sqrt(ENGINE_GAMES)
    assert agree(paid, engine.paid_per_round, engine_error)
    for seat, chips in enumerate(engine.seat_chips):
        assert agree(RunningStats.of(game.chips[seat] for game in games), chips), seat
