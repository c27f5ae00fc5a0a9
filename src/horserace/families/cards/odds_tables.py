"""The tables of `horserace odds cards`: every bet's chance beside the fair price, the dealer's
price and the house edge, in exact fractions or floats."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.table import Table

from horserace.components.french_deck import SUIT_LETTERS
from horserace.families.cards.odds.book import AverageEdge
from horserace.families.cards.odds.race import CardOdds
from horserace.families.cards.rules.book import winnings
from horserace.families.cards.rules.config import BookOdds
from horserace.families.cards.rules.track import RACING_SUITS

PLAIN_WIDTH = 100


def number(p: Any) -> Any:
    """JSON form of a chance: "p/q" for a Fraction, the float otherwise."""
    if isinstance(p, Fraction):
        return f"{p.numerator}/{p.denominator}"
    return p


def book_edge(chance: Any, price: tuple[int, int], stake: int = 1) -> Any:
    """1 - chance (1 + paid/stake), in the chance's own arithmetic, where `paid` is what the
    book pays a `stake` at `price`: whole chips, rounded down, as at the table."""
    paid = winnings(stake, price)
    if isinstance(chance, Fraction):
        return 1 - chance * (1 + Fraction(paid, stake))
    return 1 - float(chance) * (1 + paid / stake)


def rounding_text(book: BookOdds, stake: int) -> str:
    """The rule for fractional prices, with the book's own first such price as the example."""
    win, per = next((w, p) for _, w, p in book.prices if p > 1)
    return (
        f"A payout at fractional odds is the stake times the odds rounded down to whole chips,"
        f" the same at the table: at {win}-{per} a 1-chip bet wins {winnings(1, (win, per))}"
        f" and a {per}-chip bet {winnings(per, (win, per))}. The house edge shown is for a"
        f" {stake}-chip bet (--stake)."
    )


def fair_odds(chance: Any) -> Any:
    """(1 - chance) / chance to 1; None for a horse that cannot win."""
    if not chance:
        return None
    return (1 - chance) / chance


def percent(p: Any) -> str:
    value = float(p)
    if value == 0:
        return "0"
    return f"{100 * value:.2f}%" if abs(value) >= 0.0001 else f"{100 * value:.1g}%"


def price_text(chance: Any) -> str:
    fair = fair_odds(float(chance))
    if fair is None:
        return "never"
    return f"{fair:.2f}-1" if fair < 100 else f"{fair:,.0f}-1"


def horse_name(horses: tuple[int, ...] | int) -> str:
    if isinstance(horses, int):
        return SUIT_LETTERS[horses]
    return "".join(SUIT_LETTERS[h] for h in horses)


def horse_table(
    odds: CardOdds[Any],
    positions: tuple[int, ...],
    counts: dict[int, int],
    book: BookOdds | None,
    stake: int = 1,
) -> Table:
    table = Table(title="Each horse", title_justify="left")
    for name in ("horse", "course", "at", "win", "fair price"):
        table.add_column(name, justify="right")
    if book is not None:
        table.add_column("book", justify="right")
        table.add_column("house edge", justify="right")
    for name in ("place", "show"):
        table.add_column(name, justify="right")
    for suit in RACING_SUITS:
        chance = odds.win[suit]
        row = [SUIT_LETTERS[suit], str(counts[suit]), str(positions[suit]), percent(chance)]
        row.append(price_text(chance))
        if book is not None:
            price = book.price(counts[suit])
            if price is None:
                row += ["no bets", ""]
            else:
                row += [f"{price[0]}-{price[1]}", percent(book_edge(chance, price, stake))]
        row += [percent(odds.place[suit]), percent(odds.show[suit])]
        table.add_row(*row)
    return table


def exacta_table(odds: CardOdds[Any]) -> Table:
    table = Table(title="Exacta (first down, second across)", title_justify="left")
    table.add_column("")
    for suit in RACING_SUITS:
        table.add_column(SUIT_LETTERS[suit], justify="right")
    for first in RACING_SUITS:
        cells = [
            "-" if first == second else percent(odds.exacta[(first, second)])
            for second in RACING_SUITS
        ]
        table.add_row(SUIT_LETTERS[first], *cells)
    return table


def orders_table(odds: CardOdds[Any]) -> Table:
    table = Table(
        title="Trifecta and superfecta (the fourth is the horse left)", title_justify="left"
    )
    for name in ("order", "chance", "fair price"):
        table.add_column(name, justify="right")
    ranked = sorted(odds.superfecta.items(), key=lambda item: (-float(item[1]), item[0]))
    for order, p in ranked:
        table.add_row(horse_name(order), percent(p), price_text(p))
    return table


def average_text(averaged: AverageEdge, book: BookOdds) -> str:
    parts = ", ".join(
        f"{count} on the course {100 * float(kept):+.2f}%"
        for count, kept in averaged.by_count.items()
    )
    return (
        f"The {book.name} book over every legal course keeps"
        f" {100 * float(averaged.overall):.2f}% of a chip staked on a horse picked at random;"
        f" by the horse's course cards: {parts}"
    )
