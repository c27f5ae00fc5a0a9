"""What happens at the table under the house rules: Perry's trades, Schellenberg's market,
Husted's betting, draw and face cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from horserace.components.cards import rank_text
from horserace.core.events import Event, PublicEvent, add_words, seat_name
from horserace.families.board.rules.events import chips_text


def _card_list(ranks: Sequence[int]) -> str:
    return " ".join(rank_text(r) for r in ranks) or "nothing"


add_words(ranks=_card_list)


@dataclass(frozen=True)
class TradeOffered(PublicEvent):
    kind = "trade-offered"
    says = "{seat:seat} offers {target:seat} {give:ranks} for {take:ranks}"
    seat: int
    target: int
    give: tuple[int, ...]
    take: tuple[int, ...]


@dataclass(frozen=True)
class TradePassed(PublicEvent):
    kind = "trade-passed"
    says = "{seat:seat} makes no more offers"
    seat: int


@dataclass(frozen=True)
class TradeAnswered(PublicEvent):
    kind = "trade-answered"
    seat: int
    offerer: int
    accepted: bool

    def describe(self, names: Sequence[str]) -> str:
        verb = "accepts" if self.accepted else "declines"
        return f"{seat_name(names, self.seat)} {verb} {seat_name(names, self.offerer)}'s offer"


@dataclass(frozen=True)
class MarketDealt(Event):
    """A card dealt to the market: face down until the scratch phase ends, so nobody sees it."""

    kind = "market-dealt"
    says = "The market is dealt {rank:rank}"
    rank: int

    def redacted(self) -> Event:
        return MarketDealtFaceDown()


@dataclass(frozen=True)
class MarketDealtFaceDown(PublicEvent):
    kind = "market-dealt-face-down"
    says = "The market is dealt a card"


@dataclass(frozen=True)
class MarketOpened(PublicEvent):
    kind = "market-opened"
    cards: tuple[int, ...]  # counts by rank, as a hand

    def describe(self, names: Sequence[str]) -> str:
        shown = [rank_text(rank) for rank, n in enumerate(self.cards) for _ in range(n)]
        return f"The market is turned face up: {' '.join(shown) or 'empty'}"


@dataclass(frozen=True)
class CardBought(PublicEvent):
    kind = "card-bought"
    says = "{seat:seat} buys {take:rank} from the market for {price:chips}, leaving {give:rank}"
    seat: int
    take: int
    give: int
    price: int


@dataclass(frozen=True)
class Checked(PublicEvent):
    kind = "checked"
    says = "{seat:seat} checks"
    seat: int


@dataclass(frozen=True)
class Folded(PublicEvent):
    kind = "folded"
    says = "{seat:seat} folds: their cards collect nothing this round"
    seat: int


@dataclass(frozen=True)
class NoDraw(PublicEvent):
    """Husted: the deal left no stub to draw from, said at the round's start."""

    kind = "no-draw"
    says = "No stub this round: no draw, the second betting round follows the first"
    round: int


@dataclass(frozen=True)
class CardsDrawn(PublicEvent):
    """The draw: the discarded cards are shown face up; the drawn ones are dealt privately."""

    kind = "cards-drawn"
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
    kind = "face-card-played"
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
    kind = "horse-blocked"
    says = "Horse {horse} is held by a chip and does not move ({left} left under it)"
    horse: int
    left: int
