"""Schellenberg's market: dealt as an extra hand, opened after the scratch phase without its
scratched cards, and bought from after a race roll at the highest scratch line's value."""

from __future__ import annotations

import pytest

from horserace.components.cards import counts, total
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError, IllegalAction
from horserace.core.events import redact
from horserace.core.types import CHANCE
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import Buy
from horserace.families.board.rules.records import MARKET, NextRound, Payout
from horserace.families.board.rules.state import Phase
from tests.board_positions import arrange
from tests.helpers import dice_for, new_game
from tests.scenarios.test_advanced_scenarios import act, race_state


def test_the_market_is_dealt_last_in_each_turn_round_the_table() -> None:
    game = new_game({"players": 3, "market": True})
    assert game.state.phase_record.to_deal == 44  # 44 cards for four hands: 11 each, no stub
    chance = SeededChance(4)
    order = []
    while game.state.phase is Phase.DEAL:
        order.append(game.state.phase_record.deal_to)
        game.apply(chance.choose(game.rules, game.state))
    assert order[:8] == [1, 2, 0, MARKET, 1, 2, 0, MARKET]  # the market after the dealer (0)
    assert [total(h) for h in game.state.hands] == [11, 11, 11] and total(game.state.market) == 11


def test_market_cards_stay_face_down_until_the_scratch_phase_ends() -> None:
    game = new_game({"players": 3, "market": True})
    race_state(game, {}, lines=(0, 0, 0, 0))
    market = counts({4: 2, 7: 1, 9: 1})
    game.state = arrange(game.state, phase=Phase.SCRATCH, market=market, roller=1)
    assert game.rules.view(game.state, 0).market is None
    events = act(game, "roll", dice_for(4), "roll", dice_for(5), "roll", dice_for(6))
    events += act(game, "roll", dice_for(8))
    assert hev.MarketOpened(tuple(counts({7: 1, 9: 1}))) in events
    assert game.state.discards[4] == 2  # the market's scratched cards are discarded
    assert game.rules.view(game.state, None).market == counts({7: 1, 9: 1})


def test_buying_costs_the_highest_scratch_line_and_swaps_one_card() -> None:
    game = new_game({"players": 3, "market": True})
    race_state(game, {0: {3: 1, 6: 1}}, lines=(4, 0, 9, 0))  # highest occupied line: 3
    game.state = arrange(game.state, market=counts({7: 1, 10: 1}))
    act(game, "roll", dice_for(12))
    legal = [a.text for a in game.rules.legal_actions(game.state, 0)]
    assert legal == ["pass", "buy 7 for 3", "buy 7 for 6", "buy 10 for 3", "buy 10 for 6"]
    events = act(game, "buy 7 for 3")
    assert hev.CardBought(0, 7, 3, 3) in events
    assert game.state.hands[0] == counts({6: 1, 7: 1})
    assert game.state.market == counts({3: 1, 10: 1})
    assert list(game.state.ledger.balances) == [47, 50, 50, 3]
    assert game.actor == 1


def test_no_purchase_without_the_price_or_after_the_race_is_won() -> None:
    game = new_game({"players": 3, "market": True})
    race_state(game, {0: {3: 1}}, lines=(0, 0, 0, 4), chips=3)  # price: line 4 = 4 chips
    game.state = arrange(game.state, market=counts({7: 1}))
    act(game, "roll", dice_for(12))
    assert game.actor == 1  # seat 1 could not afford it: no window
    won = new_game({"players": 3, "market": True})
    race_state(won, {0: {3: 1}}, positions={2: 2})
    won.state = arrange(won.state, market=counts({7: 1}))
    step = won.act(0, won.rules.parse_action(won.state, "roll"))
    step = won.apply(won.rules.parse_action(won.state, dice_for(2)))
    assert any(isinstance(e, ev.RaceWon) for e in step.events)
    assert isinstance(won.state.phase_record, Payout)  # paying out is the next step
    assert won.actor is CHANCE  # the payout: nobody may buy
    won.apply(won.rules.forced_chance(won.state))  # type: ignore[arg-type]
    assert isinstance(won.state.phase_record, NextRound)
    with pytest.raises(IllegalAction):
        won.act(0, Buy(7, 3))


def test_the_market_is_redealt_with_the_discards_each_round() -> None:
    game = new_game({"players": 3, "market": True, "rounds": 2})
    race_state(game, {0: {2: 1}}, lines=(5, 6, 8, 9), positions={2: 2})
    game.state = arrange(game.state, market=counts({7: 3}), discards=counts({5: 4}))
    act(game, "roll", dice_for(2))
    assert game.state.round == 2 and total(game.state.market) == 0
    assert game.state.deck[7] >= 3  # the old market went back into the deal


def test_market_deals_are_hidden_from_everyone() -> None:
    game = new_game({"players": 2, "market": True})
    chance = SeededChance(1)
    for _ in range(3):
        step = game.apply(chance.choose(game.rules, game.state))
    assert isinstance(step.events[0], hev.MarketDealt)
    for seat in (0, 1, None):
        assert redact(step.events, seat) == [hev.MarketDealtFaceDown()]


def test_the_market_is_only_for_classic() -> None:
    with pytest.raises(ConfigError, match="Classic Mode rule"):
        new_game({"market": True}, preset="advanced")


def test_a_buy_is_offered_only_when_the_price_is_left_after_the_rolls_own_penalty() -> None:
    # Price 4 (line 4 occupied). Seat 0 holds 5 and rolls horse 5 on line 1: pays 1, has 4 left.
    game = new_game({"players": 3, "market": True})
    race_state(game, {0: {3: 1}}, lines=(5, 0, 0, 9), chips=5)
    game.state = arrange(game.state, market=counts({7: 1}))
    act(game, "roll", dice_for(5))
    assert game.actor == 0 and "buy 7 for 3" in [
        a.text for a in game.rules.legal_actions(game.state, 0)
    ]
    events = act(game, "buy 7 for 3")
    assert ev.ChipsPaid(0, 4, 4, "a market card") in events  # the full price, never on credit
    assert game.state.ledger.balances[0] == 0
    # Seat 1 holds 4: after paying 1 for its own scratched roll it has 3, short of the price.
    race_state(game, {1: {3: 1}}, lines=(5, 0, 0, 9), chips=4, roller=1)
    game.state = arrange(game.state, market=counts({7: 1}))
    act(game, "roll", dice_for(5))
    assert game.actor == 2  # no offer to seat 1
    with pytest.raises(IllegalAction):
        game.act(1, Buy(7, 3))
