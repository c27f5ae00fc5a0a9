"""The Derby table on a short screen with a big field: more than ONE_COLUMN horses (or seats
while they pick) go in two columns side by side, a line each, so twenty horses, every seat's
money and the question fit in 80x24. In a race each horse's lane is drawn to the columns left
(scaled when the track is longer, its space then written beside it); before a race every horse
stands on the start line, and its line says the odds die and the wager instead."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from horserace.core.events import seat_name
from horserace.families.derby.lanes import HOUSE_STYLE, LEAST_LANE, horse_style, lane, track_header
from horserace.families.derby.render import (
    DerbyInfo,
    dice_line,
    percent,
    render_table,
    shown_horses,
    shown_race,
    status_line,
    where,
)
from horserace.families.derby.rules.model import DerbyPhase, DerbyView
from horserace.families.derby.rules.race import RaceState
from horserace.families.derby.rules.silks import silk

ONE_COLUMN = 12  # horses or seats drawn one to a line; more go in two columns
GAP = " │ "  # between the two columns
NAME_WIDTH = 9  # a name is cut to this (with an ellipsis): "P20 (you)"
SILK_WIDTH = 10  # a silk's name likewise

Justify = str  # "left" or "right"
CUT = {"rider": NAME_WIDTH, "player": NAME_WIDTH, "silk": SILK_WIDTH}  # columns cut to a width


def compact_table(view: DerbyView, info: DerbyInfo) -> RenderableType:
    """The board for a short screen: render_table's compact drawing, with a field (or a table of
    seats) of more than ONE_COLUMN in two columns."""
    race = shown_race(view)
    picking = view.phase is DerbyPhase.SELECT and race is None
    many = len(view.order) if picking else len(shown_horses(view, race))
    if many <= ONE_COLUMN:
        return render_table(view, info, compact=True)
    parts: list[RenderableType] = [status_line(view, info)]
    if picking:
        parts.append(TwoColumns(*seat_rows(view, info)))
    else:
        if race is not None:
            parts.append(dice_line(view))
        parts.append(TwoColumns(*horse_rows(view, info, race)))
    return Group(*parts)


# --- the rows --------------------------------------------------------------------------------

Row = list[Text]
Lane = Callable[[int], Text]  # a row's lane drawn in so many cells (the header's too)


def horse_rows(
    view: DerbyView, info: DerbyInfo, race: RaceState | None
) -> tuple[list[tuple[str, Justify]], Row, list[Row], list[Lane] | None]:
    """The columns, the header, a row per horse and, in a race, each row's lane (the header's
    first): # rider $ [lane at] W% in a race, # rider odds bet $ W% before it."""
    header: Row = [Text(h) for h in ("#", "rider")]
    columns: list[tuple[str, Justify]] = [("#", "right"), ("rider", "left")]
    if race is None:
        columns += [("odds", "right"), ("bet", "right")]
        header += [Text("odds"), Text("bet")]
    columns += [("$", "right")]
    header += [Text("$")]
    if race is not None:
        columns += [("at", "right")]
        header += [Text("at")]
    columns += [("W%", "right")]
    header += [Text("W%")]
    rows: list[Row] = []
    lanes: list[Lane] = [partial(track_header, view.track)]
    for horse in shown_horses(view, race):
        owner = view.owner(horse)
        style = horse_style(view, horse)
        row = [Text(str(horse), style=f"bold {style}")]
        if owner is None:
            row.append(Text("house", style=HOUSE_STYLE))
            odds, bet, money = "", "", ""
        else:
            name = seat_name(info.names, owner) + ("*" if owner in info.humans else "")
            row.append(Text(name, style=f"bold {style}"))
            odds = str(view.odds[owner] or "")
            bet = f"${view.wagers[owner]}"
            money = str(view.money[owner])
        if race is None:
            row += [Text(odds), Text(bet)]
        row.append(Text(money))
        if race is not None:
            row.append(where(view, race, horse))
            lanes.append(partial(lane, view, race, horse))
        row.append(win_cell(view, info, horse))
        rows.append(row)
    return columns, header, rows, lanes if race is not None else None


def win_cell(view: DerbyView, info: DerbyInfo, horse: int) -> Text:
    if horse in view.scratched:
        return Text("out", style="dim")
    odds = info.odds
    if odds is None or horse not in odds.horses:
        return Text("")
    chance = percent(odds.win(horse), odds.rough, odds.to_a_tenth(horse, 1))
    return Text(chance.strip(), style="bold")


def seat_rows(
    view: DerbyView, info: DerbyInfo
) -> tuple[list[tuple[str, Justify]], Row, list[Row], None]:
    """While the silks and horses are picked: a line per seat, in picking order."""
    columns = [("", "left"), ("player", "left"), ("silk", "left"), ("horse", "right")]
    columns += [("money", "right")]
    header = [Text(name) for name, _ in columns]
    rows: list[Row] = []
    for seat in view.order:
        chosen = view.silks[seat]
        name = seat_name(info.names, seat) + (" (you)" if seat in info.humans else "")
        rows.append(
            [
                Text("▶" if seat == view.to_act else " "),
                Text(name),
                Text(silk(chosen).name, style=silk(chosen).colour)
                if chosen is not None
                else Text("-"),
                Text(str(view.horses[seat] or "-")),
                Text(f"${view.money[seat]}"),
            ]
        )
    return columns, header, rows, None


# --- two columns -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TwoColumns:
    """Rows in two columns side by side (the first half on the left), each cell padded to its
    column; a row's lane (if any, after its third-last cell) takes the width the rest leave."""

    columns: Sequence[tuple[str, Justify]]
    header: Row
    rows: Sequence[Row]
    lanes: Sequence[Lane] | None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths = [
            max(cell.cell_len for cell in (self.header[i], *(row[i] for row in self.rows)))
            for i in range(len(self.columns))
        ]
        for column, (name, _) in enumerate(self.columns):
            widths[column] = min(widths[column], CUT.get(name, widths[column]))
        half = (options.max_width - len(GAP)) // 2
        cells = 0
        if self.lanes is not None:
            cells = max(LEAST_LANE, half - sum(widths) - len(widths))
        lines = [self.line(self.header, widths, cells, 0, bold=True)]
        depth = (len(self.rows) + 1) // 2
        left = [self.line(row, widths, cells, i + 1) for i, row in enumerate(self.rows[:depth])]
        right = [
            self.line(row, widths, cells, depth + i + 1) for i, row in enumerate(self.rows[depth:])
        ]
        lines[0] = Text.assemble(lines[0], Text(GAP, style="dim"), lines[0].copy())
        for index, line in enumerate(left):
            if index < len(right):
                line = Text.assemble(line, Text(GAP, style="dim"), right[index])
            lines.append(line)
        for line in lines:
            line.no_wrap, line.overflow = True, "crop"
        yield Group(*lines)

    def line(self, row: Row, widths: list[int], cells: int, index: int, bold: bool = False) -> Text:
        """One row padded to the columns (the lane, `cells` wide, before the last two)."""
        line = Text(style="bold" if bold else "")
        lane_at = len(row) - 2 if self.lanes is not None else -1
        for column, (cell, width, (_, justify)) in enumerate(
            zip(row, widths, self.columns, strict=True)
        ):
            if column == lane_at:
                assert self.lanes is not None
                drawn = self.lanes[index](cells)
                drawn.truncate(cells, pad=True)
                line.append_text(drawn)
                line.append(" ")
            cell = cell.copy()
            cell.truncate(width, overflow="ellipsis")
            pad = " " * (width - cell.cell_len)
            line.append_text(Text.assemble(pad, cell) if justify == "right" else cell + pad)
            if column < len(row) - 1:
                line.append(" ")
        return line
