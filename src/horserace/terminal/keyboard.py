"""A seat played by a person at the keyboard, for every family: the board as the seat sees it,
a question, and the question again until the answer names a legal action. What to ask and how
to read the answer is the family's (`Asker`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.terminal.screen import TableScreen


class Asker(Protocol):
    def seen(self, view: Any, screen: TableScreen) -> Any:
        """What the screen draws before the question (the view, or the table's state)."""

    def question(self, view: Any, legal: Sequence[Action], seat: int) -> tuple[str, str | None]:
        """The question and the answer Enter gives."""

    def answer(self, text: str, view: Any, legal: Sequence[Action], seat: int) -> Action | str:
        """The legal action `text` names, or why it names none."""


class KeyboardAgent:
    def __init__(self, seat: int, screen: TableScreen, asker: Asker) -> None:
        self.seat = seat
        self.screen = screen
        self.asker = asker

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise IllegalAction("a person was asked to move with no legal action")
        screen = self.screen
        screen.viewer = self.seat
        screen.before_prompt(self.asker.seen(view, screen))
        try:
            question, default = self.asker.question(view, legal, self.seat)
            while True:
                found = self.asker.answer(screen.prompt(question, default), view, legal, self.seat)
                if not isinstance(found, str):
                    return found
                screen.say(found, "red")
        finally:
            screen.after_prompt()


def matching(text: str, legal: Sequence[Action], numbered: bool = False) -> Action | None:
    """The legal action whose text is `text` (any case), or whose number in the list it is."""
    word = text.strip().lower()
    for number, action in enumerate(legal, start=1):
        if word == action.text.lower() or (numbered and word == str(number)):
            return action
    return None
