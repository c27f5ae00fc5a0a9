"""Driving the full-screen table in tests: wait for what the screen shows, answer questions."""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Callable, Coroutine
from typing import Any

from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.widgets import Static

from horserace.engine import Game
from horserace.terminal.tui.app import TableApp
from horserace.terminal.tui.choice_panel import ChoicePanel
from horserace.terminal.tui.overlays import ResultScreen
from horserace.terminal.tui.panels import GameLog

TICK = 0.02
PATIENCE = 2000  # ticks: 40 seconds on a busy machine


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def key_event(key: str) -> events.Key:
    """The event a terminal sends for `key` (a key's name, or the character it types), as
    Textual's `Pilot.press` makes it."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(
            _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        )
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def press(pilot: Pilot[str], *keys: str) -> None:
    """Type `keys` one after the other, each handled by the app and the screen's widgets, and
    the screen laid out and drawn, before the next is sent. Textual's `Pilot.press` waits after
    each key until the whole process is idle: at least 40 ms a key, and up to two seconds while
    the play loop's or the odds' thread works on. What the play loop does with an answer a test
    waits for with `until`, as a person waits to see the next question before typing."""
    for key in keys:
        pilot.app.post_message(key_event(key))
        await pilot._wait_for_screen()  # the app has it, and has passed it on to the focus
        await pilot.pause(0)  # the focus has it, and the screen is laid out and drawn anew
        await pilot._wait_for_screen()  # what waited for that drawing (a question now ready)


def asking(app: TableApp) -> bool:
    """A question is open and on the screen (keys typed before it is drawn answer nothing)."""
    return app.query_one(ChoicePanel).ready


def holding(app: TableApp) -> ResultScreen | None:
    screen = app.screen
    return screen if isinstance(screen, ResultScreen) else None


def on_screen(app: TableApp) -> str:
    """The screen's text as the terminal shows it now (the compositor's lines)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def pick_first(pilot: Pilot[str], app: TableApp, game: Game) -> None:
    """Answer the open choice with the first option it lists, and wait until it is played."""
    played = len(game.steps)
    await press(pilot, *app.query_one(ChoicePanel).listed[0].key, "enter")
    await until(pilot, lambda: len(game.steps) > played)


def question(app: TableApp) -> str:
    return str(app.query_one(ChoicePanel).query_one("#question", Static).render())


async def enter(pilot: Pilot[str], app: TableApp, game: Game, text: str) -> None:
    """Type an answer once the question is on the screen, and wait until the game has it."""
    await until(pilot, lambda: asking(app))
    played = len(game.steps)
    await press(pilot, *text, "enter")
    await until(pilot, lambda: len(game.steps) > played)


def said(app: TableApp) -> list[str]:
    return app.query_one(GameLog).said


async def until(pilot: Pilot[str], ready: Callable[[], object]) -> None:
    """Let the app and its worker run until `ready()` holds (or fail after PATIENCE ticks)."""
    for _ in range(PATIENCE):
        if ready():
            return
        await pilot.pause(TICK)
    raise AssertionError("the screen never got there")


async def pick_all(pilot: Pilot[str], app: TableApp, game: Game) -> None:
    """Answer every question with its first option (a choice that matters has no default)
    until a result shows."""
    while holding(app) is None:
        await until(pilot, lambda: asking(app) or holding(app) is not None)
        if asking(app):
            await pick_first(pilot, app, game)


async def settled(pilot: Pilot[str], app: TableApp) -> str:
    """The screen once it stays the same from one tick to the next."""
    last = ""
    for _ in range(PATIENCE):
        await pilot.pause(TICK)
        now = on_screen(app)
        if now == last:
            return now
        last = now
    raise AssertionError("the screen never settled")
