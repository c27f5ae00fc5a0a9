"""What opens over the board: a result held until Enter (or for the table's pace), and the help
with the keys, the current odds and the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from horserace.core.shown_odds import ShownOdds
from horserace.terminal.choices import SURE_RULE
from horserace.terminal.screen import to_plain

KEYS: tuple[tuple[str, str], ...] = (
    ("h  ?  F1", "this help (Esc closes it)"),
    ("Enter", "answer the question; go on after a result"),
    ("y  n", SURE_RULE),
    ("+  -", "bots play faster / slower"),
    ("n", "skip to the next decision (no pauses until then)"),
    ("space", "pause or resume the bots"),
    ("PgUp PgDn", "scroll the log (it keeps the whole game)"),
    ("Ctrl-Z", "undo the last outcome typed in (companion mode)"),
    ("q  Ctrl-C", "leave the table (the record is written)"),
)


def key_legend() -> Table:
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for keys, words in KEYS:
        table.add_row(keys, words)
    return table


def odds_table(odds: ShownOdds | None) -> RenderableType:
    """Each horse's chance to win as the table stands, with the digits it has (as the board
    prints it) and a note while some are being refined, or why there is none yet."""
    if not odds or not odds.win:
        return Text("no odds to show at this point of the game", style="italic")
    table = Table(box=None, padding=(0, 2, 0, 0), header_style="bold")
    table.add_column("horse")
    table.add_column("win %", justify="right")
    for horse, _ in sorted(odds.win.items(), key=lambda item: -item[1]):
        table.add_row(horse, odds.text(horse).strip())
    if not odds.note:
        return table
    return Group(table, Text(odds.note, style="dim"))


class ResultScreen(ModalScreen[None]):
    """A race's result or the final standings over the lower part of the board; Enter (or the
    play loop, at a table of bots) closes it."""

    DEFAULT_CSS = """
    ResultScreen { align: center bottom; background: $background 30%; }
    ResultScreen > Vertical {
        width: 100%; max-width: 100; height: auto; max-height: 80%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ResultScreen #result-body { height: auto; max-height: 60vh; }
    ResultScreen .hint { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "go_on", "go on", priority=True)]

    def __init__(self, title: str, body: RenderableType, on_close: Callable[[], None]) -> None:
        super().__init__()
        self.heading = title
        self.body = body
        self.on_close = on_close

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.heading, style="bold"), id="result-title")
            with VerticalScroll(id="result-body"):
                yield Static(self.body)
            yield Static("Enter: go on", classes="hint")

    def action_go_on(self) -> None:
        """Whoever opened the result closes it (`TableApp.close_result`), once told."""
        self.on_close()


class HelpScreen(ModalScreen[None]):
    """The keys, the odds as the table stands and the rules, over the whole screen."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 100; height: 100%; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    HelpScreen .heading { text-style: bold; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,question_mark,f1,q", "close", "close help", priority=True),
    ]

    def __init__(self, rules: str, odds: ShownOdds | None) -> None:
        super().__init__()
        self.rules = rules
        self.odds = odds

    def plain(self) -> str:
        """The keys and the odds as words (what a screen reader or a test reads)."""
        return to_plain(Group(key_legend(), odds_table(self.odds)))

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("Keys", classes="heading")
            yield Static(key_legend())
            yield Static("Chances to win now", classes="heading")
            yield Static(odds_table(self.odds))
            yield Static("The rules", classes="heading")
            yield Markdown(self.rules or "No rules text for this game.")

    def action_close(self) -> None:
        self.dismiss()


class LeaveScreen(ModalScreen[bool]):
    """Asked before the table is left with q, so that a q typed a moment too late (meaning the
    Queen) leaves nothing: y leaves, n or Esc stays."""

    DEFAULT_CSS = """
    LeaveScreen { align: center middle; background: $background 30%; }
    LeaveScreen > Static {
        width: auto; max-width: 60; height: auto; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "leave", "leave", priority=True),
        Binding("n,escape", "stay", "stay", priority=True),
    ]

    def compose(self) -> ComposeResult:
        yield Static(
            "Leave the table? Its record is kept to resume it.\ny: leave  ·  n or Esc: stay"
        )

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)
