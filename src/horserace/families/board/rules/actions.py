"""The board game's actions as small frozen values with a canonical text form, and their parser.

Whether an action is allowed now is the phases' job (`legal`); this module only reads text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from horserace.components.board import HORSES
from horserace.components.cards import KING, RANKS, parse_rank, rank_text
from horserace.core.actions import Said
from horserace.core.errors import InvalidAction
from horserace.core.types import is_whole_number
from horserace.families.board.rules.records import Offer

JACK, QUEEN = 11, 12


@dataclass(frozen=True)
class Roll(Said):
    """A seat calls for the dice; chance then rolls them."""

    word = "roll"


@dataclass(frozen=True)
class Deal:
    """Chance: the next card dealt is of `rank` (suits do not matter)."""

    rank: int

    @property
    def text(self) -> str:
        return f"deal {rank_text(self.rank)}"

    @classmethod
    def parse(cls, text: str, allowed: tuple[int, ...] = RANKS) -> Deal:
        """'deal 7', or just '7' / 'q' as a person at a real table would type it."""
        words = text.split()
        if len(words) == 2 and words[0] == "deal":
            return cls(parse_rank(words[1], allowed))
        if len(words) == 1:
            return cls(parse_rank(words[0], allowed))
        raise InvalidAction(f"{text!r} is not a deal; write it like 'deal 7' or just 'Q'")


@dataclass(frozen=True)
class Settle:
    """Chance with a single outcome: pay the round out, or gather and start the next round."""

    what: str  # "payout" or "next-round"

    @property
    def text(self) -> str:
        return self.what


@dataclass(frozen=True)
class Keep:
    """Draft: keep one card of this rank from the packet in front of you."""

    rank: int

    @property
    def text(self) -> str:
        return f"keep {rank_text(self.rank)}"


@dataclass(frozen=True)
class Pay(Said):
    """Pay the penalty you owe (as much as you hold)."""

    word = "pay"


@dataclass(frozen=True)
class PlayAce(Said):
    """Cancel the penalty you owe."""

    word = "ace"


@dataclass(frozen=True)
class PlayKing:
    """Pass the penalty to a neighbour (doubled first if it was passed to you by a King)."""

    left: bool

    @property
    def text(self) -> str:
        return "king left" if self.left else "king right"


@dataclass(frozen=True)
class PlayJoker:
    """After your roll resolves: move a running horse one slot forward or back."""

    horse: int
    forward: bool

    @property
    def text(self) -> str:
        return f"joker {self.horse} {'forward' if self.forward else 'back'}"


@dataclass(frozen=True)
class Pass(Said):
    """Decline an optional move: a Joker, a face card, a market buy, a trade offer."""

    word = "pass"


@dataclass(frozen=True)
class Answer:
    """Accept or decline the trade offered to you."""

    accept: bool

    @property
    def text(self) -> str:
        return "accept" if self.accept else "decline"


@dataclass(frozen=True)
class Buy:
    """Schellenberg: take a market card, putting a card of your hand in its place."""

    take: int
    give: int

    @property
    def text(self) -> str:
        return f"buy {rank_text(self.take)} for {rank_text(self.give)}"


@dataclass(frozen=True)
class Pair:
    """Robertson: the two sums of the four dice, in the order they resolve."""

    first: int
    second: int

    @property
    def text(self) -> str:
        return f"pair {self.first} {self.second}"


@dataclass(frozen=True)
class Check(Said):
    word = "check"


@dataclass(frozen=True)
class Wager:
    """Husted: open the betting (facing no wager) or raise (facing one) by `amount` chips."""

    amount: int
    raising: bool

    @property
    def text(self) -> str:
        return f"{'raise' if self.raising else 'wager'} {self.amount}"


@dataclass(frozen=True)
class Meet(Said):
    word = "meet"


@dataclass(frozen=True)
class Fold(Said):
    word = "fold"


@dataclass(frozen=True)
class Discard:
    """Husted's draw: these cards (0 to 2) go face up to the discards and as many are drawn."""

    ranks: tuple[int, ...]

    @property
    def text(self) -> str:
        return "discard " + (" ".join(rank_text(r) for r in self.ranks) or "none")


@dataclass(frozen=True)
class Power:
    """Husted, after paying for a scratched horse: J moves `horse` back a slot, Q/K put 1/2 chips
    under it (each stops one roll of it; the chips go to the pot)."""

    card: int
    horse: int

    @property
    def text(self) -> str:
        name = {JACK: "jack", QUEEN: "queen", KING: "king"}[self.card]
        return f"{name} {self.horse}"


ROLL, PAY, ACE_PLAY, PASS = Roll(), Pay(), PlayAce(), Pass()
ACCEPT, DECLINE = Answer(True), Answer(False)
CHECK, MEET, FOLD = Check(), Meet(), Fold()
PAYOUT, NEXT_ROUND = Settle("payout"), Settle("next-round")

SeatAction = (
    Roll
    | Pay
    | PlayAce
    | PlayKing
    | PlayJoker
    | Pass
    | Pair
    | Keep
    | Answer
    | Offer
    | Buy
    | Check
    | Wager
    | Meet
    | Fold
    | Discard
    | Power
)
HustedAction = Check | Wager | Meet | Fold | Discard | Power

_OFFER_TEXT = re.compile(r"^offer\s+(\d+)\s*:\s*(.+?)\s+for\s+(.+)$")
_SIMPLE: dict[str, SeatAction] = {
    "roll": ROLL,
    "pay": PAY,
    "ace": ACE_PLAY,
    "pass": PASS,
    "accept": ACCEPT,
    "decline": DECLINE,
    "check": CHECK,
    "meet": MEET,
    "fold": FOLD,
}
_ANY_RANK = range(0, 14)


def _cards(words: str) -> tuple[int, ...]:
    if words.strip() in ("nothing", "none", "-"):
        return ()
    return tuple(sorted(parse_rank(word, _ANY_RANK) for word in words.split()))


def parse_seat_action(text: str, seat: int | None = None) -> SeatAction:
    """Every seat action's text form, read back; `seat` is who speaks (an offer names only its
    target; None: no seat is to act). Whether it is allowed now is for the phase to say."""
    lowered = text.strip().lower()
    offer = _OFFER_TEXT.match(lowered)
    if offer is not None:
        target, give, take = offer.groups()
        if not target.isascii():
            raise InvalidAction(f"{target!r} is not a seat number")
        if seat is None:
            raise InvalidAction("an offer is made by the seat whose turn it is: no seat is to act")
        offered = Offer(seat, int(target) - 1, _cards(give), _cards(take))
        if not offered.give and not offered.take:
            raise InvalidAction("an offer moves at least one card, e.g. 'offer 3: 6 6 for 7'")
        return offered
    words = lowered.split()
    if len(words) == 1 and words[0] in _SIMPLE:
        return _SIMPLE[words[0]]
    if len(words) == 2 and words[0] == "king" and words[1] in ("left", "right"):
        return PlayKing(left=words[1] == "left")
    if len(words) == 2 and words[0] == "keep":
        return Keep(parse_rank(words[1], _ANY_RANK))
    if len(words) == 3 and words[0] == "joker" and words[2] in ("forward", "back", "+", "-"):
        return PlayJoker(_horse(words[1]), forward=words[2] in ("forward", "+"))
    if len(words) == 4 and words[0] == "buy" and words[2] == "for":
        return Buy(parse_rank(words[1], _ANY_RANK), parse_rank(words[3], _ANY_RANK))
    if len(words) == 3 and words[0] == "pair":
        return Pair(_horse(words[1]), _horse(words[2]))
    if len(words) == 2 and words[0] in ("wager", "raise") and is_whole_number(words[1]):
        return Wager(int(words[1]), raising=words[0] == "raise")
    if words and words[0] == "discard":
        rest = [] if words[1:] == ["none"] else words[1:]
        return Discard(tuple(sorted(parse_rank(w, _ANY_RANK) for w in rest)))
    if len(words) == 2 and words[0] in ("jack", "queen", "king") and is_whole_number(words[1]):
        card = {"jack": JACK, "queen": QUEEN, "king": KING}[words[0]]
        return Power(card, _horse(words[1]))
    raise InvalidAction(f"{text!r} is not an action of the board game")


def _horse(word: str) -> int:
    if not is_whole_number(word) or int(word) not in HORSES:
        raise InvalidAction(f"{word!r} is not a horse (2..12)")
    return int(word)


__all__ = [
    "ACCEPT",
    "ACE_PLAY",
    "CHECK",
    "DECLINE",
    "FOLD",
    "MEET",
    "NEXT_ROUND",
    "PASS",
    "PAY",
    "PAYOUT",
    "ROLL",
    "Answer",
    "Buy",
    "Check",
    "Deal",
    "Discard",
    "Fold",
    "HustedAction",
    "Keep",
    "Meet",
    "Offer",
    "Pair",
    "Pass",
    "Pay",
    "PlayAce",
    "PlayJoker",
    "PlayKing",
    "Power",
    "Roll",
    "SeatAction",
    "Settle",
    "Wager",
    "parse_seat_action",
]
