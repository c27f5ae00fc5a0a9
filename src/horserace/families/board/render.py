"""Draw the Classic dice board for a terminal: lanes and scratch zone, live odds, players, news.

One Rich renderable serves both outputs: with colours on a terminal, and rendered without any
style (`to_plain`) for pipes, logs and tests, so the two can never drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from horserace.components.board import HORSES
from horserace.components.cards import hand_text, rank_text, ranks_held
from horserace.core.errors import HorseraceError
from horserace.core.events import Event, seat_name
from horserace.core.rules import Result
from horserace.core.words import counted
from horserace.families.board.news import News, money_text, step_news
from horserace.families.board.odds.view import scratch_rolls_done, view_odds, winner_of
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.config import SCRATCH_LINES
from horserace.families.board.rules.state import Phase
from horserace.families.board.rules.view import BoardView
from horserace.terminal.screen import (
    StatusLine,
    odds_text,
    recent_news,
    status_parts,
    to_plain,
)
from horserace.terminal.standings import standings_table as standings

__all__ = ["News", "money_text", "step_news", "to_plain"]

TOKEN = "●"
EMPTY = "·"
BAR_WIDTH = 10  # characters for a 50% chance; longer chances are capped
HORSE_COLOURS: Mapping[int, str] = {
    2: "red1",
    3: "dark_orange",
    4: "gold1",
    5: "chartreuse1",
    6: "green3",
    7: "cyan1",
    8: "deep_sky_blue1",
    9: "royal_blue1",
    10: "medium_purple1",
    11: "magenta1",
    12: "hot_pink",
}


@dataclass(frozen=True)
class BoardInfo:
    """What the board shows besides the view: names, odds, the dice and the latest news."""

    names: Sequence[str]
    odds: Mapping[int, float] | None = None
    news: Sequence[News] = ()
    last_dice: tuple[int, ...] | None = None  # two dice, or Robertson's four
    humans: frozenset[int] = field(default_factory=frozenset)
    title: str = "classic"


# --- what the view says ------------------------------------------------------------------------


def line_of(view: BoardView, horse: int) -> int:
    """The scratch line (1..4) the horse stands on, 0 while it runs."""
    return view.lines.index(horse) + 1 if horse in view.lines else 0


def lane_odds(view: BoardView) -> dict[int, float] | None:
    """Live win chances beside the lanes: none while the cards are still being handed out."""
    if view.phase in (Phase.DEAL, Phase.DRAFT):
        return None
    try:
        return view_odds(view)
    except HorseraceError:
        return None


def favourite(view: BoardView, odds: Mapping[int, float] | None) -> int | None:
    """The running horse most likely to win (the smallest number on a tie), if odds are known."""
    running = [h for h in HORSES if not line_of(view, h) and odds and h in odds]
    if not running or odds is None:
        return None
    return max(running, key=lambda h: (odds[h], -h))


# --- the board ---------------------------------------------------------------------------------


def _cell(mark: str, width: int) -> str:
    return mark.rjust(width)


def _lane(
    view: BoardView,
    horse: int,
    odds: Mapping[int, float] | None,
    leader: int | None,
    width: int,
    short: bool = False,
) -> Text:
    colour = HORSE_COLOURS.get(horse, "white")
    line = line_of(view, horse)
    slots = view.board.slots_of(horse)
    position = view.positions[horse - 2]
    track_style = "dim" if line else "grey50"
    row = Text(no_wrap=True, overflow="crop")
    for k in range(1, SCRATCH_LINES + 1):
        if k == line:
            row.append(_cell(TOKEN, 2), style=f"bold {colour}")
        else:
            row.append(_cell(EMPTY, 2), style="grey37")
    row.append(" │", style="dim")
    if horse == leader:
        label_style = f"bold reverse {colour}"
    elif line:
        label_style = "dim strike"
    else:
        label_style = f"bold {colour}"
    row.append(f"{horse:>3} ", style=label_style)
    row.append("│", style="dim")
    at_gate = not line and position == 0
    row.append(_cell(TOKEN if at_gate else " ", 2), style=f"bold {colour}")
    row.append(" ┃", style="dim")
    for slot in range(1, slots + 1):
        if not line and position == slot:
            row.append(_cell(TOKEN, width), style=f"bold {colour}")
        else:
            row.append(_cell(EMPTY, width), style=track_style)
    row.append(" ┃", style="dim")
    finished = not line and position > slots
    row.append(
        _cell(TOKEN if finished else EMPTY, 2), style=f"bold {colour}" if finished else "dim"
    )
    row.append(" " * ((max(view.board.slots) - slots) * width + 2))
    if line:
        owed = view.config.scratch_values[line - 1] * view.config.penalty_unit
        said = f"pays {money(view, owed)}" if short else f"scratched (pays {money(view, owed)})"
        row.append(said, style="dim")
    elif finished:
        row.append("WINNER", style=f"bold reverse {colour}")
    elif odds is not None and horse in odds:
        text = odds_text(odds[horse], BAR_WIDTH)
        text.stylize("bold " + colour if horse == leader else colour)
        row.append_text(text)
    return row


def board_lanes(
    view: BoardView,
    odds: Mapping[int, float] | None,
    *,
    header: bool = True,
    width: int | None = None,
    short: bool = False,
) -> Text:
    """The eleven lanes as in the seed's diagram: scratch zone, lane, gate, slots, finish, odds
    (under a row that names the columns, unless the screen is short of lines); a slot `width`
    cells wide (two where the track allows), a scratched lane's words `short` ('pays 3')."""
    if width is None:
        width = 2 if max(view.board.slots) <= 20 else 1
    leader = favourite(view, odds)
    lanes = [_lane(view, horse, odds, leader, width, short) for horse in HORSES]
    if not header:
        return Text("\n", no_wrap=True, overflow="crop").join(lanes)
    names = Text(no_wrap=True, overflow="crop", style="bold")
    names.append("".join(_cell(str(k), 2) for k in range(1, SCRATCH_LINES + 1)))
    names.append(" │lane│gate")
    track = max(view.board.slots) * width + 2
    names.append(" track".ljust(track))
    names.append("fin  ")
    names.append("win" if odds is not None else "")
    return Text("\n", no_wrap=True, overflow="crop").join([names, *lanes])


@dataclass(frozen=True)
class FittedLanes:
    """The lanes drawn to the columns they are given: in full where that fits, else with a
    scratched lane's words short ('pays 3'), else a cell a slot, so that what a lane says (its
    chance, what its scratch costs) is never cut; only a chance's bar may be."""

    view: BoardView
    odds: Mapping[int, float] | None
    header: bool = True

    def forms(self) -> list[tuple[int, bool]]:
        wide = 2 if max(self.view.board.slots) <= 20 else 1
        return [(wide, False), (wide, True), (1, False), (1, True)]

    def needs(self, width: int, short: bool) -> int:
        """The columns the lanes take in a form, a chance's bar aside."""
        lanes = board_lanes(self.view, None, header=self.header, width=width, short=short)
        said = max(line.cell_len for line in lanes.split())
        if self.odds is None:
            return said
        # a lane's chance begins past the longest track and its finish: '30.0%' (six cells)
        return max(said, 2 * SCRATCH_LINES + 17 + max(self.view.board.slots) * width + 6)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        forms = self.forms()
        width, short = next(
            (form for form in forms if self.needs(*form) <= options.max_width), forms[-1]
        )
        yield board_lanes(self.view, self.odds, header=self.header, width=width, short=short)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        forms = self.forms()
        full = board_lanes(self.view, self.odds, header=self.header, width=forms[0][0])
        return Measurement(self.needs(*forms[-1]), max(line.cell_len for line in full.split()))


def money(view: BoardView, amount: int) -> str:
    return money_text(view.config.money, amount)


def status_line(view: BoardView, info: BoardInfo) -> StatusLine:
    """Round, phase, pot, dealer, who rolls next and the last dice, on a line (or two)."""
    names = info.names
    parts: list[tuple[str, str]] = [
        (f"{info.title} ", "bold"),
        (f"round {view.round}/{view.rounds}", "bold"),
    ]
    if view.phase is Phase.DEAL:
        phase = f"dealing ({view.undealt} in the deck)"
    elif view.phase is Phase.DRAFT:
        phase = "drafting"
    elif view.phase is Phase.BETTING:
        phase = f"betting, {money(view, view.bet_level)} to meet"
    elif view.phase is Phase.DRAW:
        phase = "the draw"
    elif view.phase is Phase.SCRATCH:
        phase = f"scratching {scratch_rolls_done(view)}/{SCRATCH_LINES}"
    elif view.phase is Phase.RACE:
        phase = f"race, roll {view.race_rolls}"
    elif view.phase is Phase.PAYOUT:
        phase = "race won, paying out"  # between two rounds: the game goes on
    else:
        phase = "game over"
    parts += [(phase, "cyan"), (f"pot {money(view, view.pot)}", "bold yellow")]
    if view.config.jockey_pot:
        parts.append((f"jockey pot {money(view, view.jockey)}", "bold magenta"))
    parts.append((f"dealer {seat_name(names, view.dealer)}", ""))
    if view.phase in (Phase.SCRATCH, Phase.RACE) and winner_of(view) is None:
        parts.append((f"next {seat_name(names, turn_of(view))}", "bold"))
    if view.four_dice:  # Robertson's four, in place of the two rolled before
        parts.append((f"dice {'+'.join(map(str, view.four_dice))}: pairing", "bold"))
    elif info.last_dice is not None:
        dice = info.last_dice
        total = f"={sum(dice)}" if len(dice) == 2 else ""  # four dice: paired, not summed
        parts.append((f"dice {'+'.join(map(str, dice))}{total}", "bold"))
    blocked = [f"{h}×{n}" for h, n in zip(range(2, 13), view.blocks, strict=True) if n]
    if blocked:
        parts.append((f"chips under {' '.join(blocked)}", "bold yellow"))
    if view.market is not None:
        parts.append((f"market {hand_text(view.market)}", "italic"))
    if view.offer is not None:
        offer = view.offer
        give = " ".join(rank_text(r) for r in offer.give) or "nothing"
        take = " ".join(rank_text(r) for r in offer.take) or "nothing"
        who, target = seat_name(names, offer.seat), seat_name(names, offer.target)
        parts.append((f"{who} offers {target} {give} for {take}", "bold cyan"))
    if view.pending is not None:
        owed = money(view, view.pending.amount)
        parts.append((f"{seat_name(names, view.pending.debtor)} owes {owed}", "bold red"))
    return status_parts(parts)


def hand_cells(view: BoardView, seat: int) -> Text:
    """'2 4 4 7 J' with each card in its horse's colour, or '14 cards' when hidden."""
    hand = view.hands[seat]
    if hand is None:
        return Text(f"{counted(view.hand_sizes[seat], 'card')} (hidden)", style="dim")
    cards = Text()
    for rank in ranks_held(hand):
        if cards:
            cards.append(" ")
        cards.append(rank_text(rank), style=HORSE_COLOURS.get(rank, "bold"))
    return cards if cards else Text("-", style="dim")


def turn_of(view: BoardView) -> int:
    """Whose turn the ▶ marks in the scratch and the race: the roller, or while Robertson's
    four dice are paired, the seat pairing them (the next roller is already named then)."""
    if view.four_dice and isinstance(view.actor, int):
        return view.actor
    return view.roller


def players_table(view: BoardView, info: BoardInfo) -> Table:
    """Name, chips and cards per seat; ▶ marks who rolls next, D the dealer."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 1))
    table.add_column("", no_wrap=True)
    table.add_column("player", no_wrap=True, max_width=16, overflow="ellipsis")
    money_column = "money" if view.config.money == "cents" else "chips"
    table.add_column(money_column, justify="right", no_wrap=True)
    table.add_column("cards")
    rolling = view.phase in (Phase.SCRATCH, Phase.RACE) and winner_of(view) is None
    for seat, chips in enumerate(view.chips):
        mark = ("▶" if rolling and seat == turn_of(view) else " ") + (
            "D" if seat == view.dealer else " "
        )
        name = Text(seat_name(info.names, seat), style="bold" if seat == view.seat else "")
        if seat in info.humans:
            name.append(" (you)", style="italic")
        chip_style = "bold red" if chips == 0 else ""
        cards = hand_cells(view, seat)
        if view.out[seat]:
            name.stylize("dim strike")
            cards = Text("out of the game", style="dim")
        elif view.folded[seat]:
            cards.append("  folded", style="dim italic")
        elif view.phase is Phase.DRAFT and seat == view.seat and view.packet is not None:
            cards.append("   packet: ", style="dim")
            cards.append(hand_text(view.packet), style="italic")
        table.add_row(
            Text(mark, style="bold"), name, Text(money(view, chips), style=chip_style), cards
        )
    return table


def render_board(view: BoardView, info: BoardInfo, *, news_lines: int = 5) -> RenderableType:
    """The whole screen: status, lanes, players and the last few notable announcements."""
    parts: list[RenderableType] = [
        status_line(view, info),
        FittedLanes(view, info.odds),
        players_table(view, info),
    ]
    parts += recent_news(info.news, news_lines)
    return Group(*parts)


def seats_strip(view: BoardView, info: BoardInfo) -> Columns:
    """Every seat in a few lines (the compact board): ▶ who rolls, D the dealer, the money and
    how many cards; the seat at the keyboard then shows its own hand on a line of its own."""
    rolling = view.phase in (Phase.SCRATCH, Phase.RACE) and winner_of(view) is None
    entries: list[Text] = []
    for seat, chips in enumerate(view.chips):
        entry = Text(no_wrap=True, overflow="ellipsis")
        entry.append("▶" if rolling and seat == turn_of(view) else " ", style="bold")
        entry.append("D " if seat == view.dealer else "  ", style="bold")
        entry.append(seat_name(info.names, seat), style="bold" if seat == view.seat else "")
        if seat in info.humans:
            entry.append(" (you)", style="italic")
        entry.append(f" {money(view, chips)}", style="bold red" if chips == 0 else "")
        if view.out[seat]:
            entry.stylize("dim strike")
            entry.append(" out", style="dim")
        else:
            entry.append(f" · {counted(view.hand_sizes[seat], 'card')}", style="dim")
            if view.folded[seat]:
                entry.append(" folded", style="dim italic")
        entries.append(entry)
    return Columns(entries, padding=(0, 2))


def own_hand(view: BoardView, info: BoardInfo) -> Text | None:
    """'your hand (P1): 2 4 4 7 J' and, in the draft, the packet to pick from."""
    seat = view.seat
    if seat is None or not 0 <= seat < len(view.hands) or view.hands[seat] is None:
        return None
    line = Text(f"your hand ({seat_name(info.names, seat)}): ", style="bold")
    line.append_text(hand_cells(view, seat))
    if view.phase is Phase.DRAFT and view.packet is not None:
        line.append("   packet: ", style="dim")
        line.append(hand_text(view.packet), style="italic")
    return line


def render_compact(view: BoardView, info: BoardInfo) -> RenderableType:
    """The board on a short screen: the status, a line per lane, the seats
    on a line or two, the seat's own hand."""
    return _short_board(view, info, FittedLanes(view, info.odds, header=False))


def _short_board(view: BoardView, info: BoardInfo, lanes: RenderableType) -> RenderableType:
    """The status, the lanes as a short screen draws them, the seats, the seat's own hand."""
    parts: list[RenderableType] = [status_line(view, info), lanes, seats_strip(view, info)]
    hand = own_hand(view, info)
    if hand is not None:
        parts.append(hand)
    return Group(*parts)


def lane_line(
    view: BoardView, horse: int, odds: Mapping[int, float] | None, leader: int | None
) -> Text:
    """A lane in a few cells for the tightest screen: ' 7 5/14  30.0%' (its slot of the
    track's, its chance), or ' 4 line 3' when scratched."""
    colour = HORSE_COLOURS.get(horse, "white")
    line = line_of(view, horse)
    entry = Text(no_wrap=True, overflow="ellipsis")
    label = f"bold reverse {colour}" if horse == leader else f"bold {colour}"
    entry.append(f"{horse:>2}", style="dim strike" if line else label)
    if line:
        return entry.append(f" line {line}", style="dim")
    slots, position = view.board.slots_of(horse), view.positions[horse - 2]
    if position > slots:
        return entry.append(" WINNER", style=f"bold reverse {colour}")
    entry.append(f" {position:>2}/{slots:<2}", style=colour)
    if odds is not None and horse in odds:
        chance = odds[horse]
        entry.append(" <0.1%" if 0 < chance < 0.0005 else f" {chance * 100:5.1f}%", style=colour)
    return entry


def render_tight(view: BoardView, info: BoardInfo) -> RenderableType:
    """The board on the tightest screen (60x20 with a question open): the status, the lanes a
    few to a line (slot and chance), the seats' money and the seat's own hand."""
    leader = favourite(view, info.odds)
    lanes = [lane_line(view, horse, info.odds, leader) for horse in HORSES]
    return _short_board(view, info, Columns(lanes, padding=(0, 2)))


def plain_board(view: BoardView, info: BoardInfo, width: int = 80) -> str:
    return to_plain(render_board(view, info), width)


def finish_view(before: BoardView, after: BoardView, events: Sequence[Event]) -> BoardView:
    """The board at the moment a horse crosses: `after` is already the next round (or the end),
    so take the lanes from `before`, move the winner into its finish slot, and the chips after."""
    positions = list(before.positions)
    for event in events:
        if isinstance(event, ev.HorseAdvanced):
            positions[event.horse - 2] = event.position
    return replace(
        before,
        positions=tuple(positions),
        chips=after.chips,
        pot=after.pot,
        race_rolls=before.race_rolls + 1,
    )


def standings_table(result: Result, names: Sequence[str], unit: str = "chips") -> Table:
    """The standings in the table's money (Northwoods' cents as dollars)."""
    column = "money" if unit == "cents" else "chips"
    return standings(result, names, money_column=column, money=lambda a: money_text(unit, a))
