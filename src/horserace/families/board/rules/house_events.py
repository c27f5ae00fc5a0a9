"""What happens at the table under the house rules: Perry's trades, Schellenberg's market,
Husted's betting, draw and face cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from horserace.components.cards import rank_text
from horserace.core.events import Event, PublicEvent, seat_name
from horserace.families.board.rules.events import chips_text


def _card_list(ranks: Sequence[int]) -> str:
    return " ".join(rank_text(r) for r in ranks) or "nothing"


@dataclass(frozen=True)
class TradeOffered(PublicEvent):
    kind: ClassVar[str] = "trade-offered"
    seat: int
    target: int
    give: tuple[int, ...]
    take: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{seat_name(names, self.seat)} offers {seat_name(names, self.target)}"
            f" {_card_list(self.give)} for {_card_list(self.take)}"
        )


@dataclass(frozen=True)
class TradePassed(PublicEvent):
    kind: ClassVar[str] = "trade-passed"
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} makes no more offers"


@dataclass(frozen=True)
class TradeAnswered(PublicEvent):
    kind: ClassVar[str] = "trade-answered"
    seat: int
    offerer: int
    accepted: bool

    def describe(self, names: Sequence[str]) -> str:
        verb = "accepts" if self.accepted else "declines"
        return f"{seat_name(names, self.seat)} {verb} {seat_name(names, self.offerer)}'s offer"


@dataclass(frozen=True)
class MarketDealt(Event):
    """A card dealt to the market: face down until the scratch phase ends, so nobody sees it."""

    kind: ClassVar[str] = "market-dealt"
    rank: int

    def redacted(self) -> Event:
        return MarketDealtFaceDown()

    def describe(self, names: Sequence[str]) -> str:
        return f"The market is dealt {rank_text(self.rank)}"


@dataclass(frozen=True)
class MarketDealtFaceDown(PublicEvent):
    kind: ClassVar[str] = "market-dealt-face-down"

    def describe(self, names: Sequence[str]) -> str:
        return "The market is dealt a card"


@dataclass(frozen=True)
class MarketOpened(PublicEvent):
    kind: ClassVar[str] = "market-opened"
    cards: tuple[int, ...]  # counts by rank, as a hand

    def describe(self, names: Sequence[str]) -> str:
        shown = [rank_text(rank) for rank, n in enumerate(self.cards) for _ in range(n)]
        return f"The market is turned face up: {' '.join(shown) or 'empty'}"


@dataclass(frozen=True)
class CardBought(PublicEvent):
    kind: ClassVar[str] = "card-bought"
    seat: int
    take: int
    give: int
    price: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{seat_name(names, self.seat)} buys {rank_text(self.take)} from the market for"
            f" {chips_text(self.price)}, leaving {rank_text(self.give)}"
        )


@dataclass(frozen=True)
class Checked(PublicEvent):
    kind: ClassVar[str] = "checked"
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} checks"


@dataclass(frozen=True)
class Folded(PublicEvent):
    kind: ClassVar[str] = "folded"
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} folds: their cards collect nothing this round"


@dataclass(frozen=True)
class CardsDrawn(PublicEvent):
    """The draw: the discarded cards are shown face up; the drawn ones are dealt privately."""

    kind: ClassVar[str] = "cards-drawn"
    seat: int
    discarded: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        who = seat_name(names, self.seat)
        if not self.discarded:
            return f"{who} stands pat"
        shown = " ".join(rank_text(r) for r in self.discarded)
        return f"{who} discards {shown} and draws {len(self.discarded)}"


@dataclass(frozen=True)
class FaceCardPlayed(PublicEvent):
    kind: ClassVar[str] = "face-card-played"
    seat: int
    card: int
    horse: int

    def describe(self, names: Sequence[str]) -> str:
        who = seat_name(names, self.seat)
        if self.card == 11:
            return f"{who} plays a Jack: horse {self.horse} goes back a slot"
        chips = 1 if self.card == 12 else 2
        return f"{who} plays a {rank_text(self.card)}: {chips_text(chips)} under horse {self.horse}"


@dataclass(frozen=True)
class HorseBlocked(PublicEvent):
    kind: ClassVar[str] = "horse-blocked"
    horse: int
    left: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Horse {self.horse} is held by a chip and does not move ({self.left} left under it)"
