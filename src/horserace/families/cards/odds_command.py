"""`horserace odds cards`: every bet's exact chance from a course and the cards turned so far,
with the fair price beside the dealer's price and the house edge of each."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from horserace.components.french_deck import (
    SUIT_LETTERS,
    Card,
    card_text,
    cards_text,
    is_joker,
    parse_card,
    parse_cards,
    suit_of,
)
from horserace.core.errors import ConfigError
from horserace.families.cards import odds_tables as render
from horserace.families.cards.odds.book import AverageEdge, average_book_edge
from horserace.families.cards.odds.race import CardOdds, TooManyStates, card_odds, exact_card_odds
from horserace.families.cards.odds.race import position_from_cards as replay_position
from horserace.families.cards.rules.config import (
    COURSE_JOKERS,
    MAX_RANKS,
    TRADITIONAL_ODDS,
    BookOdds,
    cards_config,
    load_book_odds,
)
from horserace.families.cards.rules.track import RACING_SUITS
from horserace.terminal.errors import user_errors

FALTERING_BUDGET = 500_000  # states (some seconds); early in a face-down race the odds take minutes


def odds_cards(
    course: Annotated[
        str | None,
        typer.Option(
            "--course",
            metavar="CARDS",
            help='The course, link 1 first, e.g. "2C 9H KD 5S 7H JC 3D"; ?? = face down;'
            " a joker among them: the one discarded while dealing it (or, with --course-joker"
            " stays, lying on its link).",
            show_default="none: give --course-length for a face-down course",
        ),
    ] = None,
    turned: Annotated[
        str,
        typer.Option(
            "--turned",
            metavar="CARDS",
            help="Race cards turned so far, in order.",
            show_default="none",
        ),
    ] = "",
    course_length: Annotated[
        int | None,
        typer.Option(
            "--course-length",
            metavar="N",
            help="Links (all face down: with --faltering and no --course).",
            show_default="the --course's cards",
        ),
    ] = None,
    need: Annotated[
        int | None,
        typer.Option(
            "--need",
            metavar="N",
            help="Cards a horse needs to finish.",
            show_default="links + 1",
        ),
    ] = None,
    faltering: Annotated[
        bool,
        typer.Option(
            "--faltering",
            help="Face-down course; first arrival turns a link.",
            show_default="off",
        ),
    ] = False,
    stumbling: Annotated[
        bool,
        typer.Option(
            "--stumbling",
            help="A joker in the deck lifts all but the leaders.",
            show_default="off",
        ),
    ] = False,
    course_joker: Annotated[
        str | None,
        typer.Option(
            "--course-joker",
            metavar="WHERE",
            help="Stumbling: a joker dealt to the course is discarded (discard) or stays on"
            " its link (stays).",
            show_default="discard",
        ),
    ] = None,
    ranks: Annotated[
        int, typer.Option("--ranks", metavar="N", help="Cards per suit besides the ace.")
    ] = MAX_RANKS,
    book_file: Annotated[
        Path | None,
        typer.Option(
            "--book",
            metavar="FILE",
            help="The dealer's price list (TOML).",
            show_default="the traditional odds",
        ),
    ] = None,
    redeal: Annotated[
        bool | None,
        typer.Option(
            "--redeal/--no-redeal",
            help="The average's courses follow the redeal rule.",
            show_default="on where it can hold",
        ),
    ] = None,
    average: Annotated[
        bool | None,
        typer.Option(
            "--average/--no-average",
            help="The book's edge over every legal course.",
            show_default="on, off with the joker",
        ),
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states",
            metavar="N",
            help="Give up past N states.",
            show_default=f"no limit; {FALTERING_BUDGET:,} when faltering",
        ),
    ] = None,
    stake: Annotated[
        int,
        typer.Option(
            "--stake",
            metavar="CHIPS",
            min=1,
            help="The bet the house edge is for (fractional odds pay whole chips, rounded down).",
        ),
    ] = 1,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Exact arithmetic (fractions, which --json prints; the table rounds them).",
            show_default="off",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object.", show_default="off")
    ] = False,
) -> None:
    """Every bet's exact chance from a course and the cards turned so far, with the fair price
    beside the dealer's price and the house edge of each."""
    with user_errors():
        stays = _joker_stays(course_joker, stumbling)
        links, discarded = _course(course, course_length, faltering, stays)
        length = len(links)
        needed = length + 1 if need is None else need
        history = parse_cards(turned)
        book = TRADITIONAL_ODDS if book_file is None else load_book_odds(book_file)
        redealing = redeal if redeal is not None else length <= 4 * (ranks - needed) + stays
        warning = _redealt(links, needed, ranks) if redealing and not faltering else None
    if warning is not None:  # the table would deal this course again: there is nothing to price
        typer.echo(json.dumps({"redealt": True, "warning": warning}) if as_json else warning)
        return
    with user_errors():
        position = replay_position(
            links,
            history,
            need=needed,
            faltering=faltering,
            stumbling=stumbling,
            joker_discarded=discarded,
            joker_stays=stays,
            ranks=ranks,
        )
        budget = max_states if max_states is not None else (FALTERING_BUDGET if faltering else None)
        try:
            odds: CardOdds[Any] = (
                exact_card_odds(position, max_states=budget)
                if exact
                else card_odds(position, max_states=budget)
            )
        except TooManyStates:
            raise ConfigError(
                f"this race is too young for exact odds within {budget:,} states:"
                " give more --turned cards or a larger --max-states"
            ) from None
        counts = {s: _count(links, s) for s in RACING_SUITS}
        priced = book if not faltering else None  # a face-down course cannot be priced
        averaged: AverageEdge | None = None
        if priced is not None and (average if average is not None else not stumbling):
            options = {
                "course_length": length,
                "need": needed,
                "ranks": ranks,
                "redeal": redealing,
                "stumbling": stumbling,
                "course_joker": "stays" if stays else "discard",
                "book_odds": book,
            }
            averaged = average_book_edge(cards_config(options))
    closed = CLOSED_BOOK if faltering else None
    if as_json:
        data = _json(odds, links, history, needed, priced, counts, averaged, exact, stake)
        if closed is not None:
            data["book_closed"] = closed
        if stumbling:
            data["joker_discarded"] = discarded
            data["course_joker"] = "stays" if stays else "discard"
        typer.echo(json.dumps(data))
        return
    console = Console(highlight=False)
    shown = " ".join("??" if c is None else card_text(c) for c in links)
    turned_text = f"turned {cards_text(history)}" if history else "no card turned yet"
    joker = "; the joker was discarded while dealing it" if discarded else ""
    console.print(
        f"course {shown} ({length} links, {needed} cards to finish{joker}); {turned_text}",
        markup=False,
        soft_wrap=True,
    )
    console.print(render.horse_table(odds, position.track.positions, counts, priced, stake))
    if closed is not None:
        console.print(closed, markup=False, soft_wrap=True)
    elif priced is not None and any(per > 1 for _, _, per in priced.prices):
        console.print(render.rounding_text(priced, stake), markup=False, soft_wrap=True)
    console.print(render.exacta_table(odds))
    console.print(render.orders_table(odds))
    if averaged is not None and priced is not None:
        console.print(render.average_text(averaged, priced), markup=False, soft_wrap=True)


def _joker_stays(course_joker: str | None, stumbling: bool) -> bool:
    """--course-joker: stays (the joker lies on its link) or discard (the ruling)."""
    if course_joker is None:
        return False
    if course_joker not in COURSE_JOKERS:
        raise ConfigError(f"--course-joker must be one of {', '.join(COURSE_JOKERS)}")
    if not stumbling:
        raise ConfigError("--course-joker needs --stumbling: only then is there a joker to deal")
    return course_joker == "stays"


def _course(
    text: str | None, length: int | None, faltering: bool, stays: bool = False
) -> tuple[list[Card | None], bool]:
    """The links, and whether the joker was named among them: the joker turned while dealing
    the course is discarded and another card dealt, so it holds no link (unless it `stays`:
    then it is a link like any other card, and nothing was discarded)."""
    if text is None:
        if length is None:
            raise ConfigError(
                "give the --course (or, for a face-down one, --faltering --course-length N)"
            )
        if not faltering:
            raise ConfigError('a face-up course needs its cards: --course "2C 9H ..."')
        return [None] * length, False
    words = text.replace(",", " ").split()
    cards = [None if word in ("??", "?") else parse_card(word) for word in words]
    jokers = sum(1 for c in cards if c is not None and is_joker(c))
    if jokers > 1:
        raise ConfigError("the course names the joker twice; the deck has one")
    links = [c for c in cards if c is None or stays or not is_joker(c)]
    if not links:
        raise ConfigError("the course has no cards")
    if length is not None and length != len(links):
        raise ConfigError(f"--course-length {length} but the course has {len(links)} cards")
    return links, jokers == 1 and not stays


CLOSED_BOOK = (
    "The dealer's book is closed: a faltering course lies face down, so it has no prices"
    " (the table bets on the tote)."
)


def _redealt(links: list[Card | None], need: int, ranks: int) -> str | None:
    """The warning for a face-up course the redeal rule would deal again (a horse with more
    course cards than its suit can spare could never finish), or None."""
    if any(card is None for card in links):
        return None
    most = ranks - need  # cards of one suit the course may hold and the horse still finish
    for suit in RACING_SUITS:
        count = _count(links, suit)
        if count > most:
            return (
                f"warning: this course would be redealt at the table: {count} {SUIT_LETTERS[suit]}"
                f" on it leave that horse unable to finish (it needs {need} of {ranks});"
                " no bet is priced (--no-redeal to price it anyway)"
            )
    return None


def _count(links: list[Card | None], suit: int) -> int:
    return sum(1 for c in links if c is not None and not is_joker(c) and suit_of(c) == suit)


def _json(
    odds: CardOdds[Any],
    links: list[Card | None],
    history: list[Card],
    need: int,
    book: BookOdds | None,
    counts: dict[int, int],
    averaged: AverageEdge | None,
    exact: bool,
    stake: int,
) -> dict[str, Any]:
    def table(values: dict[Any, Any]) -> dict[str, Any]:
        return {render.horse_name(key): render.number(p) for key, p in values.items()}

    data: dict[str, Any] = {
        "course": [None if c is None else card_text(c) for c in links],
        "turned": [card_text(c) for c in history],
        "need": need,
        "win": table(odds.win),
        "place": table(odds.place),
        "show": table(odds.show),
        "exacta": table(odds.exacta),
        "trifecta": table(odds.trifecta),
        "superfecta": table(odds.superfecta),
        "fair_win_odds": {
            SUIT_LETTERS[s]: render.number(render.fair_odds(p)) for s, p in odds.win.items()
        },
    }
    if book is not None:
        horses: dict[str, Any] = {}
        for suit in RACING_SUITS:
            price = book.price(counts[suit])
            kept = None if price is None else render.book_edge(odds.win[suit], price, stake)
            horses[SUIT_LETTERS[suit]] = {
                "course_cards": counts[suit],
                "price": None if price is None else f"{price[0]}-{price[1]}",
                "edge": render.number(kept),
            }
        data["book"] = {"name": book.name, "horses": horses}
    if averaged is not None:

        def value(x: Fraction) -> Any:
            return render.number(x if exact else float(x))

        data["average_edge"] = {
            "overall": value(averaged.overall),
            "by_count": {str(c): value(e) for c, e in averaged.by_count.items()},
            "count_chance": {str(c): value(p) for c, p in averaged.count_chance.items()},
        }
    return data
