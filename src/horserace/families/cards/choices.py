"""The questions a card-race table puts to a person: a horse by its suit letter, then the stake
in a number field (the book, the tote), a party pick, and the Calcutta bid field with +1/+5/+10
over the standing bid and a pass that leaves the bidding on that horse. Bets typed whole
(`bet 5 H`, `exacta 2 H C`) are read too; one the rules refuse says why (a bet over the limit
names the limit)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from horserace.components.french_deck import suit_text
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import seat_name
from horserace.core.words import with_article
from horserace.families.cards.rules.actions import (
    DONE,
    NO_BID,
    TOTE_POOLS,
    Bid,
    BookBet,
    Pick,
    ToteBet,
)
from horserace.families.cards.rules.events import horse_name
from horserace.families.cards.rules.rules import STYLES
from horserace.families.cards.rules.state import CardsView
from horserace.families.cards.rules.track import RACING_SUITS
from horserace.families.cards.worth import calcutta_guessed, worth
from horserace.terminal.choices import (
    Choice,
    Doubt,
    NumberField,
    Option,
    Rejection,
    any_of,
    over_a_quarter,
    over_its_worth,
)
from horserace.terminal.screen import TableScreen

KIND_WORDS = {
    "win": "win: the horse wins",
    "place": "place: the horse is 1st or 2nd",
    "show": "show: the horse is 1st, 2nd or 3rd",
    "board": "across the board: win, place and show, one stake each",
    "exacta": "exacta: two horses, 1st and 2nd in order",
    "trifecta": "trifecta: three horses, 1st to 3rd in order",
    "superfecta": "superfecta: all four horses in order",
}
KIND_KEYS = {"win": "w", "place": "p", "show": "s", "board": "b"}


class CardsAsker:
    """Builds each question from the legal actions and the betting style."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen

    def seen(self, view: Any, screen: TableScreen) -> Any:
        return view

    def choice(self, view: Any, legal: Sequence[Action], seat: int) -> Choice:
        assert isinstance(view, CardsView)
        style = view.config.betting
        name = seat_name(self.screen.names, seat)
        if style == "calcutta":
            return self.calcutta(view, legal, seat, name)
        if style == "party":
            options = [
                Option(suit_text(a.suit), f"pick {horse_name(a.suit)}", a)
                for a in legal
                if isinstance(a, Pick)
            ]
            return Choice(
                seat,
                f"{name}, which horse do you back",
                tuple(options),
                read=self._read(view, legal),
            )
        done = Option("done", "no more bets this race", DONE)
        if style == "book":
            return self.book(view, legal, seat, name, done)
        return self.tote(view, legal, seat, name, done)

    def _read(self, view: CardsView, legal: Sequence[Action]) -> Any:
        def read(text: str) -> Action | Rejection | None:
            action = STYLES[view.config.betting].parse(text)  # an error says what is wrong
            if action in legal:
                return action
            return self.refused(action)

        return read

    def refused(self, action: Action) -> Rejection:
        game = self.screen.game
        reason = f"{action.text!r} is not allowed now"
        if game is not None:
            try:
                self.screen.rules.verify(game.state, action)
            except IllegalAction as error:
                reason = str(error)
        return Rejection(reason, "")

    # --- the dealer's book ---------------------------------------------------------------------
    def book(
        self, view: CardsView, legal: Sequence[Action], seat: int, name: str, done: Option
    ) -> Choice:
        most = {suit: 0 for suit in RACING_SUITS}
        for action in legal:
            if isinstance(action, BookBet):
                most[action.suit] = max(most[action.suit], action.stake)
        options = [done]
        for suit in RACING_SUITS:
            if most[suit]:
                options.append(
                    Option(
                        suit_text(suit),
                        f"bet on {horse_name(suit)} (up to {most[suit]} chips)",
                        then=_stake_step(seat, horse_name(suit), most[suit], suit),
                    )
                )
        hint = "or type a whole bet: 'bet STAKE SUIT', e.g. 'bet 5 H'"
        return self._betting(view, legal, seat, f"{name}, your bet at the book", options, hint)

    # --- the tote ------------------------------------------------------------------------------
    def tote(
        self, view: CardsView, legal: Sequence[Action], seat: int, name: str, done: Option
    ) -> Choice:
        tickets = [a for a in legal if isinstance(a, ToteBet)]
        options = [done]
        for kind, words in KIND_WORDS.items():
            of_kind = [t for t in tickets if t.kind == kind]
            if of_kind:
                key = KIND_KEYS.get(kind, kind[:3])
                options.append(Option(key, words, then=_ticket_step(seat, kind, of_kind)))
        hint = "or type a whole ticket: 'win 5 H', 'exacta 2 H C', ..."
        return self._betting(view, legal, seat, f"{name}, your tote ticket", options, hint)

    def _betting(
        self,
        view: CardsView,
        legal: Sequence[Action],
        seat: int,
        question: str,
        options: Sequence[Option],
        hint: str,
    ) -> Choice:
        """A bet or `done` (typed: Enter alone moves no money), or a whole bet typed out."""
        read = self._read(view, legal)
        return Choice(
            seat, question, tuple(options), hint=hint, read=read, doubt=_doubt(view, seat)
        )

    # --- the Calcutta auction ------------------------------------------------------------------
    def calcutta(self, view: CardsView, legal: Sequence[Action], seat: int, name: str) -> Choice:
        """A bid in the number field, or a pass: one that leaves the bidding on the horse for
        good (the rules then ask this seat no more on it), or, at a table that lets a seat bid
        again after a new bid (`pass_leaves = false`), one until somebody bids."""
        suit = view.auction.horse
        assert suit is not None  # a seat is asked to bid only while a horse is under the hammer
        horse = horse_name(suit)
        bidding = view.auction.bidding
        amounts = [a.amount for a in legal if isinstance(a, Bid)]
        if not amounts:
            return Choice(
                seat, "", (Option("p", f"pass on {horse} (you cannot bid higher)", NO_BID),)
            )
        high = bidding.high if bidding is not None else 0
        leader = bidding.leader if bidding is not None else None
        standing = "no bid yet"
        if high and leader is not None:
            standing = f"high bid {high} by {seat_name(self.screen.names, leader)}"
        if view.config.pass_leaves:
            passing = Option("p", f"pass: leave the bidding on {horse}", NO_BID)
        else:
            passing = Option("p", "pass: until somebody bids again", NO_BID)
        options = (passing,)
        field = NumberField("bid", min(amounts), max(amounts), Bid, base=high, steps=(1, 5, 10))
        return Choice(
            seat,
            f"{name}, {horse} is for sale ({standing})",
            options,
            field=field,
            read=self._read(view, legal),
            doubt=_doubt(view, seat),
        )


def _doubt(view: CardsView, seat: int) -> Doubt:
    """Over a quarter of the seat's chips, or well over what the odds say it returns."""
    return any_of(
        over_a_quarter(view.chips[seat], _cost),
        over_its_worth(
            _cost,
            lambda action: worth(view, action),
            guessed=calcutta_guessed(view),
        ),
    )


def _cost(action: Action) -> int | None:
    """The chips a bet or a bid stakes (a ticket across the board: three stakes)."""
    if isinstance(action, ToteBet):
        return action.stake * (3 if action.kind == "board" else 1)
    if isinstance(action, BookBet):
        return action.stake
    if isinstance(action, Bid):
        return action.amount
    return None


def _stake_step(seat: int, horse: str, most: int, suit: int) -> Any:
    def step() -> Choice:
        field = NumberField("stake", 1, most, lambda stake: BookBet(stake, suit))
        return Choice(seat, f"Your stake on {horse}", field=field)

    return step


def _ticket_step(seat: int, kind: str, tickets: Sequence[ToteBet]) -> Any:
    """The horses (typed in order, e.g. 'H C'), then the stake."""

    def stake_step(horses: tuple[int, ...]) -> Choice:
        stakes = [t.stake for t in tickets if t.horses == horses]
        field = NumberField("stake", 1, max(stakes), lambda stake: ToteBet(kind, stake, horses))
        named = " ".join(suit_text(h) for h in horses)
        return Choice(seat, f"Your stake on {kind} {named}", field=field)

    def step() -> Choice:
        wanted = TOTE_POOLS.get(kind, 1)
        selections = sorted({t.horses for t in tickets})
        if wanted == 1:
            options = tuple(
                Option(suit_text(h[0]), horse_name(h[0]), then=partial(stake_step, h))
                for h in selections
            )
            return Choice(seat, f"{kind.capitalize()}: which horse", options)

        def read(text: str) -> Choice | Rejection | None:
            letters = "".join(text.upper().split())
            suits = tuple("CDHS".index(c) for c in letters if c in "CDHS")
            if len(suits) != len(letters):
                return None
            if suits not in selections:
                return Rejection(
                    f"{with_article(kind)} names {wanted} different horses in order", "e.g. 'H C'"
                )
            return stake_step(suits)

        return Choice(
            seat,
            f"{kind.capitalize()}: the {wanted} horses in order (e.g. {'HCDS'[:wanted]})",
            read=read,
        )

    return step
