"""What happens at a card race, in words a table would use. Horses are suits 0..3 (C D H S)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from horserace.components.french_deck import SUIT_NAMES, card_text
from horserace.core.events import NO_SEAT, WORDS, Event, PublicEvent, add_words, seat_name


def horse_name(suit: int) -> str:
    return SUIT_NAMES[suit].capitalize()


chips = WORDS["chips"]


def _horses(suits: Sequence[int]) -> str:
    return "-".join(horse_name(s) for s in suits)


add_words(card=card_text, horse=horse_name, horses=_horses)


@dataclass(frozen=True)
class RaceStarted(PublicEvent):
    kind = "race-started"
    says = "Race {race}: {dealer:seat} deals"
    race: int
    dealer: int


@dataclass(frozen=True)
class CardCut(PublicEvent):
    """One player's cut for the first deal, face up for all."""

    kind = "card-cut"
    says = "{seat:seat} cuts {card:card}"
    seat: int
    card: int


@dataclass(frozen=True)
class CutTied(PublicEvent):
    kind = "cut-tied"
    seats: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(seat_name(names, seat) for seat in self.seats)
        return f"{who} tie for the highest cut: they cut again"


@dataclass(frozen=True)
class DealerCut(PublicEvent):
    kind = "dealer-cut"
    says = "{seat:seat} cut the highest card ({card:card}) and deals first"
    seat: int
    card: int


@dataclass(frozen=True)
class CourseCardDealt(Event):
    """Seen by all when the course lies face up; nobody sees a face-down link."""

    kind = "course-card"
    says = "Link {link}: {card:card}"
    link: int
    card: int
    face_up: bool

    def visible_to(self, seat: int | None) -> bool:
        return self.face_up

    def redacted(self) -> Event:
        return CourseCardFaceDown(self.link)


@dataclass(frozen=True)
class CourseCardFaceDown(PublicEvent):
    kind = "course-card-face-down"
    says = "Link {link} is dealt face down"
    link: int


@dataclass(frozen=True)
class CourseJokerDiscarded(PublicEvent):
    """Stumbling: the joker turned while dealing the course is shown to all (a face-down course
    too) and discarded, out of this race's deck; another card is dealt to the link."""

    kind = "course-joker-discarded"
    says = "The joker turns up for link {link}: discarded for this race, another card dealt"
    link: int


@dataclass(frozen=True)
class CourseRedealt(PublicEvent):
    """Some suit showed too many cards for its horse to finish; the course is dealt again."""

    kind = "course-redealt"
    suit: int
    count: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{self.count} {SUIT_NAMES[self.suit]} on the course: reshuffle and deal again"


@dataclass(frozen=True)
class CourseSorted(PublicEvent):
    """Calcutta: the course is sorted into suits, most cards first, to show the longshots."""

    kind = "course-sorted"
    cards: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return "The course is sorted: " + " ".join(card_text(c) for c in self.cards)


@dataclass(frozen=True)
class BookOpened(PublicEvent):
    """The dealer's prices, per suit ("" where the book takes no bets)."""

    kind = "book-opened"
    dealer: int
    prices: tuple[str, ...]

    def describe(self, names: Sequence[str]) -> str:
        offered = ", ".join(
            f"{horse_name(s)} {p}" if p else f"{horse_name(s)} no bets"
            for s, p in enumerate(self.prices)
        )
        return f"{seat_name(names, self.dealer)} makes the book: {offered}"


@dataclass(frozen=True)
class BetPlaced(PublicEvent):
    kind = "bet-placed"
    says = "{seat:seat} bets {stake} on {horses:horses} ({bet})"
    seat: int
    bet: str  # "win", or the tote pool
    horses: tuple[int, ...]
    stake: int


@dataclass(frozen=True)
class SuitPicked(PublicEvent):
    kind = "suit-picked"
    says = "{seat:seat} picks {suit:horse}"
    seat: int
    suit: int


@dataclass(frozen=True)
class LotOpened(PublicEvent):
    kind = "lot-opened"
    says = "Up for auction: {suit:horse} ({course_cards} on the course)"
    suit: int
    course_cards: int


@dataclass(frozen=True)
class BidMade(PublicEvent):
    kind = "bid"
    says = "{seat:seat} bids {amount}"
    seat: int
    amount: int


@dataclass(frozen=True)
class BidPassed(PublicEvent):
    kind = "bid-passed"
    says = "{seat:seat} passes"
    seat: int


@dataclass(frozen=True)
class HorseSold(PublicEvent):
    """`seat` is None when nobody bid: the horse runs unsold and its share stays in the pool."""

    kind = "horse-sold"
    suit: int
    seat: int | None
    price: int

    def describe(self, names: Sequence[str]) -> str:
        if self.seat is None:
            return f"{horse_name(self.suit)} is not sold"
        return f"{horse_name(self.suit)} sold to {seat_name(names, self.seat)} for {self.price}"

    def to_json(self) -> dict[str, Any]:
        """The record format says "nobody bought it" with seat -1, as it always has: records
        written before keep replaying, and a reader finds a number where it finds a seat."""
        data = super().to_json()
        if self.seat is None:
            data["seat"] = NO_SEAT
        return data


@dataclass(frozen=True)
class BetsClosed(PublicEvent):
    kind = "bets-closed"
    says = "Bets are closed: they're off!"
    places: int


@dataclass(frozen=True)
class CardTurned(PublicEvent):
    kind = "card-turned"
    says = "Turned: {card:card}"
    card: int


@dataclass(frozen=True)
class HorseMoved(PublicEvent):
    kind = "horse-moved"
    says = "{suit:horse} moves to link {position}"
    suit: int
    position: int


@dataclass(frozen=True)
class HorseFinished(PublicEvent):
    kind = "horse-finished"
    says = "{suit:horse} crosses the line, place {place}"
    suit: int
    place: int


@dataclass(frozen=True)
class LinkTurned(PublicEvent):
    """Faltering: the first horse to reach a link turns its card."""

    kind = "link-turned"
    says = "Link {link} is turned: {card:card}"
    link: int
    card: int


@dataclass(frozen=True)
class HorseFellBack(PublicEvent):
    kind = "horse-fell-back"
    says = "{suit:horse} falters back to link {position}"
    suit: int
    position: int


@dataclass(frozen=True)
class JokerTurned(PublicEvent):
    """Stumbling: every horse but the leader(s) moves up one link."""

    kind = "joker"
    moved: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        if not self.moved:
            return "The joker! The horses run level: nobody moves"
        return f"The joker! {', '.join(horse_name(s) for s in self.moved)} move up"


@dataclass(frozen=True)
class RaceOver(PublicEvent):
    """The final order; `by_position` lists the horses whose places the bets needed but who
    did not cross: they are placed by where they stood."""

    kind = "race-over"
    order: tuple[int, ...]
    by_position: tuple[int, ...]
    cards: int

    def describe(self, names: Sequence[str]) -> str:
        text = f"Result after {self.cards} cards: {_horses(self.order)}"
        if self.by_position:
            text += f" ({', '.join(horse_name(s) for s in self.by_position)} placed by position)"
        return text


@dataclass(frozen=True)
class Payment(PublicEvent):
    """Chips moved at the settlement: `source` and `target` are seats, or -2 the table, -3 the
    bank (see `ACCOUNT_NAMES`)."""

    kind = "payment"
    source: int
    target: int
    amount: int
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{account_name(names, self.source)} pays {chips(self.amount)} to"
            f" {account_name(names, self.target)} ({self.reason})"
        )


TABLE, BANK = -2, -3
ACCOUNT_NAMES = {TABLE: "the table", BANK: "the bank"}


def account_name(names: Sequence[str], account: int) -> str:
    return ACCOUNT_NAMES.get(account) or seat_name(names, account)


@dataclass(frozen=True)
class PoolSettled(PublicEvent):
    """A tote pool, the Calcutta pool or the book at the end of a race: what was in it, what
    the house kept, and what stays for the next race."""

    kind = "pool-settled"
    pool: str
    total: int
    kept: int
    carried: int

    def describe(self, names: Sequence[str]) -> str:
        text = f"{self.pool}: {chips(self.total)}"
        if self.kept:
            text += f", {self.kept} to the house"
        if self.carried:
            text += f", {self.carried} stay on the table"
        return text


@dataclass(frozen=True)
class GameOver(PublicEvent):
    kind = "game-over"
    says = "Game over: {winners:winners}; {unclaimed:chips} not held by a player"
    winners: tuple[int, ...]
    unclaimed: int
