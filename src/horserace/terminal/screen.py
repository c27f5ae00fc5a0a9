"""What every family's table shows at a terminal, whatever it draws: the news lines, a board
printed plain for a pipe or redrawn in place on a terminal, questions put to a person, and the
pauses that let a person follow the game. A family's screen says only what its board looks like
and when to draw it."""

from __future__ import annotations

import io
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import typer
from rich.console import Console, RenderableType
from rich.live import Live
from rich.text import Text

from horserace.core.rules import Rules
from horserace.engine import Game, Step

NEWS_KEPT = 40


@dataclass(frozen=True)
class News:
    """One announcement line; `kind` picks its colour (a family's STYLES) and whether it is worth
    keeping on the board (not the QUIET kinds, such as every single move)."""

    text: str
    kind: str = "info"

    STYLES: ClassVar[Mapping[str, str]] = {}
    QUIET: ClassVar[frozenset[str]] = frozenset({"move"})

    @property
    def notable(self) -> bool:
        return self.kind not in self.QUIET

    def styled(self) -> Text:
        return Text(self.text, style=self.STYLES.get(self.kind, ""), overflow="fold")


def status_parts(parts: list[tuple[str, str]]) -> Text:
    """One status line of (text, style) parts on one row: the first two side by side, the rest
    after a dot; cut with an ellipsis rather than wrapped."""
    line = Text(no_wrap=True, overflow="ellipsis")
    for index, (text, style) in enumerate(parts):
        if index > 1:
            line.append(" · ", style="dim")
        line.append(text, style=style)
    return line


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


@dataclass
class TableScreen:
    """Prints what happens line by line (`animated` False: a pipe, companion mode), or redraws
    one board in place (`animated`); a family's screen supplies `render`, `observe` and the
    board shown before a question."""

    console: Console
    rules: Rules[Any, Any]
    names: list[str]
    humans: frozenset[int]
    plain: bool
    viewer: int | None = None
    animated: bool = False
    speed: float = 0.0
    width: int = 80
    title: str = ""  # the preset's name, shown on the board
    game: Game | None = None
    news: list[Any] = field(default_factory=list)
    live: Live | None = None

    # --- what a family's screen supplies ------------------------------------------------------
    def current(self) -> RenderableType:
        """The board as it stands now (what a live screen opens with)."""
        raise NotImplementedError

    def observe(self, step: Step) -> None:
        raise NotImplementedError

    def prompt_board(self, seen: Any) -> RenderableType:
        """The board shown before a person is asked (`seen` is what the family passed)."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------------
    def start(self, game: Game) -> None:
        self.game = game
        if self.animated:
            self.open()

    def keep(self, items: list[Any]) -> list[Any]:
        self.news.extend(items)
        del self.news[:-NEWS_KEPT]
        return items

    def show(self, renderable: RenderableType) -> None:
        if self.plain:
            self.console.print(to_plain(renderable, self.width), end="", markup=False)
        else:
            self.console.print(renderable)

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style), soft_wrap=True)

    def print_news(self, items: list[Any]) -> None:
        for item in items:
            self.console.print(item.styled(), soft_wrap=True)

    def open(self) -> None:
        self.live = Live(self.current(), console=self.console, auto_refresh=False)
        self.live.start(refresh=True)

    def draw(self, renderable: RenderableType) -> None:
        if self.live is not None:
            self.live.update(renderable, refresh=True)

    def pause(self, times: float) -> None:
        if self.animated and self.speed > 0:
            time.sleep(self.speed * times)

    def before_prompt(self, seen: Any) -> None:
        """Show the board (unless `seen` is None) and, on a live screen, stop redrawing while
        the person answers."""
        if self.animated:
            if seen is not None:
                self.draw(self.prompt_board(seen))
            self.close()
        elif seen is not None:
            self.show(self.prompt_board(seen))

    def after_prompt(self) -> None:
        if self.animated:
            self.console.clear()
            self.open()

    def prompt(self, text: str, default: str | None = None) -> str:
        answer = typer.prompt(text, default=default) if default is not None else typer.prompt(text)
        return str(answer)

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
