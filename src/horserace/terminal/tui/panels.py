"""The log beside or below the board: it keeps the whole game."""

from __future__ import annotations

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog

from horserace.terminal.screen import words_of


class GameLog(RichLog):
    """Every line the table says, in order, from the first deal to the standings (never cut);
    what is not a line of text (a table of silks to choose from) is kept as drawn."""

    def __init__(self) -> None:
        super().__init__(id="log", wrap=True, markup=False, highlight=False, max_lines=None)
        self.can_focus = False
        self.said: list[str] = []  # the plain words, for tests and screen readers
        self.kept: list[RenderableType] = []  # everything written, to wrap again on a resize
        self._width = 0

    def add(self, lines: list[RenderableType]) -> None:
        for line in lines:
            self.said.extend(words_of(line))
            self.kept.append(line)
            self.write(line)

    def forget(self) -> None:
        """Start the log again (a replay going back)."""
        self.clear()
        self.said.clear()
        self.kept.clear()

    def on_resize(self, event: Resize) -> None:
        """Lines are wrapped as they are written: a new width writes them all again; whatever
        the new size, the last line shows (once the new size is laid out)."""
        known = self._width
        self._width = event.size.width
        if known and known != event.size.width:
            self.clear()
            for line in self.kept:
                self.write(line)
        self.call_after_refresh(self.scroll_end, animate=False)
