"""Cards of the dice board game as counts per rank: 2..10, J = 11, Q = 12 match horses 2..12;
aces (1), kings (13) and jokers (0) match no horse but have powers in some modes.

A hand is a tuple of fourteen counts indexed by rank: suits never matter in these games, and
counts make dealing a single enumerable chance step per card.
"""

from __future__ import annotations

from collections.abc import Iterable

from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.types import is_whole_number

JOKER, ACE, KING = 0, 1, 13
RANKS: tuple[int, ...] = tuple(range(2, 13))  # the ranks that match a horse
ALL_RANKS: tuple[int, ...] = tuple(range(0, 14))
RankCounts = tuple[int, ...]
NO_CARDS: RankCounts = (0,) * len(ALL_RANKS)
SUITS_PER_DECK = 4  # so each rank comes 4 times a deck
_NAMES = {JOKER: "joker", ACE: "A", 11: "J", 12: "Q", KING: "K"}
_NAMES_BACK = {"JOKER": JOKER, "JK": JOKER, "A": ACE, "J": 11, "Q": 12, "K": KING}


def rank_text(rank: int) -> str:
    return _NAMES.get(rank, str(rank))


def parse_rank(text: str, allowed: Iterable[int] = RANKS) -> int:
    """'7', 'J', 'q', '11', 'K', 'joker' -> the rank number, if it is among `allowed`."""
    word = text.strip().upper()
    rank = _NAMES_BACK.get(word)
    if rank is None and is_whole_number(word):
        rank = int(word)
    allowed = tuple(allowed)
    if rank is None or rank not in allowed:
        names = ", ".join(rank_text(r) for r in allowed)
        raise InvalidAction(f"{text!r} is not a card rank here ({names})")
    return rank


def counts(per_rank: dict[int, int]) -> RankCounts:
    return tuple(per_rank.get(rank, 0) for rank in ALL_RANKS)


def full_deck(decks: int) -> RankCounts:
    """The 44-card deck (A, K and jokers removed) times `decks`."""
    return counts({rank: SUITS_PER_DECK * decks for rank in RANKS})


def suits_deck(suits: int, jokers: int) -> RankCounts:
    """`suits` suits of A..K (a suit may appear twice) plus `jokers` jokers."""
    return counts({rank: suits for rank in range(ACE, KING + 1)} | {JOKER: jokers})


def count_of(hand: RankCounts, rank: int) -> int:
    return hand[rank]


def with_count(hand: RankCounts, rank: int, delta: int) -> RankCounts:
    value = hand[rank] + delta
    if value < 0:
        raise IllegalAction(f"no {rank_text(rank)} left to take")
    return (*hand[:rank], value, *hand[rank + 1 :])


def add_counts(a: RankCounts, b: RankCounts) -> RankCounts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def total(hand: RankCounts) -> int:
    return sum(hand)


def counts_from_ranks(ranks: Iterable[int]) -> RankCounts:
    hand = list(NO_CARDS)
    for rank in ranks:
        hand[rank] += 1
    return tuple(hand)


def ranks_held(hand: RankCounts) -> list[int]:
    """Every card as a rank, in display order: 2..Q, then A, K, jokers."""
    order = (*RANKS, ACE, KING, JOKER)
    return [rank for rank in order for _ in range(hand[rank])]


def hand_text(hand: RankCounts) -> str:
    """'2 4 4 7 J A K joker' (or '-' for an empty hand)."""
    cards = [rank_text(rank) for rank in ranks_held(hand)]
    return " ".join(cards) if cards else "-"
