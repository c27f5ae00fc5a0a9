"""A seat played by a person at the keyboard, for every family: the board as the seat sees it,
then the family's `Choice` put by a presenter (printed lines, or the full screen's panel) until
the answer names a legal action. What to ask is the family's (`Asker`); a move with one legal
answer is taken at once and said, never waited for, unless the question is one whose answers
hang on hidden cards (it is then always put, so nobody learns what the seat holds). People who
share the keyboard see their own hand only while they answer (`TableScreen.hand_to`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import seat_name
from horserace.terminal.choices import Choice, Presenter
from horserace.terminal.screen import TableScreen


class Asker(Protocol):
    def seen(self, view: Any, screen: TableScreen) -> Any:
        """What the screen draws before the question (the view, or the table's state)."""

    def choice(self, view: Any, legal: Sequence[Action], seat: int) -> Choice:
        """The question, its options and how free-typed answers are read."""


class KeyboardAgent:
    def __init__(
        self, seat: int, screen: TableScreen, asker: Asker, presenter: Presenter | None = None
    ) -> None:
        self.seat = seat
        self.screen = screen
        self.asker = asker
        self.given = presenter  # else the screen's, asked at each move (a full screen
        # attaches its display after the seats are made)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise IllegalAction("a person was asked to move with no legal action")
        screen = self.screen
        presenter = self.given if self.given is not None else screen.presenter()
        choice = self.asker.choice(view, legal, self.seat)
        only = legal[0] if len(legal) == 1 else choice.only_action()
        if only is not None and not choice.always_ask:  # one legal answer (or one left by the
            # seat's own word, a pass), said where nobody else reads the seat's cards in it
            if not screen.shared_keyboard:
                screen.viewer = self.seat
                presenter.tell([only_move_line(screen.names, self.seat, choice, only)])
            return only
        screen.hand_to(self.seat)
        screen.before_prompt(self.asker.seen(view, screen))
        try:
            return presenter.ask(choice)
        finally:
            screen.after_prompt()
            screen.hand_back(self.seat)


def only_move_line(names: Sequence[str], seat: int, choice: Choice, action: Action) -> str:
    """'Ann: roll the dice (the only move)'."""
    words = next((o.words for o in choice.options if o.action == action), action.text)
    return f"{seat_name(names, seat)}: {words} (the only move)"
