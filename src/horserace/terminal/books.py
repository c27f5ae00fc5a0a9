"""Keeping the books of a real table: the play loop that lets the person typing the outcomes
withdraw the last one (`undo`, or the full screen's key), as a new line of the record, never an
edit, the same in printed lines and on the full screen."""

from __future__ import annotations

from collections.abc import Mapping

from horserace.core.chance import ChanceSource, UndoRequested
from horserace.core.words import counted
from horserace.engine import Agent, Game, play
from horserace.terminal.screen import TableScreen


def play_to_the_end(
    game: Game, agents: Mapping[int, Agent], chance: ChanceSource, screen: TableScreen
) -> None:
    """Play `game` to its end on `screen`; an undo withdraws the last outcome typed in (and
    every step after it), says so, shows the board as it stands again, and plays on."""
    while True:
        try:
            play(game, agents, chance, observe=screen.observe)
            return
        except UndoRequested as undo:
            withdrawn: tuple[str, ...] = ()
            for _ in range(undo.entries):
                withdrawn = game.undo() + withdrawn
            say_undone(screen, withdrawn, undo.what)
            if screen.animated:
                screen.open()


def say_undone(screen: TableScreen, withdrawn: tuple[str, ...], what: str | None = None) -> None:
    if not withdrawn:
        screen.say("nothing typed in yet: nothing to undo", "yellow")
        return
    if what is not None:
        screen.say(f"undone: {what}; type it again", "yellow")
        return
    after = len(withdrawn) - 1
    more = f" and the {counted(after, 'step')} after it" if after else ""
    screen.say(f"undone: {withdrawn[0]}{more}; type it again", "yellow")
