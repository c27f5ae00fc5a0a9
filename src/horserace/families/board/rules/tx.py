"""The one money path: a step's transaction over the state's parts.

A step opens a `Tx` on the state it starts from, the phases change parts and move chips only
through it, and `commit` builds the next state. Chips move only by `pay` and `collect`, which
emit the event that explains them, so a seat's money is always its start plus its money events.
"""

from __future__ import annotations

from horserace.components.cards import RankCounts
from horserace.core.events import Event
from horserace.core.ledger import Ledger, LedgerError
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.records import PhaseRecord
from horserace.families.board.rules.state import BoardState, Cards, Race, SeatStatus


class Tx:
    """A working copy of one state: parts are replaced whole, chips move with their events."""

    __slots__ = (
        "_balances",
        "cards",
        "config",
        "dealer",
        "events",
        "race",
        "round",
        "seats",
        "start",
    )

    def __init__(self, state: BoardState) -> None:
        self.start = state
        self.config: BoardConfig = state.config
        self.round = state.round
        self.dealer = state.dealer
        self.cards: Cards = state.cards
        self.race: Race = state.race
        self.seats: SeatStatus = state.seats
        self.events: list[Event] = []
        self._balances: list[int] | None = None

    # --- money ----------------------------------------------------------------------------
    @property
    def pot(self) -> int:
        return self.config.players

    @property
    def jockey(self) -> int:
        return self.config.players + 1

    def balance(self, account: int) -> int:
        if self._balances is None:
            return self.start.ledger.balances[account]
        return self._balances[account]

    def _moved(self) -> list[int]:
        if self._balances is None:
            self._balances = list(self.start.ledger.balances)
        return self._balances

    def pay(self, seat: int, owed: int, reason: str, into: int | None = None) -> int:
        """`seat` pays `owed` into a pot, or all it holds when that is less; returns the paid."""
        account = self.pot if into is None else into
        balances = self._moved()
        paid = owed if owed <= balances[seat] else balances[seat]
        balances[seat] -= paid
        balances[account] += paid
        where = "jockey" if account == self.jockey else "pot"
        self.events.append(ev.ChipsPaid(seat, owed, paid, reason, where))
        return paid

    def pay_in_full(self, seat: int, price: int, reason: str) -> None:
        """A purchase: never on credit."""
        if price > self.balance(seat):
            raise LedgerError(f"seat {seat + 1} holds {self.balance(seat)}, cannot pay {price}")
        self.pay(seat, price, reason)

    def collect(
        self, seat: int, amount: int, event: ev.MoneyEvent, source: int | None = None
    ) -> None:
        """`seat` takes `amount` out of a pot, explained by `event`."""
        account = self.pot if source is None else source
        balances = self._moved()
        if amount > balances[account]:
            raise LedgerError(f"the pot holds {balances[account]}, cannot pay {amount}")
        balances[account] -= amount
        balances[seat] += amount
        self.events.append(event)

    def sweep(self, source: int, target: int, event: ev.MoneyEvent) -> int:
        """Move a whole pot into another (the Main Pot's remainder to the Jockey Pot)."""
        balances = self._moved()
        amount = balances[source]
        balances[source] = 0
        balances[target] += amount
        self.events.append(event)
        return amount

    # --- cards ----------------------------------------------------------------------------
    def set_hand(self, seat: int, hand: RankCounts) -> None:
        hands = list(self.cards.hands)
        hands[seat] = hand
        self.cards = self.cards._replace(hands=tuple(hands))

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # --- the next state -------------------------------------------------------------------
    def commit(self, record: PhaseRecord) -> tuple[BoardState, tuple[Event, ...]]:
        """The next state, in phase `record`, with whose turn it is read off the record."""
        actor = record.actor()
        assert actor is not None, "an automatic record is resolved before a step ends"
        start = self.start
        ledger = start.ledger
        if self._balances is not None:
            ledger = Ledger(ledger.labels, tuple(self._balances))
        state = BoardState(
            self.config,
            self.round,
            self.dealer,
            self.cards,
            self.race,
            self.seats,
            ledger,
            record,
            actor,
        )
        return state, tuple(self.events)
