"""Table options of the card race, validated across fields, with a plain-data form for records.

Presets (`basic`, `scarne`, `calcutta`) are defaults for these options; every reading of a gap
in the source rules that a table could want the other way is one of them (docs/rules/basic.md).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from horserace.core.errors import ConfigError
from horserace.core.files import read_toml
from horserace.core.options import check_flags, check_whole, known_options, whole_text

MIN_PLAYERS, MAX_PLAYERS = 3, 12
MAX_RANKS = 12  # 2..K in each suit: the aces are the horses
BETTING_STYLES = ("book", "tote", "party", "calcutta")
COURSE_JOKERS = ("discard", "stays")  # stumbling: a joker dealt to the course, discarded or not
MAX_TAKEOUT = 50  # percent


@dataclass(frozen=True)
class BookOdds:
    """The dealer's price list: cards of a suit on the course -> odds `win`-`per` (e.g. 5-1)."""

    name: str
    prices: tuple[tuple[int, int, int], ...]  # (cards on the course, win, per), sorted

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for count, win, per in self.prices:
            for label, value, low in (("count", count, 0), ("odds", win, 1), ("odds", per, 1)):
                if isinstance(value, bool) or not isinstance(value, int) or value < low:
                    raise ConfigError(f"book odds: {label} must be a whole number >= {low}")
            if count in seen:
                raise ConfigError(f"book odds: two prices for {count} course cards")
            seen.add(count)
        if list(self.prices) != sorted(self.prices):
            raise ConfigError("book odds: keep the prices sorted by course count")

    def price(self, count: int) -> tuple[int, int] | None:
        """(win, per) for a horse with `count` cards of its suit on the course, or None."""
        for listed, win, per in self.prices:
            if listed == count:
                return win, per
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "odds": {str(count): f"{win}-{per}" for count, win, per in self.prices},
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "book odds") -> BookOdds:
        odds = data.get("odds")
        if not isinstance(odds, Mapping) or not odds:
            raise ConfigError(f'{source}: needs an [odds] table, e.g. 0 = "1-1"')
        prices: list[tuple[int, int, int]] = []
        for key, value in odds.items():
            count = whole_text(str(key), f"{source}: course count")
            text = str(value).replace(" ", "")
            win_text, dash, per_text = text.partition("-")
            if not dash:
                raise ConfigError(f"{source}: odds {value!r} should look like 5-1")
            prices.append(
                (count, whole_text(win_text, f"{source}: odds"), whole_text(per_text, "odds"))
            )
        name = data.get("name", source)
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"{source}: 'name' must be a non-empty string")
        return cls(name, tuple(sorted(prices)))


def load_book_odds(path: str | Path) -> BookOdds:
    """A price list from a TOML file; every problem is a one-line ConfigError naming the file."""
    return BookOdds.from_mapping(read_toml(path, "odds file"), source=str(path))


def _traditional() -> BookOdds:
    text = resources.files("horserace.families.cards").joinpath("book-odds.toml").read_text("utf-8")
    return BookOdds.from_mapping(tomllib.loads(text), source="traditional odds")


TRADITIONAL_ODDS = _traditional()


@dataclass(frozen=True)
class CardsConfig:
    """Every option of a card-race table. `need` counts links from the gate: 8 means a horse
    crosses the finish after a 7-card course (basic); 6 with a 6-card course means it wins on
    reaching the end (scarne)."""

    players: int = 4
    races: int = 4
    starting_chips: int = 100
    first_dealer: int = 0
    course_length: int = 7
    need: int = 8
    ranks: int = MAX_RANKS  # cards per suit besides the ace (2, 3, ...); fewer = a short pack
    redeal: bool = True
    faltering: bool = False
    stumbling: bool = False
    course_joker: str = "discard"  # stumbling: "stays" leaves a joker dealt there on its link
    betting: str = "book"
    bet_limit: int = 10
    book_odds: BookOdds = TRADITIONAL_ODDS
    takeout: int = 0  # tote: percent of each pool kept by the house
    prizes: tuple[int, ...] = (25, 20, 15)  # party: paid by the bank for 1st, 2nd, 3rd
    dealer_bids: bool = True  # calcutta: the auctioneer may bid too
    pass_leaves: bool = True  # calcutta: a pass leaves the horse's bidding (else: until a bid)
    cut_for_deal: bool = False  # the first dealer is whoever cuts the highest card

    def __post_init__(self) -> None:
        check_whole("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_whole("races", self.races, 1, 10_000)
        check_whole("starting_chips", self.starting_chips, 0, 10**9)
        check_whole("first_dealer", self.first_dealer, 0, self.players - 1)
        check_whole("ranks", self.ranks, 1, MAX_RANKS)
        if self.course_joker not in COURSE_JOKERS:
            raise ConfigError(f"course_joker must be one of {', '.join(COURSE_JOKERS)}")
        # the course holds suit cards only (unless a joker dealt to it stays there), and the
        # race needs at least one more
        check_whole("course_length", self.course_length, 1, 4 * self.ranks - 1 + self.joker_stays)
        check_whole("need", self.need, 1, self.course_length + 1)
        if self.need > self.ranks:
            raise ConfigError(
                f"need {self.need} is more than the {self.ranks} cards of a suit: no horse"
                " could ever finish"
            )
        check_flags(self)
        if self.faltering and self.redeal:
            raise ConfigError(
                "the redeal rule needs a face-up course: with faltering the course lies face"
                " down, so turn redeal off"
            )
        if self.redeal and self.course_length > 4 * (self.ranks - self.need) + self.joker_stays:
            raise ConfigError(
                f"with redeal, a {self.course_length}-card course can never let every horse"
                f" finish (at most {self.ranks - self.need} cards of a suit may lie on it)"
            )
        if self.betting not in BETTING_STYLES:
            raise ConfigError(f"betting must be one of {', '.join(BETTING_STYLES)}")
        if self.faltering and self.betting in ("book", "calcutta"):
            raise ConfigError(
                f"the {'book prices' if self.betting == 'book' else 'Calcutta sells'} horses by"
                " the course cards, which a faltering course hides: bet on the tote or at a party"
            )
        check_whole("bet_limit", self.bet_limit, 1, 10**9)
        check_whole("takeout", self.takeout, 0, MAX_TAKEOUT)
        if not isinstance(self.book_odds, BookOdds):
            raise ConfigError("book_odds must be a price list")
        if not 1 <= len(self.prizes) <= 4:
            raise ConfigError("prizes lists 1 to 4 amounts (1st, 2nd, ...)")
        for prize in self.prizes:
            check_whole("a prize", prize, 0, 10**9)

    @property
    def joker_stays(self) -> bool:
        """A joker dealt to the course lies on its link (else it is discarded, another dealt)."""
        return self.stumbling and self.course_joker == "stays"

    @property
    def deck_size(self) -> int:
        return 4 * self.ranks + (1 if self.stumbling else 0)

    @property
    def redeal_at(self) -> int:
        """Cards of one suit on the course that make its horse unable to finish (basic: 5)."""
        return self.ranks - self.need + 1

    @property
    def bank_funds(self) -> int:
        """Party prizes come from a bank that can pay every seat the first prize every race."""
        if self.betting != "party":
            return 0
        return self.races * self.players * max(self.prizes)


def cards_config(options: Mapping[str, Any]) -> CardsConfig:
    """Options from a CLI, a record or a lobby -> a validated config; unknown keys are errors."""
    values = known_options(options, CardsConfig)
    odds = values.get("book_odds")
    if isinstance(odds, Mapping):
        values["book_odds"] = BookOdds.from_mapping(odds)
    prizes = values.get("prizes")
    if isinstance(prizes, list):
        values["prizes"] = tuple(prizes)
    if "prizes" in values and not isinstance(values["prizes"], tuple):
        raise ConfigError("prizes must be a list of whole numbers, e.g. [25, 20, 15]")
    return CardsConfig(**values)


def price_value(win: int, per: int) -> Fraction:
    """What a winning stake of 1 collects on top of the stake: odds 5-1 -> 5."""
    return Fraction(win, per)
