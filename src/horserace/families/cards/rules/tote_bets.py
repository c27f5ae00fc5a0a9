"""The tote: pari-mutuel pools for win, place, show, exacta, trifecta and superfecta.

Every seat, the dealer too, buys tickets in turn from the dealer's left, up to the bet limit
a race ("board" costs three stakes: one each in win, place and show). Stakes lie on the table
until the race is over; each pool then pays out its net (the takeout goes to the bank) in whole
chips rounded down, the odd chips to the bank, and the bank makes up a minus pool so that no
winning ticket returns less than its stake (components/tote.py says exactly how).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import permutations

from horserace.components.tote import Ticket, settle_pool
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import (
    BOARD,
    DONE,
    TOTE_KINDS,
    TOTE_POOLS,
    ToteBet,
)
from horserace.families.cards.rules.actions import parse_tote as parse_ticket
from horserace.families.cards.rules.state import Bet, Betting, CardsState
from horserace.families.cards.rules.styles import BettingStyle, pay, seats_from
from horserace.families.cards.rules.track import RACING_SUITS

POOL_PLACES = {"win": 1, "place": 2, "show": 3, "exacta": 2, "trifecta": 3, "superfecta": 4}
SELECTIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    kind: tuple(permutations(RACING_SUITS, TOTE_POOLS.get(kind, 1))) for kind in TOTE_KINDS
}


def cost(kind: str, stake: int) -> int:
    return 3 * stake if kind == BOARD else stake


def room(state: CardsState, seat: int) -> int:
    """Chips `seat` may still stake this race: the limit left, and what it holds."""
    left = state.config.bet_limit - state.betting.staked_by(seat)
    return max(0, min(left, state.ledger.balance(seat)))


def winning_selections(kind: str, order: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Best placed first: place pays the first two horses, show the first three."""
    if kind in ("win", "place", "show"):
        return [(horse,) for horse in order[: POOL_PLACES[kind]]]
    return [order[: TOTE_POOLS[kind]]]


class ToteStyle(BettingStyle):
    name = "tote"

    def open(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        n = state.config.players
        state = replace(state, betting=Betting(queue=tuple(seats_from(state.dealer + 1, n))))
        return self.advance(state, finished=False), []

    def has_choice(self, state: CardsState, seat: int) -> bool:
        return room(state, seat) > 0

    def legal(self, state: CardsState, seat: int) -> Sequence[Action]:
        if self.actor(state) != seat:
            return ()
        most = room(state, seat)
        tickets: list[Action] = [
            ToteBet(kind, stake, horses)
            for kind in TOTE_KINDS
            for horses in SELECTIONS[kind]
            for stake in range(1, most // cost(kind, 1) + 1)
        ]
        return [*tickets, DONE]

    def check_bet(self, state: CardsState, seat: int, action: Action) -> None:
        if not isinstance(action, ToteBet) or action.kind not in TOTE_KINDS:
            raise IllegalAction(f"{action.text!r} is not a tote ticket")
        if action.horses not in SELECTIONS[action.kind]:
            raise IllegalAction(f"a {action.kind} ticket names different horses, in order")
        if action.stake < 1:
            raise IllegalAction("a stake is at least 1 chip")
        if cost(action.kind, action.stake) > room(state, seat):
            left = state.config.bet_limit - state.betting.staked_by(seat)
            held = state.ledger.balance(seat)
            raise IllegalAction(
                f"that ticket costs {cost(action.kind, action.stake)}; the limit leaves {left}"
                f" and the seat holds {held}"
            )

    def place_bet(
        self, state: CardsState, seat: int, action: Action
    ) -> tuple[CardsState, list[Event]]:
        assert isinstance(action, ToteBet)
        kinds = ("win", "place", "show") if action.kind == BOARD else (action.kind,)
        bets = tuple(Bet(seat, kind, action.horses, action.stake) for kind in kinds)
        state, events = pay(state, seat, ev.TABLE, cost(action.kind, action.stake), "tickets")
        state = replace(state, betting=replace(state.betting, bets=state.betting.bets + bets))
        placed: list[Event] = [ev.BetPlaced(seat, b.kind, b.horses, b.stake) for b in bets]
        return state, [*placed, *events]

    def parse(self, text: str) -> Action:
        return parse_ticket(text)

    def places(self, state: CardsState) -> int:
        return max((POOL_PLACES[bet.kind] for bet in state.betting.bets), default=1)

    def settle(self, state: CardsState, order: tuple[int, ...]) -> tuple[CardsState, list[Event]]:
        events: list[Event] = []
        for kind in POOL_PLACES:
            bets = [bet for bet in state.betting.bets if bet.kind == kind]
            if not bets:
                continue
            tickets = [Ticket(bet.seat, bet.horses, bet.stake) for bet in bets]
            result = settle_pool(tickets, winning_selections(kind, order), state.config.takeout)
            seats = [bet.seat for bet in bets]
            reason = f"{kind} refund" if result.refunded else f"{kind} ticket"
            moves = [
                (ev.TABLE, ev.BANK, result.takeout, f"{kind} takeout"),
                *(
                    (ev.TABLE, seat, x, reason)
                    for seat, x in zip(seats, result.from_pool, strict=True)
                ),
                (ev.TABLE, ev.BANK, result.odd_chips, f"{kind} odd chips"),
                *(
                    (ev.BANK, seat, x, f"{kind} minus pool")
                    for seat, x in zip(seats, result.from_house, strict=True)
                ),
            ]
            for source, target, amount, why in moves:
                state, paid = pay(state, source, target, amount, why)
                events += paid
            events.append(ev.PoolSettled(kind, result.total, result.house_keeps, 0))
        return state, events
