"""What every family's table shows at a terminal, whatever it draws: the news lines, a board
printed plain for a pipe or shown on the full-screen table (a `Display`), questions put to a
person, results, and the pauses that let a person follow the game. A family's screen says only
what its board looks like and when to draw it."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import typer
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.text import Text

from horserace.core.actions import Action
from horserace.core.chance import TypedChance
from horserace.core.events import Event, seat_name
from horserace.core.rules import Rules
from horserace.engine import CHANCE_TEXT, Game, Step
from horserace.terminal.choices import Choice, Presenter
from horserace.terminal.plain import (
    PlainPresenter,
    discard_typeahead,
    input_ended_said,
    read_line,
)

NEWS_KEPT = 40
DOT = " · "  # between two parts of a status line
RESULT_PAUSE = 8  # times --speed: a race's result shown in a replay


@dataclass(frozen=True)
class News:
    """One announcement line; `kind` picks its colour (a family's STYLES) and whether it is worth
        keeping on the board (not the QUIET kinds, such as every single move). `covers` are the
    events the line tells of, so a test can check that the log leaves none out."""

    text: str
    kind: str = "info"
    covers: tuple[Event, ...] = field(default=(), compare=False, repr=False)  # what it tells

    STYLES: ClassVar[Mapping[str, str]] = {}
    QUIET: ClassVar[frozenset[str]] = frozenset({"move"})

    @property
    def notable(self) -> bool:
        return self.kind not in self.QUIET

    def styled(self) -> Text:
        return Text(self.text, style=self.STYLES.get(self.kind, ""), overflow="fold")


def recent_news(news: Sequence[News], lines: int) -> list[Text]:
    """The last `lines` notable announcements as one block under a board ([]: none to show)."""
    shown = [item for item in news if item.notable][-lines:] if lines > 0 else []
    return [Text("\n").join(item.styled() for item in shown)] if shown else []


def status_parts(parts: list[tuple[str, str]]) -> StatusLine:
    """One status line of (text, style) parts: the first two side by side, the rest after a dot
    (on the next line where the width runs out, never cut in the middle of a part)."""
    return StatusLine(tuple(parts))


@dataclass(frozen=True)
class StatusLine:
    """A status drawn to the width it is given: on one line where it fits, else going on on the
    next line between two parts, so that nothing on it is cut (a pot, the market, a debt); a
    single part wider than the screen is cut with an ellipsis."""

    parts: tuple[tuple[str, str], ...]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = [Text(no_wrap=True, overflow="ellipsis")]
        for index, (text, style) in enumerate(self.parts):
            line = lines[-1]
            if index > 1 and line.cell_len + len(DOT) + cell_len(text) > options.max_width:
                lines.append(Text(no_wrap=True, overflow="ellipsis"))
            elif index > 1:
                line.append(DOT, style="dim")
            lines[-1].append(text, style=style)
        yield from lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [cell_len(text) for text, _ in self.parts]
        whole = sum(widths) + len(DOT) * max(0, len(widths) - 2)
        return Measurement(max([sum(widths[:2]), *widths[2:]]), whole)


EIGHTHS = ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")  # a character's left eighths, none to seven


def odds_text(chance: float, half: int, *, padded: bool = False) -> Text:
    """'19.7% ██▊': a chance and its bar, `half` characters for 50% (longer chances capped
    there), in eighths of a character; `padded` fills the bar out to that width, for a column."""
    eighths = min(half * 8, round(chance * 2 * half * 8))
    bar = "█" * (eighths // 8) + EIGHTHS[eighths % 8]
    label = "<0.1%" if 0 < chance < 0.0005 else f"{chance * 100:.1f}%"
    return Text(f"{label:>6} {bar:<{half if padded else 0}}")


@dataclass(frozen=True)
class Fitted:
    """A board drawn in full and compact: printed, it is the full one; the full screen shows
    the full one when it fits beside the log and the choice panel, else the compact one (every
    lane and every seat on a line or so, the seat's own hand on its own line), else the `tight`
    one if the family draws one (a lane on a few cells, several to a line)."""

    full: RenderableType
    compact: RenderableType
    tight: RenderableType | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.full


def to_plain(renderable: RenderableType, width: int = 80) -> str:
    """Render without any colour or style codes, as a pipe or a log file wants it."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(renderable)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"


WORDS_WIDTH = 100  # columns a table is laid out in when it is said as lines of words


def words_of(renderable: RenderableType) -> list[str]:
    """What a log line says, as plain words: a line of text, or a table's lines as printed."""
    if isinstance(renderable, Text):
        return [renderable.plain]
    return to_plain(renderable, WORDS_WIDTH).splitlines()


class Display(Protocol):
    """The full-screen table as the play loop's thread sees it: every call returns once the
    screen has it (or, for `ask` and `hold`, once the person has answered)."""

    def board(self, renderable: RenderableType) -> None:
        """Show the board as it stands."""

    def redraw(self, renderable: RenderableType) -> None:
        """Show the board now, from any thread (a figure worked out meanwhile is in)."""

    def log(self, lines: Sequence[RenderableType]) -> None:
        """Add lines (or anything drawn) to the game's log: it keeps the whole game."""

    def pause(self, seconds: float) -> None:
        """Wait between moves at the table's pace (the keys change it)."""

    def ask(self, question: str, default: str | None) -> str:
        """The text a person answers `question` with."""

    def choose(self, choice: Choice, then: RenderableType | None = None) -> Action:
        """The legal action a person comes to through `choice` (its steps and refusals shown);
        `then` is the board shown the moment it is answered (a shared keyboard's hand hidden
        in the same frame as the question goes)."""

    def tell(self, text: Text) -> None:
        """Say something to the person answering (a rejected answer, and why)."""

    def hold(self, title: str, body: RenderableType, *, until_enter: bool, seconds: float) -> None:
        """Show a result over the board: until Enter, or for `seconds` at the table's pace."""

    def clear(self) -> None:
        """Empty the log (a replay going back starts the game's log again)."""


class PanelPresenter:
    """A person's choices on the full screen: each `Choice` in the choice panel (its steps and
    refusals handled there), what is said for them in the log."""

    def __init__(
        self, display: Display, then: Callable[[], RenderableType | None] = lambda: None
    ) -> None:
        self.display = display
        self.then = then  # the board to show as soon as the person answers, if another

    def ask(self, choice: Choice) -> Action:
        return self.display.choose(choice, self.then())

    def tell(self, lines: Sequence[str]) -> None:
        self.display.log([Text(line) for line in lines])


@dataclass
class TableScreen:
    """Prints what happens line by line (`animated` False: a pipe, companion mode), or shows one
    board on the full-screen table (`animated`, through `display`); a family's screen supplies
    `render`, `observe` and the board shown before a question."""

    console: Console
    rules: Rules[Any, Any]
    names: list[str]
    humans: frozenset[int]
    plain: bool
    viewer: int | None = None
    animated: bool = False
    speed: float = 0.0
    auto_continue: float | None = None  # seconds a result stays where only bots play (None:
    # until Enter, as where people play)
    width: int = 80
    title: str = ""  # the preset's name, shown on the board
    game: Game | None = None
    news: list[Any] = field(default_factory=list)
    display: Display | None = None
    collected: list[RenderableType] | None = None  # the final standings, gathered to be held
    shared_keyboard: bool = False  # people take turns at one keyboard and hands are hidden
    holder: tuple[int, int] | None = None  # who last saw their hand, and the steps played then

    # --- what a family's screen supplies ------------------------------------------------------
    def render(self, view: Any) -> RenderableType:
        """The board drawn from `view`."""
        raise NotImplementedError

    def current_view(self) -> Any:
        """The game as it stands, as the screen's viewer may see it."""
        assert self.game is not None
        return self.rules.view(self.game.state, self.viewer)

    def current(self) -> RenderableType:
        """The board as it stands now (what a live screen opens with)."""
        return self.render(self.current_view())

    def observe(self, step: Step) -> None:
        raise NotImplementedError

    def prompt_board(self, seen: Any) -> RenderableType:
        """The board shown before a person is asked (`seen` is what the family passed)."""
        raise NotImplementedError

    def ends_race(self, step: Step) -> bool:
        """Whether `step` ends a race (a replay goes to a race by counting them)."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------------
    @property
    def news_viewer(self) -> int | None:
        """Whose eyes the log is written for: the seat at the keyboard, or nobody's (what a
        spectator reads) where people share it, so that nobody's hidden pick stays in it."""
        return None if self.shared_keyboard else self.viewer

    def hand_to(self, seat: int) -> None:
        """Before `seat` is asked: its cards are shown from now on. Where people share the
        keyboard and someone else moved since `seat` last saw its hand, the keyboard is passed
        first, behind a screen that shows no hand at all."""
        if self.shared_keyboard and not self._still_holding(seat):
            self.viewer = None
            self.pass_keyboard(seat_name(self.names, seat))
        self.viewer = seat

    def hand_back(self, seat: int) -> None:
        """After `seat` answered: where people share the keyboard its hand is hidden again (it
        shows only on its own turn), and it holds the keyboard until someone else moves."""
        if not self.shared_keyboard:
            return
        self.viewer = None
        self.holder = (seat, len(self.game.steps) if self.game is not None else 0)
        if self.display is not None:
            self.draw(self.current())
        elif self.console.file.isatty():  # printed lines: scrolled off the terminal's screen
            self.console.print("\n" * shutil.get_terminal_size().lines, end="")

    def _still_holding(self, seat: int) -> bool:
        """Whether `seat` answered last and no other seat has moved since (chance may have)."""
        if self.holder is None or self.holder[0] != seat or self.game is None:
            return False
        since = self.game.steps[self.holder[1] :]
        return all(step.actor in (str(seat), CHANCE_TEXT) for step in since)

    def pass_keyboard(self, name: str) -> None:
        """The screen between two people: no hand shows on it (the last person's was hidden as
        they answered), and it stays until Enter."""
        words = f"pass to {name}: press Enter when only {name} is looking"
        if self.display is not None:
            self.draw(self.current())
            self.display.hold(f"{name}'s turn", Text(words), until_enter=True, seconds=0)
            return
        discard_typeahead()
        read_line(f"{words} >")

    def start(self, game: Game) -> None:
        self.game = game
        if self.animated:
            self.open()

    def keep(self, items: list[Any]) -> list[Any]:
        """Remember the news for the board, and put every line in the full screen's log."""
        self.news.extend(items)
        del self.news[:-NEWS_KEPT]
        if self.display is not None and items:
            self.display.log([item.styled() for item in items])
        return items

    def show(self, renderable: RenderableType) -> None:
        if self.collected is not None:
            self.collected.append(renderable)
        elif self.display is not None:
            self.display.log([renderable])
        elif self.plain:
            self.console.print(to_plain(renderable, self.width), end="", markup=False)
        else:
            self.console.print(renderable)

    def say(self, text: str, style: str = "") -> None:
        line = Text(text, style=style)
        if self.collected is not None:
            self.collected.append(line)
        elif self.display is not None:
            self.display.tell(line)
        else:
            self.console.print(line, soft_wrap=True)

    def print_news(self, items: list[Any]) -> None:
        for item in items:
            self.console.print(item.styled(), soft_wrap=True)

    def result(
        self,
        board: RenderableType,
        items: Sequence[Any],
        title: str,
        money: RenderableType | None = None,
    ) -> None:
        """A race's end: printed (the board, then `money`, a table of each seat's), or on the
        full screen the board with the result and `money` over it, held until Enter (a table of
        bots only goes on after `auto_continue` seconds, if given: a demo); `money` stays in the
        log after the result closes, as the printed lines keep it."""
        if self.display is None:
            self.show(board)
            if money is not None:
                self.show(money)
            return
        self.display.board(board)
        if money is not None:
            self.display.log([money])
        lines: list[RenderableType] = [item.styled() for item in items if item.notable]
        if money is not None:
            lines += [Text(""), money]
        body = Group(*lines) if lines else Text("")
        seconds = self.auto_continue
        until_enter = bool(self.humans) or seconds is None
        self.display.hold(title, body, until_enter=until_enter, seconds=seconds or 0.0)

    def open(self) -> None:
        self.draw(self.current())

    def draw(self, renderable: RenderableType) -> None:
        if self.display is not None:
            self.display.board(renderable)

    def pause(self, times: float) -> None:
        if self.display is not None and self.speed > 0:
            self.display.pause(self.speed * times)

    def before_prompt(self, seen: Any) -> None:
        """Show the board (unless `seen` is None) before a person is asked."""
        if seen is None:
            return
        if self.display is not None:
            self.draw(self.prompt_board(seen))
        else:
            self.show(self.prompt_board(seen))

    def after_prompt(self) -> None:
        """Nothing to undo: the full screen keeps drawing while a person answers."""

    def presenter(self) -> Presenter:
        """What puts a person's choices: the full screen's choice panel, else printed lines."""
        if self.display is not None:
            return PanelPresenter(self.display, self.hidden_board)
        return PlainPresenter(self.console)

    def hidden_board(self) -> RenderableType | None:
        """Where people share the keyboard: the board as it stands, with no hand shown."""
        if not self.shared_keyboard or self.game is None:
            return None
        return self.render(self.rules.view(self.game.state, None))

    def prompt(self, text: str, default: str | None = None) -> str:
        if self.display is not None:
            return self.display.ask(text, default)
        with input_ended_said():  # outcomes piped in that run out, as answers that do
            answer = (
                typer.prompt(text, default=default) if default is not None else typer.prompt(text)
            )
        return str(answer)

    def close(self) -> None:
        """Nothing to close: the full screen belongs to the app that runs the table."""

    def settle(self) -> None:
        """Wait for what the board shows to be worked out in the background (none here)."""


class TypedOutcomes:
    """Chance read off a real table, for every family: each outcome asked for on the screen by
    what it decides (a family's `choose` names it), the board shown first where the family
    says; `TypedChance` reads the answer, and a refused one is said in red."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self._context = ""
        self._typed = TypedChance(self._ask, lambda text: screen.say(text, "red"))

    def _ask(self, question: str) -> str:
        return self.screen.prompt(f"{self._context}: {question}")

    def typed(self, rules: Rules[Any, Any], state: Any, context: str, seen: Any) -> Action:
        """The outcome of `state`'s chance step as typed in, asked for as `context`, with the
        board of `seen` shown first (None: the board stays as it is)."""
        self._context = context
        self.screen.before_prompt(seen)
        try:
            return self._typed.choose(rules, state)
        finally:
            self.screen.after_prompt()
