"""The Calcutta: the horses are auctioned, the buyers' chips make the pool, the owners of the
first two horses share it.

The course is sorted by suit count and the horses are sold longshot first: most cards on the
course first, ties in suit order (clubs, diamonds, hearts, spades). Each lot is an English
auction (components/auction.py) with the seats asked in turn from the dealer's left; a seat
that passes on a horse has left its bidding and is not asked on it again (option
`pass_leaves = false`: until somebody bids again). The dealer is the auctioneer and bids only
if the table allows it. 1st takes two thirds of the
pool and 2nd one third; of a remainder, one chip goes to 1st, two go one each. The share of
a horse nobody bought stays in the pool for the next race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from horserace.components.auction import EnglishAuction, bid, open_lot, pass_turn
from horserace.components.french_deck import is_joker, rank_of, suit_of
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import NO_BID, Bid, NoBid, parse_bid
from horserace.families.cards.rules.state import Auction, CardsState
from horserace.families.cards.rules.styles import Style, pay, seats_from
from horserace.families.cards.rules.track import RACING_SUITS


def auction_order(state: CardsState) -> tuple[int, ...]:
    """Longshots first: most course cards first, ties in suit order."""
    return tuple(sorted(RACING_SUITS, key=lambda suit: (-state.course_count(suit), suit)))


def pool_shares(pool: int) -> tuple[int, int]:
    """(1st, 2nd): two thirds and one third; remainder 1 to 1st, remainder 2 one each."""
    third, rest = divmod(pool, 3)
    return 2 * third + (1 if rest >= 1 else 0), third + (1 if rest == 2 else 0)


class LeftTheBidding(IllegalAction):
    """A seat that passed on a horse bids on it again: a pass leaves the bidding on that horse."""

    def __init__(self, seat: int, suit: int) -> None:
        super().__init__(
            f"seat {seat + 1} passed on {ev.horse_name(suit)} and has left its bidding"
            " (a pass at the Calcutta leaves the bidding on that horse)"
        )
        self.seat, self.suit = seat, suit


class CalcuttaStyle(Style):
    name = "calcutta"

    def _bidders(self, state: CardsState) -> tuple[int, ...]:
        n = state.config.players
        return tuple(
            seat
            for seat in seats_from(state.dealer + 1, n)
            if seat != state.dealer or state.config.dealer_bids
        )

    def _open_lot(self, state: CardsState, lot: int) -> tuple[CardsState, list[Event]]:
        """Offer lot `lot`; lots nobody can bid on are declared unsold straight away."""
        events: list[Event] = []
        auction = state.auction
        while lot < len(auction.lots):
            suit = auction.lots[lot]
            events.append(ev.LotOpened(suit, state.course_count(suit)))
            purses = state.ledger.balances[: state.config.players]
            bidding = open_lot(self._bidders(state), purses, pass_leaves=state.config.pass_leaves)
            if not bidding.closed:
                auction = replace(auction, lot=lot, bidding=bidding)
                return replace(state, auction=auction), events
            events.append(ev.HorseSold(suit, None, 0))
            lot += 1
        return replace(state, auction=replace(auction, lot=lot, bidding=None)), events

    def open(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        lots = auction_order(state)
        # A Calcutta course lies face up, so its order is only for show (a joker left on the
        # course goes last).
        course = tuple(
            sorted(
                state.course,
                key=lambda c: (lots.index(suit_of(c)) if not is_joker(c) else 4, rank_of(c)),
            )
        )
        state = replace(state, course=course, auction=Auction(lots=lots))
        state, events = self._open_lot(state, 0)
        return state, [ev.CourseSorted(course), *events]

    def _bidding(self, state: CardsState) -> EnglishAuction | None:
        bidding = state.auction.bidding
        return bidding if bidding is not None and not bidding.closed else None

    def actor(self, state: CardsState) -> int | None:
        bidding = self._bidding(state)
        return bidding.turn if bidding is not None else None

    def legal(self, state: CardsState, seat: int) -> Sequence[Action]:
        bidding = self._bidding(state)
        if bidding is None or bidding.turn != seat:
            return ()
        return [*(Bid(amount) for amount in bidding.bids_open_to(seat)), NO_BID]

    def refuse_out_of_turn(self, state: CardsState, seat: int) -> None:
        bidding = self._bidding(state)
        if bidding is not None and bidding.pass_leaves and seat in bidding.passed:
            raise LeftTheBidding(seat, state.auction.lots[state.auction.lot])

    def verify(self, state: CardsState, action: Action) -> None:
        bidding = self._bidding(state)
        assert bidding is not None
        if isinstance(action, NoBid):
            return
        if not isinstance(action, Bid):
            raise IllegalAction(f"{action.text!r} is not a bid; bid a number of chips or pass")
        seat = bidding.turn
        if seat is None:
            raise IllegalAction("the bidding on this horse is closed")
        self.refuse_out_of_turn(state, seat)
        if action.amount < bidding.lowest_bid:
            raise IllegalAction(f"the bid must be at least {bidding.lowest_bid}")
        if action.amount > bidding.purses[seat]:
            raise IllegalAction(f"seat {seat + 1} holds only {bidding.purses[seat]} chips")

    def act(self, state: CardsState, action: Action) -> tuple[CardsState, list[Event]]:
        bidding = self._bidding(state)
        assert bidding is not None and bidding.turn is not None
        seat = bidding.turn
        if isinstance(action, Bid):
            bidding = bid(bidding, seat, action.amount)
            events: list[Event] = [ev.BidMade(seat, action.amount)]
        else:
            bidding = pass_turn(bidding, seat)
            events = [ev.BidPassed(seat)]
        state = replace(state, auction=replace(state.auction, bidding=bidding))
        if not bidding.closed:
            return state, events
        return self._close_lot(state, bidding, events)

    def _close_lot(
        self, state: CardsState, bidding: EnglishAuction, events: list[Event]
    ) -> tuple[CardsState, list[Event]]:
        auction = state.auction
        suit = auction.lots[auction.lot]
        if bidding.sold:
            buyer = bidding.leader
            assert buyer is not None
            state, paid = pay(state, buyer, ev.TABLE, bidding.high, f"bought {ev.horse_name(suit)}")
            owners = list(auction.owners)
            prices = list(auction.prices)
            owners[suit], prices[suit] = buyer, bidding.high
            state = replace(
                state, auction=replace(auction, owners=tuple(owners), prices=tuple(prices))
            )
            events += [ev.HorseSold(suit, buyer, bidding.high), *paid]
        else:
            events.append(ev.HorseSold(suit, None, 0))
        state, opened = self._open_lot(state, state.auction.lot + 1)
        return state, events + opened

    def parse(self, text: str) -> Action:
        return parse_bid(text)

    def places(self, state: CardsState) -> int:
        return 2

    def settle(self, state: CardsState, order: tuple[int, ...]) -> tuple[CardsState, list[Event]]:
        pool = state.ledger.balance(state.table_account)
        events: list[Event] = []
        for place, (suit, share) in enumerate(zip(order[:2], pool_shares(pool), strict=True)):
            owner = state.auction.owners[suit]
            if owner is not None:
                what = "1st" if place == 0 else "2nd"
                state, paid = pay(state, ev.TABLE, owner, share, f"{what}: {ev.horse_name(suit)}")
                events += paid
        carried = state.ledger.balance(state.table_account)
        events.append(ev.PoolSettled("the pool", pool, 0, carried))
        return state, events
