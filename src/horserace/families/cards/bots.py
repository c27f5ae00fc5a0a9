"""Bots for the card race: they see a seat's view and the legal actions, like every driver.

- `value`: bets only where a price beats the exact odds (the book's fixed prices; the tote's
  pools as they stand), picks the suit with the best expected prize at a party, and at the
  Calcutta bids while the price is under its estimate of the horse's share of the pool.
- `favourite`: simple rules: the likeliest winner, every time, for the whole limit (book,
  tote win pool, party); at the Calcutta it bids up to the full estimate on the favourite only.
- `random`: any legal action (families/random_bot.py).

The odds come from families/cards/odds/race.py. Before a faltering race nothing about the
face-down course is known and its exact odds are costly, so the bots then take the horses as equals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any

from horserace.components.french_deck import is_joker, suit_of
from horserace.core.actions import Action
from horserace.core.errors import ConfigError, IllegalAction
from horserace.engine import Agent
from horserace.families import make_bot
from horserace.families.cards import FAMILY
from horserace.families.cards.odds.race import (
    CardOdds,
    RacePosition,
    TooManyStates,
    card_odds,
    position_of,
)
from horserace.families.cards.rules.actions import Bid, BookBet, Done, NoBid, Pick, ToteBet
from horserace.families.cards.rules.state import CardsPhase, CardsView
from horserace.families.cards.rules.track import RACING_SUITS

CARDS_BOT_KINDS = FAMILY.bot_kinds
BOT_BUDGET = 200_000  # DP states a bot may spend on one position
CALCUTTA_SPEND = 0.1  # the share of the table's chips a bidder expects to see in the pool


@lru_cache(maxsize=256)
def _odds(position: RacePosition, places: int) -> CardOdds[float]:
    if position.faltering and position.track.frontier == 0:
        return _equal_odds(places)  # nothing is known of the face-down course yet
    try:
        return card_odds(position, places=places, max_states=BOT_BUDGET)
    except TooManyStates:
        return _equal_odds(places)


def _equal_odds(places: int) -> CardOdds[float]:
    """Every order equally likely: what a bot assumes when the exact odds cost too much."""
    orders: dict[tuple[int, ...], float] = {order: 1 / 24 for order in permutations(RACING_SUITS)}
    full: dict[Any, float] = {order: 1 / 24 for order in permutations(RACING_SUITS)}
    return CardOdds(
        places,
        orders,
        {h: 0.25 for h in RACING_SUITS},
        {h: 0.5 for h in RACING_SUITS} if places >= 2 else {},
        {h: 0.75 for h in RACING_SUITS} if places >= 3 else {},
        {k: 1 / 12 for k in permutations(RACING_SUITS, 2)} if places >= 2 else {},
        {k: 1 / 24 for k in permutations(RACING_SUITS, 3)} if places >= 3 else {},
        full if places >= 3 else {},
    )


def view_odds(view: CardsView, places: int = 4) -> CardOdds[float]:
    """The exact odds (floats) of the race as `view` shows it."""
    return _odds(position_of(view), places)


def book_value(view: CardsView, bet: BookBet, odds: CardOdds[float]) -> float:
    """Expected chips back less the stake, with the winnings rounded down as the book pays."""
    count = sum(
        1 for c in view.course if c is not None and not is_joker(c) and suit_of(c) == bet.suit
    )
    price = view.config.book_odds.price(count)
    if price is None:
        return -bet.stake
    win, per = price
    return odds.win[bet.suit] * (bet.stake + bet.stake * win // per) - bet.stake


def _tote_value(view: CardsView, bet: ToteBet, odds: CardOdds[float]) -> float:
    """Against the pools as they stand: the ticket's share of the net pool if it wins, never
    less than its stake (the house makes up a minus pool)."""
    if bet.kind not in ("win", "exacta", "trifecta", "superfecta"):
        return -bet.stake  # place and show depend on who else places: left to other bots
    pool = [b for b in view.betting.bets if b.kind == bet.kind]
    total = sum(b.stake for b in pool) + bet.stake
    backing = sum(b.stake for b in pool if b.horses == bet.horses) + bet.stake
    net = total - total * view.config.takeout // 100
    if bet.kind == "win":
        chance = odds.win[bet.horses[0]]
    else:
        table: dict[Any, float] = getattr(odds, bet.kind)
        chance = table.get(bet.horses, 0.0)
    return chance * max(net * bet.stake / backing, bet.stake) - bet.stake  # a stake back at least


def party_value(view: CardsView, suit: int, odds: CardOdds[float]) -> float:
    prizes = view.config.prizes
    chances = [
        odds.win[suit],
        odds.place[suit] - odds.win[suit],
        odds.show[suit] - odds.place[suit],
    ]
    return sum(p * prize for p, prize in zip(chances, prizes, strict=False))


def calcutta_value(view: CardsView, suit: int, odds: CardOdds[float]) -> float:
    """The horse's expected share of the pool: 2/3 of it for 1st, 1/3 for 2nd, times the pool
    the bot expects: what is in it now plus a spend estimate for every horse still to sell."""
    share = odds.win[suit] * 2 / 3 + (odds.place[suit] - odds.win[suit]) / 3
    auction = view.auction
    unsold = auction.lots[auction.lot :]
    still = sum(odds.win[h] * 2 / 3 + (odds.place[h] - odds.win[h]) / 3 for h in unsold)
    expected_pool = view.table + still * CALCUTTA_SPEND * sum(view.chips)
    return share * expected_pool


def _a_real_choice(view: Any, legal: Sequence[Action]) -> bool:
    """Whether a bettor has something to decide: a betting view with more than one move (any
    other step it answers with the only, or the first, legal move)."""
    if not legal:
        raise IllegalAction("a bot was asked to move with no legal action")
    return isinstance(view, CardsView) and view.phase is CardsPhase.BETTING and len(legal) > 1


class CardsBot:
    """A value or favourite bettor (see the module text); `rng` breaks ties."""

    def __init__(self, kind: str, rng: random.Random) -> None:
        if kind not in ("value", "favourite"):
            raise ConfigError(f"unknown card-race bot {kind!r}")
        self.kind = kind
        self._rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not _a_real_choice(view, legal):
            return legal[0]
        style = view.config.betting
        if style == "book":
            return self._book(view, legal)
        if style == "tote":
            return self._tote(view, legal)
        if style == "party":
            return self._party(view, legal)
        return self._calcutta(view, legal)

    def _done(self, legal: Sequence[Action]) -> Action:
        return next(a for a in legal if isinstance(a, (Done, NoBid)))

    def _favourite(
        self,
        view: CardsView,
        legal: Sequence[Action],
        odds: CardOdds[float],
        on: Callable[[int], Sequence[BookBet | ToteBet]],
    ) -> Action:
        """The favourite's one bet a race: the largest stake `on(best)` offers on the horse
        likeliest to win; done once it has a bet down, or when none is offered."""
        if view.betting.staked_by(view.seat or 0) > 0:
            return self._done(legal)
        mine = on(max(RACING_SUITS, key=lambda h: (odds.win[h], -h)))
        return max(mine, key=lambda b: b.stake) if mine else self._done(legal)

    def _book(self, view: CardsView, legal: Sequence[Action]) -> Action:
        odds = view_odds(view, 1)
        bets = [a for a in legal if isinstance(a, BookBet)]
        return self._bet(
            view,
            legal,
            odds,
            bets,
            on=lambda best: [b for b in bets if b.suit == best],
            scored=lambda: [(book_value(view, b, odds), b) for b in bets],
        )

    def _tote(self, view: CardsView, legal: Sequence[Action]) -> Action:
        odds = view_odds(view, 4)
        bets = [a for a in legal if isinstance(a, ToteBet)]
        return self._bet(
            view,
            legal,
            odds,
            bets,
            on=lambda best: [b for b in bets if b.kind == "win" and b.horses == (best,)],
            scored=lambda: [(_tote_value(view, b, odds), b) for b in bets if b.stake == 1],
        )

    def _bet(
        self,
        view: CardsView,
        legal: Sequence[Action],
        odds: CardOdds[float],
        bets: Sequence[BookBet | ToteBet],
        on: Callable[[int], Sequence[BookBet | ToteBet]],
        scored: Callable[[], Sequence[tuple[float, BookBet | ToteBet]]],
    ) -> Action:
        """The book's and the tote's way alike: done when no bet is offered; the favourite's bet
        on the likeliest horse (`on(horse)`: the bets that back it to win); else the best of the
        `scored` bets (the larger stake among equals), if it is worth anything."""
        if not bets:
            return self._done(legal)
        if self.kind == "favourite":
            return self._favourite(view, legal, odds, on)
        value, bet = max(scored(), key=lambda item: (item[0], item[1].stake))
        return bet if value > 0 else self._done(legal)

    def _party(self, view: CardsView, legal: Sequence[Action]) -> Action:
        odds = view_odds(view, 3)
        picks = [a for a in legal if isinstance(a, Pick)]
        if self.kind == "favourite":
            return max(picks, key=lambda a: (odds.win[a.suit], -a.suit))
        return max(picks, key=lambda a: (party_value(view, a.suit, odds), -a.suit))

    def _calcutta(self, view: CardsView, legal: Sequence[Action]) -> Action:
        odds = view_odds(view, 2)
        suit = view.auction.horse
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids or suit is None:
            return self._done(legal)
        lowest = min(bids, key=lambda a: a.amount)
        value = calcutta_value(view, suit, odds)
        if self.kind == "favourite":
            favourite = max(RACING_SUITS, key=lambda h: (odds.win[h], -h))
            ceiling = value if suit == favourite else 0.0
        else:
            ceiling = value * 0.9
        if lowest.amount > ceiling:
            return self._done(legal)
        price = view.auction.bidding.high if view.auction.bidding is not None else 0
        return raise_towards(price, int(ceiling), bids)


def raise_towards(price: int, ceiling: int, bids: Sequence[Bid]) -> Bid:
    """A bid halfway from the price to the most the bidder will pay (its ceiling), at least the
    lowest bid and at most the highest it may make: a raise tied to the price and the budget,
    so two bidders meet their limits in a few rounds, not one chip at a time."""
    lowest = min(bid.amount for bid in bids)
    highest = max(bid.amount for bid in bids)
    return Bid(min(highest, max(lowest, (price + ceiling + 1) // 2)))


class BlindBettor:
    """Bets blind: a horse drawn at random, for the most it may stake (the book within the
    dealer's cover, a win ticket at the tote, the pick at a party); never bids at a Calcutta.
    Its games need no odds, so the compiled card-race kernel plays them too."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not _a_real_choice(view, legal):
            return legal[0]
        style = view.config.betting
        if style == "calcutta" or view.betting.staked_by(view.seat or 0) > 0:
            return next(a for a in legal if isinstance(a, (Done, NoBid)))
        pick = self._rng.randrange(len(RACING_SUITS))
        if style == "party":
            return next(a for a in legal if isinstance(a, Pick) and a.suit == pick)
        bets = [
            a
            for a in legal
            if (isinstance(a, BookBet) and a.suit == pick)
            or (isinstance(a, ToteBet) and a.kind == "win" and a.horses == (pick,))
        ]
        if not bets:
            return next(a for a in legal if isinstance(a, Done))
        return max(bets, key=lambda a: a.stake if isinstance(a, (BookBet, ToteBet)) else 0)


def make_cards_bot(kind: str, seed: int) -> Agent:
    """A card-race bot of `kind` with its own generator (same seed, same game)."""
    return make_bot(kind, seed, "cards")
