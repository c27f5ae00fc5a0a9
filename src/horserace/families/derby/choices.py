"""The questions a Derby table puts to a person: a silk, a horse or a wager, each keyed by its
own number (horse 7 is `7`, a $2 wager is `2`), with what a wager is worth on average. Enter
alone picks nothing (a silk and a horse are typed too), and a wager over a quarter of one's
money, or paying over 1.5 times what it returns on average (the stake back and the winnings,
by the exact odds), is asked again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from horserace.core.actions import Action
from horserace.core.events import seat_name
from horserace.families.derby.bots import wager_value
from horserace.families.derby.render import silk_table
from horserace.families.derby.rules.model import ChooseHorse, ChooseSilk, DerbyView, Wager
from horserace.families.derby.rules.silks import SILKS
from horserace.terminal.choices import Choice, Option, any_of, over_a_quarter, over_its_worth
from horserace.terminal.screen import TableScreen


def number_ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5, 7, 8] -> '1-3, 5, 7-8'."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


class DerbyAsker:
    """A silk, a horse or a wager by its own number (`$2` and `horse 7` are read too)."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen

    def seen(self, view: Any, screen: TableScreen) -> Any:
        assert screen.game is not None
        return screen.game.state

    def choice(self, view: Any, legal: Sequence[Action], seat: int) -> Choice:
        assert isinstance(view, DerbyView)
        name = seat_name(self.screen.names, seat)
        options: list[Option] = []
        if isinstance(legal[0], Wager):
            value = wager_value(view, seat)
            for action in legal:
                assert isinstance(action, Wager)
                worth = float(value * action.amount)
                options.append(
                    Option(
                        str(action.amount),
                        f"wager ${action.amount} (worth {worth:+.2f})",
                        action,
                        names=(f"${action.amount}",),
                    )
                )
            question = (
                f"{name}, your wager on horse {view.horses[seat]} at odds {view.odds[seat]}"
                f" (each $1 is worth {float(value):+.2f} on average)"
            )
            doubt = any_of(
                over_a_quarter(view.money[seat], _cost, "dollars"),
                over_its_worth(_cost, lambda a: float((1 + value) * (_cost(a) or 0)), "dollars"),
            )
            return Choice(seat, question, tuple(options), doubt=doubt)
        if isinstance(legal[0], ChooseSilk):
            self.screen.show(silk_table([s for s in view.silks if s is not None]))
            for action in legal:
                assert isinstance(action, ChooseSilk)
                silk = SILKS[action.silk - 1]
                words = f"silk {action.silk}: {silk.name}"
                options.append(Option(str(action.silk), words, action))
            return Choice(seat, f"{name}, your silk", tuple(options))
        free = [a.horse for a in legal if isinstance(a, ChooseHorse)]
        for action in legal:
            assert isinstance(action, ChooseHorse)
            options.append(Option(str(action.horse), f"horse {action.horse}", action))
        question = f"{name}, your horse (free: {number_ranges(free)})"
        return Choice(seat, question, tuple(options))


def _cost(action: Action) -> int | None:
    return action.amount if isinstance(action, Wager) else None
