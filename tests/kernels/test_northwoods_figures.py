"""Northwoods games on the whole-game kernel against the exact odds of
`families/board/odds/race.py`: each race's winner over the whole round (its scratch phase
rerolls a scratched horse, so four distinct horses go out), the race's length, and the cents
paid into the pot in a round, on the standard board and on every shipped board file."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from horserace.components.board import DEFAULT_BOARD, HORSES, Board
from horserace.families.board.odds.race import round_odds
from horserace.families.presets import get_preset
from horserace.kernels.board_game import BoardGameSpec, run_games
from tests.kernels.board_exact import CHI2_10_DF_P001, exact_paid_in_first_round, win_chi2
from tests.kernels.test_board_game_equality import SHIPPED

BOARDS = [DEFAULT_BOARD, *SHIPPED]


def _spec(options: dict[str, Any]) -> BoardGameSpec:
    chosen = get_preset("northwoods")
    spec = BoardGameSpec.from_config(chosen.rules.config_to_dict(chosen.config(options)))
    assert spec is not None
    return spec


def _lanes(board: Board) -> dict[int, int]:
    return {h: board.advances_to_finish(h) for h in HORSES}


@pytest.mark.parametrize("board", BOARDS, ids=[board.name for board in BOARDS])
def test_winners_and_race_length_follow_the_exact_odds_of_a_round(board: Board) -> None:
    """The preset's table (200 cents, players going out): the dice never look at the money, so
    every race, whenever in a game, has the round's exact odds; chi-square at p = 0.001 on the
    winners, and the mean race length within four standard errors."""
    spec = _spec({"players": 5, "rounds": 12, "board": board})
    assert spec.repeat_rule == 1  # reroll: four distinct horses scratched
    outcomes = run_games(spec, 31, 0, 60_000)
    used = np.arange(spec.rounds)[None, :] < outcomes.races[:, None]
    assert (outcomes.races < spec.rounds).any()  # some games end early, their last rival out
    exact = round_odds(_lanes(board), 4, reroll_repeats=True)
    winners = outcomes.winner[used]
    assert winners.size > 400_000
    chi2 = win_chi2(winners, exact.win)
    assert chi2 < CHI2_10_DF_P001, (chi2, np.bincount(winners, minlength=13)[2:].tolist())
    rolls = outcomes.rolls[used].astype(float)
    error = rolls.std(ddof=1) / np.sqrt(rolls.size)
    assert abs(rolls.mean() - exact.expected_rolls) < 4 * error, (rolls.mean(), exact)


@pytest.mark.parametrize(("players", "board"), [(5, DEFAULT_BOARD), (12, SHIPPED[0]), (3, None)])
def test_cents_paid_in_a_round_agree_with_the_exact_expectation(
    players: int, board: Board | None
) -> None:
    """Purses too deep to run short: each dealt card of the k-th horse scratched pays the k-th
    row (20, 15, 10, 5 cents), and so does each race roll naming it. With 12 players 36 of the
    44 cards are dealt (3 each), with 3 players 42, with 5 players 40."""
    board = board or DEFAULT_BOARD
    options = {"players": players, "rounds": 1, "starting_chips": 10**7, "board": board}
    spec = _spec(options)
    outcomes = run_games(spec, 12 + players, 0, 150_000)
    paid = outcomes.paid[:, 0].astype(float)
    error = paid.std(ddof=1) / np.sqrt(paid.size)
    exact = exact_paid_in_first_round(players, 1, spec.scratch_values, _lanes(board))
    assert abs(paid.mean() - exact) < 4 * error, (paid.mean(), exact, error)
    assert np.all(outcomes.chips.sum(axis=1) + outcomes.pot_left == players * 10**7)
