"""The card race's commands: `odds cards`, and `play` / `simulate` for basic, scarne, calcutta."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from horserace.bots import bot_kinds_of
from horserace.cli import cards_render as render
from horserace.cli.cards_play import PlaySetup, run_table
from horserace.cli.common import check_play_options, seat_names, user_errors
from horserace.components.french_deck import (
    SUITS,
    Card,
    card_text,
    cards_text,
    is_joker,
    parse_card,
    parse_cards,
    suit_of,
)
from horserace.core.errors import ConfigError
from horserace.core.rng import fresh_seed
from horserace.odds.cards import CardOdds, TooManyStates, card_odds, exact_card_odds
from horserace.odds.cards import position_from_cards as replay_position
from horserace.odds.cards_book import AverageEdge, average_book_edge
from horserace.rules.cards.config import (
    MAX_RANKS,
    TRADITIONAL_ODDS,
    BookOdds,
    cards_config,
    load_book_odds,
)
from horserace.rules.cards.track import HORSES
from horserace.rules.registry import get_preset
from horserace.simulate.cards_kernel import KERNEL_BOT
from horserace.simulate.cards_sim import CardsReport, simulate_cards
from horserace.simulate.stats import RunningStats

DEFAULT_BOTS = "value,favourite,random"
FALTERING_BUDGET = 500_000  # states (some seconds); early in a face-down race the odds take minutes


def register_play(play_app: typer.Typer) -> None:
    """`horserace play basic|scarne|calcutta`."""
    for preset in PRESETS:
        play_app.command(preset, help=_HELP[preset])(_play_command(preset))


def register_simulate(simulate_app: typer.Typer) -> None:
    """`horserace simulate basic|scarne|calcutta`."""
    for preset in PRESETS:
        simulate_app.command(preset, help=_HELP[preset])(_simulate_command(preset))


def register_odds(odds_app: typer.Typer) -> None:
    """`horserace odds cards`."""
    odds_app.command("cards")(odds_cards)


PRESETS = ("basic", "scarne", "calcutta")
_HELP = {
    "basic": "The card race: four aces race on a 7-card course; bet at the book, tote or party.",
    "scarne": "The card race as in Scarne: a 6-card course, reach the end to win, no redeal.",
    "calcutta": "The card race with a Calcutta auction: buy horses, 1st and 2nd share the pool.",
}


def odds_cards(
    course: Annotated[
        str | None,
        typer.Option(
            "--course",
            metavar="CARDS",
            help='The course, link 1 first, e.g. "2C 9H KD 5S 7H JC 3D"; ?? = face down.',
        ),
    ] = None,
    turned: Annotated[
        str,
        typer.Option("--turned", metavar="CARDS", help="Race cards turned so far, in order."),
    ] = "",
    course_length: Annotated[
        int | None,
        typer.Option("--course-length", metavar="N", help="Links (all face down if no --course)."),
    ] = None,
    need: Annotated[
        int | None,
        typer.Option("--need", metavar="N", help="Cards a horse needs to finish (links + 1)."),
    ] = None,
    faltering: Annotated[
        bool, typer.Option("--faltering", help="Face-down course; first arrival turns a link.")
    ] = False,
    stumbling: Annotated[
        bool, typer.Option("--stumbling", help="A joker in the deck lifts all but the leaders.")
    ] = False,
    ranks: Annotated[
        int, typer.Option("--ranks", metavar="N", help="Cards per suit besides the ace.")
    ] = MAX_RANKS,
    book_file: Annotated[
        Path | None,
        typer.Option("--book", metavar="FILE", help="The dealer's price list (TOML)."),
    ] = None,
    redeal: Annotated[
        bool | None,
        typer.Option(
            "--redeal/--no-redeal",
            help="The average's courses follow the redeal rule (default: where it can hold).",
        ),
    ] = None,
    average: Annotated[
        bool | None,
        typer.Option(
            "--average/--no-average",
            help="The book's edge over every legal course (default: on, off with the joker).",
        ),
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option("--max-states", metavar="N", help="Give up past N states."),
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
    exact: Annotated[bool, typer.Option("--exact", help="Exact arithmetic (fractions).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Every bet's exact chance from a course and the cards turned so far, with the fair price
    beside the dealer's price and the house edge of each."""
    with user_errors():
        links = _course(course, course_length, faltering)
        length = len(links)
        needed = length + 1 if need is None else need
        history = parse_cards(turned)
        book = TRADITIONAL_ODDS if book_file is None else load_book_odds(book_file)
        redealing = redeal if redeal is not None else length <= 4 * (ranks - needed) + stumbling
        warning = _redealt(links, needed, ranks) if redealing and not faltering else None
    if warning is not None:  # the table would deal this course again: there is nothing to price
        typer.echo(json.dumps({"redealt": True, "warning": warning}) if as_json else warning)
        return
    with user_errors():
        position = replay_position(
            links, history, need=needed, faltering=faltering, stumbling=stumbling, ranks=ranks
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
        counts = {s: _count(links, s) for s in HORSES}
        priced = book if not faltering else None  # a face-down course cannot be priced
        averaged: AverageEdge | None = None
        if priced is not None and (average if average is not None else not stumbling):
            options = {
                "course_length": length,
                "need": needed,
                "ranks": ranks,
                "redeal": redealing,
                "stumbling": stumbling,
                "book_odds": book,
            }
            averaged = average_book_edge(cards_config(options))
    closed = CLOSED_BOOK if faltering else None
    if as_json:
        data = _json(odds, links, history, needed, priced, counts, averaged, exact, stake)
        if closed is not None:
            data["book_closed"] = closed
        typer.echo(json.dumps(data))
        return
    console = Console(highlight=False)
    shown = " ".join("??" if c is None else card_text(c) for c in links)
    turned_text = f"turned {cards_text(history)}" if history else "no card turned yet"
    console.print(
        f"course {shown} ({length} links, {needed} cards to finish); {turned_text}",
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


def _course(text: str | None, length: int | None, faltering: bool) -> list[Card | None]:
    if text is None:
        if length is None:
            raise ConfigError("give the --course (or, for a face-down one, --course-length)")
        if not faltering:
            raise ConfigError('a face-up course needs its cards: --course "2C 9H ..."')
        return [None] * length
    words = text.replace(",", " ").split()
    links = [None if word in ("??", "?") else parse_card(word) for word in words]
    if not links:
        raise ConfigError("the course has no cards")
    if length is not None and length != len(links):
        raise ConfigError(f"--course-length {length} but the course has {len(links)} cards")
    return links


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
    for suit in HORSES:
        count = _count(links, suit)
        if count > most:
            return (
                f"warning: this course would be redealt at the table: {count} {SUITS[suit]}"
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
            SUITS[s]: render.number(render.fair_odds(p)) for s, p in odds.win.items()
        },
    }
    if book is not None:
        horses: dict[str, Any] = {}
        for suit in HORSES:
            price = book.price(counts[suit])
            kept = None if price is None else render.book_edge(odds.win[suit], price, stake)
            horses[SUITS[suit]] = {
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


# --- table options shared by play and simulate ----------------------------------------------


def _table_options(
    preset: str,
    *,
    players: int | None,
    races: int | None,
    chips: int | None,
    betting: str | None,
    limit: int | None,
    takeout: int | None,
    faltering: bool,
    stumbling: bool,
    course_length: int | None,
    need: int | None,
    redeal: bool | None,
    ranks: int | None,
    book_file: Path | None,
    auctioneer_out: bool,
) -> dict[str, Any]:
    """The options the user gave over the preset's defaults; --races defaults to one per seat,
    and a faltering course turns the redeal off unless asked for."""
    defaults = get_preset(preset).defaults
    options: dict[str, Any] = {}
    seats = players if players is not None else defaults.get("players", 4)
    options["players"] = seats
    options["races"] = races if races is not None else seats
    for name, value in (
        ("starting_chips", chips),
        ("betting", betting),
        ("bet_limit", limit),
        ("takeout", takeout),
        ("course_length", course_length),
        ("need", need),
        ("ranks", ranks),
    ):
        if value is not None:
            options[name] = value
    if course_length is not None and need is None and preset != "scarne":
        options["need"] = course_length + 1
    if course_length is not None and need is None and preset == "scarne":
        options["need"] = course_length
    if faltering:
        options["faltering"] = True
        if betting is None and preset != "calcutta":
            options["betting"] = "tote"
    if stumbling:
        options["stumbling"] = True
    if redeal is not None:
        options["redeal"] = redeal
    elif faltering:
        options["redeal"] = False
    if book_file is not None:
        options["book_odds"] = load_book_odds(book_file)
    if auctioneer_out:
        options["dealer_bids"] = False
    return options


FACE_DOWN_BOOK = (
    "note: a faltering course lies face down, so the dealer's book has no prices to offer;"
    " this table bets on the tote instead (--betting party for fixed prizes)"
)


def _say_why_the_tote(preset: str, faltering: bool, betting: str | None) -> None:
    """A faltering course closes the book: the table says so rather than switch in silence."""
    if faltering and betting is None and preset != "calcutta":
        typer.echo(FACE_DOWN_BOOK)


PlayersOpt = Annotated[int | None, typer.Option("--players", metavar="N", help="Seats (3-12).")]
RacesOpt = Annotated[
    int | None, typer.Option("--races", metavar="N", help="Races (default: one per seat).")
]
ChipsOpt = Annotated[int | None, typer.Option("--chips", metavar="N", help="Starting chips.")]
BettingOpt = Annotated[
    str | None, typer.Option("--betting", metavar="STYLE", help="book, tote or party.")
]
LimitOpt = Annotated[
    int | None, typer.Option("--limit", metavar="N", help="Chips a seat may stake a race.")
]
TakeoutOpt = Annotated[
    int | None, typer.Option("--takeout", metavar="PERCENT", help="The tote's takeout.")
]
FalterOpt = Annotated[
    bool, typer.Option("--faltering", help="Face-down course: first arrival turns a link.")
]
StumbleOpt = Annotated[
    bool, typer.Option("--stumbling", help="A joker lifts every horse but the leaders.")
]
LengthOpt = Annotated[
    int | None, typer.Option("--course-length", metavar="N", help="Cards on the course.")
]
NeedOpt = Annotated[
    int | None, typer.Option("--need", metavar="N", help="Cards of its suit a horse needs.")
]
RedealOpt = Annotated[
    bool | None,
    typer.Option("--redeal/--no-redeal", help="Redeal a course some horse cannot finish."),
]
RanksOpt = Annotated[
    int | None, typer.Option("--ranks", metavar="N", help="Cards per suit besides the ace.")
]
BookOpt = Annotated[
    Path | None, typer.Option("--book", metavar="FILE", help="The dealer's price list (TOML).")
]
AuctioneerOpt = Annotated[
    bool, typer.Option("--auctioneer-out", help="Calcutta: the dealer does not bid.")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", metavar="N", help="Table seed.")]
BotsOpt = Annotated[
    str,
    typer.Option("--bots", metavar="KINDS", help="Bot kinds by seat, e.g. value,favourite,random."),
]


def _play_command(preset: str) -> Callable[..., None]:
    def play_cards(
        players: PlayersOpt = None,
        races: RacesOpt = None,
        chips: ChipsOpt = None,
        betting: BettingOpt = None,
        limit: LimitOpt = None,
        takeout: TakeoutOpt = None,
        faltering: FalterOpt = False,
        stumbling: StumbleOpt = False,
        course_length: LengthOpt = None,
        need: NeedOpt = None,
        redeal: RedealOpt = None,
        ranks: RanksOpt = None,
        book_file: BookOpt = None,
        auctioneer_out: AuctioneerOpt = False,
        seed: SeedOpt = None,
        bots: BotsOpt = DEFAULT_BOTS,
        human: Annotated[
            list[int] | None,
            typer.Option("--human", metavar="SEAT", help="Seat played at the keyboard (1-based)."),
        ] = None,
        names: Annotated[
            str | None, typer.Option("--names", metavar="NAMES", help='e.g. "Ann,Bob,Cy".')
        ] = None,
        speed: Annotated[
            float, typer.Option("--speed", metavar="SECONDS", help="Seconds per card; 0 = fast.")
        ] = 0.3,
        no_animation: Annotated[
            bool, typer.Option("--no-animation", help="Print lines instead of a live board.")
        ] = False,
        record: Annotated[
            Path | None, typer.Option("--record", metavar="FILE", help="Write the game record.")
        ] = None,
    ) -> None:
        with user_errors():
            if betting is not None and preset == "calcutta":
                raise ConfigError("the calcutta preset always auctions the horses")
            options = _table_options(
                preset,
                players=players,
                races=races,
                chips=chips,
                betting=betting,
                limit=limit,
                takeout=takeout,
                faltering=faltering,
                stumbling=stumbling,
                course_length=course_length,
                need=need,
                redeal=redeal,
                ranks=ranks,
                book_file=book_file,
                auctioneer_out=auctioneer_out,
            )
            config = get_preset(preset).config(options)
            _say_why_the_tote(preset, faltering, betting)
            seats = config.players
            check_play_options(seats, human, seed, speed, record)
            kinds = bot_kinds_of(bots, "cards")
            setup = PlaySetup(
                preset=preset,
                config=config,
                seed=fresh_seed() if seed is None else seed,
                names=seat_names(seats, names),
                humans=frozenset(seat - 1 for seat in human or []),
                bots=tuple(kinds[seat % len(kinds)] for seat in range(seats)),
                animate=not no_animation,
                speed=speed,
                record=record,
            )
        code = run_table(setup)
        if code:
            raise typer.Exit(code)

    play_cards.__doc__ = _HELP[preset]
    return play_cards


def _simulate_command(preset: str) -> Callable[..., None]:
    def simulate(
        games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")],
        players: PlayersOpt = None,
        races: RacesOpt = None,
        chips: ChipsOpt = None,
        betting: BettingOpt = None,
        limit: LimitOpt = None,
        takeout: TakeoutOpt = None,
        faltering: FalterOpt = False,
        stumbling: StumbleOpt = False,
        course_length: LengthOpt = None,
        need: NeedOpt = None,
        redeal: RedealOpt = None,
        ranks: RanksOpt = None,
        book_file: BookOpt = None,
        auctioneer_out: AuctioneerOpt = False,
        seed: SeedOpt = None,
        bots: Annotated[
            str | None,
            typer.Option(
                "--bots",
                metavar="KINDS",
                help="Bot kinds by seat, e.g. value,favourite,random; default: blind (every"
                " seat backs a random horse; the compiled kernel plays it), value,favourite,"
                "random at a Calcutta.",
            ),
        ] = None,
        engine: Annotated[
            str,
            typer.Option(
                "--engine",
                help="auto: the compiled kernel when every seat bets blind (book, tote, party),"
                " else the rules engine; kernel; reference: always the rules engine.",
            ),
        ] = "auto",
        workers: Annotated[int, typer.Option("--workers", "-w", help="Processes.")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        with user_errors():
            if betting is not None and preset == "calcutta":
                raise ConfigError("the calcutta preset always auctions the horses")
            options = _table_options(
                preset,
                players=players,
                races=races,
                chips=chips,
                betting=betting,
                limit=limit,
                takeout=takeout,
                faltering=faltering,
                stumbling=stumbling,
                course_length=course_length,
                need=need,
                redeal=redeal,
                ranks=ranks,
                book_file=book_file,
                auctioneer_out=auctioneer_out,
            )
            if not as_json:
                _say_why_the_tote(preset, faltering, betting)
            table_seed = fresh_seed() if seed is None else seed
            chosen = bots if bots is not None else KERNEL_BOT
            if bots is None and (preset == "calcutta" or options.get("betting") == "calcutta"):
                chosen = DEFAULT_BOTS
            kinds = bot_kinds_of(chosen, "cards")
            report = simulate_cards(
                preset, options, games, table_seed, bots=kinds, workers=workers, engine=engine
            )
        if as_json:
            typer.echo(json.dumps(report.to_json()))
            return
        print_simulation(Console(highlight=False), report, seed_given=seed is not None)

    simulate.__doc__ = _HELP[preset]
    return simulate


def print_simulation(console: Console, report: CardsReport, *, seed_given: bool) -> None:
    config = report.config
    note = "" if seed_given else " (drawn; pass --seed to repeat this run)"
    console.print(
        f"{report.preset}: {report.games} games, {report.races} races;"
        f" {config['players']} players, betting {config['betting']}; seed {report.seed}{note}",
        markup=False,
        soft_wrap=True,
    )
    console.print(f"bots: {', '.join(report.bots)}; {report.engine} engine", markup=False)
    wins = Table(
        title="Winners by the horse's course cards: simulated vs exact", title_justify="left"
    )
    for name in ("course cards", "starts", "wins", "win %", "95% CI (Wilson)", "exact %"):
        wins.add_column(name, justify="right")
    for count, tally in report.wins_by_count.items():
        low, high = tally.wilson95()
        exact = report.exact_by_count.get(count)
        wins.add_row(
            str(count),
            str(tally.trials),
            str(tally.successes),
            f"{100 * tally.rate:.2f}%",
            f"{100 * low:.2f}% – {100 * high:.2f}%",
            "-" if exact is None else f"{100 * exact:.2f}%",
        )
    console.print(wins)
    figures = Table(title="Per race and per game", title_justify="left")
    for name in ("figure", "mean", "std dev", "95% CI", "n"):
        figures.add_column(name, justify="right" if name != "figure" else "left")
    rows = [("cards turned per race", report.race_cards)]
    if report.bet_return.count:
        rows += [
            ("book: bettor's return per chip", report.bet_return),
            ("book: exact edge of the bets made", report.bet_edge),
        ]
    if report.pool.count:
        rows.append(("pool per race", report.pool))
    rows.append(("chips not held by a player, at the end", report.unclaimed))
    for label, stats in rows:
        figures.add_row(label, *_mean_cells(stats))
    console.print(figures)
    if report.takeout:
        console.print(f"takeout kept by the bank: {report.takeout} chips", markup=False)
    seats = Table(title="Final chips per seat", title_justify="left")
    for name in ("seat", "bot", "mean", "std dev", "95% CI", "games"):
        seats.add_column(name, justify="right" if name not in ("seat", "bot") else "left")
    for seat, stats in enumerate(report.seat_chips):
        seats.add_row(f"P{seat + 1}", report.bots[seat], *_mean_cells(stats))
    console.print(seats)
    console.print(
        f"{report.elapsed_seconds:.2f} s, {report.workers} worker(s)", style="dim", markup=False
    )


def _mean_cells(stats: RunningStats) -> list[str]:
    interval = stats.ci95()
    return [
        f"{stats.mean:.3f}" if stats.count else "-",
        f"{stats.std:.3f}" if stats.count > 1 else "-",
        f"{interval[0]:.3f} – {interval[1]:.3f}" if interval else "-",
        str(stats.count),
    ]
