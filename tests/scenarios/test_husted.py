"""Husted's house rule: betting limits, folding, the draw and the face cards, with exact chips."""

from __future__ import annotations

import pytest

from horserace.components.cards import ACE, JOKER, KING, counts, total
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError, IllegalAction
from horserace.engine import Game
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.records import Betting
from horserace.families.board.rules.state import Phase
from tests.board_positions import arrange
from tests.helpers import bots_for, dice_for, new_game
from tests.scenarios.test_advanced_scenarios import act, phase_of, race_state

HUSTED = {"players": 3, "husted": True, "ante": 2, "open_hands": False}


def betting(hands: dict[int, dict[int, int]], chips: int = 50, **options: object) -> Game:
    """A Husted table at the first betting round, hands as given (dealer seat 0)."""
    game = new_game({**HUSTED, **options})
    race_state(game, hands, lines=(0, 0, 0, 0), chips=chips)
    game.state = arrange(game.state, record=Betting(1, 0, (0, 0, 0), (1, 2, 0)))
    return game


def texts(game: Game, seat: int) -> list[str]:
    return [a.text for a in game.rules.legal_actions(game.state, seat)]


def test_the_deck_keeps_aces_kings_and_jokers() -> None:
    deck = new_game(HUSTED).state.deck
    assert total(deck) == 54 and deck[ACE] == 4 and deck[KING] == 4 and deck[JOKER] == 2
    assert total(new_game({**HUSTED, "players": 6}).state.deck) == 108


def test_wagers_and_raises_are_at_most_twice_the_ante() -> None:
    game = betting({})
    assert game.actor == 1 and texts(game, 1) == [
        "check",
        "wager 1",
        "wager 2",
        "wager 3",
        "wager 4",
    ]
    act(game, "wager 4")
    assert texts(game, 2) == ["meet", "raise 1", "raise 2", "raise 3", "raise 4", "fold"]
    act(game, "raise 4")  # seat 2 now has 8 in: 4 to meet and 4 more
    assert game.rules.view(game.state, None).bet_level == 8 and game.actor == 0
    assert list(game.state.ledger.balances) == [50, 46, 42, 12]


def test_a_players_wagers_total_at_most_five_antes() -> None:
    game = betting({})
    act(game, "wager 4", "raise 4")  # seat 2: 8 of its 10
    assert texts(game, 0) == ["meet", "raise 1", "raise 2", "fold"]  # 8 to meet, room for 2
    act(game, "raise 2")  # seat 0: 10, its limit
    assert texts(game, 1) == ["meet", "fold"]  # seat 1 has 4 in: meeting 6 reaches its 10
    act(game, "meet", "meet")
    assert game.state.phase is Phase.DRAW
    assert game.state.seats.wagered == (10, 10, 10)
    game.state = arrange(game.state, record=Betting(2, 0, (0, 0, 0), (1, 2, 0)))
    assert texts(game, 1) == ["check"]  # nothing left to wager in the second round


def test_a_fold_loses_the_share() -> None:
    game = new_game({**HUSTED, "rounds": 2})
    race_state(game, {0: {2: 1}, 1: {2: 1}}, positions={2: 2}, lines=(5, 6, 8, 9))
    pot = list(game.state.ledger.balances)
    pot[3] = 40
    game.state = arrange(game.state, folded=(True, False, False), chips=pot)
    events = act(game, "roll", dice_for(2))
    assert [e for e in events if isinstance(e, ev.PayoutMade)] == [ev.PayoutMade(1, 1, 10)]
    assert list(game.state.ledger.balances) == [50, 60, 50, 30]


def test_everyone_folding_to_a_wager_ends_the_betting() -> None:
    game = betting({})
    act(game, "wager 1", "fold", "fold")
    assert game.state.seats.folded == (True, False, True) and game.state.phase is Phase.DRAW
    assert game.state.phase_record.drawers == (1,)


def test_the_draw_discards_face_up_and_deals_as_many_from_the_stub() -> None:
    game = betting({1: {JOKER: 1, ACE: 1, 7: 1}, 2: {4: 1}, 0: {5: 1}})
    game.state = arrange(game.state, deck=counts({9: 2, 10: 3}))
    act(game, "check", "check", "check")
    assert game.state.phase is Phase.DRAW and game.actor == 1
    assert "discard joker A" in texts(game, 1) and "discard 7 7" not in texts(game, 1)
    events = act(game, "discard joker A", "deal 9", "deal 10")
    assert hev.CardsDrawn(1, (JOKER, ACE)) in events
    assert game.state.hands[1] == counts({7: 1, 9: 1, 10: 1})
    assert game.state.discards[JOKER] == 1 and game.state.discards[ACE] == 1
    act(game, "discard none", "discard 5")
    with pytest.raises(IllegalAction):
        act(game, "deal 7")  # the stub holds only 9s and 10s
    act(game, "deal 10")
    assert phase_of(game) is Phase.BETTING and game.state.phase_record.round_no == 2


def test_a_jack_moves_a_horse_back_after_paying_for_a_scratch() -> None:
    game = new_game(HUSTED)
    race_state(game, {0: {11: 1}}, positions={7: 5}, lines=(3, 0, 0, 0))
    act(game, "roll", dice_for(3))  # scratched: pays 1, then may play a face card
    assert game.actor == 0 and "jack 7" in texts(game, 0)
    events = act(game, "jack 7")
    assert ev.HorseWentBack(7, 4) in events  # every move of a horse has its event
    assert game.state.position(7) == 4 and game.state.discards[11] == 1
    assert list(game.state.ledger.balances) == [49, 50, 50, 1]


def test_queen_and_king_chips_each_stop_one_roll_and_go_to_the_pot() -> None:
    game = new_game(HUSTED)
    race_state(game, {0: {12: 1}, 1: {KING: 1}}, lines=(3, 0, 0, 0))
    act(game, "roll", dice_for(3), "queen 7")  # 1 penalty + 1 chip under horse 7
    act(game, "roll", dice_for(3), "king 6")  # seat 1: 1 penalty + 2 chips under horse 6
    assert game.state.race.blocks[7 - 2] == 1 and game.state.race.blocks[6 - 2] == 2
    assert list(game.state.ledger.balances) == [48, 47, 50, 5]
    events = act(game, "roll", dice_for(7))
    assert hev.HorseBlocked(7, 0) in events and game.state.position(7) == 0
    act(game, "roll", dice_for(7))
    assert game.state.position(7) == 1
    act(game, "roll", dice_for(6), "roll", dice_for(6), "roll", dice_for(6))
    assert game.state.position(6) == 1 and game.state.race.blocks[6 - 2] == 0


def test_the_payer_is_asked_about_a_face_card_whether_or_not_they_hold_one() -> None:
    game = new_game(HUSTED)
    race_state(game, {0: {5: 1}}, lines=(3, 0, 0, 0))
    act(game, "roll", dice_for(3))  # scratched: pays 1; holds no J, Q or K
    assert game.actor == 0 and texts(game, 0) == ["pass"]
    act(game, "pass")
    assert game.actor == 1


def test_no_face_card_without_a_scratch_penalty() -> None:
    game = new_game(HUSTED)
    race_state(game, {0: {11: 1, 12: 1}}, positions={7: 3})
    act(game, "roll", dice_for(7))
    assert game.actor == 1  # a running horse rolled: no window


def test_house_rules_are_refused_where_the_rulings_do_not_allow_them() -> None:
    with pytest.raises(ConfigError, match="Robertson"):
        new_game({"robertson": True}, preset="northwoods")
    with pytest.raises(ConfigError, match="Classic Mode rule"):
        new_game({"market": True}, preset="northwoods")


def test_husted_needs_classic_an_ante_and_hidden_hands() -> None:
    with pytest.raises(ConfigError, match="needs an ante"):
        new_game({"husted": True, "ante": 0, "open_hands": False})
    with pytest.raises(ConfigError, match="Classic Mode"):
        new_game({"husted": True, "ante": 1}, preset="advanced")
    with pytest.raises(ConfigError, match="hidden hands"):
        new_game({"husted": True, "ante": 1, "open_hands": True})


def test_a_whole_husted_game_conserves_chips() -> None:
    game = new_game({**HUSTED, "rounds": 3}, seed=9)
    chance = SeededChance(9)
    bots = bots_for(3, 9)
    while not game.over:
        actor = game.actor
        if isinstance(actor, int):
            legal = game.rules.legal_actions(game.state, actor)
            game.act(actor, bots[actor].choose(game.rules.view(game.state, actor), legal))
        else:
            game.apply(chance.choose(game.rules, game.state))
        assert sum(game.state.ledger.balances) == 300
