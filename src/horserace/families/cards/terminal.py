"""The card race at the terminal: its own options (shared by `play` and `simulate`), the header,
the screen, the keyboard, and the final standings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer

from horserace.core.errors import ConfigError
from horserace.core.rules import Result
from horserace.core.words import counted
from horserace.engine import Agent
from horserace.families.cards.choices import CardsAsker
from horserace.families.cards.odds_command import odds_cards
from horserace.families.cards.rules.config import load_book_odds
from horserace.families.cards.screen import CardsScreen, standings_table
from horserace.families.presets import get_preset
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.options import Opt, declared, renamed
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup, TableTerminal

DEFAULT_BOTS = "value,favourite,random"
PLAIN_WIDTH = 100

# The card race's own options (what `play` and `simulate` offer beside every table's).
cards_options = declared(
    Opt("--races N", int | None, None, "Races (default: one per seat)."),
    Opt("--chips N", int | None, None, "Starting chips."),
    Opt("--betting STYLE", str | None, None, "book, tote, party or calcutta (an auction)."),
    Opt("--limit N", int | None, None, "Chips a seat may stake a race."),
    Opt("--takeout PERCENT", int | None, None, "The tote's takeout."),
    Opt("--faltering", bool, False, "Face-down course: first arrival turns a link."),
    Opt("--stumbling", bool, False, "A joker lifts every horse but the leaders."),
    Opt(
        "--course-joker WHERE",
        str | None,
        None,
        "Stumbling: a joker dealt to the course is discarded (discard) or stays on its link.",
    ),
    Opt("--course-length N", int | None, None, "Cards on the course."),
    Opt("--need N", int | None, None, "Cards of its suit a horse needs."),
    Opt("--redeal/--no-redeal", bool | None, None, "Redeal a course some horse cannot finish."),
    Opt("--ranks N", int | None, None, "Cards per suit besides the ace."),
    Opt("--book FILE", Path | None, None, "The dealer's price list (TOML).", name="book_file"),
    Opt("--auctioneer-out", bool, False, "Calcutta: the dealer does not bid."),
    Opt(
        "--rebid-after-pass",
        bool,
        False,
        "Calcutta: a seat that passed may bid again once somebody bids (by default a pass"
        " leaves the bidding on that horse).",
    ),
)


# table option -> the command-line option that sets it
CARDS_NAMES = {
    "starting_chips": "chips",
    "betting": "betting",
    "bet_limit": "limit",
    "takeout": "takeout",
    "course_length": "course_length",
    "need": "need",
    "ranks": "ranks",
    "course_joker": "course_joker",
}


def check_cards_options(preset: str, given: Mapping[str, Any], defaults: Mapping[str, Any]) -> None:
    """Options that only mean something with another: each refused, with what it needs."""
    if given["chips"] is not None and given["chips"] < 1:
        raise ConfigError(f"--chips must be at least 1, not {given['chips']}")
    betting = given["betting"] or ("tote" if given["faltering"] else defaults.get("betting"))
    betting = betting or "book"
    needs = (
        ("takeout", given["takeout"] is not None, betting == "tote", "--betting tote"),
        ("book", given["book_file"] is not None, betting == "book", "--betting book"),
        ("limit", given["limit"] is not None, betting in ("book", "tote"), "book or tote betting"),
        ("auctioneer-out", given["auctioneer_out"], preset == "calcutta", "the calcutta preset"),
        (
            "rebid-after-pass",
            given["rebid_after_pass"],
            preset == "calcutta",
            "the calcutta preset",
        ),
    )
    for option, used, fits, what in needs:
        if used and not fits:
            raise ConfigError(f"--{option} does not apply to {betting} betting: it needs {what}")
    if given["course_joker"] is not None and not given["stumbling"]:
        raise ConfigError("--course-joker needs --stumbling: only then is there a joker to deal")


def table_options(preset: str, players: int | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options the user gave over the preset's defaults; --races defaults to one per seat,
    and a faltering course turns the redeal off unless asked for."""
    if given["betting"] is not None and preset == "calcutta":
        raise ConfigError("the calcutta preset always auctions the horses")
    defaults = get_preset(preset).defaults
    check_cards_options(preset, given, defaults)
    options: dict[str, Any] = {}
    seats = players if players is not None else defaults.get("players", 4)
    options["players"] = seats
    options["races"] = given["races"] if given["races"] is not None else seats
    options.update(renamed(given, CARDS_NAMES))
    length, faltering = given["course_length"], given["faltering"]
    if length is not None and given["need"] is None:
        options["need"] = length if preset == "scarne" else length + 1
    if faltering:
        options["faltering"] = True
        if given["betting"] is None and preset != "calcutta":
            options["betting"] = "tote"
    if given["stumbling"]:
        options["stumbling"] = True
    if given["redeal"] is not None:
        options["redeal"] = given["redeal"]
    elif faltering:
        options["redeal"] = False
    if given["book_file"] is not None:
        options["book_odds"] = load_book_odds(given["book_file"])
    if given["auctioneer_out"]:
        options["dealer_bids"] = False
    if given["rebid_after_pass"]:
        options["pass_leaves"] = False
    return options


FACE_DOWN_BOOK = (
    "note: a faltering course lies face down, so the dealer's book has no prices to offer;"
    " this table bets on the tote instead (--betting party for fixed prizes)"
)


def say_why_the_tote(preset: str, given: Mapping[str, Any]) -> None:
    """A faltering course closes the book: the table says so rather than switch in silence."""
    if given["faltering"] and given["betting"] is None and preset != "calcutta":
        typer.echo(FACE_DOWN_BOOK)


class CardsTerminal(TableTerminal):
    default_bots = DEFAULT_BOTS
    speed = 0.3
    width = PLAIN_WIDTH
    screen_type = CardsScreen
    options = staticmethod(cards_options)
    odds_command = staticmethod(odds_cards)

    def table_options(
        self, preset: str, players: int | None, given: Mapping[str, Any]
    ) -> dict[str, Any]:
        options = table_options(preset, players, given)
        say_why_the_tote(preset, given)
        return options

    def header(self, setup: TableSetup) -> str:
        config = setup.config
        bots = ", ".join(k for s, k in enumerate(setup.bots) if s not in setup.humans)
        return (
            f"{setup.preset}: {config.players} players, {counted(config.races, 'race')},"
            f" {config.starting_chips} chips each, betting: {config.betting}; bots: {bots}"
        )

    def keyboard(self, seat: int, screen: TableScreen) -> Agent:
        return KeyboardAgent(seat, screen, CardsAsker(screen))

    def finish(self, screen: TableScreen, result: Result) -> None:
        screen.show(standings_table(result, screen.names))
        screen.say(f"chips not held by a player: {result.unclaimed}")


TABLE_TERMINAL = CardsTerminal()
