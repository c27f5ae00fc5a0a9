"""Perry's trading window: when it opens, who speaks, and what a trade moves, exactly."""

from __future__ import annotations

import pytest

from horserace.components.cards import KING, counts
from horserace.core.errors import ConfigError, IllegalAction, InvalidAction
from horserace.engine import Game
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import Offer
from horserace.families.board.rules.records import Trading
from horserace.families.board.rules.state import Phase
from tests.board_positions import arrange
from tests.helpers import dice_for, new_game
from tests.scenarios.test_advanced_scenarios import act, race_state


def test_a_trade_both_sides_accept_moves_exactly_those_cards() -> None:
    game = new_game({"players": 3, "trade_window": "after-scratch"})
    race_state(game, {1: {6: 2, 9: 1}, 2: {7: 1, 8: 1}}, lines=(3, 4, 5, 0), roller=0)
    game.state = arrange(game.state, phase=Phase.SCRATCH, roller=0, scratch_rolls=3)
    act(game, "roll", dice_for(10))  # the fourth scratch: the window opens, dealer's left first
    assert game.state.phase is Phase.RACE and game.actor == 1
    events = act(game, "offer 3: 6 6 for 7")
    assert hev.TradeOffered(1, 2, (6, 6), (7,)) in events and game.actor == 2
    assert [a.text for a in game.rules.legal_actions(game.state, 2)] == ["accept", "decline"]
    events = act(game, "accept")
    assert hev.TradeAnswered(2, 1, True) in events
    assert game.state.hands[1] == counts({7: 1, 9: 1})
    assert game.state.hands[2] == counts({6: 2, 8: 1})
    assert game.actor == 2  # seat 3's own turn to offer; seat 2 waits for its next turn
    act(game, "pass", "pass", "pass")  # seats 3, 1 and 2 pass: the window closes
    assert game.actor == 1 and not trading(game)  # the race's first roller


def test_a_declined_offer_changes_nothing() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1}, 2: {7: 1}}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, phase=Phase.SCRATCH, traders=(1, 2, 0), roller=1)
    hands = game.state.hands
    act(game, "offer 3: 6 for 7", "decline", "pass", "pass", "pass")
    assert game.state.hands == hands and game.actor == 1 and not trading(game)


def test_with_open_hands_only_cards_the_target_holds_are_asked_for() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1}, 2: {7: 1}, 0: {8: 2}}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, traders=(1, 2, 0))
    offers = [a for a in game.rules.legal_actions(game.state, 1) if isinstance(a, Offer)]
    assert {(o.target, o.give, o.take) for o in offers} == {
        (2, (6,), ()),
        (2, (6,), (7,)),
        (0, (6,), ()),
        (0, (6,), (8,)),
    }
    with pytest.raises(IllegalAction):
        act(game, "offer 3: 6 for 9")  # seat 3 holds no 9


def test_hidden_hands_let_any_card_be_asked_for_and_only_decline_without_it() -> None:
    game = new_game({"players": 4, "trade_window": "before-scratch"}, preset="advanced")
    race_state(game, {1: {6: 1}, 2: {7: 1}}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, traders=(1, 2, 3, 0))
    act(game, "offer 3: 6 for K")
    assert [a.text for a in game.rules.legal_actions(game.state, 2)] == ["decline"]
    assert game.state.hands[2][KING] == 0


def test_after_each_scratch_opens_a_window_per_scratch() -> None:
    game = new_game({"players": 3, "trade_window": "after-each-scratch"})
    race_state(game, {}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, phase=Phase.SCRATCH, roller=1)
    opened = 0
    for horse in (4, 6, 8, 10):
        act(game, "roll", dice_for(horse))
        assert trading(game)
        opened += 1
        act(game, "pass", "pass", "pass")
    assert opened == 4 and game.state.phase is Phase.RACE


def test_bad_offers_are_refused_with_a_reason() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1}, 2: {7: 1}}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, traders=(1, 2, 0))
    with pytest.raises(InvalidAction, match="at least one card"):
        game.rules.parse_action(game.state, "offer 3: nothing for nothing")
    with pytest.raises(IllegalAction, match="cards you hold"):
        act(game, "offer 3: 6 6 for 7")  # seat 2 holds one 6
    with pytest.raises(IllegalAction):
        act(game, "offer 2: 6 for 7")  # to itself
    with pytest.raises(ConfigError, match="Classic and Advanced"):
        new_game({"trade_window": "after-scratch"}, preset="northwoods")


def trading(game: Game) -> bool:
    return isinstance(game.state.phase_record, Trading)


def test_any_exchange_both_accept_and_several_offers_in_one_window() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    race_state(game, {1: {6: 1, 9: 2}, 2: {7: 1, 8: 1}, 0: {4: 1}}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, phase=Phase.SCRATCH, traders=(1, 2, 0), roller=1)
    events = act(game, "offer 3: 6 9 for 7 8", "accept")  # two cards each way, any ranks
    assert hev.TradeOffered(1, 2, (6, 9), (7, 8)) in events
    assert game.state.hands[1] == counts({7: 1, 8: 1, 9: 1})
    assert game.state.hands[2] == counts({6: 1, 9: 1})
    act(game, "pass")  # seat 3 is done; seat 1 gets another turn
    events = act(game, "offer 2: 4 for nothing")  # seat 0 gives a card away: one card moves
    assert hev.TradeOffered(0, 1, (4,), ()) in events
    act(game, "accept")
    assert game.actor == 1  # the first offerer's second turn
    events = act(game, "offer 1: 9 for nothing", "decline")
    assert hev.TradeAnswered(0, 1, False) in events
    assert trading(game)  # still open: seats 1 and 0 have not passed yet
    act(game, "pass", "pass")
    assert not trading(game) and game.actor == 1


def test_each_seat_makes_at_most_the_tables_number_of_offers() -> None:
    game = new_game({"players": 2, "trade_window": "before-scratch", "trade_offers": 2})
    race_state(game, {1: {6: 3}, 0: {7: 3}}, lines=(0, 0, 0, 0))
    game.state = arrange(game.state, phase=Phase.SCRATCH, traders=(1, 0), roller=1)
    act(game, "offer 1: 6 for 7", "decline", "pass", "offer 1: 6 for 7", "decline")
    assert not trading(game)  # seat 1 used its two offers and seat 0 passed: closed
