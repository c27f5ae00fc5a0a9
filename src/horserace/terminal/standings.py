"""The final standings every family prints: place (a shared place written '=2'), player, money,
and the round a player went out in where the family has such a thing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich import box
from rich.table import Table
from rich.text import Text

from horserace.core.events import seat_name
from horserace.core.rules import Result


def standings_table(
    result: Result,
    names: Sequence[str],
    *,
    money_column: str = "chips",
    money: Callable[[int], str] = str,
) -> Table:
    places = [standing.place for standing in result.standings]
    table = Table(
        title="Final standings", box=box.SIMPLE_HEAD, title_style="bold", header_style="bold"
    )
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column(money_column, justify="right")
    went_out = any(standing.out for standing in result.standings)
    if went_out:
        table.add_column("")
    for standing in result.standings:
        shared = places.count(standing.place) > 1
        place = f"={standing.place}" if shared else str(standing.place)
        style = "bold green" if standing.place == 1 else ("dim" if standing.out else "")
        row: list[str | Text] = [
            place,
            Text(seat_name(names, standing.seat), style=style),
            money(standing.chips),
        ]
        if went_out:
            row.append(f"out in round {standing.out}" if standing.out else "")
        table.add_row(*row)
    return table
