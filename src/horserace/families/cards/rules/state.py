"""The card race's state and per-seat view, as immutable values.

One state serves every betting style: the book and the tote fill `betting.bets`, the party game
`betting.picks`, the Calcutta its `auction`. Ledger accounts: the seats, then `table` (stakes,
tote pools, the Calcutta pool) and `bank` (the tote's takeout, the party's prize fund).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from horserace.components.auction import EnglishAuction
from horserace.components.french_deck import Card, is_joker, suit_of
from horserace.core.ledger import Ledger
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.cards.rules.track import CardTrack

__all__ = ["Auction", "Bet", "Betting", "CardsPhase", "CardsState", "CardsView"]


class CardsPhase(Enum):
    CUT = "cut"  # the players cut the deck for the first deal (Calcutta)
    COURSE = "course"  # the course cards are being dealt
    BETTING = "betting"  # bets, picks or the auction
    RACE = "race"  # race cards are being turned
    OVER = "over"


@dataclass(frozen=True)
class Bet:
    """One stake: `kind` is "win" at the book, a pool name at the tote; `horses` in order."""

    seat: int
    kind: str
    horses: tuple[int, ...]
    stake: int


@dataclass(frozen=True)
class Betting:
    """The betting round: `queue` holds the seats still to act, the first acts now."""

    queue: tuple[int, ...] = ()
    bets: tuple[Bet, ...] = ()
    picks: tuple[int | None, ...] = ()  # party: the suit each seat picked (None: not yet)

    def staked_by(self, seat: int) -> int:
        return sum(bet.stake for bet in self.bets if bet.seat == seat)


@dataclass(frozen=True)
class Auction:
    """The Calcutta auction: horses in `lots` order, one under the hammer at a time."""

    lots: tuple[int, ...] = ()
    lot: int = 0  # index into lots of the horse being sold; len(lots) once all are done
    bidding: EnglishAuction | None = None  # the lot under the hammer
    owners: tuple[int | None, ...] = (None,) * 4  # per suit: the seat that bought it, if any
    prices: tuple[int, ...] = (0,) * 4

    @property
    def horse(self) -> int | None:
        """The horse under the hammer; None before the auction and once every lot is done."""
        return self.lots[self.lot] if self.lot < len(self.lots) else None


@dataclass(frozen=True)
class CardsState:
    """Everything about the table; the order of the deck and face-down links never leave it."""

    config: CardsConfig
    race: int
    dealer: int
    phase: CardsPhase
    deck: tuple[Card, ...]  # undealt cards, sorted
    course: tuple[Card, ...]  # the course cards, link 1 first
    track: CardTrack
    turned: tuple[Card, ...]  # race cards in the order they were turned
    places: int  # places this race must settle
    betting: Betting
    auction: Auction
    ledger: Ledger
    redeals: int = 0
    discarded: tuple[Card, ...] = ()  # the joker turned while dealing the course: out of the race
    cut: tuple[Card | None, ...] = ()  # per seat, the card it cut for the first deal
    cutters: tuple[int, ...] = ()  # the seats cutting now (all, then those tied for highest)

    @property
    def table_account(self) -> int:
        return self.config.players

    @property
    def bank_account(self) -> int:
        return self.config.players + 1

    def course_count(self, suit: int) -> int:
        """Cards of `suit` on the course (the prices and the auction order go by these)."""
        return sum(1 for value in self.course if not is_joker(value) and suit_of(value) == suit)

    def face_up(self, link: int) -> bool:
        """Link 1..course_length lies face up: always, or (faltering) once a horse reached it."""
        return not self.config.faltering or link <= self.track.frontier

    def unseen(self, suit: int) -> int:
        """Cards of `suit` nobody has seen: the deck and the face-down links."""
        return self.unseen_by_suit()[suit]

    def unseen_by_suit(self) -> tuple[int, ...]:
        """`unseen(suit)` of the four suits, counted in one pass (the race asks after every
        card turned)."""
        counts = [0, 0, 0, 0]
        for value in (*self.deck, *self._face_down()):
            if not is_joker(value):
                counts[suit_of(value)] += 1
        return tuple(counts)

    def _face_down(self) -> tuple[Card, ...]:
        if not self.config.faltering:
            return ()
        return self.course[self.track.frontier :]

    def joker_unseen(self) -> bool:
        """The joker is in the deck or on a face-down link (where it lies only when the table
        leaves a joker dealt to the course there: `course_joker = "stays"`)."""
        return any(is_joker(v) for v in (*self.deck, *self._face_down()))


@dataclass(frozen=True)
class CardsView:
    """What a seat (or a spectator, None) may know: everything but the face-down cards."""

    seat: int | None
    config: CardsConfig
    race: int
    dealer: int
    phase: CardsPhase
    chips: tuple[int, ...]
    table: int
    bank: int
    course: tuple[Card | None, ...]  # None: a face-down link
    course_dealt: int
    track: CardTrack
    turned: tuple[Card, ...]
    deck_left: int
    places: int
    betting: Betting
    auction: Auction
    unseen: tuple[int, ...]  # per suit: cards not seen yet
    joker_unseen: bool
    actor: int | None  # the seat to act now, if any
    cut: tuple[Card | None, ...] = ()  # the cards cut for the first deal, shown to all
