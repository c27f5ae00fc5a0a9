"""Classic Mode: what each seat may see of the hands, and the actions the rules refuse (out of
turn, misplaced, after the end, garbage text), with forced dice and cards as in
test_classic_scenarios.py."""

from __future__ import annotations

from typing import Any

import pytest

from horserace.components.cards import counts_from_ranks
from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.events import redact
from horserace.engine import Step
from horserace.families.board.rules.actions import ROLL, Deal
from horserace.families.board.rules.events import (
    CardDealt,
    CardDealtFaceDown,
    DiceRolled,
)
from horserace.families.board.rules.state import Phase
from horserace.families.presets import get_preset
from tests.helpers import (
    deal_script,
    events_of,
    fill_hands,
    random_game,
    rolls,
    scripted_game,
)

RULES = get_preset("classic").rules


# --- what the seats see ----------------------------------------------------------------------


def test_hidden_hands_views_and_redacted_deal_events() -> None:
    hands = fill_hands(4)
    steps: list[Step] = []
    game = scripted_game({"players": 4, "open_hands": False}, deal_script(hands, 0), steps=steps)
    state = game.state
    for seat in range(4):
        view = RULES.view(state, seat)
        assert view.hands[seat] == counts_from_ranks(hands[seat])
        assert all(view.hands[other] is None for other in range(4) if other != seat)
        assert view.hand_sizes == (11,) * 4
    assert RULES.view(state, None).hands == (None,) * 4
    events = [e for s in steps for e in s.events]
    for seat in range(4):
        shown = redact(events, seat)
        assert len(shown) == 44
        own = [e for e in shown if isinstance(e, CardDealt)]
        assert {e.seat for e in own} == {seat} and len(own) == 11
        face_down = [e.seat for e in shown if isinstance(e, CardDealtFaceDown)]
        assert sorted(face_down) == sorted([s for s in range(4) if s != seat] * 11)
    spectator = redact(events, None)
    assert all(isinstance(e, CardDealtFaceDown) for e in spectator) and len(spectator) == 44


def test_open_hands_show_every_hand() -> None:
    hands = fill_hands(3, stub=[2, 2])
    game = scripted_game({"players": 3}, deal_script(hands, 0))
    for seat in (0, 1, 2, None):
        view = RULES.view(game.state, seat)
        assert view.hands == tuple(counts_from_ranks(hand) for hand in hands)


# --- illegal and invalid actions ----------------------------------------------------------------


def test_out_of_turn_and_misplaced_actions_are_illegal() -> None:
    hands = fill_hands(4)
    game = scripted_game({"players": 4}, deal_script(hands, 0))
    state = game.state
    assert game.actor == 1
    assert [list(RULES.legal_actions(state, seat)) for seat in range(4)] == [[], [ROLL], [], []]
    with pytest.raises(IllegalAction, match=r"(seat |P)2\b"):
        RULES.apply(state, Deal(5))  # a chance outcome while seat 2 (P2) must roll
    rolling = RULES.apply(state, ROLL)[0]
    with pytest.raises(IllegalAction):
        RULES.apply(rolling, ROLL)  # nobody rolls while the dice are in the air
    assert RULES.legal_actions(rolling, 1) == ()
    with pytest.raises(IllegalAction, match="dealt"):
        RULES.apply(rolling, Deal(5))  # a deal during the scratch phase


def test_deal_during_the_race_is_illegal() -> None:
    script = deal_script(fill_hands(2), 0) + rolls(3, 4, 5, 6)
    game = scripted_game({"players": 2}, script)
    assert game.state.phase is Phase.RACE and game.actor == 1
    for state in (game.state, RULES.apply(game.state, ROLL)[0]):
        with pytest.raises(IllegalAction) as caught:
            RULES.apply(state, Deal(7))
        assert str(caught.value) and "\n" not in str(caught.value)


def test_dealing_a_rank_the_deck_lacks_is_illegal() -> None:
    state = RULES.initial_state(RULES.make_config({"players": 2}))
    for _ in range(4):
        state, _ = RULES.apply(state, Deal(12))
    assert not RULES.can(state, Deal(12))
    with pytest.raises(IllegalAction, match="Q"):
        RULES.apply(state, Deal(12))
    assert Deal(12) not in [action for action, _ in RULES.chance_outcomes(state)]


def test_any_action_after_the_game_is_over_is_illegal() -> None:
    game = random_game({"players": 2, "rounds": 1}, seed=3)
    assert game.over
    for action in (ROLL, Deal(5), RULES.chance_outcomes(_a_dice_state())[0][0]):
        with pytest.raises(IllegalAction, match="over"):
            RULES.apply(game.state, action)
    assert RULES.legal_actions(game.state, 0) == () and RULES.chance_outcomes(game.state) == []


def _a_dice_state() -> Any:
    game = scripted_game({"players": 2}, deal_script(fill_hands(2), 0))
    return RULES.apply(game.state, ROLL)[0]


@pytest.mark.parametrize("text", ["", "jump", "roll 7", "deal 7", "3+4", "7+1", "0+3", "1+2+3"])
def test_garbage_when_a_seat_must_roll_is_invalid(text: str) -> None:
    game = scripted_game({"players": 2}, deal_script(fill_hands(2), 0))
    with pytest.raises(InvalidAction):
        RULES.parse_action(game.state, text)
    assert RULES.parse_action(game.state, " roll ") == ROLL


@pytest.mark.parametrize("text", ["deal", "deal A", "deal K", "deal 13", "deal 1", "roll", "K"])
def test_garbage_during_the_deal_is_invalid(text: str) -> None:
    state = RULES.initial_state(RULES.make_config({"players": 2}))
    with pytest.raises(InvalidAction):
        RULES.parse_action(state, text)
    assert RULES.parse_action(state, "deal q") == Deal(12)
    assert RULES.parse_action(state, "7") == Deal(7)  # companion mode: a bare rank


@pytest.mark.parametrize("text", ["1", "13+", "0+6", "6+7", "3-4", "roll", "deal 7", "three+four"])
def test_garbage_dice_are_invalid(text: str) -> None:
    state = _a_dice_state()
    with pytest.raises(InvalidAction):
        RULES.parse_action(state, text)
    assert RULES.parse_action(state, "4+3").text == "3+4"


def test_dice_events_name_the_roller_and_the_phase() -> None:
    steps: list[Step] = []
    scripted_game({"players": 2}, [*deal_script(fill_hands(2), 0), "4+3"], steps=steps)
    assert [(e.seat, e.dice, e.phase) for e in events_of(steps, DiceRolled)] == [
        (1, (3, 4), "scratch")
    ]
