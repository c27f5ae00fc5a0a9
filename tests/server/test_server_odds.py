"""Live odds in the table's messages: worked out from the view, equal to the exact odds,
and absent for families without a board-view odds function."""

from __future__ import annotations

import pytest

from horserace.components.board import HORSES
from horserace.core.chance import SeededChance
from horserace.odds.race import race_odds, scratch_phase_odds
from horserace.rules.board.model import Phase
from horserace.rules.registry import get_preset
from horserace.server.messages import table_state
from tests.helpers import bots_for, new_game


def test_a_board_table_before_the_scratches_carries_the_exact_pre_race_odds() -> None:
    preset = get_preset("classic")
    state = preset.rules.initial_state(preset.config({}))
    message = table_state(preset.rules, state, None, "playing", 7, moves=False)
    assert message.odds is not None
    board = state.config.board
    exact = scratch_phase_odds({h: board.advances_to_finish(h) for h in HORSES}, set(), 4)
    assert message.odds == {str(h): p for h, p in exact.items()}


def test_mid_race_odds_follow_the_positions_and_scratches() -> None:
    game = new_game({"players": 4, "rounds": 1}, seed=3)
    chance, bots = SeededChance(3), bots_for(4, 3)
    while not (game.state.phase is Phase.RACE and game.state.race_rolls >= 10):
        actor = game.actor
        if isinstance(actor, int):
            legal = game.rules.legal_actions(game.state, actor)
            game.act(actor, bots[actor].choose(game.rules.view(game.state, actor), legal))
        else:
            game.apply(chance.choose(game.rules, game.state))
    state = game.state
    message = table_state(game.rules, state, 1, "playing", 3, moves=False)
    board = state.config.board
    running = {
        h: board.advances_to_finish(h) - state.position(h) for h in HORSES if not state.line_of(h)
    }
    expected = race_odds(running).win
    assert message.odds is not None
    assert message.odds.keys() == {str(h) for h in expected}
    for horse, chance_ in expected.items():
        assert message.odds[str(horse)] == pytest.approx(chance_, abs=1e-12)


def test_other_families_send_no_board_odds() -> None:
    preset = get_preset("derby")
    state = preset.rules.initial_state(preset.config({}))
    assert table_state(preset.rules, state, None, "waiting", 1, moves=False).odds is None
