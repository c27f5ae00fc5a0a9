"""Husted: a player whose chips cannot cover the wager to meet may only fold (no "pay what you
can" meet, no side pots), with exact chips; the bots are offered the fold alone and take it."""

from __future__ import annotations

import pytest

from horserace.core.errors import IllegalAction
from horserace.drivers.bots import make_bot
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.state import Phase
from tests.board_positions import arrange
from tests.scenarios.test_advanced_scenarios import act
from tests.scenarios.test_husted import betting, texts


def test_a_player_short_of_the_wager_may_only_fold() -> None:
    game = betting({1: {7: 1}, 2: {7: 1}})
    game.state = arrange(game.state, chips=[50, 50, 3, 0])
    act(game, "wager 4")
    assert texts(game, 2) == ["fold"]
    with pytest.raises(IllegalAction, match=r"owes 4 to meet and holds 3: .* may only fold"):
        act(game, "meet")
    events = act(game, "fold", "meet")
    assert hev.Folded(2) in events
    assert not [e for e in events if isinstance(e, ev.ChipsPaid) and e.seat == 2]
    assert game.state.seats.folded == (False, False, True)
    assert game.state.seats.wagered == (4, 4, 0)
    assert list(game.state.ledger.balances) == [46, 46, 3, 8]
    assert game.state.phase is Phase.DRAW and game.state.phase_record.drawers == (1, 0)


def test_exactly_enough_chips_meet_and_nothing_is_left_to_raise() -> None:
    game = betting({})
    game.state = arrange(game.state, chips=[4, 50, 50, 0])
    act(game, "wager 4", "meet")
    assert texts(game, 0) == ["meet", "fold"]
    act(game, "meet")
    assert list(game.state.ledger.balances) == [0, 46, 46, 12]
    assert game.state.seats.folded == (False, False, False)


def test_an_empty_stack_checks_when_nothing_is_owed_and_folds_to_any_wager() -> None:
    game = betting({})
    game.state = arrange(game.state, chips=[50, 0, 50, 0])
    assert texts(game, 1) == ["check"]
    act(game, "check", "wager 1")
    assert texts(game, 0) == ["meet", "raise 1", "raise 2", "raise 3", "raise 4", "fold"]
    act(game, "meet")
    assert texts(game, 1) == ["fold"]  # one chip to meet, none held
    act(game, "fold")
    assert list(game.state.ledger.balances) == [49, 0, 49, 2]
    assert game.state.seats.folded == (False, True, False)


@pytest.mark.parametrize("kind", ["ev", "heuristic", "random"])
def test_every_bot_folds_when_the_fold_is_all_it_may_do(kind: str) -> None:
    game = betting({2: {7: 2, 8: 1}})
    game.state = arrange(game.state, chips=[50, 50, 1, 0])
    act(game, "wager 2")
    legal = game.rules.legal_actions(game.state, 2)
    assert [a.text for a in legal] == ["fold"]
    bot = make_bot(kind, 5, "board")
    assert bot.choose(game.rules.view(game.state, 2), legal).text == "fold"
