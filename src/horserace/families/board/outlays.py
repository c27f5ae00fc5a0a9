"""What the board game's money choices commit, for the random bot's budget (random_bot.py):
a Schellenberg market buy costs the market's price; a Husted meet or wager adds what the seat
owes plus the raise to what it has wagered this round."""

from __future__ import annotations

from typing import Any

from horserace.core.actions import Action
from horserace.families.board.rules.actions import Buy, Meet, Wager
from horserace.families.board.rules.phases.scratch import scratch_value
from horserace.families.board.rules.view import BoardView
from horserace.families.random_bot import NOTHING, Outlay, Outlays


def board_outlay(view: Any, action: Action) -> Outlay:
    assert isinstance(view, BoardView) and view.seat is not None
    seat = view.seat
    chips = view.chips[seat]
    if isinstance(action, Buy):
        line = max((index + 1 for index, horse in enumerate(view.lines) if horse), default=0)
        return Outlay(scratch_value(view.config, line) if line else 0, chips)
    if isinstance(action, Meet | Wager):
        owe = view.bet_level - view.round_bets[seat]
        added = owe + (action.amount if isinstance(action, Wager) else 0)
        riding = view.wagered[seat]
        return Outlay(riding + added, chips + riding)
    return NOTHING


BOARD_OUTLAYS = Outlays((Buy, Meet, Wager), board_outlay)
