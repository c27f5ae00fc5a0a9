"""Exact odds of the card race from any public position: every bet a table can take.

`card_odds` (floats) and `exact_card_odds` (Fractions) give the distribution of the finishing
order and its marginals: win, place (first two), show (first three), exacta, trifecta and
superfecta. A position is what everybody at the table can see (`RacePosition`): the course
cards face up, the cards turned so far and the options; with a face-down course the unseen
links are part of the chance. `position_from_cards` replays a history given as card names.

Two methods, checked against each other and against the rules engine in the tests: the closed
form of poly.py for a plain race (face-up course, joker out of play, every runner able
to finish on its own cards), and the dynamic programme of dp.py for everything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from typing import Any, Generic, Literal, TypeVar

from horserace.components.french_deck import JOKER, Card, card_text, is_joker, suit_of
from horserace.core.errors import ConfigError
from horserace.families.cards.odds import dp, poly
from horserace.families.cards.odds.dp import TooManyStates
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.cards.rules.track import (
    RACING_SUITS,
    CardTrack,
    fall_back,
    move_up,
    race_settled,
    stumble,
)

__all__ = [
    "CardOdds",
    "RacePosition",
    "TooManyStates",
    "card_odds",
    "exact_card_odds",
    "position_from_cards",
    "position_of",
]

Number = TypeVar("Number", float, Fraction)
Method = Literal["auto", "dp", "closed"]
MAX_PLACES = 4


@dataclass(frozen=True)
class RacePosition:
    """What the odds depend on, all of it public."""

    need: int
    course_length: int
    faltering: bool
    track: CardTrack
    unseen: tuple[int, ...]  # per suit: cards in the deck or face down on the course
    joker_unseen: bool
    joker_on_links: bool = False  # faltering, course_joker "stays": it may lie face down there

    @property
    def hidden_links(self) -> int:
        return self.course_length - self.track.frontier if self.faltering else 0

    @property
    def deck_left(self) -> int:
        return sum(self.unseen) + int(self.joker_unseen) - self.hidden_links

    def settled(self, places: int) -> bool:
        return race_settled(
            self.track, places, self.unseen, self.joker_unseen, self.need, self.deck_left
        )

    @property
    def plain(self) -> bool:
        """The closed form applies: nothing but the runners' own cards decides the order."""
        track = self.track
        return (
            not self.faltering
            and not self.joker_unseen
            and all(track.positions[s] + self.unseen[s] >= self.need for s in track.standing)
        )


@dataclass(frozen=True)
class CardOdds(Generic[Number]):
    """The finishing order's distribution and every bet's chance. `order` is keyed by the first
    `places` horses (all four from three places on: the last is then known); with fewer places
    the bets that need more are left empty."""

    places: int
    order: dict[tuple[int, ...], Number]
    win: dict[int, Number]
    place: dict[int, Number]  # first or second
    show: dict[int, Number]  # first, second or third
    exacta: dict[tuple[int, int], Number]
    trifecta: dict[tuple[int, int, int], Number]
    superfecta: dict[tuple[int, int, int, int], Number]

    def to_float(self) -> CardOdds[float]:
        def f(table: Mapping[Any, Any]) -> dict[Any, float]:
            return {key: float(value) for key, value in table.items()}

        return CardOdds(
            self.places,
            f(self.order),
            f(self.win),
            f(self.place),
            f(self.show),
            f(self.exacta),
            f(self.trifecta),
            f(self.superfecta),
        )


def _marginals(order: dict[tuple[int, ...], Number], places: int, zero: Number) -> CardOdds[Number]:
    def among(top: int) -> dict[int, Number]:
        if places < top:
            return {}
        return {h: sum((p for o, p in order.items() if h in o[:top]), zero) for h in RACING_SUITS}

    def prefixes(length: int) -> dict[Any, Number]:
        if places < length:
            return {}
        table = {key: zero for key in permutations(RACING_SUITS, length)}
        for key, p in order.items():
            table[key[:length]] += p
        return table

    full: dict[Any, Number] = {}
    if places >= 3:
        for key, p in order.items():
            rest = tuple(h for h in RACING_SUITS if h not in key)
            full[key + rest] = full.get(key + rest, zero) + p
        full = {key: full.get(key, zero) for key in permutations(RACING_SUITS)}
    return CardOdds(
        places,
        full if places >= 3 else dict(order),
        among(1),
        among(2),
        among(3),
        prefixes(2),
        prefixes(3),
        full,
    )


def _orders(
    position: RacePosition, places: int, method: Method, ratio: Any, max_states: int | None
) -> dict[tuple[int, ...], Any]:
    if not 1 <= places <= MAX_PLACES:
        raise ConfigError(f"places must be 1 to {MAX_PLACES}, not {places}")
    track = position.track
    cut = min(places, 3)  # the fourth place is known once three horses are placed
    if method == "closed" and not position.plain:
        raise ConfigError("the closed form needs a face-up course, no joker and able runners")
    if position.settled(places):
        return {track.order[:cut]: ratio(1, 1)}
    if method == "auto" and _interchangeable(position):
        labels, canonical = _relabelled(position)
        if canonical != position:
            cached = _cached_orders(canonical, places, ratio, max_states)
            return {tuple(labels[h] for h in order): p for order, p in cached.items()}
    if method == "closed" or (method == "auto" and position.plain):
        runners = [
            (s, position.need - track.positions[s], position.unseen[s]) for s in track.standing
        ]
        raw = poly.runner_orders(runners, ratio)
        result: dict[tuple[int, ...], Any] = {}
        for order, p in raw.items():
            key = (track.finished + order)[:cut]
            result[key] = result.get(key, 0 * p) + p
        return result
    start: dp.State = (
        track.positions,
        track.standing,
        track.finished,
        track.frontier,
        position.unseen,
        0,
        int(position.joker_unseen),
    )
    return dp.order_distribution(
        start,
        position.need,
        position.course_length,
        position.faltering,
        cut,
        ratio,
        max_states,
        position.joker_on_links,
    )


def _interchangeable(position: RacePosition) -> bool:
    """The suits differ only by their numbers: a face-up course and runners that can all finish
    on their own cards, so no tie is ever broken by the standing order (or the suit order)."""
    track = position.track
    return not position.faltering and all(
        track.positions[s] + position.unseen[s] >= position.need for s in track.standing
    )


def _relabelled(position: RacePosition) -> tuple[tuple[int, ...], RacePosition]:
    """(labels, canonical): the suits renumbered in a fixed order of what distinguishes them
    (finishers first, then by position and unseen cards); labels[new] is the old suit."""
    track = position.track

    def key(suit: int) -> tuple[int, int, int, int]:
        rank = track.finished.index(suit) if suit in track.finished else len(RACING_SUITS)
        return (rank, -track.positions[suit], position.unseen[suit], suit)

    labels = tuple(sorted(RACING_SUITS, key=key))
    new = {old: index for index, old in enumerate(labels)}
    positions = tuple(track.positions[old] for old in labels)
    standing = tuple(sorted((new[s] for s in track.standing), key=lambda s: (-positions[s], s)))
    finished = tuple(new[s] for s in track.finished)
    canonical_track = CardTrack(positions, standing, finished, track.frontier)
    unseen = tuple(position.unseen[old] for old in labels)
    return labels, replace(position, track=canonical_track, unseen=unseen)


@lru_cache(maxsize=512)
def _cached_orders(
    position: RacePosition, places: int, ratio: Any, max_states: int | None
) -> dict[tuple[int, ...], Any]:
    """Positions that are relabellings of each other share one computation (a course's suits
    are interchangeable), kept for the next race that deals the same counts."""
    return _orders(position, places, "auto", ratio, max_states)


def exact_card_odds(
    position: RacePosition,
    places: int = MAX_PLACES,
    method: Method = "auto",
    max_states: int | None = None,
) -> CardOdds[Fraction]:
    """Exact odds as Fractions (each table sums to exactly 1, or 2 and 3 for place and show).
    `max_states` bounds the DP's work (TooManyStates past it)."""
    order = _orders(position, places, method, Fraction, max_states)
    return _marginals(order, places, Fraction(0))


def _float_ratio(a: int, b: int) -> float:
    return a / b


def card_odds(
    position: RacePosition,
    places: int = MAX_PLACES,
    method: Method = "auto",
    max_states: int | None = None,
) -> CardOdds[float]:
    """The same in floats, fast enough to redraw after every card (but see `max_states`)."""
    order = _orders(position, places, method, _float_ratio, max_states)
    return _marginals(order, places, 0.0)


# --- positions ---------------------------------------------------------------------------------


def position_of(state: Any) -> RacePosition:
    """The public position of a rules state or view (rules/cards: CardsState or CardsView)."""
    config: CardsConfig = state.config
    unseen = getattr(state, "unseen")  # noqa: B009 - a method on states, a tuple on views
    if callable(unseen):
        unseen = tuple(unseen(s) for s in RACING_SUITS)
        joker = bool(state.joker_unseen())
    else:
        joker = bool(state.joker_unseen)
    on_links = config.faltering and config.joker_stays
    return RacePosition(
        config.need,
        config.course_length,
        config.faltering,
        state.track,
        tuple(unseen),
        joker,
        on_links,
    )


def position_from_cards(
    course: Sequence[Card | None],
    turned: Sequence[Card],
    *,
    need: int,
    faltering: bool = False,
    stumbling: bool = False,
    joker_discarded: bool = False,
    joker_stays: bool = False,
    ranks: int = 12,
) -> RacePosition:
    """Replay a public history: the course (None for a face-down link), whether the joker was
    turned while dealing it (then discarded, out of the race) and the race cards turned so far,
    in order. With `joker_stays` (`course_joker = "stays"`) a joker dealt to the course lies on
    its link instead, and moves nobody when a faltering horse turns it. Every problem (a card
    twice, a joker on a link where it is discarded, a reached link left unnamed, a card after
    the race was over) is a ConfigError naming it."""
    length = len(course)
    if not 1 <= need <= length + 1:
        raise ConfigError(f"need must be 1 to {length + 1} with a {length}-card course, not {need}")
    seen: set[Card] = set()
    if joker_discarded:
        if not stumbling:
            raise ConfigError("a joker was discarded from the course: that needs stumbling")
        if joker_stays:
            raise ConfigError("a joker dealt to the course stays on its link: none is discarded")
        seen.add(JOKER)
    for link, value in enumerate(course, 1):
        if value is not None and is_joker(value) and not joker_stays:
            raise ConfigError(
                f"course link {link}: a joker dealt to the course is discarded and another card"
                " dealt, so no link holds it"
            )

    def see(value: Card, where: str) -> None:
        if is_joker(value) and not stumbling:
            raise ConfigError(f"{where}: the joker is in the deck only with stumbling")
        if not is_joker(value) and not 2 <= value % 13 + 1 <= ranks + 1:
            raise ConfigError(
                f"{where}: {card_text(value)} is not in the deck (aces are the horses)"
            )
        if value in seen:
            raise ConfigError(f"{where}: {card_text(value)} was already seen")
        seen.add(value)

    for link, value in enumerate(course, 1):
        if value is not None:
            if not faltering:
                see(value, f"course link {link}")
        elif not faltering:
            raise ConfigError(
                f"course link {link} is unknown; only a faltering course is face down"
            )
    on_links = (stumbling, faltering and joker_stays)
    track = CardTrack()
    for index, value in enumerate(turned, 1):
        where = f"turned card {index}"
        see(value, where)
        if _position(track, seen, course, need, faltering, on_links, ranks).settled(MAX_PLACES):
            raise ConfigError(f"{where}: the race was already over")
        if is_joker(value):
            track, _ = stumble(track)
            continue
        suit = suit_of(value)
        if not track.running(suit):
            continue
        track = move_up(track, suit, need)
        spot = track.positions[suit]
        if faltering and track.running(suit) and track.frontier < spot <= length:
            link_card = course[spot - 1]
            if link_card is None:
                raise ConfigError(f"{where}: it reaches link {spot}, so give that link's card")
            see(link_card, f"course link {spot}")
            track = replace(track, frontier=spot)
            if not is_joker(link_card):  # a joker left on its link moves nobody
                track = fall_back(track, suit_of(link_card))
    if faltering:
        for link in range(track.frontier + 1, length + 1):
            if course[link - 1] is not None:
                raise ConfigError(f"course link {link} is still face down: write ?? for it")
    return _position(track, seen, course, need, faltering, on_links, ranks)


def _position(
    track: CardTrack,
    seen: set[Card],
    course: Sequence[Card | None],
    need: int,
    faltering: bool,
    joker: tuple[bool, bool],
    ranks: int,
) -> RacePosition:
    """`joker`: (stumbling, whether an unseen joker may lie on a face-down link)."""
    unseen = tuple(
        ranks - sum(1 for v in seen if not is_joker(v) and suit_of(v) == s) for s in RACING_SUITS
    )
    stumbling, on_links = joker
    unseen_joker = stumbling and not any(is_joker(v) for v in seen)
    return RacePosition(need, len(course), faltering, track, unseen, unseen_joker, on_links)
