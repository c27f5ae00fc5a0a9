"""Draw the Derby table for a terminal: a lane per horse with the zones, mud and accelerators
marked, the six dice of the turn, each horse's live Win/Place/Show odds, the players, the news.

One Rich renderable serves both outputs: with colours on a terminal, and without any style
(`to_plain`) for pipes, logs and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from horserace.core.events import seat_name
from horserace.core.rules import Result
from horserace.core.shown_odds import percent, refining_note
from horserace.families.derby.lanes import (
    ACCEL,
    ACCEL_STYLE,
    HOUSE_STYLE,
    LEAST_LANE,
    MUD,
    MUD_STYLE,
    full_width,
    horse_style,
    lane,
    track_header,
)
from horserace.families.derby.news import Announcer, News
from horserace.families.derby.rules.events import ordinal
from horserace.families.derby.rules.model import DerbyPhase, DerbyView
from horserace.families.derby.rules.race import SINGLE_DICE, RaceState
from horserace.families.derby.rules.silks import SILKS, silk
from horserace.families.derby.rules.track import DerbyTrack
from horserace.families.derby.sampled_odds import PlaceOdds
from horserace.terminal.screen import StatusLine, recent_news, status_parts, to_plain
from horserace.terminal.standings import standings_table as standings

__all__ = [
    "Announcer",
    "DerbyInfo",
    "News",
    "percent",
    "render_table",
    "silk_table",
    "standings_table",
    "to_plain",
]


@dataclass(frozen=True)
class DerbyInfo:
    """What the screen shows besides the view."""

    names: Sequence[str]
    odds: PlaceOdds | None = None
    news: Sequence[News] = ()
    humans: frozenset[int] = field(default_factory=frozenset)
    news_lines: int = 4


# --- pieces ---------------------------------------------------------------------------------------


def odds_cells(odds: PlaceOdds | None, horse: int, places: int) -> Text:
    text = Text(no_wrap=True)
    if odds is None or horse not in odds.horses:
        return text
    for k in range(1, places + 1):
        chance = percent(odds.chance(horse, k), odds.rough, odds.to_a_tenth(horse, k))
        text.append(chance, style="bold" if k == 1 else "")
    return text


def status_text(view: DerbyView, race: RaceState | None, horse: int) -> Text:
    """out (scratched), its place, tie (running on), +n (past the line), mud (stuck)."""
    if horse in view.scratched:
        return Text("out", style="dim")
    if race is None:
        return Text("")
    place = race.places().get(horse)
    if place is not None:
        return Text(ordinal(place), style="bold green" if place <= race.needed else "")
    if any(horse in block for block in race.blocks):
        return Text("tie", style="bold yellow")
    past = race.position(horse) - view.track.finish
    if past >= 0:
        return Text(f"+{past}", style="bold")
    if horse in race.stuck:
        return Text("mud", style=MUD_STYLE)
    return Text("")


def dice_line(view: DerbyView) -> Text:
    """The turn's six dice: singles then zones, numbers of running horses in bold."""
    race = view.race
    line = Text(no_wrap=True, overflow="ellipsis")
    if race is None or shown_race(view) is None:
        return line
    dice = race.dice or race.last_dice
    turn = race.turn if race.dice else race.turn - 1
    if not dice:
        return line.append(f"turn {race.turn}: rolling", style="dim")
    line.append(f"turn {turn}  singles ", style="bold")
    for index, value in enumerate(dice):
        if index == SINGLE_DICE:
            line.append(" zones ", style="bold")
        runs = value in race.runners
        line.append(f"[{value:>2}]", style=f"bold {horse_style(view, value)}" if runs else "dim")
    trying = race.mud_try
    if trying is not None:
        line.append(
            f"  mud die: horse {trying.horse}, try {trying.attempt}/{trying.spaces}",
            style=MUD_STYLE,
        )
    elif race.accelerating:
        line.append(f"  accelerator: horse {race.accelerating}", style="yellow")
    return line


def status_line(view: DerbyView, info: DerbyInfo) -> StatusLine:
    parts: list[tuple[str, str]] = [
        ("derby ", "bold"),
        (f"race {view.race_number}/{view.config.races}", "bold"),
    ]
    phase = {
        DerbyPhase.SELECT: "picking silks and horses",
        DerbyPhase.ODDS: "rolling the odds dice",
        DerbyPhase.WAGER: "wagering",
        DerbyPhase.SCRATCH: f"scratching ({view.scratches_left} to go)",
        DerbyPhase.RACE: "racing",
        DerbyPhase.OVER: "game over",
    }[view.phase]
    parts.append((phase, "cyan"))
    if view.to_act is not None:
        parts.append((f"to act: {seat_name(info.names, view.to_act)}", "bold"))
    parts.append((f"bank ${view.bank}", "yellow"))
    return status_parts(parts)


def shown_race(view: DerbyView) -> RaceState | None:
    """The race the lanes show: the one running or just run (until the next picks begin)."""
    if view.phase in (DerbyPhase.RACE, DerbyPhase.OVER):
        return view.race
    if view.phase is DerbyPhase.SELECT and all(s is None for s in view.silks):
        return view.race
    return None


def shown_horses(view: DerbyView, race: RaceState | None) -> list[int]:
    """The horses drawn: the race's runners (or the field before it), with the scratched ones
    until the race is over."""
    horses = race.runners if race is not None else view.field
    return sorted(
        {*horses, *(view.scratched if race is None or view.phase is DerbyPhase.RACE else ())}
    )


@dataclass(frozen=True)
class Lanes:
    """The lanes table drawn to the width it is given: a cell a space where the lanes fit (one
    column between the columns where two do not), else every lane scaled to the cells the other
    columns leave (the space each horse is on then written beside it): the odds are never cut."""

    view: DerbyView
    info: DerbyInfo
    # the columns beside the lanes, by (tight, the width measured in): a board is measured and
    # drawn several times at one width (for the layout, the height, the picture)
    _beside: dict[tuple[bool, int], int] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        full = full_width(self.view.track)
        for tight in (False, True):
            beside = self.beside(console, options, tight)
            if beside + full <= options.max_width:
                yield lanes_table(self.view, self.info, tight=tight)
                return
        cells = max(LEAST_LANE, options.max_width - beside)
        yield lanes_table(self.view, self.info, cells, tight=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        least = self.beside(console, options, tight=True) + LEAST_LANE
        return Measurement(least, self.beside(console, options) + full_width(self.view.track))

    def beside(self, console: Console, options: ConsoleOptions, tight: bool = False) -> int:
        """The columns beside the lanes: the table's width with lanes of LEAST_LANE cells, less
        those."""
        key = (tight, options.max_width)
        if key not in self._beside:
            narrowest = lanes_table(self.view, self.info, LEAST_LANE, tight=tight)
            self._beside[key] = Measurement.get(console, options, narrowest).maximum - LEAST_LANE
        return self._beside[key]


def lanes_table(
    view: DerbyView, info: DerbyInfo, cells: int | None = None, *, tight: bool = False
) -> Table:
    """One row per horse in the field: owner, odds die, wager, money, lane (in `cells` cells,
    None: a cell a space), place odds; one column between two columns when `tight`, else two."""
    race = shown_race(view)
    places = min(3, max(1, len(view.field) - view.config.scratches))
    table = Table(
        box=None,
        pad_edge=False,
        show_edge=False,
        header_style="bold",
        padding=(0, 1),
        collapse_padding=tight,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("rider", no_wrap=True, max_width=8, overflow="ellipsis")
    table.add_column("odds", justify="right", no_wrap=True)
    table.add_column("bet", justify="right", no_wrap=True)
    table.add_column("$", justify="right", no_wrap=True)
    table.add_column(track_header(view.track, cells), no_wrap=True)
    table.add_column("" if cells is None else "at", no_wrap=True, min_width=3)
    table.add_column("    W%    P%    S%"[: 6 * places], no_wrap=True)
    for horse in shown_horses(view, race):
        owner = view.owner(horse)
        style = horse_style(view, horse)
        if owner is None:
            rider, odds, bet, money = Text("house", style=HOUSE_STYLE), "", "", ""
        else:
            name = seat_name(info.names, owner) + (" *" if owner in info.humans else "")
            rider = Text(name, style=f"bold {style}")
            odds = str(view.odds[owner]) if view.odds[owner] is not None else ""
            bet = f"${view.wagers[owner]}" if view.phase is not DerbyPhase.SELECT else ""
            money = str(view.money[owner])
        table.add_row(
            Text(str(horse), style=f"bold {style}"),
            rider,
            odds,
            bet,
            money,
            lane(view, race, horse, cells),
            status_text(view, race, horse) if cells is None else where(view, race, horse),
            odds_cells(info.odds, horse, places),
        )
    return table


def where(view: DerbyView, race: RaceState | None, horse: int) -> Text:
    """Beside a scaled lane: its place, tie, +n or out where the status says so, else the space
    it is on (on mud's colour while it is stuck there)."""
    status = status_text(view, race, horse)
    if race is None or (status.plain and status.plain != "mud"):
        return status
    stuck = horse in race.stuck
    return Text(str(race.position(horse)), style=f"on {MUD_STYLE}" if stuck else "")


def players_table(view: DerbyView, info: DerbyInfo) -> Table:
    """Seats in picking order with their silk, horse, odds die, wager and money."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 1))
    for name, justify in (
        ("", "left"),
        ("player", "left"),
        ("silk", "left"),
        ("horse", "right"),
        ("odds", "right"),
        ("wager", "right"),
        ("money", "right"),
    ):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for seat in view.order:
        mark = "▶" if seat == view.to_act else " "
        name = seat_name(info.names, seat) + (" (you)" if seat in info.humans else "")
        chosen = view.silks[seat]
        silk_text = (
            Text(silk(chosen).name, style=silk(chosen).colour) if chosen is not None else Text("-")
        )
        table.add_row(
            mark,
            name,
            silk_text,
            str(view.horses[seat] or "-"),
            str(view.odds[seat] or "-"),
            f"${view.wagers[seat]}"
            if view.phase not in (DerbyPhase.SELECT, DerbyPhase.ODDS)
            else "-",
            f"${view.money[seat]}",
        )
    return table


def legend(track: DerbyTrack, rough: bool = False, whole: bool = False) -> Text:
    """The track's name and spaces, its signs, and what the odds' digits say: `rough` (~12, a
    quick estimate) or `whole` (some in whole percents, being refined to a tenth)."""
    zones = "/".join(str(z.moves) for z in track.zones)
    text = Text(no_wrap=True, overflow="ellipsis", style="dim")
    text.append(f"{track.name}: {track.finish} spaces, zones move {zones} · ")
    text.append(MUD, style=MUD_STYLE)
    text.append(" mud · ")
    text.append(ACCEL, style=ACCEL_STYLE)
    text.append(" accelerator · ┃ finish")
    note = refining_note(rough, whole)
    if note:
        text.append(f" · {note}")
    return text


def render_table(view: DerbyView, info: DerbyInfo, *, compact: bool = False) -> RenderableType:
    """The whole screen: status, then the players while they pick (or the race just run),
    else the dice, the lanes and the legend (not when `compact`: a short screen); the news."""
    parts: list[RenderableType] = [status_line(view, info)]
    race = shown_race(view)
    if view.phase is DerbyPhase.SELECT and race is None:
        parts.append(players_table(view, info))
    else:
        if race is not None:
            parts.append(dice_line(view))
        parts.append(Lanes(view, info))
        if not compact:
            odds = info.odds
            rough = odds is not None and odds.rough
            parts.append(legend(view.track, rough, odds is not None and not odds.all_to_a_tenth))
    parts += recent_news(info.news, info.news_lines)
    return Group(*parts)


def silk_table(taken: Sequence[int]) -> Text:
    """The free silks, four to a line, each in its colours (for a person choosing)."""
    text = Text()
    free = [s for s in SILKS if s.number not in taken]
    for index, choice in enumerate(free):
        text.append(f"{choice.number:>2} ", style="bold")
        text.append(f"{choice.name:<15}", style=f"{choice.colour}")
        text.append("\n" if index % 4 == 3 else " ")
    return text


def standings_table(result: Result, names: Sequence[str]) -> Table:
    """The standings in dollars."""
    return standings(result, names, money_column="money", money=lambda a: f"${a}")
