"""The party game: each seat picks a suit (several may pick the same); the bank pays fixed prizes
(25, 20, 15 by default) to every seat whose horse comes 1st, 2nd or 3rd. Nobody stakes a chip."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import Pick, parse_pick
from horserace.families.cards.rules.state import Betting, CardsState
from horserace.families.cards.rules.styles import QueueStyle, pay, seats_from
from horserace.families.cards.rules.track import RACING_SUITS

PLACE_NAMES = ("1st", "2nd", "3rd", "4th")


class PartyStyle(QueueStyle):
    name = "party"

    def open(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        n = state.config.players
        betting = Betting(queue=tuple(seats_from(state.dealer + 1, n)), picks=(None,) * n)
        return replace(state, betting=betting), []

    def has_choice(self, state: CardsState, seat: int) -> bool:
        return True

    def legal(self, state: CardsState, seat: int) -> Sequence[Action]:
        return [Pick(suit) for suit in RACING_SUITS] if self.actor(state) == seat else ()

    def verify(self, state: CardsState, action: Action) -> None:
        if not isinstance(action, Pick) or action.suit not in RACING_SUITS:
            raise IllegalAction(f"{action.text!r} is not a pick; pick a suit, e.g. pick H")

    def act(self, state: CardsState, action: Action) -> tuple[CardsState, list[Event]]:
        seat = self.actor(state)
        assert seat is not None and isinstance(action, Pick)
        picks = list(state.betting.picks)
        picks[seat] = action.suit
        state = replace(state, betting=replace(state.betting, picks=tuple(picks)))
        return self.advance(state, finished=True), [ev.SuitPicked(seat, action.suit)]

    def parse(self, text: str) -> Action:
        return parse_pick(text)

    def places(self, state: CardsState) -> int:
        return len(state.config.prizes)

    def settle(self, state: CardsState, order: tuple[int, ...]) -> tuple[CardsState, list[Event]]:
        prizes = state.config.prizes
        events: list[Event] = []
        for seat in seats_from(state.dealer + 1, state.config.players):
            suit = state.betting.picks[seat]
            assert suit is not None  # the race is run once every seat has picked
            place = order.index(suit)
            if place < len(prizes):
                amount = min(prizes[place], state.ledger.balance(state.bank_account))
                state, paid = pay(state, ev.BANK, seat, amount, f"{PLACE_NAMES[place]} prize")
                events += paid
        return state, events
