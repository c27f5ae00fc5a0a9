"""What every betting style supplies to the race: who decides before it, how many places it
needs settled, and who is paid after it. The race itself knows nothing of money."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import replace

from horserace.core.actions import Action
from horserace.core.events import Event
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import Done
from horserace.families.cards.rules.state import CardsState


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, clockwise, starting at `first`."""
    return [(first + offset) % players for offset in range(players)]


def account(state: CardsState, who: int) -> int:
    """Event account numbers (seat, ev.TABLE, ev.BANK) -> ledger index."""
    if who == ev.TABLE:
        return state.table_account
    if who == ev.BANK:
        return state.bank_account
    return who


def pay(
    state: CardsState, source: int, target: int, amount: int, reason: str
) -> tuple[CardsState, list[Event]]:
    """Move chips through the ledger (which refuses to overdraw) and say so."""
    if amount == 0:
        return state, []
    ledger = state.ledger.transfer(account(state, source), account(state, target), amount)
    return replace(state, ledger=ledger), [ev.Payment(source, target, amount, reason)]


class Style(ABC):
    """One way of betting on the race. Methods are pure, like the rules that call them."""

    name: str

    @abstractmethod
    def open(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        """The course is dealt: start the betting (the state's phase is already BETTING)."""

    @abstractmethod
    def actor(self, state: CardsState) -> int | None:
        """The seat to decide now, or None once the betting is over."""

    @abstractmethod
    def legal(self, state: CardsState, seat: int) -> Sequence[Action]: ...

    @abstractmethod
    def verify(self, state: CardsState, action: Action) -> None:
        """Raise IllegalAction unless the actor may do `action` now."""

    def refuse_out_of_turn(self, state: CardsState, seat: int) -> None:
        """Raise IllegalAction naming the rule that keeps `seat` out now (none by default)."""
        return None

    @abstractmethod
    def act(self, state: CardsState, action: Action) -> tuple[CardsState, list[Event]]:
        """Apply a verified action."""

    @abstractmethod
    def parse(self, text: str) -> Action: ...

    @abstractmethod
    def places(self, state: CardsState) -> int:
        """How many places the bets on the table need settled (1 = just the winner)."""

    @abstractmethod
    def settle(self, state: CardsState, order: tuple[int, ...]) -> tuple[CardsState, list[Event]]:
        """Pay out on the final order of the four horses."""


class QueueStyle(Style, ABC):
    """Styles where seats act one after another, each until it says it is done."""

    def actor(self, state: CardsState) -> int | None:
        queue = state.betting.queue
        return queue[0] if queue else None

    @abstractmethod
    def has_choice(self, state: CardsState, seat: int) -> bool:
        """Whether `seat` could do anything but "done" (seats without a choice are skipped)."""

    def advance(self, state: CardsState, finished: bool) -> CardsState:
        """Drop the actor if it `finished`, then skip the seats that have no choice."""
        queue = list(state.betting.queue)
        if finished and queue:
            queue.pop(0)
        while queue and not self.has_choice(state, queue[0]):
            queue.pop(0)
        return replace(state, betting=replace(state.betting, queue=tuple(queue)))


class BettingStyle(QueueStyle, ABC):
    """Styles where each seat in turn places bets until it says "done"."""

    def verify(self, state: CardsState, action: Action) -> None:
        if not isinstance(action, Done):
            self.check_bet(state, self._bettor(state), action)

    def act(self, state: CardsState, action: Action) -> tuple[CardsState, list[Event]]:
        if isinstance(action, Done):
            return self.advance(state, finished=True), []
        state, events = self.place_bet(state, self._bettor(state), action)
        return self.advance(state, finished=False), events

    def _bettor(self, state: CardsState) -> int:
        seat = self.actor(state)
        assert seat is not None
        return seat

    @abstractmethod
    def check_bet(self, state: CardsState, seat: int, action: Action) -> None:
        """An IllegalAction says why `seat` may not make this bet now."""

    @abstractmethod
    def place_bet(
        self, state: CardsState, seat: int, action: Action
    ) -> tuple[CardsState, list[Event]]:
        """The bet taken: its stake paid to the table, and the events that say so."""
