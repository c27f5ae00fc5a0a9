"""At the keyboard, Perry's window takes any exchange typed out, not only the listed offers;
an offer of cards the seat does not hold is not taken."""

from __future__ import annotations

from horserace.components.cards import counts
from horserace.families.board.rules.actions import Offer
from horserace.families.board.rules.state import Phase
from horserace.families.board.screen import _free_offer
from tests.board_positions import arrange
from tests.helpers import new_game


def test_a_typed_exchange_beyond_the_list_is_taken_and_a_bad_one_is_not() -> None:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    hands = (counts({6: 1, 9: 2}), counts({7: 1, 8: 1}), counts({4: 1}))
    game.state = arrange(game.state, phase=Phase.SCRATCH, traders=(0, 1, 2), hands=hands)
    legal = game.rules.legal_actions(game.state, 0)
    view = game.rules.view(game.state, 0)
    typed = _free_offer("offer 2: 6 9 9 for 7 8", 0, view, legal)
    assert typed == Offer(0, 1, (6, 9, 9), (7, 8)) and typed not in legal
    game.act(0, typed)  # the rules take it too
    assert game.actor == 1
    assert _free_offer("offer 2: 5 for 7", 0, view, legal) is None  # holds no 5
    assert _free_offer("offer 2: 6 for 4", 0, view, legal) is None  # open hands: seat 2 has no 4
    assert _free_offer("offer 1: 6 for 4", 0, view, legal) is None  # not to oneself
    assert _free_offer("pass", 0, view, legal) is None
