"""Seeded tables for the full-screen tests: a preset's game with its bots (and people at the
seats asked for), the family's screen on a quiet console, and the app that plays it, stops it
at a fixed step, or plays its record back."""

from __future__ import annotations

import contextlib
import io
import math
import threading
from collections.abc import Iterable
from typing import Any

from rich.console import Console, RenderableType

from horserace.core.chance import ChanceSource, SeededChance
from horserace.core.rules import Result
from horserace.drivers.bots import bot_kinds_of
from horserace.drivers.cli.table import seat_agents
from horserace.engine import Agent, Game, Step, play
from horserace.engine import replay as engine_replay
from horserace.families import family_of_preset
from horserace.families.presets import get_preset
from horserace.families.texts import rules_markdown
from horserace.terminal.screen import RESULT_PAUSE, Display, TableScreen
from horserace.terminal.table import TableSetup, TableTerminal
from horserace.terminal.tui.app import FINISHED, TableApp, TableHelp
from horserace.terminal.tui.replay import ReplayApp, replay_app
from horserace.terminal.tui.run import table_app


class Table:
    """A seeded game of `preset_name` at speed 0 with the family's default bots; `humans` are
    0-based seats played at the screen."""

    def __init__(
        self,
        preset_name: str,
        seed: int = 7,
        humans: Iterable[int] = (),
        options: dict[str, object] | None = None,
        companion: bool = False,
    ) -> None:
        fam = family_of_preset(preset_name)
        self.terminal: TableTerminal = fam.terminal()
        preset = get_preset(preset_name)
        config = preset.table_config(options or {})
        seats = preset.rules.players(config)
        kinds = bot_kinds_of(self.terminal.default_bots, fam.name)
        self.setup = TableSetup(
            preset=preset_name,
            rules=preset.rules,
            config=config,
            seed=seed,
            names=[f"P{seat + 1}" for seat in range(seats)],
            humans=frozenset(humans),
            bots=tuple(kinds[seat % len(kinds)] for seat in range(seats)),
            companion=companion,
            speed=0.0,
        )
        self.screen = self.new_screen()
        self.game = self.new_game()
        self.agents: dict[int, Agent] = seat_agents(
            fam.name, self.setup, lambda seat: self.terminal.keyboard(seat, self.screen)
        )
        self.help = TableHelp(
            rules=rules_markdown(preset_name),
            odds=lambda: fam.shown_odds(preset.rules.view(self.game.state, None)),
        )

    def new_screen(self) -> TableScreen:
        """The screen, each result gone on from at once where only bots play (where people
        play it stays until Enter)."""
        console = Console(file=io.StringIO(), width=80, height=24)
        screen = self.terminal.screen(self.setup, console, False, True)
        screen.auto_continue = 0.0
        return screen

    def new_game(self) -> Game:
        setup = self.setup
        mode = "typed" if setup.companion else "seeded"
        return Game(setup.preset, setup.rules, setup.config, seed=setup.seed, chance_mode=mode)

    def chance(self) -> ChanceSource:
        """The dice typed in at the screen (companion mode), else the seed's."""
        if self.setup.companion:
            return self.terminal.companion_chance(self.screen)
        return SeededChance(self.setup.seed)

    def finish(self, result: Result) -> None:
        self.terminal.finish(self.screen, result)


def table(
    preset_name: str,
    seed: int = 7,
    humans: Iterable[int] = (),
    options: dict[str, object] | None = None,
    theme: str = "dark",
    companion: bool = False,
) -> tuple[TableApp, Game, TableScreen]:
    """The app playing the table to its end (its dice typed in at the screen: `companion`)."""
    t = Table(preset_name, seed, humans, options, companion)
    app = table_app(t.game, t.agents, t.chance(), t.screen, t.finish, t.help, theme)
    return app, t.game, t.screen


class _Enough(Exception):
    """The still table has played the steps it shows."""


class _LogOnly:
    """The display while a still table plays up to its step: every line goes to the log (and
    every result is held and closed as at the table), no board in between is drawn -- the
    picture is of the last one, and drawing each of a Derby's boards cost seconds."""

    def __init__(self, display: Display) -> None:
        self.display = display

    def board(self, renderable: RenderableType) -> None:
        """Not drawn: a later board stands in for it."""

    def redraw(self, renderable: RenderableType) -> None:
        """Not drawn (a figure worked out in the background): the last board is drawn anew."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.display, name)


def still_table(
    preset_name: str,
    steps: int,
    seed: int = 7,
    theme: str = "dark",
    options: dict[str, object] | None = None,
) -> tuple[TableApp, threading.Event]:
    """The app showing a table of bots stopped after `steps` steps, and waiting there: what a
    snapshot takes (the same screen every time); the event is set once it is there."""
    t = Table(preset_name, seed, options=options)
    screen, game = t.screen, t.game

    def observe(step: Step) -> None:
        screen.observe(step)
        if len(game.steps) >= steps:
            raise _Enough

    def work(display: Display) -> str:
        screen.display = _LogOnly(display)
        screen.start(game)
        with contextlib.suppress(_Enough):
            play(game, t.agents, SeededChance(seed), observe=observe)
        screen.display = display
        display.redraw(screen.current())  # at once: no board was drawn a frame before
        screen.settle()  # the odds worked out in the background are in
        # laid out for the last board: the app keeps a layout a while, and the one it made for
        # no board at all, as it opened, may be fresh still
        app.call_from_thread(app.fit)
        there.set()
        display.pause(math.inf)  # until the test ends the app
        return FINISHED

    there = threading.Event()
    app = TableApp(preset_name, work, TableHelp(), theme)
    return app, there


def replayed(preset_name: str, options: dict[str, object], seed: int = 7) -> ReplayApp:
    """A game of bots played to its end, its record checked, and the app that plays it back
    (at 0.02 seconds a step, for the keys to have something to pause)."""
    t = Table(preset_name, seed, options=options)
    play(t.game, t.agents, SeededChance(seed))
    steps: list[Step] = []
    assert engine_replay(t.game.record(), get_preset, observe=steps.append).ok

    def new_screen() -> TableScreen:
        screen = t.new_screen()
        screen.speed = 0.02
        screen.auto_continue = screen.speed * RESULT_PAUSE
        return screen

    def finish(screen: TableScreen, result: Any) -> None:
        t.terminal.finish(screen, result)

    return replay_app(steps, new_screen, t.new_game, finish, TableHelp(), "dark")
