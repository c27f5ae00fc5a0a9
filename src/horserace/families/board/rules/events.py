"""What happens at the dice board, in words a table would use."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from horserace.components.cards import rank_text
from horserace.core.events import WORDS, Event, PublicEvent, add_words, seat_name
from horserace.core.words import counted

POTS = ("pot", "jockey")  # the ledger's accounts after the seats: the Main Pot, the Jockey Pot
add_words(rank=rank_text, cards=lambda count: counted(count, "card"))
chips_text = WORDS["chips"]


@dataclass(frozen=True)
class _FaceDownCard(PublicEvent):
    """What the others see of a card that went to one seat: that it went, not what it was."""

    seat: int


@dataclass(frozen=True)
class _SeatCard(Event):
    """A card one seat receives: seen by that seat, and by everyone when hands lie open."""

    stand_in: ClassVar[type[_FaceDownCard]] = _FaceDownCard
    seat: int
    rank: int
    open: bool

    def visible_to(self, seat: int | None) -> bool:
        return self.open or seat == self.seat

    def redacted(self) -> Event:
        return self.stand_in(self.seat)


@dataclass(frozen=True)
class CardDealtFaceDown(_FaceDownCard):
    kind = "card-dealt-face-down"
    says = "{seat:seat} is dealt a card"


@dataclass(frozen=True)
class CardDealt(_SeatCard):
    kind = "card-dealt"
    says = "{seat:seat} is dealt {rank:rank}"
    stand_in: ClassVar[type[_FaceDownCard]] = CardDealtFaceDown


@dataclass(frozen=True)
class RoundStarted(PublicEvent):
    kind = "round-started"
    says = "Round {round}: {dealer:seat} deals {cards_to_deal} cards ({stub} left in the stub)"
    round: int
    dealer: int
    cards_to_deal: int
    stub: int


@dataclass(frozen=True)
class DiceRolled(PublicEvent):
    kind = "dice-rolled"
    seat: int
    dice: tuple[int, int]
    phase: str

    def describe(self, names: Sequence[str]) -> str:
        low, high = self.dice
        return f"{seat_name(names, self.seat)} rolls {low}+{high} = {low + high}"


@dataclass(frozen=True)
class HorseScratched(PublicEvent):
    """A horse put on scratch line `line`; `from_line` is set when it was already scratched."""

    kind = "horse-scratched"
    horse: int
    line: int
    from_line: int | None

    def describe(self, names: Sequence[str]) -> str:
        if self.from_line is None:
            return f"Horse {self.horse} is scratched to line {self.line}"
        return f"Horse {self.horse} moves from scratch line {self.from_line} to line {self.line}"


@dataclass(frozen=True)
class RepeatRerolled(PublicEvent):
    kind = "repeat-rerolled"
    says = "Horse {horse} is already scratched: {seat:seat} rolls again"
    seat: int
    horse: int


@dataclass(frozen=True)
class CardsDiscarded(PublicEvent):
    kind = "cards-discarded"
    says = "{seat:seat} discards {count} × {rank:rank}"
    seat: int
    rank: int
    count: int


@dataclass(frozen=True)
class MoneyEvent(PublicEvent):
    """An event that moves chips: `money_moves` says which ledger accounts gain or lose what
    (seats 0..n-1, then the Main Pot n and the Jockey Pot n + 1). `flow` names the payer, the
    payee and the field that holds the amount; a payer or payee is a field that holds a seat
    or a pot's name, or the name "pot" or "jockey" itself."""

    flow: ClassVar[tuple[str, str, str]]

    def money_moves(self, players: int) -> tuple[tuple[int, int], ...]:
        payer, payee, amount_field = self.flow
        amount: int = getattr(self, amount_field)
        return ((self._account(payer, players), -amount), (self._account(payee, players), amount))

    def _account(self, name: str, players: int) -> int:
        account = getattr(self, name, name)
        return account if isinstance(account, int) else players + POTS.index(account)


@dataclass(frozen=True)
class ChipsPaid(MoneyEvent):
    """A payment into a pot; `paid` < `owed` when the payer ran short."""

    kind = "chips-paid"
    flow = ("seat", "into", "paid")
    seat: int
    owed: int
    paid: int
    reason: str
    into: str = "pot"  # "pot" (the Main Pot) or "jockey"

    def describe(self, names: Sequence[str]) -> str:
        who = seat_name(names, self.seat)
        where = "" if self.into == "pot" else " into the Jockey Pot"
        if self.paid == self.owed:
            return f"{who} pays {chips_text(self.paid)}{where} ({self.reason})"
        return f"{who} owes {chips_text(self.owed)} but can pay only {self.paid} ({self.reason})"


@dataclass(frozen=True)
class HorseWentBack(PublicEvent):
    """A Joker or a Jack moves a horse back one slot."""

    kind = "horse-went-back"
    horse: int
    position: int

    def describe(self, names: Sequence[str]) -> str:
        where = "the gate" if self.position == 0 else f"slot {self.position}"
        return f"Horse {self.horse} goes back to {where}"


@dataclass(frozen=True)
class HorseAdvanced(PublicEvent):
    kind = "horse-advanced"
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

    kind = "race-won"
    says = "Horse {horse} wins after {rolls} race rolls"
    horse: int
    rolls: int
    mover: int


@dataclass(frozen=True)
class PotShared(PublicEvent):
    """The payout begins: what the pot holds and what each winning card collects."""

    kind = "pot-shared"
    says = "The pot of {pot} pays {share:chips} per {horse} ({cards} held)"
    horse: int
    pot: int
    share: int
    cards: int  # winning cards held by players who collect


@dataclass(frozen=True)
class PayoutMade(MoneyEvent):
    kind = "payout"
    flow = ("pot", "seat", "amount")
    says = "{seat:seat} collects {amount:chips} for {cards:cards}"
    seat: int
    cards: int
    amount: int


@dataclass(frozen=True)
class PotCarried(PublicEvent):
    kind = "pot-carried"
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{chips_text(self.amount)} {'stays' if self.amount == 1 else 'stay'} in the pot"


@dataclass(frozen=True)
class HandsPassed(PublicEvent):
    kind = "hands-passed"
    says = "Every player passes their hand to the left"


@dataclass(frozen=True)
class GameOver(PublicEvent):
    kind = "game-over"
    says = "Game over: {winners:winners}; {unclaimed:chips} left in the pot"
    winners: tuple[int, ...]
    unclaimed: int


@dataclass(frozen=True)
class CardKeptFaceDown(_FaceDownCard):
    kind = "card-kept-face-down"
    says = "{seat:seat} keeps a card"


@dataclass(frozen=True)
class CardKept(_SeatCard):
    """A draft pick."""

    kind = "card-kept"
    says = "{seat:seat} keeps {rank:rank}"
    stand_in: ClassVar[type[_FaceDownCard]] = CardKeptFaceDown


@dataclass(frozen=True)
class PacketsPassed(PublicEvent):
    kind = "packets-passed"
    says = "Every player passes the rest of their packet to the left"


@dataclass(frozen=True)
class PenaltyOwed(PublicEvent):
    """A penalty waits: its debtor may pay, or answer with an Ace or a King."""

    kind = "penalty-owed"
    says = "{seat:seat} owes {amount:chips} ({reason})"
    seat: int
    amount: int
    reason: str


@dataclass(frozen=True)
class AcePlayed(PublicEvent):
    kind = "ace-played"
    says = "{seat:seat} plays an Ace and cancels {amount:chips}"
    seat: int
    amount: int


@dataclass(frozen=True)
class KingPlayed(PublicEvent):
    kind = "king-played"
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
    kind = "joker-played"
    seat: int
    horse: int
    forward: bool

    def describe(self, names: Sequence[str]) -> str:
        way = "forward" if self.forward else "back"
        return f"{seat_name(names, self.seat)} plays a Joker: horse {self.horse} one slot {way}"


@dataclass(frozen=True)
class FourDiceRolled(PublicEvent):
    kind = "four-dice-rolled"
    seat: int
    dice: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return f"{seat_name(names, self.seat)} rolls {'+'.join(map(str, self.dice))}"


@dataclass(frozen=True)
class PairChosen(PublicEvent):
    kind = "pair-chosen"
    says = "{seat:seat} pairs the dice as {first}, then {second}"
    seat: int
    first: int
    second: int


@dataclass(frozen=True)
class JockeyPotFilled(MoneyEvent):
    """The Main Pot's remainder goes to the Jockey Pot."""

    kind = "jockey-pot-filled"
    flow = ("pot", "jockey", "amount")
    says = "The Jockey Pot takes the Main Pot's remaining {amount:chips}"
    amount: int


@dataclass(frozen=True)
class JockeyPotWon(MoneyEvent):
    kind = "jockey-pot-won"
    flow = ("jockey", "seat", "amount")
    says = "{seat:seat} moved the winner across: the Jockey Pot pays {amount:chips}"
    seat: int
    amount: int


@dataclass(frozen=True)
class PlayerOut(PublicEvent):
    kind = "player-out"
    says = "{seat:seat} ends round {round} with nothing and is out"
    seat: int
    round: int
