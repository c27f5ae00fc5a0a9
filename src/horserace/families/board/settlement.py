"""A round's settlement in one block: what each seat collects from the pots as the race is
paid, its money now, and what the round gained or cost it (antes and penalties too), so that
nothing of the payout is lost when the next round's first question comes up."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from horserace.core.events import Event, seat_name
from horserace.families.board.news import money_text
from horserace.families.board.rules import events as ev


def collected(events: Sequence[Event], players: int) -> list[int]:
    """What each seat collects in the payout's events (the Main Pot, the Jockey Pot)."""
    paid = [0] * players
    for event in events:
        if isinstance(event, ev.PayoutMade | ev.JockeyPotWon):
            paid[event.seat] += event.amount
    return paid


def money_table(
    names: Sequence[str],
    began: Sequence[int],
    now: Sequence[int],
    events: Sequence[Event],
    unit: str,
) -> Table:
    """A row a seat: collected in the payout, money now, and the round's gain or loss (from
    `began`, the money as the round began)."""
    table = Table(box=None, padding=(0, 2, 0, 0), header_style="bold")
    table.add_column("player")
    table.add_column("collects", justify="right")
    table.add_column("money" if unit == "cents" else "chips", justify="right")
    table.add_column("this round", justify="right")
    paid = collected(events, len(now))
    for seat, money in enumerate(now):
        change = money - began[seat] if seat < len(began) else 0
        sign = "+" if change > 0 else ("-" if change < 0 else "±")
        style = "green" if change > 0 else ("red" if change < 0 else "")
        table.add_row(
            seat_name(names, seat),
            money_text(unit, paid[seat]) if paid[seat] else "-",
            money_text(unit, money),
            Text(f"{sign}{money_text(unit, abs(change))}", style=style),
        )
    return table
