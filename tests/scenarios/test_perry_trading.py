"""Perry's trading window: when it opens, who speaks, and what a trade moves, exactly."""

from __future__ import annotations

from dataclasses import replace

import pytest

from horserace.components.cards import KING, counts
from horserace.core.errors import ConfigError, IllegalAction, InvalidAction
from horserace.rules.board import events as ev
from horserace.rules.board.model import Offer, Phase
from tests.helpers import dice_for, new_game
from tests.scenarios.test_advanced_scenarios import act, race_state


def test_a_trade_both_sides_accept_moves_exactly_those_cards() -> None:
    game = new_game({"players": 3, "trade_window": "after-scratch"})
    race_state(game, {1: {6: 2, 9: 1}, 2: {7: 1, 8: 1}}, lines=(3, 4, 5, 0), roller=0)
    game.state = replace(game.state, phase=Phase.SCRATCH, scratch_rolls=3)
    act(game, "roll", dice_for(10))  # the fourth scratch: the window opens, dealer's left first
    assert game.state.phase is Phase.RACE and game.actor == 1
    events = act(game, "offer 3: 6 6 for 7")
    assert ev.TradeOffered(1, 2, 6, 2, 7) in events and game.actor == 2
    assert [a.text for a in game.rules.legal_actions(game.state, 2)] == ["accept", "decline"]
    events = act(game, "accept")
    assert ev.TradeAnswered(2, 1, True) in events
    assert game.state.hands[1] == counts({7: 1, 9: 1})
    assert game.state.hands[2] == counts({6: 2, 8: 1})
    assert game.actor == 2  # seat 3's own turn to offer
    act(game, "pass", "pass")  # seats 3 and 1 pass: the window closes
    assert game.actor == 1 and not game.state.traders  # the race's first roller


def test_a_declined_offer_changes_nothing() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1}, 2: {7: 1}}, lines=(0, 0, 0, 0))
    game.state = replace(game.state, phase=Phase.SCRATCH, traders=(1, 2, 0), roller=1)
    hands = game.state.hands
    act(game, "offer 3: 6 for 7", "decline", "pass", "pass")
    assert game.state.hands == hands and game.actor == 1 and not game.state.traders


def test_with_open_hands_only_cards_the_target_holds_are_asked_for() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1}, 2: {7: 1}, 0: {8: 2}}, lines=(0, 0, 0, 0))
    game.state = replace(game.state, traders=(1, 2, 0))
    offers = [a for a in game.rules.legal_actions(game.state, 1) if isinstance(a, Offer)]
    assert {(o.target, o.give, o.count, o.take) for o in offers} == {(2, 6, 1, 7), (0, 6, 1, 8)}
    with pytest.raises(IllegalAction):
        act(game, "offer 3: 6 for 9")  # seat 3 holds no 9


def test_hidden_hands_let_any_card_be_asked_for_and_only_decline_without_it() -> None:
    game = new_game({"players": 4, "trade_window": "before-scratch"}, preset="advanced")
    race_state(game, {1: {6: 1}, 2: {7: 1}}, lines=(0, 0, 0, 0))
    game.state = replace(game.state, traders=(1, 2, 3, 0))
    act(game, "offer 3: 6 for K")
    assert [a.text for a in game.rules.legal_actions(game.state, 2)] == ["decline"]
    assert game.state.hands[2][KING] == 0


def test_after_each_scratch_opens_a_window_per_scratch() -> None:
    game = new_game({"players": 3, "trade_window": "after-each-scratch"})
    race_state(game, {}, lines=(0, 0, 0, 0))
    game.state = replace(game.state, phase=Phase.SCRATCH, roller=1)
    opened = 0
    for horse in (4, 6, 8, 10):
        act(game, "roll", dice_for(horse))
        assert game.state.traders
        opened += 1
        act(game, "pass", "pass", "pass")
    assert opened == 4 and game.state.phase is Phase.RACE


def test_bad_offers_are_refused_with_a_reason() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1}, 2: {7: 1}}, lines=(0, 0, 0, 0))
    game.state = replace(game.state, traders=(1, 2, 0))
    with pytest.raises(InvalidAction, match="single rank"):
        game.rules.parse_action(game.state, "offer 3: 6 7 for 8")
    with pytest.raises(IllegalAction, match="not allowed now"):
        act(game, "offer 3: 6 6 for 7")  # seat 2 holds one 6
    with pytest.raises(IllegalAction):
        act(game, "offer 2: 6 for 7")  # to itself
    with pytest.raises(ConfigError, match="Classic and Advanced"):
        new_game({"trade_window": "after-scratch"}, preset="northwoods")
