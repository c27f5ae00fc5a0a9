"""The French 52-card pack (plus jokers): cards as small ints with a short text form ("7H", "10C").

A card is `suit * 13 + rank - 1` (rank 1 = ace .. 13 = king, suits C D H S in that order), so
sorting cards groups them by suit; a joker is 52 and above. Ints keep states small and hashable.
"""

from __future__ import annotations

from collections.abc import Iterable

from horserace.core.errors import InvalidAction
from horserace.core.types import is_whole_number

SUIT_LETTERS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANKS_PER_SUIT = 13
JOKER = 52
Card = int

_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_JOKER_WORDS = {"JOKER", "JK", "X", "*"}


def card(rank: int, suit: int) -> Card:
    if not 1 <= rank <= RANKS_PER_SUIT or not 0 <= suit < len(SUIT_LETTERS):
        raise InvalidAction(f"no card of rank {rank} and suit {suit}: ranks 1-13, suits 0-3")
    return suit * RANKS_PER_SUIT + rank - 1


def is_joker(value: Card) -> bool:
    return value >= JOKER


def suit_of(value: Card) -> int:
    """0..3 for C D H S. A joker has no suit: ask `is_joker` first."""
    if value >= JOKER:
        raise InvalidAction("a joker has no suit")
    return value // RANKS_PER_SUIT


def rank_of(value: Card) -> int:
    return 0 if value >= JOKER else value % RANKS_PER_SUIT + 1


def suit_text(suit: int) -> str:
    return SUIT_LETTERS[suit]


def card_text(value: Card) -> str:
    """'7H', '10C', 'KD', 'AS'; every joker is 'joker'."""
    if value >= JOKER:
        return "joker"
    rank = rank_of(value)
    return _RANK_TEXT.get(rank, str(rank)) + SUIT_LETTERS[suit_of(value)]


def parse_suit(text: str) -> int:
    """'H', 'h', 'hearts', '♥' -> 2; InvalidAction otherwise."""
    word = text.strip().lower()
    for index, (letter, name, symbol) in enumerate(
        zip(SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, strict=True)
    ):
        if word in (letter.lower(), name, name[:-1], symbol):
            return index
    raise InvalidAction(f"{text.strip()!r} is not a suit (C, D, H or S)")


def parse_card(text: str) -> Card:
    """'7H', '7h', 'TH' or '10H', 'kd', 'joker'; InvalidAction otherwise."""
    word = text.strip().upper().replace(" ", "")
    if word in _JOKER_WORDS:
        return JOKER
    if len(word) < 2:
        raise InvalidAction(f"{text.strip()!r} is not a card; write it like 7H, 10C, KD or joker")
    rank_word, suit_word = word[:-1], word[-1]
    rank = _RANK_WORDS.get(rank_word)
    if rank is None and is_whole_number(rank_word):
        rank = int(rank_word)
    if rank is None or not 1 <= rank <= RANKS_PER_SUIT or suit_word not in SUIT_LETTERS:
        raise InvalidAction(f"{text.strip()!r} is not a card; write it like 7H, 10C, KD or joker")
    return card(rank, SUIT_LETTERS.index(suit_word))


def parse_cards(text: str) -> list[Card]:
    """'2C 9H KD' or '2C,9H,KD' -> cards in the order given."""
    words = text.replace(",", " ").split()
    return [parse_card(word) for word in words]


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(value) for value in cards)


def pack(ranks: Iterable[int], jokers: int = 0) -> tuple[Card, ...]:
    """Every card of the given ranks in the four suits, then the jokers, in sorted order."""
    wanted = sorted(set(ranks))
    cards = [card(rank, suit) for suit in range(len(SUIT_LETTERS)) for rank in wanted]
    return tuple(sorted(cards)) + tuple(JOKER + index for index in range(jokers))
