"""Each phase's own small record. A record that interrupts another (a penalty to answer, a
Joker, a trading window) holds `then`, the record to go back to."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from horserace.core.types import CHANCE, TERMINAL, Actor


class Phase(Enum):
    """The stage of a round, as drivers draw it (the phase records below say more)."""

    DEAL = "deal"
    DRAFT = "draft"
    BETTING = "betting"  # Husted
    DRAW = "draw"  # Husted
    SCRATCH = "scratch"
    RACE = "race"
    PAYOUT = "payout"  # the race is won: paying out, then the next round is dealt
    OVER = "over"


class Market(Enum):
    """The market's hand (Schellenberg), dealt to in turn like a seat's: last in each round."""

    MARKET = "market"


MARKET = Market.MARKET


@dataclass(frozen=True, slots=True)
class Penalty:
    """Chips a seat owes the Main Pot, waiting while the debtor may answer with an Ace or King."""

    debtor: int
    amount: int
    reason: str
    kings: int = 0  # kings played in this chain: a King answering a King doubles the penalty


@dataclass(frozen=True, slots=True)
class Offer:
    """Perry's trade: `seat` gives the cards `give` to `target` for the cards `take`.

    Both are sorted rank tuples; at least one card moves."""

    seat: int
    target: int
    give: tuple[int, ...]
    take: tuple[int, ...]

    @property
    def text(self) -> str:
        from horserace.components.cards import rank_text

        give = " ".join(rank_text(r) for r in self.give) or "nothing"
        take = " ".join(rank_text(r) for r in self.take) or "nothing"
        return f"offer {self.target + 1}: {give} for {take}"


class PhaseRecord:
    """Base of every record: which Phase drivers see, and who acts (None: automatic)."""

    __slots__ = ()
    phase: ClassVar[Phase]

    def actor(self) -> Actor | None:
        return CHANCE


@dataclass(frozen=True, slots=True)
class Dealing(PhaseRecord):
    phase: ClassVar[Phase] = Phase.DEAL
    to_deal: int
    deal_to: int | Market  # a seat, or the market's hand


@dataclass(frozen=True, slots=True)
class Drafting(PhaseRecord):
    phase: ClassVar[Phase] = Phase.DRAFT
    order: tuple[int, ...]  # seats still to keep a card in this pass, in turn

    def actor(self) -> Actor | None:
        return self.order[0]


@dataclass(frozen=True, slots=True)
class Betting(PhaseRecord):
    phase: ClassVar[Phase] = Phase.BETTING
    round_no: int
    level: int  # the wager every seat still in must meet
    round_bets: tuple[int, ...]  # each seat's wagers in this betting round
    to_act: tuple[int, ...]

    def actor(self) -> Actor | None:
        return self.to_act[0]


@dataclass(frozen=True, slots=True)
class Drawing(PhaseRecord):
    phase: ClassVar[Phase] = Phase.DRAW
    drawers: tuple[int, ...]  # seats still to make their draw (the first one is drawing)
    draw_left: int  # cards still to be dealt to drawers[0]; 0 while they choose

    def actor(self) -> Actor | None:
        return CHANCE if self.draw_left else self.drawers[0]


@dataclass(frozen=True, slots=True)
class Rolling(PhaseRecord):
    """The scratch phase or the race: `roller` calls for the dice, then chance rolls."""

    phase: ClassVar[Phase] = Phase.SCRATCH
    roller: int
    rolling: bool = False

    def actor(self) -> Actor | None:
        return CHANCE if self.rolling else self.roller


@dataclass(frozen=True, slots=True)
class Scratching(Rolling):
    phase: ClassVar[Phase] = Phase.SCRATCH


@dataclass(frozen=True, slots=True)
class Racing(Rolling):
    phase: ClassVar[Phase] = Phase.RACE


@dataclass(frozen=True, slots=True)
class Interrupt(PhaseRecord):
    """A record that pauses another; drivers see the paused record's phase."""

    then: PhaseRecord


def innermost(record: PhaseRecord) -> PhaseRecord:
    """The record every interrupt above it pauses (what drivers see as the phase)."""
    while isinstance(record, Interrupt):
        record = record.then
    return record


@dataclass(frozen=True, slots=True)
class Pairing(Interrupt):
    """Robertson: the roller pairs the four dice."""

    seat: int
    dice: tuple[int, ...]

    def actor(self) -> Actor | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class Resolving(Interrupt):
    """Automatic: the roll's sums still to resolve, in order, for `seat`."""

    seat: int
    sums: tuple[int, ...]
    after: bool = True  # the roller's after-roll choices (Joker, market) still come

    def actor(self) -> Actor | None:
        return None


@dataclass(frozen=True, slots=True)
class Responding(Interrupt):
    """Penalties waiting, in order; the first one's debtor pays or answers."""

    pending: tuple[Penalty, ...]

    def actor(self) -> Actor | None:
        return self.pending[0].debtor


@dataclass(frozen=True, slots=True)
class SeatChoice(Interrupt):
    """One seat may play a card now or pass: a Joker, a Husted face card, a market buy."""

    seat: int

    def actor(self) -> Actor | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class JokerTurn(SeatChoice):
    pass


@dataclass(frozen=True, slots=True)
class FaceCardTurn(SeatChoice):
    pass


@dataclass(frozen=True, slots=True)
class MarketTurn(SeatChoice):
    pass


@dataclass(frozen=True, slots=True)
class Trading(Interrupt):
    """Perry's window: `traders` in turn offer or pass; an offer waits for its target."""

    traders: tuple[int, ...]
    offers_left: tuple[int, ...]  # per seat
    offer: Offer | None = None

    def actor(self) -> Actor | None:
        return self.offer.target if self.offer is not None else self.traders[0]


@dataclass(frozen=True, slots=True)
class Payout(PhaseRecord):
    """The race is won: a chance step with one outcome pays the round out."""

    phase: ClassVar[Phase] = Phase.PAYOUT


@dataclass(frozen=True, slots=True)
class NextRound(PhaseRecord):
    """Paid out: a chance step with one outcome gathers the cards and starts the next round."""

    phase: ClassVar[Phase] = Phase.PAYOUT


@dataclass(frozen=True, slots=True)
class Finished(PhaseRecord):
    phase: ClassVar[Phase] = Phase.OVER

    def actor(self) -> Actor | None:
        return TERMINAL
