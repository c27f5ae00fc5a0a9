"""The whole-game kernel of the dice board game: which games it plays, reproducible streams,
threads, and the figures theory predicts (its games against the engine's are in
test_board_game_equality.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.families.board.odds.race import round_odds
from horserace.families.presets import get_preset
from horserace.kernels.board_game import BLOCK_GAMES, BoardGameSpec, run_games
from tests.kernels.board_exact import CHI2_10_DF_P001, exact_paid_in_first_round


def test_games_with_decisions_are_left_to_the_engine() -> None:
    rules = get_preset("advanced").rules
    advanced = rules.config_to_dict(get_preset("advanced").config({}))
    assert BoardGameSpec.from_config(advanced) is None
    options = {"husted": True, "ante": 1, "open_hands": False}
    husted = rules.config_to_dict(get_preset("classic").config(options))
    assert BoardGameSpec.from_config(husted) is None


def _spec(preset: str, options: dict[str, Any]) -> BoardGameSpec:
    chosen = get_preset(preset)
    spec = BoardGameSpec.from_config(chosen.rules.config_to_dict(chosen.config(options)))
    assert spec is not None
    return spec


def test_a_game_depends_on_its_index_only_not_on_the_chunk() -> None:
    spec = _spec("classic", {"players": 5, "rounds": 4})
    whole = run_games(spec, 99, 0, 300)
    first, second = run_games(spec, 99, 0, 120), run_games(spec, 99, 120, 300)
    for name in ("chips", "pot_left", "winner", "rolls", "paid"):
        joined = np.concatenate([getattr(first, name), getattr(second, name)])
        assert np.array_equal(getattr(whole, name), joined), name
    assert not np.array_equal(run_games(spec, 100, 0, 300).chips, whole.chips)


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", {"players": 6, "rounds": 8}), ("northwoods", {"players": 5, "rounds": 12})],
)
def test_threads_play_the_same_games_row_for_row(preset: str, options: dict[str, Any]) -> None:
    spec = _spec(preset, options)
    stop = 17 + 2 * BLOCK_GAMES + 500  # two whole blocks of games and a short one
    alone = run_games(spec, 41, 17, stop, threads=1)
    for threads in (2, 3):
        split = run_games(spec, 41, 17, stop, threads=threads)
        for name in ("chips", "out_round", "pot_left", "races", "winner", "rolls", "paid"):
            assert np.array_equal(getattr(split, name), getattr(alone, name)), (threads, name)


def test_chips_are_conserved_and_every_round_is_raced() -> None:
    spec = _spec("classic", {"players": 7, "rounds": 5, "starting_chips": 20})
    outcomes = run_games(spec, 5, 0, 2000)
    assert np.all(outcomes.chips.sum(axis=1) + outcomes.pot_left == 7 * 20)
    assert np.all(outcomes.chips >= 0) and np.all(outcomes.races == 5)
    assert np.all((outcomes.winner >= 2) & (outcomes.winner <= 12))


def test_northwoods_players_who_hold_nothing_go_out_and_the_last_one_in_wins() -> None:
    spec = _spec("northwoods", {"players": 5, "starting_chips": 60, "rounds": 40})
    outcomes = run_games(spec, 8, 0, 3000)
    assert np.all(outcomes.chips.sum(axis=1) + outcomes.pot_left == 5 * 60)
    out = outcomes.out_round > 0
    assert np.all(outcomes.chips[out] == 0)  # an out player holds nothing, and plays no more
    assert np.all(outcomes.out_round <= outcomes.races[:, None])
    still_in = (~out).sum(axis=1)
    ended_early = outcomes.races < 40
    assert np.all(still_in[ended_early] <= 1)  # only a last player standing ends a game early
    last_standing = still_in <= 1  # such a game ends in the round its last rival went out
    assert np.all(outcomes.races[last_standing] == outcomes.out_round[last_standing].max(axis=1))
    assert ended_early.mean() > 0.5  # 60 cents at 20/15/10/5 a card rarely lasts 40 rounds


def test_kernel_win_rates_and_race_length_agree_with_exact_odds() -> None:
    spec = _spec("classic", {"players": 6, "rounds": 8})
    outcomes = run_games(spec, 2024, 0, 40_000)  # 320,000 races
    winners = outcomes.winner.ravel()
    exact = round_odds({h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}, 4)
    counts = np.bincount(winners, minlength=13)[2:13]
    expected = winners.size * np.array([exact.win[h] for h in HORSES])
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < CHI2_10_DF_P001, (chi2, counts.tolist(), expected.tolist())
    rolls = outcomes.rolls.ravel().astype(float)
    error = rolls.std(ddof=1) / np.sqrt(rolls.size)
    assert abs(rolls.mean() - exact.expected_rolls) < 4 * error


def test_kernel_money_paid_in_agrees_with_the_exact_expectation() -> None:
    options = {"players": 6, "rounds": 1, "repeat_scratch": "reroll", "starting_chips": 10**6}
    outcomes = run_games(_spec("classic", options), 11, 0, 200_000)
    paid = outcomes.paid[:, 0].astype(float)
    error = paid.std(ddof=1) / np.sqrt(paid.size)
    lanes = {h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}
    exact = exact_paid_in_first_round(6, 2, (1, 2, 3, 4), lanes)
    assert abs(paid.mean() - exact) < 4 * error


def test_a_board_with_a_lane_too_long_for_the_fields_races_roll_by_roll_at_the_exact_odds() -> None:
    lanes = {str(h): n for h, n in zip(HORSES, DEFAULT_BOARD.slots, strict=True)}
    lanes["7"] = 20  # 21 advances: past the 16 a race in fields holds
    spec = _spec("classic", {"players": 4, "rounds": 4, "board": {"name": "long", "lanes": lanes}})
    outcomes = run_games(spec, 77, 0, 20_000)  # 80,000 races
    winners = outcomes.winner.ravel()
    finish = {h: int(lanes[str(h)]) + 1 for h in HORSES}
    exact = round_odds(finish, 4)
    counts = np.bincount(winners, minlength=13)[2:13]
    expected = winners.size * np.array([exact.win[h] for h in HORSES])
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < CHI2_10_DF_P001, (chi2, counts.tolist(), expected.tolist())
