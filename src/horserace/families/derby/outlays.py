"""What a Derby wager commits, for the random bot's budget (random_bot.py): its amount, out of
the seat's money."""

from __future__ import annotations

from typing import Any

from horserace.core.actions import Action
from horserace.families.derby.rules.model import DerbyView, Wager
from horserace.families.random_bot import NOTHING, Outlay, Outlays


def derby_outlay(view: Any, action: Action) -> Outlay:
    assert isinstance(view, DerbyView) and view.seat is not None
    if isinstance(action, Wager):
        return Outlay(action.amount, view.money[view.seat])
    return NOTHING


DERBY_OUTLAYS = Outlays((Wager,), derby_outlay)
