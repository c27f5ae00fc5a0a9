"""What happens at the dice board, in words a table would use."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from horserace.components.cards import rank_text
from horserace.core.events import Event, PublicEvent, seat_name
from horserace.core.words import counted


def chips_text(amount: int) -> str:
    return counted(amount, "chip")


@dataclass(frozen=True)
class _FaceDownCard(PublicEvent):
    """What the others see of a card that went to one seat: that it went, not what it was."""

    verb: ClassVar[str] = "gets"
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} {self.verb} a card"


@dataclass(frozen=True)
class _SeatCard(Event):
    """A card one seat receives: seen by that seat, and by everyone when hands lie open."""

    verb: ClassVar[str] = "gets"
    stand_in: ClassVar[type[_FaceDownCard]] = _FaceDownCard
    seat: int
    rank: int
    open: bool

    def visible_to(self, seat: int | None) -> bool:
        return self.open or seat == self.seat

    def redacted(self) -> Event:
        return self.stand_in(self.seat)

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} {self.verb} {rank_text(self.rank)}"


@dataclass(frozen=True)
class CardDealtFaceDown(_FaceDownCard):
    kind: ClassVar[str] = "card-dealt-face-down"
    verb: ClassVar[str] = "is dealt"


@dataclass(frozen=True)
class CardDealt(_SeatCard):
    kind: ClassVar[str] = "card-dealt"
    verb: ClassVar[str] = "is dealt"
    stand_in: ClassVar[type[_FaceDownCard]] = CardDealtFaceDown


@dataclass(frozen=True)
class RoundStarted(PublicEvent):
    kind: ClassVar[str] = "round-started"
    round: int
    dealer: int
    cards_to_deal: int
    stub: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"Round {self.round}: {seat_name(names, self.dealer)} deals {self.cards_to_deal} cards"
            f" ({self.stub} left in the stub)"
        )


@dataclass(frozen=True)
class DiceRolled(PublicEvent):
    kind: ClassVar[str] = "dice-rolled"
    seat: int
    dice: tuple[int, int]
    phase: str

    def describe(self, names: Sequence[str]) -> str:
        low, high = self.dice
        return f"{seat_name(names, self.seat)} rolls {low}+{high} = {low + high}"


@dataclass(frozen=True)
class HorseScratched(PublicEvent):
    """A horse put on scratch line `line`; `from_line` is set when it was already scratched."""

    kind: ClassVar[str] = "horse-scratched"
    horse: int
    line: int
    from_line: int | None

    def describe(self, names: Sequence[str]) -> str:
        if self.from_line is None:
            return f"Horse {self.horse} is scratched to line {self.line}"
        return f"Horse {self.horse} moves from scratch line {self.from_line} to line {self.line}"


@dataclass(frozen=True)
class RepeatRerolled(PublicEvent):
    kind: ClassVar[str] = "repeat-rerolled"
    seat: int
    horse: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Horse {self.horse} is already scratched: {seat_name(names, self.seat)} rolls again"


@dataclass(frozen=True)
class CardsDiscarded(PublicEvent):
    kind: ClassVar[str] = "cards-discarded"
    seat: int
    rank: int
    count: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} discards {self.count} × {rank_text(self.rank)}"


@dataclass(frozen=True)
class MoneyEvent(PublicEvent):
    """An event that moves chips: `money_moves` says which ledger accounts gain or lose what
    (seats 0..n-1, then the Main Pot n and the Jockey Pot n + 1)."""

    def money_moves(self, players: int) -> tuple[tuple[int, int], ...]:
        raise NotImplementedError


@dataclass(frozen=True)
class ChipsPaid(MoneyEvent):
    """A payment into a pot; `paid` < `owed` when the payer ran short."""

    kind: ClassVar[str] = "chips-paid"
    seat: int
    owed: int
    paid: int
    reason: str
    into: str = "pot"  # "pot" (the Main Pot) or "jockey"

    def money_moves(self, players: int) -> tuple[tuple[int, int], ...]:
        pot = players if self.into == "pot" else players + 1
        return ((self.seat, -self.paid), (pot, self.paid))

    def describe(self, names: Sequence[str]) -> str:
        who = seat_name(names, self.seat)
        where = "" if self.into == "pot" else " into the Jockey Pot"
        if self.paid == self.owed:
            return f"{who} pays {chips_text(self.paid)}{where} ({self.reason})"
        return f"{who} owes {chips_text(self.owed)} but can pay only {self.paid} ({self.reason})"


@dataclass(frozen=True)
class HorseWentBack(PublicEvent):
    """A Joker or a Jack moves a horse back one slot."""

    kind: ClassVar[str] = "horse-went-back"
    horse: int
    position: int

    def describe(self, names: Sequence[str]) -> str:
        where = "the gate" if self.position == 0 else f"slot {self.position}"
        return f"Horse {self.horse} goes back to {where}"


@dataclass(frozen=True)
class HorseAdvanced(PublicEvent):
    kind: ClassVar[str] = "horse-advanced"
    horse: int
    position: int
    finish: int

    def describe(self, names: Sequence[str]) -> str:
        if self.position >= self.finish:
            return f"Horse {self.horse} crosses the finish line"
        return f"Horse {self.horse} advances to slot {self.position} of {self.finish - 1}"


@dataclass(frozen=True)
class RaceWon(PublicEvent):
    """The race is decided; the payout is the next step."""

    kind: ClassVar[str] = "race-won"
    horse: int
    rolls: int
    mover: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Horse {self.horse} wins after {self.rolls} race rolls"


@dataclass(frozen=True)
class PotShared(PublicEvent):
    """The payout begins: what the pot holds and what each winning card collects."""

    kind: ClassVar[str] = "pot-shared"
    horse: int
    pot: int
    share: int
    cards: int  # winning cards held by players who collect

    def describe(self, names: Sequence[str]) -> str:
        share = chips_text(self.share)
        return f"The pot of {self.pot} pays {share} per {self.horse} ({self.cards} held)"


@dataclass(frozen=True)
class PayoutMade(MoneyEvent):
    kind: ClassVar[str] = "payout"
    seat: int
    cards: int
    amount: int

    def money_moves(self, players: int) -> tuple[tuple[int, int], ...]:
        return ((players, -self.amount), (self.seat, self.amount))

    def describe(self, names: Sequence[str]) -> str:
        who, amount = seat_name(names, self.seat), chips_text(self.amount)
        return f"{who} collects {amount} for {counted(self.cards, 'card')}"


@dataclass(frozen=True)
class PotCarried(PublicEvent):
    kind: ClassVar[str] = "pot-carried"
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{chips_text(self.amount)} {'stays' if self.amount == 1 else 'stay'} in the pot"


@dataclass(frozen=True)
class HandsPassed(PublicEvent):
    kind: ClassVar[str] = "hands-passed"

    def describe(self, names: Sequence[str]) -> str:
        return "Every player passes their hand to the left"


@dataclass(frozen=True)
class GameOver(PublicEvent):
    kind: ClassVar[str] = "game-over"
    winners: tuple[int, ...]
    unclaimed: int

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(seat_name(names, s) for s in self.winners)
        verb = "share the win" if len(self.winners) > 1 else "wins"
        return f"Game over: {who} {verb}; {chips_text(self.unclaimed)} left in the pot"


@dataclass(frozen=True)
class CardKeptFaceDown(_FaceDownCard):
    kind: ClassVar[str] = "card-kept-face-down"
    verb: ClassVar[str] = "keeps"


@dataclass(frozen=True)
class CardKept(_SeatCard):
    """A draft pick."""

    kind: ClassVar[str] = "card-kept"
    verb: ClassVar[str] = "keeps"
    stand_in: ClassVar[type[_FaceDownCard]] = CardKeptFaceDown


@dataclass(frozen=True)
class PacketsPassed(PublicEvent):
    kind: ClassVar[str] = "packets-passed"

    def describe(self, names: Sequence[str]) -> str:
        return "Every player passes the rest of their packet to the left"


@dataclass(frozen=True)
class PenaltyOwed(PublicEvent):
    """A penalty waits: its debtor may pay, or answer with an Ace or a King."""

    kind: ClassVar[str] = "penalty-owed"
    seat: int
    amount: int
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} owes {chips_text(self.amount)} ({self.reason})"


@dataclass(frozen=True)
class AcePlayed(PublicEvent):
    kind: ClassVar[str] = "ace-played"
    seat: int
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} plays an Ace and cancels {chips_text(self.amount)}"


@dataclass(frozen=True)
class KingPlayed(PublicEvent):
    kind: ClassVar[str] = "king-played"
    seat: int
    target: int
    amount: int
    doubled: bool

    def describe(self, names: Sequence[str]) -> str:
        how = "doubles it to" if self.doubled else "passes"
        return (
            f"{seat_name(names, self.seat)} plays a King: {how} {chips_text(self.amount)}"
            f" for {seat_name(names, self.target)}"
        )


@dataclass(frozen=True)
class JokerPlayed(PublicEvent):
    kind: ClassVar[str] = "joker-played"
    seat: int
    horse: int
    forward: bool

    def describe(self, names: Sequence[str]) -> str:
        way = "forward" if self.forward else "back"
        return f"{seat_name(names, self.seat)} plays a Joker: horse {self.horse} one slot {way}"


@dataclass(frozen=True)
class FourDiceRolled(PublicEvent):
    kind: ClassVar[str] = "four-dice-rolled"
    seat: int
    dice: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} rolls {'+'.join(map(str, self.dice))}"


@dataclass(frozen=True)
class PairChosen(PublicEvent):
    kind: ClassVar[str] = "pair-chosen"
    seat: int
    first: int
    second: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} pairs the dice as {self.first}, then {self.second}"


@dataclass(frozen=True)
class JockeyPotFilled(MoneyEvent):
    """The Main Pot's remainder goes to the Jockey Pot."""

    kind: ClassVar[str] = "jockey-pot-filled"
    amount: int

    def money_moves(self, players: int) -> tuple[tuple[int, int], ...]:
        return ((players, -self.amount), (players + 1, self.amount))

    def describe(self, names: Sequence[str]) -> str:
        return f"The Main Pot's remaining {chips_text(self.amount)} go to the Jockey Pot"


@dataclass(frozen=True)
class JockeyPotWon(MoneyEvent):
    kind: ClassVar[str] = "jockey-pot-won"
    seat: int
    amount: int

    def money_moves(self, players: int) -> tuple[tuple[int, int], ...]:
        return ((players + 1, -self.amount), (self.seat, self.amount))

    def describe(self, names: Sequence[str]) -> str:
        who = seat_name(names, self.seat)
        return f"{who} moved the winner across: the Jockey Pot pays {chips_text(self.amount)}"


@dataclass(frozen=True)
class PlayerOut(PublicEvent):
    kind: ClassVar[str] = "player-out"
    seat: int
    round: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} ends round {self.round} with nothing and is out"
