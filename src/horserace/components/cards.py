"""Cards of the dice board game as counts per rank: 2..10, J = 11, Q = 12 match horses 2..12.

A hand is a tuple of eleven counts (index rank - 2): suits never matter in these games, and
counts make dealing a single enumerable chance step per card.
"""

from __future__ import annotations

from collections.abc import Iterable

from horserace.core.errors import InvalidAction

RANKS: tuple[int, ...] = tuple(range(2, 13))
RankCounts = tuple[int, ...]
NO_CARDS: RankCounts = (0,) * len(RANKS)
SUITS = 4
_FACE = {11: "J", 12: "Q"}
_FACE_BACK = {"J": 11, "Q": 12}


def rank_text(rank: int) -> str:
    return _FACE.get(rank, str(rank))


def parse_rank(text: str) -> int:
    """'7', 'J', 'q', '11' -> the rank number; InvalidAction otherwise."""
    word = text.strip().upper()
    rank = _FACE_BACK.get(word)
    if rank is None and word.isdigit():
        rank = int(word)
    if rank is None or rank not in RANKS:
        raise InvalidAction(f"{text!r} is not a card rank (2..10, J, Q)")
    return rank


def full_deck(decks: int) -> RankCounts:
    """The 44-card deck (A, K and jokers removed) times `decks`."""
    return (SUITS * decks,) * len(RANKS)


def count_of(counts: RankCounts, rank: int) -> int:
    return counts[rank - 2]


def with_count(counts: RankCounts, rank: int, delta: int) -> RankCounts:
    index = rank - 2
    value = counts[index] + delta
    if value < 0:
        raise ValueError(f"no {rank_text(rank)} left to take")
    return (*counts[:index], value, *counts[index + 1 :])


def add_counts(a: RankCounts, b: RankCounts) -> RankCounts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def total(counts: RankCounts) -> int:
    return sum(counts)


def counts_from_ranks(ranks: Iterable[int]) -> RankCounts:
    counts = list(NO_CARDS)
    for rank in ranks:
        counts[rank - 2] += 1
    return tuple(counts)


def hand_text(counts: RankCounts) -> str:
    """'2 4 4 7 J' (or '-' for an empty hand)."""
    cards = [rank_text(r) for r in RANKS for _ in range(counts[r - 2])]
    return " ".join(cards) if cards else "-"
