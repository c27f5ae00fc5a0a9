"""Laying the screen out counts the board's lines; a board laid out again (a question opening and
closing over it, a resize and back) is counted without being drawn again."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console, ConsoleOptions
from rich.text import Text

from horserace.terminal.screen import Display
from horserace.terminal.tui.app import FINISHED, TableApp, TableHelp


def counting_app(monkeypatch: pytest.MonkeyPatch) -> tuple[TableApp, list[int]]:
    """An app (not run) whose console notes the width of every drawing it makes."""

    def work(display: Display) -> str:
        return FINISHED

    app = TableApp("classic", work, TableHelp())
    drawn: list[int] = []
    console: Console = app.console
    real = console.render_lines

    def render_lines(renderable: Any, options: ConsoleOptions | None = None, **kw: Any) -> Any:
        drawn.append(options.max_width if options is not None else console.width)
        return real(renderable, options, **kw)

    monkeypatch.setattr(console, "render_lines", render_lines)
    return app, drawn


def test_a_board_is_drawn_once_per_width(monkeypatch: pytest.MonkeyPatch) -> None:
    app, drawn = counting_app(monkeypatch)
    board = Text("lane 2 " * 20)  # 140 columns: two lines at 79 columns, three at 59
    assert [app.board_lines(board, 79) for _ in range(3)] == [2, 2, 2]
    assert app.board_lines(board, 59) == 3
    assert app.board_lines(board, 79) == 2
    assert drawn == [79, 59]
    again = Text("lane 2 " * 20)  # an equal board drawn anew by the play loop is measured anew
    assert app.board_lines(again, 79) == 2
    assert drawn == [79, 59, 79]
