"""The card race's actions with their canonical text, and the reader for what people type.

Canonical forms: a dealt card is its name ("7H", "joker"); "bet 5 H" at the book; tote tickets
"win 5 H", "place 5 H", "show 5 H", "board 5 H" (win, place and show at once),
"exacta 5 H C", "trifecta 5 H C D", "superfecta 5 H C D S"; "pick H" at a party;
"bid 12" or "pass" at the Calcutta auction; "done" ends a seat's betting.
"""

from __future__ import annotations

from dataclasses import dataclass

from horserace.components.french_deck import Card, card_text, parse_card, parse_suit, suit_text
from horserace.core.actions import Said
from horserace.core.errors import InvalidAction
from horserace.core.types import is_whole_number
from horserace.core.words import counted, with_article

TOTE_POOLS: dict[str, int] = {  # pool -> horses named on a ticket
    "win": 1,
    "place": 1,
    "show": 1,
    "exacta": 2,
    "trifecta": 3,
    "superfecta": 4,
}
BOARD = "board"  # across the board: win + place + show, one stake each
TOTE_KINDS = (*TOTE_POOLS, BOARD)
_TOTE_SHORT = {
    "w": "win",
    "p": "place",
    "s": "show",
    "b": BOARD,
    "atb": BOARD,
    "ex": "exacta",
    "exa": "exacta",
    "tri": "trifecta",
    "super": "superfecta",
    "sup": "superfecta",
}


@dataclass(frozen=True)
class DealCard:
    """Chance: the next card off the deck."""

    card: Card

    @property
    def text(self) -> str:
        return card_text(self.card)


@dataclass(frozen=True)
class BookBet:
    """A stake on a horse to win at the dealer's price."""

    stake: int
    suit: int

    @property
    def text(self) -> str:
        return f"bet {self.stake} {suit_text(self.suit)}"


@dataclass(frozen=True)
class ToteBet:
    """A tote ticket: `kind` is a pool or "board"; `horses` in the order they must finish."""

    kind: str
    stake: int
    horses: tuple[int, ...]

    @property
    def text(self) -> str:
        return f"{self.kind} {self.stake} " + " ".join(suit_text(s) for s in self.horses)


@dataclass(frozen=True)
class Pick:
    """Party: the suit a seat backs for the prizes."""

    suit: int

    @property
    def text(self) -> str:
        return f"pick {suit_text(self.suit)}"


@dataclass(frozen=True)
class Bid:
    amount: int

    @property
    def text(self) -> str:
        return f"bid {self.amount}"

    @property
    def staked(self) -> int:
        """What the bidder pays for the horse if the bid stands (a bot's budget reads it)."""
        return self.amount


@dataclass(frozen=True)
class NoBid(Said):
    word = "pass"


@dataclass(frozen=True)
class Done(Said):
    """A seat places no (more) bets this race."""

    word = "done"


NO_BID = NoBid()
DONE = Done()


def parse_card_action(text: str) -> DealCard:
    """'7H', 'deal 7h', '10c', 'joker'."""
    words = text.split()
    if len(words) == 2 and words[0].lower() == "deal":
        return DealCard(parse_card(words[1]))
    return DealCard(parse_card(text))


def _stake(word: str) -> int:
    if not is_whole_number(word):
        raise InvalidAction(f"{word!r} is not a stake (a whole number of chips)")
    return int(word)


def _suits(words: list[str]) -> tuple[int, ...]:
    """Suits given one per word ('H C') or run together ('HC')."""
    joined = "".join(words)
    if len(words) == 1 and len(joined) > 1 and all(c.upper() in "CDHS" for c in joined):
        return tuple(parse_suit(c) for c in joined)
    return tuple(parse_suit(word) for word in words)


def _stake_and_suits(words: list[str]) -> tuple[int, tuple[int, ...]]:
    """'5 H', 'H 5', '5H', '5 H C', '5 HC'."""
    if len(words) == 1 and is_whole_number(words[0][:-1]):  # '5H'
        return int(words[0][:-1]), (parse_suit(words[0][-1]),)
    if words and is_whole_number(words[0]):
        return _stake(words[0]), _suits(words[1:])
    if words and is_whole_number(words[-1]):
        return _stake(words[-1]), _suits(words[:-1])
    raise InvalidAction("say the stake and the horse, e.g. 5 H")


def parse_book(text: str) -> BookBet | Done:
    words = text.lower().split()
    if not words or words[0] in ("done", "d", "no", "none"):
        return DONE
    if words[0] == "bet":
        words = words[1:]
    stake, suits = _stake_and_suits(words)
    if len(suits) != 1:
        raise InvalidAction("a bet names one horse, e.g. bet 5 H")
    return BookBet(stake, suits[0])


def parse_tote(text: str) -> ToteBet | Done:
    words = text.lower().split()
    if not words or words[0] in ("done", "d", "no", "none"):
        return DONE
    kind = _TOTE_SHORT.get(words[0], words[0])
    if kind not in TOTE_KINDS:
        raise InvalidAction(
            f"{words[0]!r} is not a tote ticket; one of {', '.join(TOTE_KINDS)} (or done)"
        )
    stake, horses = _stake_and_suits(words[1:])
    wanted = TOTE_POOLS.get(kind, 1)
    if len(horses) != wanted:
        raise InvalidAction(
            f"{with_article(kind)} ticket names {counted(wanted, 'horse')} in order"
        )
    return ToteBet(kind, stake, horses)


def parse_pick(text: str) -> Pick:
    words = text.split()
    if len(words) == 2 and words[0].lower() == "pick":
        return Pick(parse_suit(words[1]))
    if len(words) == 1:
        return Pick(parse_suit(words[0]))
    raise InvalidAction(f"{text.strip()!r} is not a pick; write it like pick H")


def parse_bid(text: str) -> Bid | NoBid:
    words = text.lower().split()
    if not words or words[0] in ("pass", "p", "no"):
        return NO_BID
    if words[0] == "bid":
        words = words[1:]
    if len(words) == 1 and is_whole_number(words[0]):
        return Bid(int(words[0]))
    raise InvalidAction(f"{text.strip()!r} is not a bid; write it like bid 12 (or pass)")
