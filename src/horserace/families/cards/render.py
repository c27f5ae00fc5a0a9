"""Draw the card race for a terminal: the odds tables of `odds cards`, and the race itself
(course, lanes, bets, news) for `play`. Rich renderables, rendered plain for pipes and tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from horserace.components.french_deck import Card, card_text, is_joker, suit_of
from horserace.core.events import seat_name
from horserace.core.words import counted
from horserace.families.cards.news import News
from horserace.families.cards.odds.race import RacePosition, TooManyStates, card_odds, position_of
from horserace.families.cards.rules.state import CardsPhase, CardsView
from horserace.families.cards.rules.track import RACING_SUITS
from horserace.terminal.screen import StatusLine, odds_text, recent_news, status_parts
from horserace.terminal.screen import to_plain as terminal_plain

PLAIN_WIDTH = 100


# --- the race board ---------------------------------------------------------------------------

SUIT_COLOURS = ("green3", "dark_orange", "red1", "deep_sky_blue1")
SUIT_LABELS = ("♣ clubs", "♦ diamonds", "♥ hearts", "♠ spades")
TOKEN = "●"
EMPTY = "·"
BAR_WIDTH = 6  # characters for a 50% chance
PRICE_HEADERS = {"book": "book", "tote": "bets", "party": "picked by", "calcutta": "owner"}
UNBOUNDED = 10_000  # columns to measure the lanes in, for the width they need
SEATS_GAP = "   "  # between two seats on the seats' line


@dataclass(frozen=True)
class BoardInfo:
    """What the board shows besides the view."""

    names: Sequence[str]
    title: str
    odds: Mapping[int, float] | None = None
    odds_note: str = ""
    news: Sequence[News] = ()
    humans: frozenset[int] = field(default_factory=frozenset)


def _card(value: Card | None) -> Text:
    if value is None:
        return Text("??", style="dim")
    if is_joker(value):
        return Text("Jo", style="bold magenta")
    return Text(card_text(value), style=SUIT_COLOURS[suit_of(value)])


def _stakes(view: CardsView, suit: int, names: Sequence[str]) -> str:
    """Who backs the horse: bets (book, tote win/place/show), picks (party), owner (Calcutta)."""
    config = view.config
    if config.betting == "party":
        backers = [names[s] for s, pick in enumerate(view.betting.picks) if pick == suit]
        return ", ".join(backers)
    if config.betting == "calcutta":
        owner = view.auction.owners[suit]
        if owner is not None:
            return f"{names[owner]} ({view.auction.prices[suit]})"
        sold = view.auction.lot > view.auction.lots.index(suit) if view.auction.lots else False
        return "unsold" if sold else ""
    amounts: dict[int, int] = {}
    for bet in view.betting.bets:
        if len(bet.horses) == 1 and bet.horses[0] == suit:
            amounts[bet.seat] = amounts.get(bet.seat, 0) + bet.stake
    return ", ".join(f"{names[s]} {a}" for s, a in sorted(amounts.items()))


def course_lanes(view: CardsView, info: BoardInfo, *, backers: bool = True) -> Table:
    """The course across the top, a lane per ace: gate, links, finish; odds and (unless told
    not to) backers."""
    config = view.config
    track = view.track
    last = max(config.need, config.course_length)
    table = Table(
        box=None, pad_edge=False, show_edge=False, padding=(0, 1, 0, 0), header_style="bold"
    )
    table.add_column("", no_wrap=True, min_width=10)
    table.add_column("gate", justify="center", no_wrap=True, min_width=4)
    for spot in range(1, last + 1):
        # a link is named by its number, as the log names it; "fin" only past the last link
        label = "fin" if spot == config.need and spot > config.course_length else str(spot)
        bold = "bold" if spot == config.need else ""
        table.add_column(label, justify="center", style=bold, no_wrap=True, min_width=3)
    table.add_column("win" if info.odds is not None else "", no_wrap=True, min_width=14)
    # the one column that gives way on a narrow screen: its backers wrap onto a second line
    # of the lane rather than be cut (at 80 columns a tote's eight bettors need two)
    if backers:
        table.add_column(PRICE_HEADERS[config.betting], overflow="fold", min_width=6, max_width=28)
    course_row: list[Text | str] = ["course", ""]
    for spot in range(1, last + 1):
        course_row.append(_card(view.course[spot - 1]) if spot <= len(view.course) else "")
    table.add_row(*course_row, Text(info.odds_note, style="dim"), *([""] if backers else []))
    places = {suit: index + 1 for index, suit in enumerate(track.finished)}
    for suit in RACING_SUITS:
        colour = SUIT_COLOURS[suit]
        row: list[Text | str] = [Text(SUIT_LABELS[suit], style=f"bold {colour}")]
        for spot in range(0, last + 1):
            here = track.positions[suit] == spot
            row.append(Text(TOKEN, style=f"bold {colour}") if here else Text(EMPTY, style="grey42"))
        if suit in places:
            row.append(Text(f"place {places[suit]}", style=f"bold reverse {colour}"))
        elif info.odds is not None and suit in info.odds:
            row.append(odds_text(info.odds[suit], BAR_WIDTH, padded=True))
        else:
            row.append("")
        if backers:
            row.append(_backing(view, suit, info.names))
        table.add_row(*row)
    return table


def _backing(view: CardsView, suit: int, names: Sequence[str]) -> str:
    """A lane's last column: the book's price and its bettors, or the lane's backers."""
    config = view.config
    if config.betting != "book":
        return _stakes(view, suit, names)
    count = sum(1 for c in view.course if c is not None and not is_joker(c) and suit_of(c) == suit)
    price = config.book_odds.price(count)
    offered = f"{price[0]}-{price[1]}" if price else "no bets"
    backers = _stakes(view, suit, names)
    return offered + (f"  {backers}" if backers else "")


@dataclass(frozen=True)
class Lanes:
    """The course and its lanes; on a screen too narrow for the backers' column (60 columns)
    the backers go under the lanes, a suit after the other, rather than past the edge."""

    view: CardsView
    info: BoardInfo

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = course_lanes(self.view, self.info)
        needed = Measurement.get(console, options.update_width(UNBOUNDED), table).minimum
        if needed <= options.max_width:
            yield table
            return
        yield course_lanes(self.view, self.info, backers=False)
        entries = [Text(f"{PRICE_HEADERS[self.view.config.betting]}:", style="bold")]
        for suit in RACING_SUITS:
            entry = Text(SUIT_LABELS[suit].split()[0], style=f"bold {SUIT_COLOURS[suit]}")
            entry.append(f" {_backing(self.view, suit, self.info.names) or '-'}", style="")
            entries.append(entry)
        yield SeatsLine(tuple(entries), gap="  ")


def status_line(view: CardsView, info: BoardInfo) -> StatusLine:
    names = info.names
    parts = [
        (f"{info.title} ", "bold"),
        (f"race {view.race}/{view.config.races}", "bold"),
    ]
    if view.phase is CardsPhase.CUT:
        cut = ", ".join(
            f"{seat_name(names, seat)} {card_text(card)}"
            for seat, card in enumerate(view.cut)
            if card is not None
        )
        parts.append((f"cutting for the first deal: {cut or 'nobody has cut yet'}", "cyan"))
    elif view.phase is CardsPhase.COURSE:
        parts.append(
            (f"dealing the course ({view.course_dealt}/{view.config.course_length})", "cyan")
        )
    elif view.phase is CardsPhase.BETTING:
        who = seat_name(names, view.actor) if view.actor is not None else "-"
        what = "auction" if view.config.betting == "calcutta" else "betting"
        parts.append((f"{what}: {who} to act", "cyan"))
    elif view.phase is CardsPhase.RACE:
        parts.append((f"race: {counted(len(view.turned), 'card')} turned", "cyan"))
    else:
        parts.append(("game over", "cyan"))
    if view.phase is not CardsPhase.CUT:
        parts.append((f"dealer {seat_name(names, view.dealer)}", ""))
    if view.table:
        parts.append((f"on the table {view.table}", "bold yellow"))
    if view.config.betting in ("party", "tote") and view.bank:
        parts.append((f"bank {view.bank}", "yellow"))
    parts.append((f"deck {view.deck_left}", "dim"))
    return status_parts(parts)


def turned_line(view: CardsView) -> Text:
    line = Text("turned: ", style="dim", no_wrap=True, overflow="ellipsis")
    if not view.turned:
        line.append("-", style="dim")
        return line
    shown = view.turned[-16:]
    if len(view.turned) > len(shown):
        line.append("… ", style="dim")
    for index, value in enumerate(shown):
        if index:
            line.append(" ")
        text = _card(value)
        if index == len(shown) - 1:
            text.stylize("bold reverse")
        line.append_text(text)
    return line


def players_line(view: CardsView, info: BoardInfo) -> SeatsLine:
    """Every seat with its money, on one line where it fits (a seat is never cut in two)."""
    entries: list[Text] = []
    for seat, chips in enumerate(view.chips):
        entry = Text()
        entry.append("▶" if view.actor == seat else " ", style="bold")
        name = seat_name(info.names, seat) + (" (you)" if seat in info.humans else "")
        name += " (dealer)" if seat == view.dealer else ""
        entry.append(f"{name} ", style="bold" if seat == view.seat else "")
        entry.append(str(chips), style="bold red" if chips == 0 else "")
        entries.append(entry)
    return SeatsLine(tuple(entries))


@dataclass(frozen=True)
class SeatsLine:
    """Seats (or a lane's backers) side by side, going on on the next line between two where
    the width runs out (at 60 columns 'P5 150' stays whole)."""

    entries: tuple[Text, ...]
    gap: str = SEATS_GAP

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for entry in self.entries:
            if line and line.cell_len + len(self.gap) + entry.cell_len > options.max_width:
                yield line
                line = Text()
            elif line:
                line.append(self.gap)
            line.append_text(entry)
        yield line


def render_board(
    view: CardsView, info: BoardInfo, news_lines: int = 5, *, compact: bool = False
) -> RenderableType:
    """Status, the course and its lanes, the cards turned, the seats with their money, the news;
    `compact` (a short screen) leaves out the cards turned (the log has each one)."""
    parts: list[RenderableType] = [status_line(view, info), Lanes(view, info)]
    if not compact:
        parts.append(turned_line(view))
    parts.append(players_line(view, info))
    parts += recent_news(info.news, news_lines)
    return Group(*parts)


def to_plain(renderable: RenderableType, width: int = PLAIN_WIDTH) -> str:
    """Render without colour or style codes, as a pipe or a log file wants it."""
    return terminal_plain(renderable, width)


# --- announcements ------------------------------------------------------------------------------


# --- the screen -----------------------------------------------------------------------------

ODDS_BUDGET = 30_000  # DP states per redraw; a young face-down race shows its odds later


def board_odds(view: CardsView) -> tuple[dict[int, float] | None, str]:
    """Live win chances for the board, and a note when they are not shown."""
    if (
        view.phase in (CardsPhase.COURSE, CardsPhase.OVER)
        or len(view.course) < view.config.course_length
    ):
        return None, ""
    try:
        odds = _board_odds(position_of(view))
    except TooManyStates:
        return None, "odds once more cards are out"
    return dict(odds), "win odds"


@lru_cache(maxsize=512)
def _board_odds(position: RacePosition) -> tuple[tuple[int, float], ...]:
    odds = card_odds(position, places=1, max_states=ODDS_BUDGET)
    return tuple(sorted(odds.win.items()))
