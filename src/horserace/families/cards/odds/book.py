"""The dealer's book against the exact odds: fair prices and the house edge of each price, for
one course and averaged over every course the rules let stand.

The edge of a price is what the book keeps of each chip staked, on average: a bet at odds w-p
on a horse that wins with chance q returns q (1 + w/p) per chip, so the edge is
1 - q (1 + w/p) (negative: the bettor has the better of it). The fair price is (1 - q)/q to 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

from horserace.families.cards.odds.race import RacePosition, exact_card_odds
from horserace.families.cards.rules.config import BookOdds, CardsConfig
from horserace.families.cards.rules.track import RACING_SUITS, CardTrack

__all__ = [
    "AverageEdge",
    "average_book_edge",
    "edge",
    "fair_price",
    "joker_discarded",
    "legal_courses",
    "win_by_count",
]


def edge(chance: Fraction, win: int, per: int) -> Fraction:
    """The book's share of each chip staked at odds win-per on a horse with this chance."""
    return 1 - chance * (1 + Fraction(win, per))


def fair_price(chance: Fraction) -> Fraction | None:
    """The odds (to 1) at which a bet neither wins nor loses on average; None for a sure loser."""
    return (1 - chance) / chance if chance else None


@dataclass(frozen=True)
class AverageEdge:
    """The book's edge over all legal courses: `overall` for a chip on a horse picked at random
    among those priced; `by_count[c]` for a chip on a horse showing c course cards, which a
    course offers with chance `count_chance[c]` (the expected number of such horses / 4)."""

    overall: Fraction
    by_count: dict[int, Fraction]
    count_chance: dict[int, Fraction]


@cache
def _gate_win(
    counts: tuple[int, ...], need: int, length: int, ranks: int, joker: bool
) -> tuple[Fraction, ...]:
    """Win chances from the gate for a face-up course with these suit counts (cached by the
    sorted counts: the suits are alike)."""
    order = sorted(range(len(counts)), key=lambda s: counts[s])
    sorted_counts = tuple(counts[s] for s in order)
    win = _gate_win_sorted(sorted_counts, need, length, ranks, joker)
    result = [Fraction(0)] * len(counts)
    for index, suit in enumerate(order):
        result[suit] = win[index]
    return tuple(result)


@cache
def _gate_win_sorted(
    counts: tuple[int, ...], need: int, length: int, ranks: int, joker: bool
) -> tuple[Fraction, ...]:
    unseen = tuple(ranks - c for c in counts)
    position = RacePosition(need, length, False, CardTrack(), unseen, joker)
    odds = exact_card_odds(position, places=1)
    return tuple(odds.win[s] for s in RACING_SUITS)


def legal_courses(
    config: CardsConfig,
) -> list[tuple[Fraction, tuple[int, ...], tuple[Fraction, ...]]]:
    """Every face-up course of `config` by its suit counts: (chance, counts, win chance per
    suit from the gate), redeals included. With stumbling a course appears twice: the joker
    turned while dealing it (discarded, out of the race) or still in the deck; where the table
    leaves that joker on its link (`course_joker = "stays"`), the course is instead any
    `length` cards of the deck, the joker lying on it (one suit card fewer) or not."""
    length, ranks, need = config.course_length, config.ranks, config.need
    weights: dict[tuple[tuple[int, ...], bool], int] = {}
    jokers = (False, True) if config.joker_stays else (False,)
    for counts in product(range(min(ranks, length) + 1), repeat=len(RACING_SUITS)):
        for on_course in jokers:
            if sum(counts) + on_course != length:
                continue
            if config.redeal and max(counts) >= config.redeal_at:
                continue
            ways = 1
            for count in counts:
                ways *= comb(ranks, count)
            weights[(counts, on_course)] = ways
    total = sum(weights.values())
    table = []
    for (counts, on_course), ways in weights.items():
        for discarded, chance in joker_discarded(config):
            joker = config.stumbling and not discarded and not on_course
            win = _gate_win(counts, need, length, ranks, joker)
            table.append((Fraction(ways, total) * chance, counts, win))
    return table


def joker_discarded(config: CardsConfig) -> tuple[tuple[bool, Fraction], ...]:
    """(discarded, chance): whether the joker was turned while dealing the course. The joker
    lies anywhere among the suit cards of the shuffled deck, and it is turned (and discarded)
    when it comes before the course's last card: `length` of the 4 x ranks + 1 gaps, whatever
    the course holds, so a redeal does not change it. A joker that stays is never discarded."""
    if not config.stumbling or config.joker_stays:
        return ((False, Fraction(1)),)
    chance = Fraction(config.course_length, 4 * config.ranks + 1)
    return ((True, chance), (False, 1 - chance))


def win_by_count(config: CardsConfig) -> dict[int, Fraction]:
    """The chance that a horse showing c course cards wins, over every legal course."""
    starts: dict[int, Fraction] = {}
    wins: dict[int, Fraction] = {}
    for chance, counts, win in legal_courses(config):
        for suit in RACING_SUITS:
            count = counts[suit]
            starts[count] = starts.get(count, Fraction(0)) + chance
            wins[count] = wins.get(count, Fraction(0)) + chance * win[suit]
    return {count: wins[count] / starts[count] for count in sorted(starts)}


def average_book_edge(config: CardsConfig, prices: BookOdds | None = None) -> AverageEdge:
    """Exact, over every course of `config` (face up) and its chance, redeals included."""
    book = prices or config.book_odds
    staked: dict[int, Fraction] = {}
    lost: dict[int, Fraction] = {}
    overall = Fraction(0)
    for chance, counts, win in legal_courses(config):
        offered = [(s, p) for s in RACING_SUITS if (p := book.price(counts[s])) is not None]
        if not offered:
            continue
        for suit, price in offered:
            kept = edge(win[suit], *price)
            count = counts[suit]
            staked[count] = staked.get(count, Fraction(0)) + chance
            lost[count] = lost.get(count, Fraction(0)) + chance * kept
            overall += chance * kept / len(offered)
    by_count = {c: lost[c] / staked[c] for c in sorted(staked)}
    count_chance = {c: staked[c] / len(RACING_SUITS) for c in sorted(staked)}
    return AverageEdge(overall, by_count, count_chance)
