"""What a bet or a bid at a card race returns on average by the exact odds (the board's), so
that a price well over it can be asked about before the chips move: a book bet by its fixed
price, a tote ticket against the pools as they stand (this ticket in them), a Calcutta bid as
the horse's share of the pool it would make."""

from __future__ import annotations

from horserace.components.tote import Ticket, settle_pool
from horserace.core.actions import Action
from horserace.families.cards.bots import CALCUTTA_SPEND, book_value, view_odds
from horserace.families.cards.rules.actions import BOARD, Bid, BookBet, ToteBet
from horserace.families.cards.rules.state import CardsView
from horserace.families.cards.rules.tote_bets import winning_selections

BOARD_KINDS = ("win", "place", "show")
CALCUTTA_GUESS = f"the bids to come guessed at {CALCUTTA_SPEND:.0%} of the table's chips"


def worth(view: CardsView, action: Action) -> float | None:
    """The chips `action` brings back on average (None: it stakes nothing)."""
    if isinstance(action, BookBet):
        return book_worth(view, action)
    if isinstance(action, ToteBet):
        return tote_worth(view, action)
    if isinstance(action, Bid):
        return calcutta_worth(view, action)
    return None


def book_worth(view: CardsView, bet: BookBet) -> float:
    """The stake and the winnings (rounded down as the book pays) times the chance to win."""
    return bet.stake + book_value(view, bet, view_odds(view, 1))


def tote_worth(view: CardsView, bet: ToteBet) -> float:
    """Every finishing order's payout to this ticket (three tickets across the board), the
    pools as they stand with it added, weighed by the order's chance."""
    odds = view_odds(view, 4)
    kinds = BOARD_KINDS if bet.kind == BOARD else (bet.kind,)
    total = 0.0
    for kind in kinds:
        pool = [Ticket(b.seat, b.horses, b.stake) for b in view.betting.bets if b.kind == kind]
        mine = len(pool)
        pool.append(Ticket(-1, bet.horses, bet.stake))
        for order, chance in odds.order.items():
            paid = settle_pool(pool, winning_selections(kind, order), view.config.takeout)
            total += chance * (paid.from_pool[mine] + paid.from_house[mine])
    return total


def calcutta_guessed(view: CardsView) -> str:
    """What a Calcutta bid's worth guesses (the bids for the horses still to sell after this
    one), or '' where it guesses nothing (no auction, or the last lot)."""
    auction = view.auction
    return (
        CALCUTTA_GUESS if auction.horse is not None and auction.lot + 1 < len(auction.lots) else ""
    )


def calcutta_worth(view: CardsView, bid: Bid) -> float | None:
    """The horse's share of the pool (2/3 of it for 1st, 1/3 for 2nd) times the pool: what is
    in it, this bid, and for each horse still to sell its share of CALCUTTA_SPEND of the
    table's chips (what the value bots expect a table to spend). Only the share is exact: the
    bids still to come are the other bidders' choices, not chance, so no odds can say them and
    the pool they make is a guess (`calcutta_guessed`, said with the figure); a bid for the last
    horse is valued against the pool as it will stand, exactly."""
    suit = view.auction.horse
    if suit is None:
        return None
    odds = view_odds(view, 2)

    def share(horse: int) -> float:
        return odds.win[horse] * 2 / 3 + (odds.place[horse] - odds.win[horse]) / 3

    auction = view.auction
    others = [horse for horse in auction.lots[auction.lot :] if horse != suit]
    to_come = sum(share(horse) for horse in others) * CALCUTTA_SPEND * sum(view.chips)
    return share(suit) * (view.table + bid.amount + to_come)
