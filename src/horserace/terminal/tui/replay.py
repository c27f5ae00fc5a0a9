"""A checked record played back on the full-screen table: the same board and log as the game
had, at the table's pace, with keys to pause, step and go to any race (back or forward)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from horserace.core.rules import Result
from horserace.engine import Game, Step
from horserace.terminal.screen import Display, TableScreen
from horserace.terminal.tui.app import FINISHED, TableApp, TableHelp
from horserace.terminal.tui.run import hold_standings


def race_starts(steps: Sequence[Step], screen: TableScreen) -> list[int]:
    """The index of the first step of each race: 0, then the step after each race's end but
    the last (what follows that one is the game's end, not a race)."""
    ends = [index for index, step in enumerate(steps) if screen.ends_race(step)]
    return [0] + [index + 1 for index in ends[:-1]]


class Playback:
    """Shows `steps` on fresh screens: from the start, or from a race the person goes to (the
    races before it are run through without pauses, so the log and the board are whole)."""

    def __init__(
        self,
        steps: Sequence[Step],
        new_screen: Callable[[], TableScreen],
        new_game: Callable[[], Game],
        finish: Callable[[TableScreen, Result], None],
    ) -> None:
        self.steps = steps
        self.new_screen = new_screen
        self.new_game = new_game
        self.finish = finish
        self.starts = race_starts(steps, new_screen())
        self.wanted: int | None = None  # the race to go to (1-based), set by the app's thread
        self.app: ReplayApp | None = None
        self.game: Game | None = None  # the game as shown so far (the help's odds read it)

    def work(self, display: Display) -> str:
        while True:
            target = self.wanted
            self.wanted = None
            if not self._show(display, target):
                continue  # the person asked for another race: start the log again
            return FINISHED

    def _show(self, display: Display, target: int | None) -> bool:
        """Show the record (running through to `target`); False when another race is wanted."""
        assert self.app is not None
        pacer = self.app.pacer
        display.clear()
        screen, game = self.new_screen(), self.new_game()
        self.game = game
        screen.display = display
        first = self.starts[target - 1] if target else 0
        if first:
            pacer.change(skip=True)
        screen.start(game)
        for index, step in enumerate(self.steps):
            if self.wanted is not None:
                return False
            if index == first and target is not None:  # there: wait for the person
                pacer.change(skip=False)
                if not pacer.paused:
                    pacer.toggle_pause()
            game.state = step.after
            screen.observe(step)
        if self.wanted is not None:
            return False
        if not game.over:  # a stopped game's record: it ends where the game stopped
            said = Text(stopped_at(len(self.steps)))
            display.log([said])
            display.hold("The game stopped", said, until_enter=True, seconds=0)
            return self.wanted is None
        hold_standings(display, screen, lambda: self.finish(screen, game.rules.result(game.state)))
        return self.wanted is None


class ReplayApp(TableApp):
    """The table app with a replay's keys: step while paused, go to a race."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("period,right", "step", "step"),
        Binding("g", "go_to_race", "go to race"),
    ]

    def __init__(self, title: str, playback: Playback, help: TableHelp, theme: str) -> None:
        super().__init__(title, playback.work, help, theme)
        self.playback = playback
        playback.app = self

    def action_step(self) -> None:
        """One more step shown (while paused: the next pause comes at once)."""
        self.pacer.release()

    def action_go_to_race(self) -> None:
        if self._result is not None:  # a race's result over the board: go on from it first
            self.close_result()
            self.pacer.release()
        races = len(self.playback.starts)
        self.ask_here(f"go to race (1-{races}), Esc to stay", self._go_to)

    def _go_to(self, text: str) -> Text | None:
        races = len(self.playback.starts)
        if not text.strip().isdigit() or not 1 <= int(text) <= races:
            return Text(f"not a race here: {text!r}; type a number from 1 to {races}", "red")
        if self.pacer.paused:  # before the play loop may pause again at the race asked for
            self.pacer.toggle_pause()
        self.playback.wanted = int(text)
        self.pacer.release()  # out of a pause or a held result, to the race asked for
        return None


def stopped_at(steps: int) -> str:
    """What a replay of an unfinished game's record ends on."""
    return f"the game stopped at step {steps}"


def replay_app(
    steps: Sequence[Step],
    new_screen: Callable[[], TableScreen],
    new_game: Callable[[], Game],
    finish: Callable[[TableScreen, Result], None],
    help: TableHelp,
    theme: str = "auto",
) -> ReplayApp:
    playback = Playback(steps, new_screen, new_game, finish)
    return ReplayApp(f"replay: {new_game().preset}", playback, help, theme)
