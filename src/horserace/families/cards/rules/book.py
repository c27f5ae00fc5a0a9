"""The dealer's book: fixed prices by the course count, a bet limit, the dealer pays and keeps.

Each seat but the dealer bets in turn from the dealer's left, as many bets as it likes up to
the limit (its total stake per race). The dealer covers the book: a bet is taken only while
the dealer could pay every winner of any one horse after collecting the losing stakes, so a
book never owes more than the dealer holds. Winnings are the stake times the odds, rounded
down to whole chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import DONE, BookBet, parse_book
from horserace.families.cards.rules.state import Bet, Betting, CardsState
from horserace.families.cards.rules.styles import BettingStyle, pay, seats_from
from horserace.families.cards.rules.track import RACING_SUITS


def price(state: CardsState, suit: int) -> tuple[int, int] | None:
    """The dealer's odds (win, per) on `suit`, or None when the table gives it no price."""
    return state.config.book_odds.price(state.course_count(suit))


def winnings(stake: int, odds: tuple[int, int]) -> int:
    win, per = odds
    return stake * win // per


def liability(state: CardsState, suit: int) -> int:
    """What the dealer pays out, net of the losing stakes it collects, if `suit` wins."""
    odds = price(state, suit)
    owed = 0
    for bet in state.betting.bets:
        if bet.horses[0] == suit:
            assert odds is not None
            owed += winnings(bet.stake, odds)
        else:
            owed -= bet.stake
    return owed


def largest_stake(state: CardsState, seat: int, suit: int) -> int:
    """The most `seat` may stake on `suit` now: its limit, its chips and the dealer's cover."""
    odds = price(state, suit)
    if odds is None or seat == state.dealer:
        return 0
    room = min(state.config.bet_limit - state.betting.staked_by(seat), state.ledger.balance(seat))
    cover = state.ledger.balance(state.dealer) - liability(state, suit)
    win, per = odds
    # the largest k with k * win // per <= cover
    by_cover = ((cover + 1) * per - 1) // win if cover >= 0 else -1
    return max(0, min(room, by_cover))


class BookStyle(BettingStyle):
    name = "book"

    def open(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        n = state.config.players
        bettors = tuple(s for s in seats_from(state.dealer + 1, n) if s != state.dealer)
        prices = tuple(
            f"{odds[0]}-{odds[1]}" if (odds := price(state, s)) else "" for s in RACING_SUITS
        )
        state = replace(state, betting=Betting(queue=bettors))
        return self.advance(state, finished=False), [ev.BookOpened(state.dealer, prices)]

    def has_choice(self, state: CardsState, seat: int) -> bool:
        return any(largest_stake(state, seat, suit) for suit in RACING_SUITS)

    def legal(self, state: CardsState, seat: int) -> Sequence[Action]:
        if self.actor(state) != seat:
            return ()
        bets: list[Action] = [
            BookBet(stake, suit)
            for suit in RACING_SUITS
            for stake in range(1, largest_stake(state, seat, suit) + 1)
        ]
        return [*bets, DONE]

    def check_bet(self, state: CardsState, seat: int, action: Action) -> None:
        if not isinstance(action, BookBet):
            raise IllegalAction(f"{action.text!r} is not a bet at the dealer's book")
        if action.stake < 1:
            raise IllegalAction("a stake is at least 1 chip")
        if price(state, action.suit) is None:
            raise IllegalAction(f"the book takes no bets on {ev.horse_name(action.suit)}")
        most = largest_stake(state, seat, action.suit)
        if action.stake > most:
            raise IllegalAction(self._why_not(state, seat, action, most))

    @staticmethod
    def _why_not(state: CardsState, seat: int, action: BookBet, most: int) -> str:
        left = state.config.bet_limit - state.betting.staked_by(seat)
        if action.stake > left:
            return f"the limit is {state.config.bet_limit} a race; {left} left to stake"
        if action.stake > state.ledger.balance(seat):
            return f"only {state.ledger.balance(seat)} chips to stake"
        return f"the dealer can cover at most {most} on {ev.horse_name(action.suit)}"

    def place_bet(
        self, state: CardsState, seat: int, action: Action
    ) -> tuple[CardsState, list[Event]]:
        assert isinstance(action, BookBet)
        state, events = pay(state, seat, ev.TABLE, action.stake, "stake")
        bet = Bet(seat, "win", (action.suit,), action.stake)
        state = replace(state, betting=replace(state.betting, bets=(*state.betting.bets, bet)))
        return state, [ev.BetPlaced(seat, "win", (action.suit,), action.stake), *events]

    def parse(self, text: str) -> Action:
        return parse_book(text)

    def places(self, state: CardsState) -> int:
        return 1

    def settle(self, state: CardsState, order: tuple[int, ...]) -> tuple[CardsState, list[Event]]:
        """Losing stakes go to the dealer first; then winners get their stake back and the
        dealer pays their winnings."""
        winner = order[0]
        dealer = state.dealer
        events: list[Event] = []
        bets = state.betting.bets
        for bet in bets:
            if bet.horses[0] != winner:
                state, paid = pay(state, ev.TABLE, dealer, bet.stake, f"lost on {_name(bet)}")
                events += paid
        odds = price(state, winner)
        for bet in bets:
            if bet.horses[0] == winner:
                assert odds is not None
                state, back = pay(state, ev.TABLE, bet.seat, bet.stake, "stake back")
                won = winnings(bet.stake, odds)
                state, paid = pay(state, dealer, bet.seat, won, f"won at {odds[0]}-{odds[1]}")
                events += back + paid
        total = sum(bet.stake for bet in bets)
        events.append(ev.PoolSettled("the book", total, 0, 0))
        return state, events


def _name(bet: Bet) -> str:
    return ev.horse_name(bet.horses[0])
